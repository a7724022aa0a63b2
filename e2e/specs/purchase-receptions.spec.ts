import { expect, test, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn } from '../support/session';

const SHOTS = process.env.SHOTS_DIR;
const SIZES = [
  { name: '1366', width: 1366, height: 768 },
  { name: '1024', width: 1024, height: 768 },
  { name: '375', width: 375, height: 812 },
];

/** Screenshots of the screen as it is now at the three sizes, when SHOTS_DIR asks for them. */
async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const s of SIZES) {
    await page.setViewportSize({ width: s.width, height: s.height });
    await page.screenshot({ path: `${SHOTS}/${name}-${s.name}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 768 });
}

test('purchases: receive part of an order, see it pending, receive the rest at a higher cost and accept one suggested price', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Recepcion');
  const businessId = await createBusiness(request, owner, 'Almacén Recepción');
  const headers = { authorization: `Bearer ${owner.token}` };
  const api = `/api/v1/businesses/${businessId}`;
  const ids: Record<string, string> = {};
  for (const p of [
    { nombre: 'Yerba mate 1 kg', precio_compra: 2800, precio_venta: 4000 },
    { nombre: 'Azúcar 1 kg', precio_compra: 850, precio_venta: 1200 },
    { nombre: 'Aceite 1,5 l', precio_compra: 2600, precio_venta: 3650 },
  ]) {
    const res = await request.post(`${api}/products`, { data: p, headers });
    expect(res.status()).toBe(201);
    ids[p.nombre] = (await res.json()).id;
  }
  // The oil has its own margin rule (50 %); the others keep the margin they had.
  const regla = await request.put(`${api}/reglas-margen`, {
    headers,
    data: { producto_id: ids['Aceite 1,5 l'], margen: 50 },
  });
  expect(regla.status()).toBe(200);
  // Yerba comes at the same cost; sugar and oil cost more than before.
  const compra = await request.post(`${api}/compras`, {
    headers,
    data: {
      proveedor_nombre: 'Distribuidora Sur',
      items: [
        { producto_id: ids['Yerba mate 1 kg'], cantidad: 10, precio_unitario: 2800 },
        { producto_id: ids['Azúcar 1 kg'], cantidad: 6, precio_unitario: 1000 },
        { producto_id: ids['Aceite 1,5 l'], cantidad: 4, precio_unitario: 3000 },
      ],
    },
  });
  expect(compra.status()).toBe(201);
  const { id: compraId, numero } = await compra.json();
  const productNow = async (nombre: string) =>
    (await (await request.get(`${api}/products/${ids[nombre]}`, { headers })).json()) as {
      stock_actual: number;
      precio_compra: number;
      precio_venta: number;
    };

  await signIn(page, owner, businessId);
  await page.goto(`/compras/${compraId}`);
  await expect(page.getByRole('heading', { name: `Compra #${numero}` })).toBeVisible();

  // Only 4 of the 10 yerbas arrive.
  await page.getByRole('button', { name: 'Recibir en partes' }).click();
  const dialog = page.getByRole('dialog', { name: `Recibir mercadería · Compra #${numero}` });
  await expect(dialog.getByText('faltan 10')).toBeVisible();
  await shots(page, 'recepcion-dialogo');
  await dialog.getByLabel('Yerba mate 1 kg').fill('12');
  await dialog.getByRole('button', { name: 'Registrar recepción' }).click();
  await expect(dialog.getByText('Faltan 10: no podés recibir más.')).toBeVisible();
  await dialog.getByLabel('Yerba mate 1 kg').fill('4');
  await dialog.getByLabel('Yerba mate 1 kg').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Recepción 1 registrada. Faltan 3 productos por recibir.')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Compra #${numero}` })).toContainText('Recibida parcialmente');
  const table = page.getByRole('table', { name: `Productos de la compra #${numero}` });
  await expect(table.getByRole('row').filter({ hasText: 'Yerba' })).toContainText('Recibido 4 · faltan 6');
  await expect(table.getByRole('row').filter({ hasText: 'Azúcar' })).toContainText('Recibido 0 · faltan 6');
  await expect(page.getByRole('list', { name: 'Recepciones de la compra' })).toContainText('Yerba mate 1 kg: 4');
  expect(await productNow('Yerba mate 1 kg')).toMatchObject({ stock_actual: 4 });
  expect(await productNow('Azúcar 1 kg')).toMatchObject({ stock_actual: 0, precio_compra: 850 });
  // Received in part: it cannot be cancelled nor deleted.
  await expect(page.getByRole('button', { name: 'Cancelar compra' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0);
  await shots(page, 'recepcion-parcial');

  // The list shows it pending.
  await page.getByRole('link', { name: 'Órdenes de compra' }).first().click();
  const row = page.getByRole('row').filter({ hasText: `Compra #${numero}` });
  await expect(row).toContainText('Recibida parcialmente');
  await expect(row).toContainText('Faltan 3 productos');
  await shots(page, 'recepcion-lista');

  // The rest arrives; sugar and oil cost more, so their prices are suggested.
  await row.getByRole('link', { name: `Compra #${numero}` }).click();
  await page.getByRole('button', { name: 'Recibir lo pendiente' }).click();
  await dialog.getByRole('button', { name: 'Todo lo pendiente' }).click();
  await expect(dialog.getByLabel('Azúcar 1 kg')).toHaveValue('6');
  await dialog.getByRole('button', { name: 'Registrar recepción' }).click();
  await expect(page.getByText(`Recepción 2 registrada: la compra #${numero} quedó recibida.`)).toBeVisible();
  const sug = page.getByRole('dialog', { name: 'Subió el costo: ¿actualizás los precios?' });
  await expect(sug).toBeVisible();
  const azucar = sug.getByRole('listitem').filter({ hasText: 'Azúcar 1 kg' });
  // 1200 × 1000 ÷ 850 = 1411,76 keeps the 41,18 % margin; the oil's rule: 3000 + 50 % = 4500.
  await expect(azucar).toContainText('$ 850,00');
  await expect(azucar).toContainText('$ 1.000,00');
  await expect(azucar).toContainText('$ 1.411,76');
  await expect(azucar).toContainText('41,18 %');
  await expect(azucar).toContainText('El que tenía');
  const aceite = sug.getByRole('listitem').filter({ hasText: 'Aceite 1,5 l' });
  await expect(aceite).toContainText('$ 4.500,00');
  await expect(aceite).toContainText('50 %');
  await expect(aceite).toContainText('Del producto');
  await expect(sug.getByRole('listitem').filter({ hasText: 'Yerba' })).toHaveCount(0);
  await expect(sug.getByRole('button', { name: 'Aplicar precios' })).toBeDisabled();
  // "Aplicar a todos" ticks both; the user keeps only the sugar.
  await sug.getByLabel('Aplicar a todos').check();
  await expect(sug.getByRole('button', { name: 'Aplicar 2 precios' })).toBeEnabled();
  await sug.getByLabel('Aplicar a todos').uncheck();
  await sug.getByLabel('Aplicar el precio sugerido a Azúcar 1 kg').check();
  await shots(page, 'recepcion-sugerencias');
  await sug.getByRole('button', { name: 'Aplicar 1 precio' }).click();
  await expect(sug).toBeHidden();
  await expect(page.getByText('Se actualizó 1 precio.')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Compra #${numero}` })).toContainText('Recibida');

  expect(await productNow('Azúcar 1 kg')).toMatchObject({
    stock_actual: 6,
    precio_compra: 1000,
    precio_venta: 1411.76,
  });
  expect(await productNow('Aceite 1,5 l')).toMatchObject({ stock_actual: 4, precio_compra: 3000, precio_venta: 3650 });
  expect(await productNow('Yerba mate 1 kg')).toMatchObject({ stock_actual: 10, precio_venta: 4000 });

  // The oil's suggestion is still there to apply later, from the reception.
  await page.getByRole('button', { name: 'Precios sugeridos' }).nth(1).click();
  await expect(sug.getByRole('listitem').filter({ hasText: 'Aceite 1,5 l' })).toBeVisible();
  await expect(sug.getByRole('listitem').filter({ hasText: 'Azúcar' })).toHaveCount(0);
  await shots(page, 'recepcion-final');
  await sug.getByRole('button', { name: 'Ahora no' }).click();
  await expect(sug).toBeHidden();
});

test('purchases: "Marcar como recibida" offers the suggested prices, and "Aplicar a todos" applies every one', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Recibida');
  const businessId = await createBusiness(request, owner, 'Kiosco Recibida');
  const headers = { authorization: `Bearer ${owner.token}` };
  const api = `/api/v1/businesses/${businessId}`;
  const ids: string[] = [];
  for (const p of [
    { nombre: 'Alfajor', precio_compra: 500, precio_venta: 900 },
    { nombre: 'Chicle', precio_compra: 100, precio_venta: 250 },
  ]) {
    const res = await request.post(`${api}/products`, { data: p, headers });
    ids.push((await res.json()).id);
  }
  const compra = await request.post(`${api}/compras`, {
    headers,
    data: {
      items: [
        { producto_id: ids[0], cantidad: 24, precio_unitario: 600 },
        { producto_id: ids[1], cantidad: 50, precio_unitario: 120 },
      ],
    },
  });
  const { id: compraId, numero } = await compra.json();

  await signIn(page, owner, businessId);
  await page.goto(`/compras/${compraId}`);
  await page.getByRole('button', { name: 'Marcar como recibida' }).click();
  await page
    .getByRole('dialog', { name: 'Marcar como recibida' })
    .getByRole('button', { name: 'Sí, la recibe' })
    .click();
  await expect(page.getByText(`Compra #${numero} recibida: stock y costos actualizados.`)).toBeVisible();
  await expect(
    page.getByText('Subió el costo de 2 productos: hay precios sugeridos que mantienen su margen.'),
  ).toBeVisible();
  await shots(page, 'recibida-oferta');
  await page.getByRole('button', { name: 'Ver precios sugeridos' }).click();
  const sug = page.getByRole('dialog', { name: 'Subió el costo: ¿actualizás los precios?' });
  // 900 × 600 ÷ 500 = 1080; 250 × 120 ÷ 100 = 300.
  await expect(sug.getByRole('listitem').filter({ hasText: 'Alfajor' })).toContainText('$ 1.080,00');
  await expect(sug.getByRole('listitem').filter({ hasText: 'Chicle' })).toContainText('$ 300,00');
  await sug.getByLabel('Aplicar a todos').check();
  await sug.getByRole('button', { name: 'Aplicar 2 precios' }).click();
  await expect(page.getByText('Se actualizaron 2 precios.')).toBeVisible();
  for (const [id, precio] of [
    [ids[0], 1080],
    [ids[1], 300],
  ] as const) {
    const p = await (await request.get(`${api}/products/${id}`, { headers })).json();
    expect(p.precio_venta).toBe(precio);
  }
  // Applied: the reception has nothing left to suggest.
  await page.getByRole('button', { name: 'Precios sugeridos' }).click();
  await expect(page.getByText('La recepción 1 no tiene precios para actualizar.')).toBeVisible();
});
