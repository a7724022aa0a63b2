import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * A ferretería's counter (issue 33, decision 0050): the search ranks by the words typed, so
 * Enter adds the nail, plug and paint the cashier asked for, and refuses when no product holds
 * every word and size; the sale on cuenta corriente then shows as "Cuenta corriente" in the
 * sales report, beside a card in cuotas under its own name.
 */

const SHOTS = process.env.SEARCH_SHOTS_DIR ?? 'test-results/pos-search';

async function create(request: APIRequestContext, user: E2EUser, path: string, data: object) {
  const res = await request.post(`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

const searchBox = (page: Page) => page.getByLabel('Buscar producto o servicio, o escanear código');
const results = (page: Page) => page.getByRole('listbox', { name: 'Resultados' }).getByRole('option');

// By name, the wrong item of each case sorts first; the barcodes hold the digits typed.
const CATALOGUE = [
  { nombre: 'Clavo punta paris 1 1/2"', codigo_barras: '7790000000112', precio_venta: 2500 },
  { nombre: 'Clavo punta paris 2"', codigo_barras: '7790000000020', precio_venta: 2800 },
  { nombre: 'Clavo punta paris 2 1/2"', codigo_barras: '7790000000212', precio_venta: 3000 },
  { nombre: 'Tarugo Fischer 6 mm', codigo_barras: '7791000000088', precio_venta: 900 },
  { nombre: 'Tarugo Fischer 8 mm', codigo_barras: '7791000000801', precio_venta: 1100 },
  { nombre: 'Látex interior Alba 20 L', codigo_barras: '7792000000204', precio_venta: 98000 },
  { nombre: 'Látex interior Alba 4 L', codigo_barras: '7792000000040', precio_venta: 24000 },
];

test('the POS search adds what was typed, refuses what no product holds, and the report names cuenta corriente', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const owner = await createUser(request, 'Ferre');
  const businessId = await createBusiness(request, owner, 'Ferretería El Tornillo');
  const b = `/businesses/${businessId}`;
  const auth = { authorization: `Bearer ${owner.token}` };
  for (const p of CATALOGUE) await create(request, owner, `${b}/products`, { ...p, stock_actual: 100 });
  await create(request, owner, `${b}/clientes`, { nombre: 'Rosa', apellido: 'Gómez', limite_credito: 500000 });
  // A card in three payments with its surcharge, sold earlier today.
  const cuotas = await create(request, owner, `${b}/medios-pago`, {
    nombre: 'Crédito 3 cuotas',
    tipo: 'credito',
    ajuste_porcentaje: 15,
  });
  const [caja] = await (await request.get(`/api/v1${b}/cajas`, { headers: auth })).json();
  const products = await (await request.get(`/api/v1${b}/products`, { headers: auth })).json();
  await create(request, owner, '/ventas/record-sale', {
    negocio_id: businessId,
    turno_id: caja.turno_abierto.id,
    pagos: [{ medio_pago_id: cuotas.id, monto: 98000 }],
    items: [{ id: products.find((p: { nombre: string }) => p.nombre.endsWith('20 L')).id, cantidad: 1 }],
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, owner, businessId);
  await page.goto('/pos');
  await expect(searchBox(page)).toBeVisible({ timeout: 60_000 });

  // 1. clavo 2" + Enter adds the 2" nail, not the 1 1/2" the name order puts first.
  await searchBox(page).fill('clavo 2"');
  await expect(results(page).first()).toContainText('Clavo punta paris 2"', { timeout: 30_000 });
  await expect(results(page)).toHaveCount(3);
  await searchBox(page).press('Enter');
  await expect(page.getByLabel('Cantidad de Clavo punta paris 2"')).toHaveValue('1');
  await expect(page.getByLabel('Cantidad de Clavo punta paris 1 1/2"')).toHaveCount(0);

  // 2. Tarugo Fischer 8 lists 8 mm first (the 6 mm's barcode holds an 8).
  await searchBox(page).fill('Tarugo Fischer 8');
  await expect(results(page).first()).toContainText('Tarugo Fischer 8 mm', { timeout: 30_000 });
  await expect(results(page).nth(1)).toContainText('Tarugo Fischer 6 mm');
  for (const [w, h] of [
    [1440, 900],
    [1024, 768],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/pos-search-${w}x${h}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await searchBox(page).press('Enter');
  await expect(page.getByLabel('Cantidad de Tarugo Fischer 8 mm')).toHaveValue('1');

  // 3. Látex interior Alba 4 lists and adds 4 L, not 20 L.
  await searchBox(page).fill('Látex interior Alba 4');
  await expect(results(page).first()).toContainText('Látex interior Alba 4 L', { timeout: 30_000 });
  await searchBox(page).press('Enter');
  await expect(page.getByLabel('Cantidad de Látex interior Alba 4 L')).toHaveValue('1');

  // 4. No plug is 10 mm (only barcodes contain a 10): both are listed, Enter refuses and adds nothing.
  await searchBox(page).fill('tarugo fischer 10');
  await expect(results(page)).toHaveText([/Tarugo Fischer 6 mm/, /Tarugo Fischer 8 mm/], { timeout: 30_000 });
  await searchBox(page).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Ningún producto tiene todo lo que escribiste' })).toHaveText(
    'Ningún producto tiene todo lo que escribiste («tarugo fischer 10»): no se agregó nada. Elegí uno de la lista con las flechas o corregí la búsqueda.',
    { timeout: 30_000 },
  );
  await expect(page.getByRole('list', { name: 'Ítems del carrito' }).getByRole('listitem')).toHaveCount(3);
  // The words come back to the box, the list open to choose from with the arrows.
  await expect(searchBox(page)).toHaveValue('tarugo fischer 10');
  await expect(results(page)).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/pos-search-refused-1440x900.png` });
  await searchBox(page).press('Escape');
  await expect(results(page)).toHaveCount(0);

  // On account for Rosa.
  await page.getByRole('radio', { name: 'Cuenta corriente' }).click();
  const cliente = page.getByRole('combobox', { name: /Cliente/ });
  await cliente.fill('rosa');
  await cliente.press('Enter');
  await expect(page.getByTestId('pos-fiado')).toContainText(/Saldo actual/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cobrar $ 27.900,00' }).click();
  const done = page.getByRole('dialog', { name: /Venta #\d+ registrada/ });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await done.getByRole('button', { name: 'Nueva venta' }).click();

  // The report names each medio as configured.
  await page.goto('/reports');
  // The card around its heading (the innermost element holding it).
  const card = page
    .locator('div')
    .filter({ has: page.getByRole('heading', { name: 'Por medio de pago' }) })
    .last();
  await expect(card).toContainText('Cuenta corriente', { timeout: 60_000 });
  await expect(card).toContainText('Crédito 3 cuotas');
  await expect(card).not.toContainText('Otro');
  await expect(card).not.toContainText('Tarjeta de Crédito');
  // The sales list names each sale's medio too.
  await expect(page.getByRole('cell', { name: 'Cuenta corriente', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('cell', { name: 'Crédito 3 cuotas', exact: true })).toBeVisible();
  for (const [w, h] of [
    [1440, 900],
    [1024, 768],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/report-medios-${w}x${h}.png` });
  }
});
