import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * Amounts and quantities typed the Argentine way ("1.234,56", "1,5"): what is saved is what was
 * typed, and a text that is not a number is refused with a message instead of becoming another
 * number. The browser runs with the es-AR locale, as the other journeys.
 */

const INVALID_AMOUNT = 'Monto no válido. Usá el formato 1.234,50.';

async function owner(page: Page, request: APIRequestContext, name: string) {
  const user = await createUser(request, name);
  const businessId = await createBusiness(request, user, `Comercio ${name}`);
  await signIn(page, user, businessId);
  const headers = { authorization: `Bearer ${user.token}` };
  const post = async (path: string, data: unknown) => {
    const res = await request.post(`/api/v1/businesses/${businessId}${path}`, { data, headers });
    if (res.status() !== 201) throw new Error(`${path} ${res.status()} ${await res.text()}`);
    return res.json();
  };
  const get = async (path: string) =>
    (await request.get(`/api/v1/businesses/${businessId}${path}`, { headers })).json();
  return { user: user as E2EUser, businessId, post, get };
}

/** A date N days from today in Buenos Aires, as the date inputs take it. */
function day(offset = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Argentina/Buenos_Aires',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

test('finance: amounts with a decimal comma, an invalid amount refused, a payable paid with a category', async ({
  page,
  request,
}) => {
  const { post, get } = await owner(page, request, 'Montos');
  await post('/finanzas/categorias', { nombre: 'Fletes', tipo: 'egreso' });
  await page.goto('/finanzas/movimientos');

  // Not a number: a clear message on the field, and nothing is saved.
  await page.getByRole('button', { name: 'Nuevo Movimiento' }).click();
  const dlg = page.getByRole('dialog', { name: 'Nuevo Movimiento' });
  await dlg.getByLabel('Monto').fill('12,345');
  await dlg.getByLabel('Descripción').fill('Venta de mostrador');
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg.getByText(INVALID_AMOUNT)).toBeVisible();
  await expect(dlg.getByLabel('Monto')).toHaveAttribute('aria-invalid', 'true');
  await dlg.screenshot({ path: test.info().outputPath('movimiento-monto-no-valido.png') });
  expect(await get('/finanzas/movimientos')).toEqual([]);

  // The same dialog, now with a decimal comma: saved as typed.
  await dlg.getByLabel('Monto').fill('1234,56');
  await expect(dlg.getByText(INVALID_AMOUNT)).toHaveCount(0);
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  const income = page
    .getByRole('table', { name: 'Movimientos' })
    .getByRole('row')
    .filter({ hasText: 'Venta de mostrador' });
  await expect(income).toContainText('$ 1.234,56');
  expect((await get('/finanzas/movimientos'))[0].monto).toBe(1234.56);

  // Editing shows it back with a decimal comma; a thousands dot is thousands.
  await page.getByRole('button', { name: 'Editar Venta de mostrador' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Movimiento' });
  await expect(edit.getByLabel('Monto')).toHaveValue('1234,56');
  await edit.getByLabel('Monto').fill('12.345');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(edit).toBeHidden();
  await expect(income).toContainText('$ 12.345,00');

  // A payable typed with thousands and decimals, paid with a chosen category.
  await page.goto('/finanzas/cuentas');
  await page.getByRole('tab', { name: /Por Pagar/ }).click();
  await page.getByRole('button', { name: 'Nueva Cuenta' }).click();
  const account = page.getByRole('dialog', { name: 'Nueva Cuenta' });
  await account.getByLabel('Monto').fill('2.500,75');
  // While the suppliers load, a picker and a name field both answer to «Proveedor»; this business
  // has none, so one text box is left.
  await expect(account.getByLabel('Proveedor')).toHaveCount(1);
  await account.getByLabel('Proveedor').fill('Transportes del Sur');
  await account.getByLabel('Fecha de Vencimiento').fill(day(10));
  await account.getByLabel('Descripción').fill('Flete de marzo');
  await account.getByRole('button', { name: 'Guardar' }).click();
  await expect(account).toBeHidden();
  const payable = page.getByRole('listitem').filter({ hasText: 'Flete de marzo' });
  await expect(payable).toContainText('$ 2.500,75');

  await payable.getByRole('button', { name: 'Marcar como pagada' }).click();
  const pay = page.getByRole('dialog', { name: 'Registrar pago' });
  // A supplier's debt proposes «Compras»; only the active expense categories are offered.
  await expect(pay.getByLabel('Categoría').locator('option:checked')).toHaveText('Compras');
  await expect(pay.getByLabel('Categoría').getByRole('option')).toHaveText(['Sin categoría', 'Compras', 'Fletes']);
  await pay.getByLabel('Categoría').selectOption({ label: 'Fletes' });
  await pay.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(pay).toBeHidden();
  await expect(payable).toContainText('Pagado');

  await page.goto('/finanzas/movimientos');
  const payment = page
    .getByRole('table', { name: 'Movimientos' })
    .getByRole('row')
    .filter({ hasText: 'Pago: Flete de marzo' });
  await expect(payment).toContainText('Fletes');
  await expect(payment).toContainText('$ 2.500,75');

  // A purchase's payable: the server files it under «Compras» unless told otherwise, so «Sin
  // categoría» is not offered there.
  const supplier = await post('/proveedores', { nombre: 'Lácteos del Valle' });
  const product = await post('/products', { nombre: 'Leche entera 1 l', precio_compra: 900, precio_venta: 1300 });
  await post('/compras', {
    proveedor_id: supplier.id,
    condicion_pago: 'cuenta_corriente',
    fecha_vencimiento: day(30),
    items: [{ producto_id: product.id, cantidad: 12, precio_unitario: 900 }],
  });
  await page.goto('/finanzas/cuentas');
  await page.getByRole('tab', { name: /Por Pagar/ }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: 'Compra a Lácteos del Valle' })
    .getByRole('button', { name: 'Marcar como pagada' })
    .click();
  await expect(pay.getByLabel('Categoría').getByRole('option')).toHaveText(['Compras', 'Fletes']);
  await expect(pay.getByLabel('Categoría')).toHaveValue(/.+/);
  await pay.getByRole('button', { name: 'Cancelar' }).click();
});

test('catalogue and purchases: prices, quantities and percentages with a decimal comma', async ({ page, request }) => {
  const { post, get } = await owner(page, request, 'Catalogo');
  await page.goto('/products-and-services');

  // A product: price and cost with thousands and decimal comma, stock with a decimal comma.
  await page.getByRole('button', { name: 'Nuevo producto' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo producto' });
  await dialog.getByLabel('Nombre').fill('Queso cremoso');
  await dialog.getByLabel('Precio de compra (costo)').fill('800,50');
  await dialog.getByLabel('Precio de venta').fill('1.200,75');
  await dialog.getByLabel('Stock inicial').fill('12,5');
  await dialog.getByLabel('Stock mínimo').fill('2.5');
  await expect(dialog.getByText('Margen sobre el costo: 50 %')).toBeVisible();
  // An amount that is not one blocks the save with the message.
  await dialog.getByLabel('Precio de venta').fill('1.200,755');
  await dialog.getByRole('button', { name: 'Crear producto' }).click();
  await expect(dialog.getByText(INVALID_AMOUNT)).toBeVisible();
  await dialog.screenshot({ path: test.info().outputPath('producto-precio-no-valido.png') });
  expect(await get('/products')).toEqual([]);
  await dialog.getByLabel('Precio de venta').fill('1.200,75');
  await dialog.getByRole('button', { name: 'Crear producto' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('table', { name: 'Productos' }).getByRole('row').filter({ hasText: 'Queso cremoso' });
  await expect(row).toContainText('$ 1.200,75');
  const [saved] = await get('/products');
  expect(saved).toMatchObject({ precio_venta: 1200.75, precio_compra: 800.5, stock_actual: 12.5, stock_minimo: 2.5 });

  // Editing shows the numbers with a decimal comma.
  await row.getByRole('button', { name: 'Acciones de Queso cremoso' }).click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar producto' });
  await expect(edit.getByLabel('Precio de venta')).toHaveValue('1200,75');
  await expect(edit.getByLabel('Precio de compra (costo)')).toHaveValue('800,50');
  await expect(edit.getByLabel('Stock mínimo')).toHaveValue('2,5');
  await edit.getByRole('button', { name: 'Cancelar' }).click();

  // A stock adjustment with a leading minus takes out.
  await row.getByRole('button', { name: 'Acciones de Queso cremoso' }).click();
  await page.getByRole('menuitem', { name: 'Ajustar stock' }).click();
  const adjust = page.getByRole('dialog', { name: 'Ajustar stock' });
  await adjust.getByText('Ingreso (sumar)').click();
  await adjust.getByLabel('Cantidad').fill('-1,25');
  await adjust.getByLabel('Motivo').fill('Degustación');
  await expect(adjust.getByText('Quedará en 11,25')).toBeVisible();
  await adjust.getByRole('button', { name: 'Registrar ajuste' }).click();
  await expect(page.getByText('Stock de «Queso cremoso»: 12,5 → 11,25 unidad.')).toBeVisible();

  // A percentage with a decimal comma.
  await page.getByRole('button', { name: 'Actualizar precios' }).click();
  const bulk = page.getByRole('dialog', { name: 'Actualizar precios' });
  await bulk.getByLabel('Porcentaje').fill('diez');
  await bulk.getByRole('button', { name: 'Ver vista previa' }).click();
  await expect(bulk.getByText('Porcentaje no válido. Usá el formato 12,5 (hasta 2 decimales).')).toBeVisible();
  await bulk.getByLabel('Porcentaje').fill('-10,5');
  await bulk.getByRole('button', { name: 'Ver vista previa' }).click();
  await expect(bulk.getByText('Vista previa: 1 producto cambia de precio de venta (-10,5 %)')).toBeVisible();
  await expect(bulk.getByRole('row').filter({ hasText: 'Queso cremoso' })).toContainText('$ 1.074,67');
  await bulk.getByRole('button', { name: 'Cerrar' }).click();

  // A service: the duration is a whole number of minutes.
  await page.goto('/products-and-services?tab=servicios');
  await page.getByRole('button', { name: 'Nuevo servicio' }).first().click();
  const service = page.getByRole('dialog', { name: 'Nuevo servicio' });
  await service.getByLabel('Nombre').fill('Picada para eventos');
  await service.getByLabel('Precio').fill('15.000');
  await service.getByLabel('Duración (minutos)').fill('1,5');
  await service.getByRole('button', { name: 'Crear servicio' }).click();
  await expect(service.getByText('Debe ser un número entero, sin decimales.')).toBeVisible();
  await service.getByLabel('Duración (minutos)').fill('90');
  await service.getByRole('button', { name: 'Crear servicio' }).click();
  await expect(service).toBeHidden();
  await expect(page.getByRole('table', { name: 'Servicios' })).toContainText('$ 15.000,00');

  // A purchase line: 1,5 × $ 2.750,50.
  const supplier = await post('/proveedores', { nombre: 'Lácteos del Oeste' });
  await page.goto(`/compras/nueva?proveedor=${supplier.id}`);
  await page.getByRole('combobox', { name: 'Agregar producto' }).fill('queso');
  await page
    .getByRole('listbox', { name: 'Productos encontrados' })
    .getByRole('option', { name: 'Queso cremoso' })
    .click();
  await expect(page.getByLabel('Costo unitario de Queso cremoso')).toHaveValue('800,50');
  await page.getByLabel('Cantidad de Queso cremoso').fill('1,5');
  await page.getByLabel('Costo unitario de Queso cremoso').fill('2.750,50');
  await expect(page.getByTestId('oc-total')).toHaveText('$ 4.125,75');
  await page.getByRole('button', { name: 'Guardar compra' }).click();
  await expect(page.getByText(/Compra #\d+ registrada/)).toBeVisible();
  const [compra] = await get('/compras');
  expect(compra.total).toBe(4125.75);
});

test('subscriptions: cancelling one from its estado asks first', async ({ page, request }) => {
  const { post } = await owner(page, request, 'Abonos');
  const service = await post('/services', { nombre: 'Abono de limpieza', precio: 20000 });
  const customer = await post('/clientes', { nombre: 'Rosa', apellido: 'Díaz' });
  await post('/subscriptions', { cliente_id: customer.id, servicio_id: service.id, frecuencia: 'mensual' });
  await page.goto('/products-and-services?tab=suscripciones');

  const item = page.getByRole('table', { name: 'Suscripciones' }).getByRole('row', { name: /Abono de limpieza/ });
  const estado = item.getByLabel(/Estado de Abono de limpieza/);
  await expect(estado).toHaveValue('activa');
  await estado.selectOption('cancelada');
  const confirm = page.getByRole('dialog', { name: 'Cancelar suscripción' });
  await expect(confirm).toContainText('¿Cancelar la suscripción de Rosa Díaz a Abono de limpieza?');
  // Going back changes nothing.
  await confirm.getByRole('button', { name: 'Volver' }).click();
  await expect(confirm).toBeHidden();
  await expect(estado).toHaveValue('activa');
  // Its next charge, a date (the only one the table shows by default).
  await expect(item).toContainText(/\d{2}\/\d{2}\/\d{4}/);

  await estado.selectOption('cancelada');
  await confirm.getByRole('button', { name: 'Cancelar suscripción' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Suscripción de Rosa Díaz: cancelada.')).toBeVisible();
  await expect(estado).toHaveValue('cancelada');
  await expect(item).toContainText('Sin próximo cobro');

  // Back to Activa: no question.
  await estado.selectOption('activa');
  await expect(page.getByText('Suscripción de Rosa Díaz: activa.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
