import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, uniqueEmail, type E2EUser } from '../support/session';

async function create(request: APIRequestContext, user: E2EUser, path: string, data: object) {
  const res = await request.post(`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

async function scan(page: Page, code: string) {
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially(code);
  await search.press('Enter');
}

test('a weighed item scanned from a scale label, and 3*code, go into the cart with their quantities and are sold as such', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Rosa');
  const businessId = await createBusiness(request, owner, 'Fiambrería Rosa');
  const queso = await create(request, owner, `/businesses/${businessId}/products`, {
    nombre: 'Queso cremoso',
    codigo: '01281',
    precio_venta: 12000,
    stock_actual: 5,
    unidad: 'kg',
  });
  const yerba = await create(request, owner, `/businesses/${businessId}/products`, {
    nombre: 'Yerba mate 1 kg',
    codigo_barras: '7795791241239',
    precio_venta: 4000,
    stock_actual: 10,
    unidad: 'unidad',
  });
  await signIn(page, owner, businessId);
  await page.goto('/pos');
  await expect(page.getByRole('heading', { name: 'Punto de venta' })).toBeVisible();

  // Without a layout the label is just an unknown code.
  await scan(page, '2001281007502');
  await expect(page.getByText('No se encontró ningún producto o servicio con «2001281007502».')).toBeVisible();

  // The owner picks the scale's layout in the business settings.
  await page.getByRole('button', { name: 'Seleccionar negocio' }).click();
  await page.getByRole('menuitem', { name: 'Configuración del negocio' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configuración del negocio' });
  await dialog
    .getByLabel('Etiquetas de balanza')
    .selectOption({ label: 'Peso en gramos, código de 5 dígitos (2P CCCCC GGGGG V)' });
  await dialog.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(dialog).toHaveCount(0);

  const cart = page.getByRole('list', { name: 'Ítems del carrito' });
  await scan(page, '2001281007502');
  await expect(cart.getByRole('listitem', { name: 'Queso cremoso' })).toBeVisible();
  await expect(page.getByLabel('Cantidad de Queso cremoso')).toHaveValue('0,75');

  // A label with a wrong check digit is refused and adds nothing.
  await scan(page, '2001281007503');
  await expect(page.getByText(/tiene mal el dígito verificador/)).toBeVisible();
  await expect(page.getByLabel('Cantidad de Queso cremoso')).toHaveValue('0,75');

  await scan(page, '3*7795791241239');
  await expect(page.getByLabel('Cantidad de Yerba mate 1 kg')).toHaveValue('3');

  // A tablet in landscape: the menu folds away and the cart shows whole names.
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(page.getByRole('button', { name: 'Abrir menú' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeHidden();
  for (const nombre of ['Queso cremoso', 'Yerba mate 1 kg']) {
    const name = cart.getByRole('listitem', { name: nombre }).getByText(nombre, { exact: true });
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }

  await page.keyboard.press('F9');
  await expect(page.getByRole('dialog', { name: 'Venta #1 registrada' })).toBeVisible();

  const auth = { authorization: `Bearer ${owner.token}` };
  const stock = async (id: string) =>
    (await (await request.get(`/api/v1/businesses/${businessId}/products/${id}`, { headers: auth })).json())
      .stock_actual;
  expect(await stock(queso.id)).toBe(4.25);
  expect(await stock(yerba.id)).toBe(7);
  const ventas = (await (await request.get(`/api/v1/businesses/${businessId}/ventas/sales`, { headers: auth })).json())
    .ventas;
  expect(ventas).toHaveLength(1);
  expect(ventas[0].total).toBe(21000);
});

test('the counter by keyboard: Enter picks the first customer typed, F9 warns about a customer typed but not chosen, a card sale asks once, Nueva venta starts clean', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Julio');
  const businessId = await createBusiness(request, owner, 'Kiosco Julio');
  await create(request, owner, `/businesses/${businessId}/products`, {
    nombre: 'Alfajor triple',
    codigo: 'ALF3',
    precio_venta: 1500,
    stock_actual: 20,
    unidad: 'unidad',
  });
  const lucia = await create(request, owner, `/businesses/${businessId}/clientes`, {
    nombre: 'Lucía',
    apellido: 'Paz',
  });
  await signIn(page, owner, businessId);
  await page.goto('/pos');
  await expect(page.getByRole('heading', { name: 'Punto de venta' })).toBeVisible();
  // Every page names itself in the browser tab.
  await expect(page).toHaveTitle('Punto de venta · Mostrador');

  await scan(page, '2*ALF3');
  await expect(page.getByLabel('Cantidad de Alfajor triple')).toHaveValue('2');

  // A name typed and not chosen: F9 does not sell it to "Consumidor final" silently.
  const cliente = page.getByRole('combobox', { name: /Cliente/ });
  await cliente.fill('Zzz');
  await page.keyboard.press('F9');
  await expect(page.getByText(/Escribiste «Zzz» en Cliente pero no elegiste ninguno/)).toBeVisible();
  await expect(cliente).toBeFocused();
  await cliente.press('Enter');
  await expect(page.getByText('No hay ningún cliente con «Zzz».')).toBeVisible();

  // Enter on a typed name picks the first match.
  await cliente.fill('luc');
  await cliente.press('Enter');
  await expect(page.getByText('Lucía Paz')).toBeVisible();

  // Card by F9: one more Enter confirms it; Escape goes back without selling.
  await page.getByRole('radio', { name: 'Tarjeta de Débito' }).click();
  await page.keyboard.press('F9');
  const ask = page.getByRole('dialog', { name: '¿Cobrar con Tarjeta de Débito?' });
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  const auth = { authorization: `Bearer ${owner.token}` };
  const ventas = async () =>
    (await (await request.get(`/api/v1/businesses/${businessId}/ventas/sales`, { headers: auth })).json()).ventas;
  expect(await ventas()).toHaveLength(0);
  await page.getByLabel('Buscar producto o servicio, o escanear código').fill('algo a medio escribir');
  await page.keyboard.press('F9');
  await expect(ask).toBeVisible();
  await page.keyboard.press('Enter');
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible();
  const [venta] = await ventas();
  const detalle = await (
    await request.get(`/api/v1/businesses/${businessId}/ventas/sales/${venta.id}`, { headers: auth })
  ).json();
  expect(detalle).toMatchObject({ total: 3000, cliente_id: lucia.id, metodo_pago: 'tarjeta_debito' });

  // Nueva venta: every field as on a fresh screen.
  await done.getByRole('button', { name: 'Nueva venta' }).click();
  await expect(done).toHaveCount(0);
  await expect(page.getByLabel('Buscar producto o servicio, o escanear código')).toHaveValue('');
  await expect(cliente).toHaveValue('');
  await expect(page.getByRole('radio', { name: 'Efectivo' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('list', { name: 'Ítems del carrito' })).toHaveCount(0);

  // A fast cashier: Enter on a typed name and F9 at once, while the lookup is still on its way
  // (slowed here): the sale waits for the customer instead of refusing it as "not chosen".
  await page.route(
    (url) => url.pathname.endsWith('/clientes') && url.searchParams.get('limit') === '1',
    async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    },
  );
  await scan(page, 'ALF3');
  await expect(page.getByLabel('Cantidad de Alfajor triple')).toHaveValue('1');
  await cliente.fill('paz');
  await cliente.press('Enter');
  await page.keyboard.press('F9');
  const second = page.getByRole('dialog', { name: 'Venta #2 registrada' });
  await expect(second).toBeVisible();
  await expect(page.getByText(/no elegiste ninguno/)).toHaveCount(0);
  const segunda = (await ventas()).find((v: { numero: number }) => v.numero === 2);
  expect(segunda).toMatchObject({ total: 1500, cliente_id: lucia.id });
});

test('a cashier who only sells sees no costs, cannot change a price, and discounts up to the maximum the owner sets (10%)', async ({
  page,
  browser,
  request,
}) => {
  const owner = await createUser(request, 'Norma');
  const businessId = await createBusiness(request, owner, 'Ferretería Norma');
  const ownerAuth = { authorization: `Bearer ${owner.token}` };
  const taladro = await create(request, owner, `/businesses/${businessId}/products`, {
    nombre: 'Taladro percutor',
    codigo: 'TAL1',
    precio_compra: 9000,
    precio_venta: 15487.06,
    stock_actual: 4,
    unidad: 'unidad',
  });
  const email = uniqueEmail('cajera');
  const invite = await request.post(`/api/v1/businesses/${businessId}/invitaciones`, {
    headers: ownerAuth,
    data: { email },
  });
  const token = new URL((await invite.json()).invitacion.enlace).searchParams.get('token');
  const cajera = await createUser(request, 'Cajera', email);
  await request.post(`/api/v1/invitaciones/${token}/aceptar`, { headers: { authorization: `Bearer ${cajera.token}` } });
  const approve = await request.post(`/api/v1/businesses/${businessId}/usuarios-pendientes/${cajera.id}/aprobar`, {
    headers: ownerAuth,
    data: { puede_ver_ventas: true, puede_editar_ventas: true, puede_ver_productos: true, puede_ver_clientes: true },
  });
  expect(approve.status()).toBe(200);

  // The owner sets a 10 % maximum in the team dialog.
  await signIn(page, owner, businessId);
  await page.goto('/business-users');
  await page.getByRole('button', { name: 'Editar permisos de Cajera Prueba' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar permisos' });
  await expect(edit.getByRole('checkbox', { name: 'Ver costos, márgenes y ganancia estimada' })).not.toBeChecked();
  await expect(edit.getByLabel('Descuento máximo sin autorización (%)')).toHaveValue('0');
  await edit.getByLabel('Descuento máximo sin autorización (%)').fill('10');
  await edit.getByRole('button', { name: 'Guardar permisos' }).click();
  await expect(edit).toBeHidden();

  const context = await browser.newContext({ baseURL: page.url().replace(/\/business-users$/, '') });
  const cashier = await context.newPage();
  await signIn(cashier, cajera, businessId);
  await cashier.goto('/products-and-services');
  await expect(cashier.getByRole('button', { name: 'Taladro percutor' }).first()).toBeVisible();
  await expect(cashier.getByRole('columnheader', { name: 'Costo' })).toHaveCount(0);
  await expect(cashier.getByText('$ 9.000,00')).toHaveCount(0);
  const product = await request.get(`/api/v1/businesses/${businessId}/products/${taladro.id}`, {
    headers: { authorization: `Bearer ${cajera.token}` },
  });
  expect(await product.json()).not.toHaveProperty('precio_compra');

  await cashier.goto('/pos');
  // The cashier has no turno of her own: this device sells in the owner's only once chosen.
  await cashier.getByRole('button', { name: /^Caja 1 Turno #1/ }).click();
  await scan(cashier, 'TAL1');
  // A cashier who cannot change prices gets the compact line: its name opens the whole line.
  await cashier.getByRole('button', { name: 'Más opciones de Taladro percutor' }).click();
  const price = cashier.getByLabel('Precio de Taladro percutor');
  await expect(price).toHaveAttribute('readonly', '');
  await price.fill('100', { force: true });
  await expect(price).toHaveValue('15487,06');

  const descuento = cashier.getByLabel('Descuento ($ o %)');
  await descuento.fill('15%');
  await expect(cashier.getByText('Tu descuento máximo es 10 %')).toBeVisible();
  await cashier.keyboard.press('F9');
  await expect(cashier.getByRole('dialog')).toHaveCount(0);
  await descuento.fill('10%');
  await expect(cashier.getByText('Tu descuento máximo es 10 %')).toHaveCount(0);
  await expect(cashier.getByTestId('pos-total')).toHaveText('$ 13.938,36');
  await cashier.keyboard.press('F9');
  await expect(cashier.getByRole('dialog', { name: 'Venta #1 registrada' })).toBeVisible();
  const ventas = (
    await (await request.get(`/api/v1/businesses/${businessId}/ventas/sales`, { headers: ownerAuth })).json()
  ).ventas;
  expect(ventas).toHaveLength(1);
  expect(ventas[0].total).toBe(13938.36);
  await context.close();
});

test('selling without stock: once allowed in the settings the POS warns and sells, the stock goes negative and shows it; a product without stock control sells freely', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Marta');
  const businessId = await createBusiness(request, owner, 'Almacén Marta');
  const yerba = await create(request, owner, `/businesses/${businessId}/products`, {
    nombre: 'Yerba suave 500 g',
    codigo: 'YS500',
    precio_venta: 2500,
    stock_actual: 1,
  });
  await signIn(page, owner, businessId);

  // A product that does not track stock, made in the form.
  await page.goto('/products-and-services');
  await page.getByRole('button', { name: 'Nuevo producto' }).first().click();
  const form = page.getByRole('dialog', { name: 'Nuevo producto' });
  await form.getByLabel('Nombre').fill('Bolsa de hielo');
  await form.getByLabel('Precio de venta').fill('1800');
  await form.getByLabel('Controlar stock').uncheck();
  await expect(form.getByLabel('Stock inicial')).toHaveCount(0);
  await form.getByRole('button', { name: 'Crear producto' }).click();
  await expect(form).toHaveCount(0);
  const rows = page.getByRole('table', { name: 'Productos' }).getByRole('row');
  await expect(rows.filter({ hasText: 'Bolsa de hielo' })).toContainText('Sin control');

  await page.getByRole('button', { name: 'Seleccionar negocio' }).click();
  await page.getByRole('menuitem', { name: 'Configuración del negocio' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configuración del negocio' });
  await dialog.getByLabel('Permitir vender sin stock').check();
  await dialog.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(dialog).toHaveCount(0);

  await page.goto('/pos');
  await scan(page, '3*YS500');
  await expect(page.getByLabel('Cantidad de Yerba suave 500 g')).toHaveValue('3');
  await expect(page.getByText('Stock disponible: 1 · se vende igual y el stock queda en negativo')).toBeVisible();
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.fill('hielo');
  await search.press('Enter');
  await expect(page.getByLabel('Cantidad de Bolsa de hielo')).toHaveValue('1');
  // A discount on one line: 10 % of 3 × 2.500.
  await page.getByLabel('Descuento de Yerba suave 500 g').fill('10%');
  const yerbaLine = page
    .getByRole('list', { name: 'Ítems del carrito' })
    .getByRole('listitem', { name: 'Yerba suave 500 g' });
  await expect(yerbaLine.getByTestId('line-subtotal')).toHaveText('$ 6.750,00');
  await page.keyboard.press('F9');
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible();
  await expect(done).toContainText('Total $ 8.550,00');
  await expect(done).toContainText('Descuento −$ 750,00');

  const auth = { authorization: `Bearer ${owner.token}` };
  const p = await (
    await request.get(`/api/v1/businesses/${businessId}/products/${yerba.id}`, { headers: auth })
  ).json();
  expect(p).toMatchObject({ stock_actual: -2, stock_bajo: true });
  await page.goto('/products-and-services');
  await expect(rows.filter({ hasText: 'Yerba suave 500 g' })).toContainText('Stock negativo');
  await expect(rows.filter({ hasText: 'Yerba suave 500 g' })).toContainText('-2');
});
