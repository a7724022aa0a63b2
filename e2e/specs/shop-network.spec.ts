import { expect, request as playwrightRequest, test } from '@playwright/test';
import config, { PORT } from '../playwright.config';
import { createBusiness, createUser, PASSWORD, uniqueEmail } from '../support/session';

// The counter PC opens the back-room PC by a name of the shop's network over plain HTTP: not
// localhost, so the browser treats it as an ordinary insecure origin (no HTTPS upgrade exemption,
// no crypto.randomUUID).
const HOST = 'tienda.local';
const shop = `http://${HOST}:${PORT}`;
const launch = config.use?.launchOptions ?? {};

test.use({
  baseURL: shop,
  launchOptions: { ...launch, args: [...(launch.args ?? []), `--host-resolver-rules=MAP ${HOST} 127.0.0.1`] },
});

test('from another PC of the shop over plain HTTP: the app loads, logs in and records a sale at the POS', async ({
  page,
}) => {
  // Fixtures through the API from this process, which does not know the shop's host name.
  const request = await playwrightRequest.newContext({ baseURL: `http://localhost:${PORT}` });
  const owner = await createUser(request, 'Rocío', uniqueEmail('rocio'));
  const businessId = await createBusiness(request, owner, 'Almacén Rocío');
  const product = await request.post(`/api/v1/businesses/${businessId}/products`, {
    data: { nombre: 'Alfajor de maicena', codigo: 'ALF001', precio_venta: 1200, stock_actual: 10, unidad: 'unidad' },
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(product.status(), await product.text()).toBe(201);

  const insecure: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith('https:')) insecure.push(r.url());
  });
  const response = await page.goto('/login');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['strict-transport-security']).toBeUndefined();
  expect(response?.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
  expect(new URL(page.url()).host).toBe(`${HOST}:${PORT}`);

  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).not.toHaveURL(/\/login/);

  await page.goto('/pos');
  await expect(page.getByRole('heading', { name: 'Punto de venta' })).toBeVisible();
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially('ALF001');
  await search.press('Enter');
  await expect(
    page.getByRole('list', { name: 'Ítems del carrito' }).getByRole('listitem', { name: 'Alfajor de maicena' }),
  ).toBeVisible();
  await page.getByLabel('Paga con ($)').fill('2000');
  await page.keyboard.press('F9');
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible();
  await expect(done.getByRole('article', { name: 'Ticket de la venta #1' })).toContainText('$ 1.200,00');

  const sales = await request.get(`/api/v1/businesses/${businessId}/ventas/sales`, {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect((await sales.json()).ventas).toHaveLength(1);
  expect(insecure).toEqual([]);
  await request.dispose();
});
