import { expect, test, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn } from '../support/session';

const TZ = 'America/Argentina/Buenos_Aires';

/** A date N days from today in the business time zone, as the date inputs take it. */
function day(offset = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
/** A tab of the finance sub-navigation (the sidebar has links with the same names). */
const section = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Secciones de finanzas' }).getByRole('link', { name, exact: true });

const esAR = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

async function openFinance(page: Page, request: Parameters<typeof createUser>[0], path: string) {
  const user = await createUser(request, 'Finanzas');
  const businessId = await createBusiness(request, user, 'Almacén Finanzas');
  await signIn(page, user, businessId);
  await page.goto(path);
}

test('categories and movements: create, filter, edit and delete with confirmation', async ({ page, request }) => {
  await openFinance(page, request, '/finanzas/categorias');
  await expect(page.getByRole('heading', { name: 'Categorías Financieras' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Todas (2)' })).toBeVisible();

  // Two categories through the modal.
  for (const [nombre, tipo] of [
    ['Alquiler', 'Egreso'],
    ['Honorarios', 'Ingreso'],
  ]) {
    await page.getByRole('button', { name: 'Nueva Categoría' }).click();
    const dlg = page.getByRole('dialog', { name: 'Nueva Categoría' });
    await dlg.getByLabel('Nombre').fill(nombre);
    await dlg.getByLabel('Tipo').selectOption({ label: tipo });
    await dlg.getByRole('button', { name: 'Guardar' }).click();
    await expect(dlg).toBeHidden();
    await expect(page.getByRole('heading', { name: nombre })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Egresos (2)' }).click();
  await expect(page.getByRole('heading', { name: 'Alquiler' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Honorarios' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Ingresos (2)' }).click();
  await expect(page.getByRole('heading', { name: 'Honorarios' })).toBeVisible();

  // A duplicate is refused and the modal stays open with the server's message.
  await page.getByRole('button', { name: 'Nueva Categoría' }).click();
  const dup = page.getByRole('dialog', { name: 'Nueva Categoría' });
  await dup.getByLabel('Nombre').fill('alquiler');
  await dup.getByLabel('Tipo').selectOption({ label: 'Egreso' });
  await dup.getByRole('button', { name: 'Guardar' }).click();
  await expect(dup.getByText('Ya existe una categoría con este nombre y tipo.')).toBeVisible();
  await dup.getByRole('button', { name: 'Cancelar' }).click();

  await section(page, 'Movimientos').click();
  await expect(page).toHaveURL(/\/finanzas\/movimientos$/);
  await expect(page.getByText('No hay movimientos registrados')).toBeVisible();

  // Income.
  await page.getByRole('button', { name: 'Nuevo Movimiento' }).click();
  let dlg = page.getByRole('dialog', { name: 'Nuevo Movimiento' });
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg.getByText('Este campo es obligatorio.')).toBeVisible();
  await dlg.getByLabel('Monto').fill('1500.50');
  await dlg.getByLabel('Categoría').selectOption({ label: 'Honorarios' });
  await dlg.getByLabel('Método de Pago').selectOption({ label: 'Transferencia' });
  await dlg.getByLabel('Descripción').fill('Asesoría contable');
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  const income = page
    .getByRole('table', { name: 'Movimientos' })
    .getByRole('row')
    .filter({ hasText: 'Asesoría contable' });
  await expect(income).toContainText('+$');
  await expect(income).toContainText('1.500,50');
  await expect(income).toContainText('Honorarios');
  await expect(income).toContainText('Transferencia');
  await expect(income).toContainText(esAR(day()));

  // Expense; changing the type clears the chosen category.
  await page.getByRole('button', { name: 'Nuevo Movimiento' }).click();
  dlg = page.getByRole('dialog', { name: 'Nuevo Movimiento' });
  await dlg.getByLabel('Categoría').selectOption({ label: 'Honorarios' });
  await dlg.getByLabel('Tipo').selectOption({ label: 'Egreso' });
  await expect(dlg.getByLabel('Categoría')).toHaveValue('');
  await expect(dlg.getByLabel('Categoría').getByRole('option')).toHaveText(['Sin categoría', 'Alquiler', 'Compras']);
  await dlg.getByLabel('Categoría').selectOption({ label: 'Alquiler' });
  await dlg.getByLabel('Monto').fill('800');
  await dlg.getByLabel('Descripción').fill('Alquiler del local');
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  const expense = page
    .getByRole('table', { name: 'Movimientos' })
    .getByRole('row')
    .filter({ hasText: 'Alquiler del local' });
  await expect(expense).toContainText('-$');
  await expect(expense).toContainText('800,00');

  // Filters.
  await page.getByLabel('Tipo').selectOption({ label: 'Egresos' });
  await expect(page.getByText('Alquiler del local')).toBeVisible();
  await expect(page.getByText('Asesoría contable')).toHaveCount(0);
  await page.getByLabel('Tipo').selectOption({ label: 'Todos' });
  await page.getByLabel('Categoría').selectOption({ label: 'Honorarios (Ingreso)' });
  await expect(page.getByText('Asesoría contable')).toBeVisible();
  await expect(page.getByText('Alquiler del local')).toHaveCount(0);
  await page.getByLabel('Categoría').selectOption({ label: 'Todas' });
  await page.getByLabel('Desde').fill(day(1));
  // Filters that match nothing say so (issue 33), not that there are no movements at all.
  await expect(page.getByText('Ningún movimiento coincide con los filtros')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Limpiar filtros' })).toBeVisible();
  await page.getByLabel('Desde').fill('');
  await expect(page.getByText('Asesoría contable')).toBeVisible();

  // Edit: the modal opens filled from the record.
  await page.getByRole('button', { name: 'Editar Asesoría contable' }).click();
  dlg = page.getByRole('dialog', { name: 'Editar Movimiento' });
  await expect(dlg.getByLabel('Monto')).toHaveValue('1500,50');
  await expect(dlg.getByLabel('Descripción')).toHaveValue('Asesoría contable');
  await dlg.getByLabel('Monto').fill('2000');
  await dlg.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dlg).toBeHidden();
  await expect(
    page.getByRole('table', { name: 'Movimientos' }).getByRole('row').filter({ hasText: 'Asesoría contable' }),
  ).toContainText('2.000,00');

  // Delete, after confirming.
  await page.getByRole('button', { name: 'Eliminar Alquiler del local' }).click();
  const confirm = page.getByRole('dialog', { name: 'Eliminar movimiento' });
  await expect(confirm.getByText('¿Estás seguro de que querés eliminar este movimiento?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByText('Alquiler del local')).toBeVisible();
  await page.getByRole('button', { name: 'Eliminar Alquiler del local' }).click();
  await page.getByRole('dialog', { name: 'Eliminar movimiento' }).getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('Alquiler del local')).toHaveCount(0);

  // A category in use cannot be deleted; the error shows in the confirmation.
  await section(page, 'Categorías').click();
  await page.getByRole('button', { name: 'Eliminar Honorarios' }).click();
  const catConfirm = page.getByRole('dialog', { name: 'Eliminar categoría' });
  await expect(catConfirm.getByText('¿Estás seguro de que querés eliminar esta categoría?')).toBeVisible();
  await catConfirm.getByRole('button', { name: 'Eliminar' }).click();
  await expect(
    catConfirm.getByText('No se puede eliminar la categoría porque tiene movimientos asociados.'),
  ).toBeVisible();
});

test('pending accounts: receivable and payable, due status, mark paid, then cash flow and summary', async ({
  page,
  request,
}) => {
  await openFinance(page, request, '/finanzas/cuentas');
  await expect(page.getByRole('heading', { name: 'Cuentas Pendientes' })).toBeVisible();
  await expect(page.getByText('No hay cuentas por cobrar registradas')).toBeVisible();

  // Receivable due in 5 days.
  await page.getByRole('button', { name: 'Nueva Cuenta' }).click();
  let dlg = page.getByRole('dialog', { name: 'Nueva Cuenta' });
  await expect(dlg.getByLabel('Tipo')).toHaveValue('por_cobrar');
  await expect(dlg.getByLabel('Proveedor')).toHaveCount(0);
  await expect(dlg.getByLabel('Fecha de Emisión')).toHaveValue(day());
  await dlg.getByLabel('Monto').fill('15000');
  await dlg.getByLabel('Fecha de Vencimiento').fill(day(5));
  await dlg.getByLabel('Descripción').fill('Fiado de Juan');
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  const receivable = page.getByRole('listitem').filter({ hasText: 'Fiado de Juan' });
  await expect(receivable).toContainText('Sin nombre');
  await expect(receivable).toContainText('Vence en 5 días');
  await expect(receivable).toContainText('15.000,00');
  await expect(page.getByRole('tab', { name: 'Por Cobrar (1)' })).toBeVisible();

  // Payable already overdue; the supplier is required.
  await page.getByRole('tab', { name: /Por Pagar/ }).click();
  await expect(page.getByText('No hay cuentas por pagar registradas')).toBeVisible();
  await page.getByRole('button', { name: 'Nueva Cuenta' }).click();
  dlg = page.getByRole('dialog', { name: 'Nueva Cuenta' });
  await expect(dlg.getByLabel('Tipo')).toHaveValue('por_pagar');
  await expect(dlg.getByLabel('Cliente')).toHaveCount(0);
  await dlg.getByLabel('Monto').fill('4000.25');
  await dlg.getByLabel('Fecha de Emisión').fill(day(-10));
  await dlg.getByLabel('Fecha de Vencimiento').fill(day(-2));
  await dlg.getByLabel('Descripción').fill('Mercadería');
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg.getByText('Indicá el proveedor.')).toBeVisible();
  await dlg.getByLabel('Proveedor').fill('Distribuidora Sur');
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  const payable = page.getByRole('listitem').filter({ hasText: 'Mercadería' });
  await expect(payable).toContainText('Distribuidora Sur');
  await expect(payable).toContainText('Vencido');
  await expect(payable).toContainText('Vencida hace 2 días');

  // Filters by computed status.
  await page.getByLabel('Estado').selectOption({ label: 'Pendiente' });
  await expect(page.getByText('Ninguna cuenta coincide con los filtros')).toBeVisible();
  await page.getByLabel('Estado').selectOption({ label: 'Vencido' });
  await expect(payable).toBeVisible();
  await page.getByLabel('Estado').selectOption({ label: 'Todos' });

  // Pay the supplier, then collect the receivable.
  await payable.getByRole('button', { name: 'Marcar como pagada' }).click();
  let pay = page.getByRole('dialog', { name: 'Registrar pago' });
  await pay.getByLabel('Método de Pago').selectOption({ label: 'Transferencia' });
  await pay.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(pay).toBeHidden();
  await expect(payable).toContainText('Pagado');
  await expect(payable.getByRole('button', { name: 'Marcar como pagada' })).toHaveCount(0);

  await page.getByRole('tab', { name: /Por Cobrar/ }).click();
  await receivable.getByRole('button', { name: 'Marcar como pagada' }).click();
  pay = page.getByRole('dialog', { name: 'Registrar cobro' });
  await pay.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(pay).toBeHidden();
  await expect(receivable).toContainText('Pagado');

  // The payments are movements of today: they show in the cash flow.
  await section(page, 'Flujo de Caja').click();
  await expect(page.getByRole('heading', { name: 'Flujo de Caja' })).toBeVisible();
  const total = (label: string) => page.getByRole('group', { name: label });
  await expect(total('Total Ingresos')).toContainText('15.000,00');
  await expect(total('Total Egresos')).toContainText('4.000,25');
  await expect(total('Saldo Final')).toContainText('10.999,75');
  const todayRow = page.getByRole('row').filter({ hasText: esAR(day()) });
  await expect(todayRow).toContainText('15.000,00');
  await expect(todayRow).toContainText('4.000,25');
  const chart = page.getByRole('group', { name: 'Gráfico del saldo acumulado por día' });
  await expect(chart).toContainText('10.999,75');
  await expect(chart.locator('svg').first()).toBeVisible();

  // Another month has no activity; coming back shows it again.
  const thisMonth = Number(day().slice(5, 7));
  const other = thisMonth === 1 ? 2 : thisMonth - 1;
  await page.getByLabel('Mes').selectOption(String(other));
  await expect(page.getByText('No hay datos de flujo de caja para este período')).toBeVisible();
  await expect(total('Total Ingresos')).toContainText('0,00');
  await page.getByLabel('Mes').selectOption(String(thisMonth));
  await expect(todayRow).toContainText('15.000,00');

  // And in the summary: month totals, balance, nothing left pending.
  await section(page, 'Resumen').click();
  await expect(page.getByRole('heading', { name: 'Resumen Financiero' })).toBeVisible();
  await expect(total('Total Ingresos')).toContainText('15.000,00');
  await expect(total('Balance')).toContainText('10.999,75');
  await expect(total('Cuentas Pendientes')).toContainText(/A cobrar\s*\$\s*0,00/);
  await expect(total('Cuentas Pendientes')).toContainText(/A pagar\s*\$\s*0,00/);
  await expect(page.getByText('Cobro: Fiado de Juan')).toBeVisible();
  await expect(page.getByText('Pago: Mercadería')).toBeVisible();
  await expect(page.getByText('No hay cuentas pendientes')).toBeVisible();

  // A quick action opens the movement form preset as an expense.
  await page.getByRole('button', { name: 'Agregar Egreso' }).click();
  const mov = page.getByRole('dialog', { name: 'Nuevo Movimiento' });
  await expect(mov.getByLabel('Tipo')).toHaveValue('egreso');
  await mov.getByRole('button', { name: 'Cancelar' }).click();
  await page.getByRole('link', { name: 'Ver todos' }).click();
  await expect(page).toHaveURL(/\/finanzas\/movimientos$/);
  await expect(page.getByText('Pago: Mercadería')).toBeVisible();
});

test('payables: a registered supplier, and a purchase payable that only changes its due date', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'Proveedores');
  const businessId = await createBusiness(request, user, 'Almacén Proveedores');
  const headers = { authorization: `Bearer ${user.token}` };
  const api = (path: string) => `/api/v1/businesses/${businessId}${path}`;
  const supplier = await (
    await request.post(api('/proveedores'), { data: { nombre: 'Lácteos del Valle' }, headers })
  ).json();
  await signIn(page, user, businessId);
  await page.goto('/finanzas/cuentas');
  await page.getByRole('tab', { name: /Por Pagar/ }).click();

  // Picking a registered supplier: no name to type, the account shows the supplier's name.
  await page.getByRole('button', { name: 'Nueva Cuenta' }).click();
  const dlg = page.getByRole('dialog', { name: 'Nueva Cuenta' });
  await dlg.getByLabel(/^Proveedor/).selectOption({ label: 'Lácteos del Valle' });
  await expect(dlg.getByLabel('Nombre del proveedor')).toHaveCount(0);
  await dlg.getByLabel('Monto').fill('9800');
  await dlg.getByLabel('Fecha de Vencimiento').fill(day(15));
  await dlg.getByLabel('Descripción').fill('Quesos y manteca');
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  const payable = page.getByRole('listitem').filter({ hasText: 'Quesos y manteca' });
  await expect(payable).toContainText('Lácteos del Valle');
  await payable.getByRole('button', { name: 'Editar Quesos y manteca' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Cuenta' });
  await expect(edit.getByLabel(/^Proveedor/)).toHaveValue(supplier.id);
  await edit.getByRole('button', { name: 'Cancelar' }).click();

  // A purchase on credit generates a payable: only the due date and the texts are editable here.
  const product = await (
    await request.post(api('/products'), {
      data: { nombre: 'Leche entera 1 l', precio_compra: 900, precio_venta: 1300, stock_actual: 0 },
      headers,
    })
  ).json();
  const compra = await request.post(api('/compras'), {
    data: {
      proveedor_id: supplier.id,
      estado: 'recibida',
      condicion_pago: 'cuenta_corriente',
      fecha_vencimiento: day(30),
      items: [{ producto_id: product.id, cantidad: 12, precio_unitario: 900 }],
    },
    headers,
  });
  expect(compra.status()).toBe(201);
  const compraId = (await compra.json()).id;
  await page.reload();
  await page.getByRole('tab', { name: /Por Pagar/ }).click();
  const generated = page.getByRole('listitem').filter({ hasText: 'Compra a Lácteos del Valle' });
  await generated.getByRole('button', { name: /^Editar / }).click();
  await expect(edit.getByText('Esta cuenta la generó una compra: el resto se modifica desde la compra.')).toBeVisible();
  await expect(edit.getByRole('link', { name: 'Ver la compra' })).toHaveAttribute('href', `/compras/${compraId}`);
  await expect(edit.getByLabel('Monto')).toBeDisabled();
  await expect(edit.getByLabel(/^Proveedor/)).toBeDisabled();
  await expect(edit.getByLabel('Fecha de Emisión')).toBeDisabled();
  await edit.getByLabel('Fecha de Vencimiento').fill(day(45));
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(edit).toBeHidden();
  await expect(generated).toContainText(`Vence: ${esAR(day(45))}`);

  // Paid in two parts: 4.000 now, the rest later.
  await generated.getByRole('button', { name: 'Marcar como pagada' }).click();
  const pay = page.getByRole('dialog', { name: 'Registrar pago' });
  await pay.getByLabel('Monto de este pago ($)').fill('4.000');
  await pay.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(pay).toBeHidden();
  await expect(generated).toContainText(/Pagado \$\s4\.000,00 · falta \$\s6\.800,00/);
  await generated.getByRole('button', { name: 'Marcar como pagada' }).click();
  await pay.getByLabel('Monto de este pago ($)').fill('7.000');
  await pay.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(pay.getByText(/El pago supera lo que falta pagar de la cuenta/)).toBeVisible();
  await pay.getByLabel('Monto de este pago ($)').fill('');
  await pay.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(pay).toBeHidden();
  const supplierNow = await (await request.get(api(`/proveedores/${supplier.id}`), { headers })).json();
  expect(supplierNow.deuda).toBe(9800);
});

test('cash flow: a load error stays on screen while Actualizar tries again, and goes once the month loads', async ({
  page,
  request,
}) => {
  let failing = true;
  await page.route('**/api/v1/**/flujo-caja**', async (route) => {
    if (!failing) return route.continue();
    // A slow failure (the server refuses with 409, which is not retried): the retry takes a moment.
    await new Promise((r) => setTimeout(r, 2500));
    return route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ detail: 'El flujo de caja no está disponible.', code: 'INVALID_STATE' }),
    });
  });
  await openFinance(page, request, '/finanzas/flujo-caja');
  const error = page.getByText('El flujo de caja no está disponible.');
  await expect(error).toBeVisible();
  await page.getByRole('button', { name: 'Actualizar' }).click();
  await expect(page.getByRole('button', { name: 'Actualizar' })).toBeDisabled();
  // Still there while the answer is on its way (it takes 2,5 s), not replaced by a skeleton.
  await expect(error).toBeVisible({ timeout: 500 });
  await expect(page.getByRole('button', { name: 'Actualizar' })).toBeEnabled();
  await expect(error).toBeVisible();
  failing = false;
  await page.getByRole('button', { name: 'Actualizar' }).click();
  await expect(page.getByText('No hay datos de flujo de caja para este período')).toBeVisible();
  await expect(error).toHaveCount(0);
});
