import { expect, test } from '@playwright/test';
import { createBusiness, createUser, PASSWORD, signIn, uniqueEmail } from '../support/session';

test('the dashboard shows skeletons while its answers are slow, never "no permission" or "no sales" before it knows', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Lenta');
  const businessId = await createBusiness(request, owner, 'Almacén Lento');
  const auth = { authorization: `Bearer ${owner.token}` };
  const product = await (
    await request.post(`/api/v1/businesses/${businessId}/products`, {
      headers: auth,
      data: { nombre: 'Fideos', precio_venta: 1200, stock_actual: 10 },
    })
  ).json();
  const sale = await request.post('/api/v1/ventas/record-sale', {
    headers: auth,
    data: {
      negocio_id: businessId,
      metodo_pago: 'efectivo',
      items: [{ id: product.id, tipo: 'producto', cantidad: 1 }],
    },
  });
  expect(sale.status()).toBe(201);

  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  // The business list too: until it answers, the permissions and the figures cannot even be asked.
  for (const pattern of [
    /\/api\/v1\/businesses\/?(\?.*)?$/,
    '**/api/v1/businesses/*/permissions',
    '**/api/v1/ventas/dashboard-stats-v2**',
  ]) {
    await page.route(pattern, async (route) => {
      await held;
      await route.continue();
    });
  }
  await signIn(page, owner, businessId);
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Inicio' })).toBeVisible();
  await expect(page).toHaveTitle('Inicio · Mostrador');
  await expect(page.locator('.animate-pulse').first()).toBeVisible();
  await expect(page.getByText(/No tenés permiso para ver las ventas/)).toHaveCount(0);
  await expect(page.getByText('Todavía no hay ventas en este período')).toHaveCount(0);
  await expect(page.getByText('No hay ventas registradas')).toHaveCount(0);
  await expect(page.getByText('Sin negocio')).toHaveCount(0);

  release();
  await expect(page.getByText('Venta #1')).toBeVisible();
  await expect(page.getByText('Fideos')).toBeVisible();
  await expect(page.getByText(/No tenés permiso para ver las ventas/)).toHaveCount(0);
});

test('signing up where no e-mail confirmation is needed leaves the new user logged in', async ({ page }) => {
  await page.goto('/register');
  await expect(page).toHaveTitle('Crear cuenta · Mostrador');
  await page.getByLabel('Nombre').fill('Irene');
  await page.getByLabel('Apellido').fill('Sosa');
  await page.getByLabel('E-mail').fill(uniqueEmail('irene'));
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Creá tu primer negocio' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('mostrador.token'))).toBeTruthy();
});

test('after a dialog closes, focus goes back to what opened it', async ({ page, request }) => {
  const owner = await createUser(request, 'Foco');
  const businessId = await createBusiness(request, owner, 'Kiosco Foco');
  await signIn(page, owner, businessId);
  await page.goto('/customers');
  await expect(page).toHaveTitle('Clientes · Mostrador');
  const nuevo = page.getByRole('button', { name: 'Nuevo cliente' }).first();
  await nuevo.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Nuevo cliente' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(nuevo).toBeFocused();

  // Saved through the dialog: focus is back on the button too.
  await nuevo.click();
  await dialog.getByLabel('Nombre').fill('Rosa');
  await dialog.getByRole('button', { name: /Guardar|Crear/ }).click();
  await expect(dialog).toHaveCount(0);
  await expect(nuevo).toBeFocused();
});
