import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/** Where the screenshots of the new screens go (3 sizes each), when set. */
const SHOTS = process.env.DEPOSITOS_SCREENSHOT;

async function api(request: APIRequestContext, user: E2EUser, method: 'get' | 'post', path: string, data?: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [w, h, size] of [
    [1440, 900, 'desktop'],
    [1024, 768, 'tablet'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

const row = (page: Page, nombre: string) =>
  page.getByRole('table', { name: 'Productos' }).getByRole('row').filter({ hasText: nombre });

test('a second sucursal with its depósito: a transfer sent and received with a difference, a sale from its caja, the stock exact on screen', async ({
  page,
  request,
}) => {
  test.slow();
  const owner = await createUser(request, 'Duena');
  const businessId = await createBusiness(request, owner, 'Almacén Dos Locales', { turno: false });
  const b = `/businesses/${businessId}`;
  await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Yerba mate 1 kg',
    codigo: 'YER001',
    precio_venta: 4000,
    stock_actual: 10,
  });
  await signIn(page, owner, businessId);

  // 1) Inventario → Sucursales y depósitos: a second sucursal and its depósito.
  await page.goto('/sucursales');
  await expect(page.getByRole('heading', { name: 'Sucursales y depósitos' })).toBeVisible();
  await expect(page.getByText('Tenés un solo depósito')).toBeVisible();
  await page.getByRole('button', { name: 'Nueva sucursal' }).click();
  const nueva = page.getByRole('dialog', { name: 'Nueva sucursal' });
  await nueva.getByLabel('Nombre').fill('Sucursal Norte');
  await nueva.getByLabel('Dirección').fill('Av. Mitre 500');
  await nueva.getByLabel('Dirección').press('Enter');
  await expect(page.getByText('Sucursal «Sucursal Norte» creada.')).toBeVisible();
  const norte = page
    .getByRole('list', { name: 'Sucursales' })
    .getByRole('listitem')
    .filter({ hasText: 'Av. Mitre 500' });
  await norte.getByRole('button', { name: 'Agregar depósito' }).click();
  const dep = page.getByRole('dialog', { name: 'Nuevo depósito en Sucursal Norte' });
  await dep.getByLabel('Nombre').fill('Depósito Norte');
  await dep.getByRole('button', { name: 'Crear' }).click();
  await expect(norte.getByRole('list', { name: 'Depósitos de Sucursal Norte' })).toContainText('Depósito Norte');
  await expect(page.getByText('Tenés un solo depósito')).toHaveCount(0);
  await shots(page, 'sucursales');

  // 2) Its caja: Caja → Nueva caja, in Sucursal Norte.
  await page.goto('/caja');
  await page.getByRole('button', { name: 'Nueva caja' }).click();
  const caja = page.getByRole('dialog', { name: 'Nueva caja' });
  await caja.getByLabel('Nombre').fill('Caja Norte');
  await caja.getByLabel('Sucursal').selectOption({ label: 'Sucursal Norte' });
  await caja.getByRole('button', { name: 'Crear caja' }).click();
  await expect(caja).toBeHidden();
  await expect(page.getByText('Sucursal: Sucursal Norte')).toBeVisible();

  // 3) A transfer of 6 to the Norte depósito: the stock leaves the principal at once.
  await page.goto('/transferencias');
  await page.getByRole('button', { name: 'Nueva transferencia' }).click();
  const tr = page.getByRole('dialog', { name: 'Nueva transferencia' });
  await tr.getByLabel('Hacia').selectOption({ label: 'Depósito Norte (Sucursal Norte)' });
  await tr.getByLabel('Buscar un producto').pressSequentially('Yerba');
  await tr.getByRole('button', { name: /Yerba mate 1 kg/ }).click();
  await tr.getByLabel('Cantidad de Yerba mate 1 kg').fill('6');
  await shots(page, 'nueva-transferencia');
  await tr.getByRole('button', { name: 'Enviar transferencia' }).click();
  await expect(page.getByText('Transferencia #1 enviada: el stock ya salió de Depósito principal.')).toBeVisible();
  const card = page.getByRole('list', { name: 'Transferencias' }).getByRole('listitem').first();
  await expect(card).toContainText('En tránsito');
  await shots(page, 'transferencias');

  // Received: 5 of the 6 arrived.
  await card.getByRole('button', { name: 'Recibir' }).click();
  const rec = page.getByRole('dialog', { name: 'Recibir transferencia #1' });
  await rec.getByLabel('Cantidad recibida de Yerba mate 1 kg').fill('5');
  await rec.getByRole('button', { name: 'Confirmar recepción' }).click();
  await expect(card).toContainText('Recibida con diferencias');
  await expect(card).toContainText('5 de 6');
  await expect(card).toContainText('faltan 1');
  await shots(page, 'transferencia-recibida');

  // 4) A sale of 2 at the Norte caja's turno takes them from the Norte depósito.
  const cajas = await api(request, owner, 'get', `${b}/cajas`);
  const cajaNorte = cajas.find((c: { nombre: string }) => c.nombre === 'Caja Norte');
  await api(request, owner, 'post', `${b}/cajas/${cajaNorte.id}/turnos`, { fondo_inicial: 0 });
  await page.goto('/pos');
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially('2*YER001');
  await search.press('Enter');
  await page.getByRole('button', { name: 'Cobrar $ 8.000,00' }).click();
  await expect(page.getByRole('dialog', { name: 'Venta #1 registrada' })).toBeVisible();

  // 5) The stock on screen: 7 in all (10 − 6 + 5 − 2), 4 in the principal, 3 in Norte.
  await page.goto('/products-and-services');
  await expect(row(page, 'Yerba mate 1 kg')).toContainText('7unidad');
  const filtro = page.getByLabel('Depósito');
  await filtro.selectOption({ label: 'Depósito Norte' });
  await expect(row(page, 'Yerba mate 1 kg')).toContainText('3unidad');
  await filtro.selectOption({ label: 'Depósito principal' });
  await expect(row(page, 'Yerba mate 1 kg')).toContainText('4unidad');
  await row(page, 'Yerba mate 1 kg').getByRole('button', { name: 'Acciones de Yerba mate 1 kg' }).click();
  await page.getByRole('menuitem', { name: 'Historial de stock' }).click();
  const porDeposito = page
    .getByRole('dialog', { name: 'Historial de stock' })
    .getByRole('region', { name: 'Stock por depósito' });
  await expect(porDeposito).toContainText('Depósito principal4 unidad');
  await expect(porDeposito).toContainText('Depósito Norte3 unidad');
  await shots(page, 'stock-por-deposito');
});
