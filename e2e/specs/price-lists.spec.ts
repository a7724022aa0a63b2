import { expect, test, type APIRequestContext } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

async function create(request: APIRequestContext, user: E2EUser, path: string, data: object) {
  const res = await request.post(`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

test('a Mayorista list created on screen prices a mayorista customer’s sale at the counter, and the owner can switch it back', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Hugo');
  const businessId = await createBusiness(request, owner, 'Ferretería Hugo');
  await create(request, owner, `/businesses/${businessId}/products`, {
    nombre: 'Martillo carpintero',
    precio_venta: 15000,
    stock_actual: 20,
  });
  await signIn(page, owner, businessId);

  // Productos y servicios → Listas de precios: Mayorista, 10 % under Minorista.
  await page.goto('/products-and-services?tab=listas');
  await expect(page.getByText('Todavía no hay listas de precios')).toBeVisible();
  await page.getByRole('button', { name: 'Nueva lista' }).click();
  const form = page.getByRole('dialog', { name: 'Nueva lista de precios' });
  await form.getByLabel('Nombre').fill('Mayorista');
  await form.getByLabel('Porcentaje (%)').fill('-10');
  await form.getByRole('button', { name: 'Crear lista' }).click();
  await expect(page.getByText('Se creó la lista «Mayorista».')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Listas de precios' })).toContainText('10 % menos que Minorista');

  // The products list shows each list's price.
  await page.getByRole('tab', { name: 'Productos' }).click();
  await expect(page.getByLabel('Precios por lista').first()).toContainText('Mayorista: $ 13.500,00');

  // A customer with Mayorista as their list.
  await page.goto('/customers');
  await page.getByRole('button', { name: 'Nuevo cliente' }).first().click();
  const cli = page.getByRole('dialog', { name: 'Nuevo cliente' });
  await cli.getByLabel('Nombre').first().fill('Constructora Sur');
  await cli.getByLabel('Lista de precios').selectOption({ label: 'Mayorista' });
  await cli.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(cli).toHaveCount(0);

  // At the counter: the customer's list prices the cart.
  await page.goto('/pos');
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially('Martillo');
  await search.press('Enter');
  const cart = page.getByRole('list', { name: 'Ítems del carrito' });
  await expect(cart).toContainText('$ 15.000,00');
  const cliente = page.getByRole('combobox', { name: /Cliente/ });
  await cliente.pressSequentially('Constructora');
  await page
    .getByRole('listbox', { name: 'Clientes' })
    .getByRole('option', { name: /Constructora Sur/ })
    .click();
  await expect(page.getByLabel('Lista de precios')).toHaveValue(/.+/);
  await expect(cart).toContainText('$ 13.500,00');

  // The owner may switch to Minorista and back.
  await page.getByLabel('Lista de precios').selectOption({ label: 'Minorista' });
  await expect(cart).toContainText('$ 15.000,00');
  await expect(page.getByText('El cliente tiene Mayorista.')).toBeVisible();
  await page.getByLabel('Lista de precios').selectOption({ label: 'Mayorista' });
  await expect(cart).toContainText('$ 13.500,00');

  await page.keyboard.press('F9');
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible();
  await expect(done.getByRole('article', { name: 'Ticket de la venta #1' })).toContainText('$ 13.500,00');
  const ventas = (
    await (
      await request.get(`/api/v1/businesses/${businessId}/ventas/sales`, {
        headers: { authorization: `Bearer ${owner.token}` },
      })
    ).json()
  ).ventas;
  expect(ventas[0].total).toBe(13500);
});

test('a product priced in dollars follows the cotización: the change is previewed before applying, and both figures show', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Irma');
  const businessId = await createBusiness(request, owner, 'Importadora Irma');
  await signIn(page, owner, businessId);

  // The first cotización, in Listas de precios.
  await page.goto('/products-and-services?tab=listas');
  await expect(page.getByTestId('cotizacion-vigente')).toHaveText('Sin cotización del dólar');
  await page.getByRole('button', { name: 'Cambiar cotización' }).click();
  let dialog = page.getByRole('dialog', { name: 'Cambiar cotización del dólar' });
  await dialog.getByLabel('Pesos por dólar').fill('1000');
  await dialog.getByLabel('Redondear los precios en pesos a').selectOption('10');
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();
  await expect(dialog.getByRole('status', { name: 'Cambios de la cotización' })).toContainText('Ningún precio cambia.');
  await dialog.getByRole('button', { name: 'Aplicar cotización' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('cotizacion-vigente')).toContainText('$ 1.000,00');

  // A product priced in dollars: its peso price follows, rounded to $ 10.
  await page.getByRole('tab', { name: 'Productos' }).click();
  await page.getByRole('button', { name: 'Nuevo producto' }).first().click();
  const form = page.getByRole('dialog', { name: 'Nuevo producto' });
  await form.getByLabel('Nombre').fill('Taladro percutor');
  await form.getByLabel('Moneda del precio').selectOption('USD');
  await form.getByLabel('Precio en dólares (US$)').fill('85,55');
  await expect(form.getByText('Con la cotización de $ 1.000,00: $ 85.550,00.')).toBeVisible();
  await expect(form.getByLabel('Precio de venta')).toHaveValue('85550');
  await form.getByLabel('Stock inicial').fill('3');
  await form.getByRole('button', { name: 'Crear producto' }).click();
  await expect(form).toBeHidden();
  const row = page.getByRole('row', { name: /Taladro percutor/ });
  await expect(row).toContainText('$ 85.550,00');
  await expect(row.getByLabel('Precio en dólares')).toHaveText('US$ 85,55');

  // A new cotización: how many prices change and by how much, before applying.
  await page.getByRole('tab', { name: 'Listas de precios' }).click();
  await page.getByRole('button', { name: 'Cambiar cotización' }).click();
  dialog = page.getByRole('dialog', { name: 'Cambiar cotización del dólar' });
  await dialog.getByLabel('Pesos por dólar').fill('1100,50');
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();
  const cambios = dialog.getByRole('status', { name: 'Cambios de la cotización' });
  // 85.55 × 1100.50 = 94 147.775 → $ 94 150
  await expect(cambios).toContainText('Cambia 1 precio: +$ 8.600,00 en total.');
  await expect(cambios).toContainText('$ 94.150,00');
  await dialog.getByRole('button', { name: 'Aplicar cotización' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('tab', { name: 'Productos' }).click();
  await expect(page.getByRole('row', { name: /Taladro percutor/ })).toContainText('$ 94.150,00');

  // The product's price history says why.
  await page.getByRole('button', { name: 'Acciones de Taladro percutor' }).first().click();
  await page.getByRole('menuitem', { name: 'Historial de precios' }).click();
  const historial = page.getByRole('dialog', { name: 'Historial de precios' });
  await expect(historial.getByRole('list', { name: 'Cambios de precio' })).toContainText('Cotización del dólar');
});

test('a distributor’s list with a title block, keyed by barcode: preview, leave one row out, apply, and the costs and prices change', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Ramon');
  const businessId = await createBusiness(request, owner, 'Ferretería Ramón');
  const path = `/businesses/${businessId}/products`;
  await create(request, owner, path, {
    nombre: 'Tornillo 6 mm',
    codigo_barras: '7790000000011',
    precio_compra: 100,
    precio_venta: 150,
  });
  await create(request, owner, path, {
    nombre: 'Tuerca 6 mm',
    codigo_barras: '7790000000028',
    precio_compra: 40,
    precio_venta: 70,
  });
  await signIn(page, owner, businessId);
  await page.goto('/products-and-services?tab=listas');
  await page.getByRole('button', { name: 'Lista de proveedor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Actualizar con la lista de un proveedor' });
  const csv = [
    'Distribuidora del Sur S.A.;;',
    'Lista de precios marzo 2026;;',
    ';;',
    'EAN;Descripción;Costo',
    '7790000000011;TORNILLO 6MM;120,00',
    '7790000000028;TUERCA 6MM;45,50',
    '7799999999999;NO ESTÁ;5',
  ].join('\n');
  await dialog
    .getByLabel('Archivo de la lista (Excel o CSV)')
    .setInputFiles({ name: 'distribuidora.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await expect(dialog.getByLabel('Buscar los productos por')).toHaveValue('codigo_barras');
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();
  const cambios = dialog.getByRole('region', { name: 'Cambios de la lista' });
  await expect(cambios).toContainText('3 filas · 2 productos cambian · 1 sin coincidencia');
  await expect(cambios.getByRole('row', { name: /Tornillo 6 mm/ })).toContainText('$ 180,00');
  // On a phone each change is a card with its labels, and nothing scrolls sideways.
  for (const size of [
    { name: '1366', width: 1366, height: 768 },
    { name: '1024', width: 1024, height: 768 },
    { name: '375', width: 375, height: 812 },
  ]) {
    await page.setViewportSize(size);
    const table = cambios.getByRole('table');
    const { scrollWidth, clientWidth } = await table.evaluate((t) => ({
      scrollWidth: t.parentElement!.scrollWidth,
      clientWidth: t.parentElement!.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    if (process.env.SHOTS_DIR)
      await cambios.screenshot({ path: `${process.env.SHOTS_DIR}/lista-cambios-${size.name}.png` });
  }
  await expect(cambios.getByRole('row', { name: /Tornillo 6 mm/ })).toContainText('Margen usado');
  await page.setViewportSize({ width: 1366, height: 768 });
  await dialog.getByLabel('Aplicar a Tuerca 6 mm').uncheck();
  await dialog.getByRole('button', { name: 'Aplicar a 1 producto' }).click();
  await expect(dialog.getByRole('status')).toContainText('Se actualizó 1 producto.');
  await dialog.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByText('Lista de proveedor aplicada: 1 productos.')).toBeVisible();

  const products = await (
    await request.get(`/api/v1${path}?limit=10`, { headers: { authorization: `Bearer ${owner.token}` } })
  ).json();
  const by = Object.fromEntries(products.map((p: { nombre: string }) => [p.nombre, p]));
  expect(by['Tornillo 6 mm']).toMatchObject({ precio_compra: 120, precio_venta: 180 });
  expect(by['Tuerca 6 mm']).toMatchObject({ precio_compra: 40, precio_venta: 70 });
});

test('a supplier’s own codes: one set on the product form, a stored supplier margin, and a list whose columns are mapped by hand with their sample values', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Irma');
  const businessId = await createBusiness(request, owner, 'Almacén Irma');
  await create(request, owner, `/businesses/${businessId}/proveedores`, { nombre: 'Mayorista Centro' });
  const path = `/businesses/${businessId}/products`;
  await create(request, owner, path, { nombre: 'Yerba 1 kg', precio_compra: 100, precio_venta: 150 });
  await create(request, owner, path, { nombre: 'Azúcar 1 kg', precio_compra: 50, precio_venta: 70 });
  await signIn(page, owner, businessId);

  // The product form keeps the supplier's code for the product.
  await page.goto('/products-and-services');
  await page.getByRole('button', { name: 'Acciones de Yerba 1 kg' }).first().click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const form = page.getByRole('dialog', { name: 'Editar producto' });
  await form.getByRole('button', { name: 'Agregar código de proveedor' }).click();
  await form.getByLabel('Proveedor 1', { exact: true }).selectOption({ label: 'Mayorista Centro' });
  await form.getByLabel('Código del proveedor 1').fill('A-77');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(form).toBeHidden();

  // A 30 % margin stored for the supplier.
  await page.goto('/products-and-services?tab=listas');
  const margenes = page.getByRole('region', { name: 'Márgenes sobre el costo' });
  await expect(margenes.getByText('Todavía no hay márgenes guardados')).toBeVisible();
  await margenes.getByRole('button', { name: 'Nuevo margen' }).click();
  const nuevo = page.getByRole('dialog', { name: 'Nuevo margen' });
  await nuevo.getByLabel('Para').selectOption('proveedor');
  await nuevo.getByRole('combobox', { name: /^Proveedor/ }).selectOption({ label: 'Mayorista Centro' });
  await nuevo.getByLabel('Margen sobre el costo (%)').fill('30');
  await nuevo.getByRole('button', { name: 'Crear margen' }).click();
  await expect(margenes.getByRole('list', { name: 'Márgenes guardados' })).toContainText('Mayorista Centro');
  await expect(margenes.getByRole('list', { name: 'Márgenes guardados' })).toContainText('30 %');
  // And one for a product, found by typing its name.
  await margenes.getByRole('button', { name: 'Nuevo margen' }).click();
  await nuevo.getByLabel('Para').selectOption('producto');
  await nuevo.getByRole('button', { name: 'Crear margen' }).click();
  await expect(nuevo.getByText('Elegí el producto.')).toBeVisible();
  await nuevo.getByRole('combobox', { name: 'Agregar producto' }).fill('azucar');
  await nuevo.getByRole('option', { name: /Azúcar 1 kg/ }).click();
  await nuevo.getByLabel('Margen sobre el costo (%)').fill('22,5');
  await nuevo.getByRole('button', { name: 'Crear margen' }).click();
  await expect(margenes.getByRole('list', { name: 'Márgenes guardados' })).toContainText('Azúcar 1 kg');
  await expect(margenes.getByRole('list', { name: 'Márgenes guardados' })).toContainText('22,5 %');

  // Its list: a title, and column titles nobody recognises.
  await page.getByRole('button', { name: 'Lista de proveedor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Actualizar con la lista de un proveedor' });
  const csv = [
    'Mayorista Centro - lista abril;;',
    ';;',
    'Art. Nro;Detalle;Neto s/IVA',
    'A-77;YERBA 1KG;200',
    'B-12;AZUCAR;80',
  ].join('\n');
  await dialog
    .getByLabel('Archivo de la lista (Excel o CSV)')
    .setInputFiles({ name: 'centro.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await dialog.getByLabel('Buscar los productos por').selectOption('codigo_proveedor');
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();
  await expect(dialog.getByText('Para buscar por el código del proveedor, elegí el proveedor.')).toBeVisible();
  await dialog.getByRole('combobox', { name: /^Proveedor/ }).selectOption({ label: 'Mayorista Centro' });
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();
  // Not recognised: its columns come back to be mapped by hand.
  const columnas = dialog.getByRole('region', { name: 'Columnas del archivo' });
  await expect(columnas).toBeVisible();
  await columnas.getByLabel('Fila de títulos').fill('3');
  await columnas.getByLabel('Art. Nro', { exact: true }).selectOption({ label: 'Código del proveedor' });
  await columnas.getByLabel('Neto s/IVA', { exact: true }).selectOption({ label: 'Costo' });
  await dialog.getByRole('button', { name: 'Volver a leer y ver cambios' }).click();
  await expect(columnas.getByRole('list', { name: 'Valores de ejemplo de Art. Nro' })).toContainText('A-77');
  await expect(columnas.getByRole('list', { name: 'Valores de ejemplo de Neto s/IVA' })).toContainText('200');

  const cambios = dialog.getByRole('region', { name: 'Cambios de la lista' });
  await expect(cambios).toContainText('2 filas · 1 productos cambian · 1 sin coincidencia');
  const yerba = cambios.getByRole('row', { name: /Yerba 1 kg/ });
  await expect(yerba).toContainText('$ 260,00');
  await expect(yerba).toContainText('Del proveedor');
  await dialog.getByRole('button', { name: 'Aplicar a 1 producto' }).click();
  await expect(dialog.getByRole('status')).toContainText('Se actualizó 1 producto.');
  await dialog.getByRole('button', { name: 'Listo' }).click();

  const products = await (
    await request.get(`/api/v1${path}?limit=10`, { headers: { authorization: `Bearer ${owner.token}` } })
  ).json();
  const by = Object.fromEntries(products.map((p: { nombre: string }) => [p.nombre, p]));
  expect(by['Yerba 1 kg']).toMatchObject({ precio_compra: 200, precio_venta: 260 });
  expect(by['Azúcar 1 kg']).toMatchObject({ precio_compra: 50, precio_venta: 70 });
});
