import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
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
const esAR = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The product row of the desktop table, and its Costo and Stock cells. */
const productRow = (page: Page, nombre: string) =>
  page.getByRole('table', { name: 'Productos' }).getByRole('row').filter({ hasText: nombre });
const cost = (page: Page, nombre: string) => productRow(page, nombre).getByRole('cell').nth(2);
const stock = (page: Page, nombre: string) => productRow(page, nombre).getByRole('cell').nth(4);

/** Adds a product to the order through the search-as-you-type picker. */
async function addLine(page: Page, search: string, nombre: string, how: 'click' | 'enter' = 'click') {
  const picker = page.getByRole('combobox', { name: 'Agregar producto' });
  await picker.fill(search);
  if (how === 'enter') await picker.press('Enter');
  else await page.getByRole('listbox', { name: 'Productos encontrados' }).getByRole('option', { name: nombre }).click();
  await expect(page.getByLabel(`Cantidad de ${nombre}`)).toBeFocused();
}

test('purchases: a supplier, an order of three products on credit, reception, the payable paid and in the cash flow', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Compras');
  const businessId = await createBusiness(request, owner, 'Almacén Compras');
  const headers = { authorization: `Bearer ${owner.token}` };
  for (const p of [
    { nombre: 'Yerba mate 1 kg', codigo: 'YER1', precio_compra: 2800, precio_venta: 4000, stock_actual: 5 },
    { nombre: 'Azúcar 1 kg', codigo: 'AZU1', precio_compra: 850, precio_venta: 1200, stock_actual: 2 },
    { nombre: 'Aceite de girasol 1,5 l', codigo: 'ACE1', precio_compra: 2600, precio_venta: 3650, stock_actual: 0 },
  ]) {
    const res = await request.post(`/api/v1/businesses/${businessId}/products`, { data: p, headers });
    expect(res.status()).toBe(201);
  }
  await signIn(page, owner, businessId);

  // A supplier; the CUIT's check digit is verified.
  await page.goto('/proveedores');
  await expect(page.getByText('Todavía no hay proveedores')).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo proveedor' }).first().click();
  const form = page.getByRole('dialog', { name: 'Nuevo proveedor' });
  await form.getByLabel('Nombre o razón social').fill('Distribuidora Sur');
  await form.getByLabel('CUIT').fill('30712345672');
  await form.getByRole('button', { name: 'Crear proveedor' }).click();
  await expect(form.getByText('CUIT/CUIL no válido.')).toBeVisible();
  await form.getByLabel('CUIT').fill('30712345671');
  await form.getByLabel('Persona de contacto').fill('Luis');
  await form.getByLabel('Condiciones de pago').fill('30 días');
  await form.getByRole('button', { name: 'Crear proveedor' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText('Proveedor «Distribuidora Sur» creado.')).toBeVisible();
  const proveedor = page
    .getByRole('table', { name: 'Proveedores' })
    .getByRole('row')
    .filter({ hasText: 'Distribuidora Sur' });
  await expect(proveedor).toContainText('30-71234567-1');
  await expect(proveedor).toContainText('Luis');

  // An order of three products on credit.
  await page.getByRole('link', { name: 'Órdenes de compra' }).click();
  await expect(page.getByText('Todavía no hay compras')).toBeVisible();
  await page.getByRole('button', { name: 'Nueva compra' }).first().click();
  await expect(page.getByRole('heading', { name: 'Nueva orden de compra' })).toBeVisible();
  await page.getByRole('button', { name: 'Guardar compra' }).click();
  await expect(page.getByText('La compra debe tener al menos un producto.')).toBeVisible();

  await page.getByLabel('Proveedor', { exact: true }).selectOption({ label: 'Distribuidora Sur' });
  await addLine(page, 'yerba', 'Yerba mate 1 kg');
  await addLine(page, 'azucar', 'Azúcar 1 kg', 'enter');
  await addLine(page, 'ACE1', 'Aceite de girasol 1,5 l');
  // The lines arrive with the last cost; the quantities and new costs are typed.
  await expect(page.getByLabel('Costo unitario de Yerba mate 1 kg')).toHaveValue('2800');
  await page.getByLabel('Cantidad de Yerba mate 1 kg').fill('10');
  await page.getByLabel('Costo unitario de Yerba mate 1 kg').fill('3000');
  await page.getByLabel('Cantidad de Azúcar 1 kg').fill('20');
  await page.getByLabel('Costo unitario de Azúcar 1 kg').fill('900');
  await page.getByLabel('Cantidad de Aceite de girasol 1,5 l').fill('6');
  await page.getByLabel('Costo unitario de Aceite de girasol 1,5 l').fill('2750.50');
  // 10 × 3000 + 20 × 900 + 6 × 2750,50
  await expect(page.getByTestId('oc-total')).toHaveText(/64\.503,00/);
  await page.getByLabel('Cuenta corriente').check();
  // The supplier pays at 30 days: the due date is proposed from its terms.
  await expect(page.getByLabel('Vencimiento de la cuenta corriente')).toHaveValue(day(30));
  await page.getByRole('button', { name: 'Guardar compra' }).click();

  await expect(page.getByRole('heading', { name: /Compra #1/ })).toBeVisible();
  await expect(page.getByText('Compra #1 registrada.')).toBeVisible();
  await expect(page.getByRole('heading', { name: /Compra #1/ })).toContainText('Pendiente');
  await expect(page.getByText('Pendiente de pago')).toBeVisible();

  // Receiving the goods, with a confirmation.
  await page.getByRole('button', { name: 'Marcar como recibida' }).click();
  const confirm = page.getByRole('dialog', { name: 'Marcar como recibida' });
  await confirm.getByRole('button', { name: 'Sí, la recibe' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Compra #1 recibida: stock y costos actualizados.')).toBeVisible();
  await expect(page.getByRole('heading', { name: /Compra #1/ })).toContainText('Recibida');
  await expect(page.getByRole('table').getByText('Costo anterior $ 2.800,00')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Marcar como recibida' })).toHaveCount(0);

  // Stock and cost rose.
  await page.goto('/products-and-services');
  await expect(stock(page, 'Yerba mate 1 kg')).toContainText('15');
  await expect(cost(page, 'Yerba mate 1 kg')).toHaveText('$ 3.000,00');
  await expect(stock(page, 'Azúcar 1 kg')).toContainText('22');
  await expect(cost(page, 'Azúcar 1 kg')).toHaveText('$ 900,00');
  await expect(stock(page, 'Aceite de girasol 1,5 l')).toContainText('6');
  await expect(cost(page, 'Aceite de girasol 1,5 l')).toHaveText('$ 2.750,50');

  // The payable is in Cuentas Pendientes → Por Pagar, and gets paid there.
  await page.goto('/finanzas/cuentas');
  await page.getByRole('tab', { name: 'Por Pagar (1)' }).click();
  const payable = page.getByRole('listitem').filter({ hasText: 'Compra a Distribuidora Sur' });
  await expect(payable).toContainText('Distribuidora Sur');
  await expect(payable).toContainText('64.503,00');
  await expect(payable).toContainText(`Vence: ${esAR(day(30))}`);
  await payable.getByRole('button', { name: 'Marcar como pagada' }).click();
  const pay = page.getByRole('dialog', { name: 'Registrar pago' });
  await pay.getByLabel('Método de Pago').selectOption({ label: 'Transferencia' });
  await pay.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(pay).toBeHidden();
  await expect(payable).toContainText('Pagado');

  // The payment is today's expense in the cash flow.
  await page
    .getByRole('navigation', { name: 'Secciones de finanzas' })
    .getByRole('link', { name: 'Flujo de Caja', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Flujo de Caja' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Total Egresos' })).toContainText('64.503,00');
  await expect(page.getByRole('row').filter({ hasText: esAR(day()) })).toContainText('64.503,00');

  // The purchase knows it is paid: it can no longer be cancelled; the supplier owes nothing.
  await page.goto('/compras');
  await page.getByRole('link', { name: /Compra #1/ }).click();
  await expect(page.getByText('Pagada', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancelar compra' })).toHaveCount(0);
  await page.goto('/proveedores');
  await page.getByRole('button', { name: 'Ver ficha de Distribuidora Sur' }).click();
  const ficha = page.getByRole('dialog', { name: 'Distribuidora Sur' });
  await expect(ficha.getByRole('list', { name: 'Compras a Distribuidora Sur' })).toContainText('Compra #1');
  await expect(ficha.getByText('Total comprado').locator('..')).toContainText('64.503,00');
  await expect(ficha.getByText('Le debés').locator('..')).toContainText('$ 0,00');
  // The supplier's account: the payable, its payment, and the running balance back at 0.
  const cuenta = ficha.getByRole('table', { name: 'Cuenta corriente de Distribuidora Sur' });
  await expect(cuenta.getByRole('row')).toHaveCount(3);
  await expect(cuenta.getByRole('row').nth(1)).toContainText('Compra a pagar');
  await expect(cuenta.getByRole('row').nth(1)).toContainText('64.503,00');
  await expect(cuenta.getByRole('row').nth(2)).toContainText('Pago');
  await expect(cuenta.getByRole('row').nth(2).getByRole('cell').last()).toHaveText('$ 0,00');
});

test('purchases: a cash order cancelled after reception gives the stock back; a used supplier cannot be deleted', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Cancela');
  const businessId = await createBusiness(request, owner, 'Kiosco Cancela');
  const headers = { authorization: `Bearer ${owner.token}` };
  const api = (path: string) => `/api/v1/businesses/${businessId}${path}`;
  const product = await (
    await request.post(api('/products'), {
      data: { nombre: 'Alfajor de chocolate', precio_compra: 300, precio_venta: 600, stock_actual: 10 },
      headers,
    })
  ).json();
  const supplier = await (
    await request.post(api('/proveedores'), { data: { nombre: 'Golosinas Express' }, headers })
  ).json();
  const compra = await (
    await request.post(api('/compras'), {
      data: {
        proveedor_id: supplier.id,
        metodo_pago: 'efectivo',
        estado: 'recibida',
        items: [{ producto_id: product.id, cantidad: 24, precio_unitario: 350 }],
      },
      headers,
    })
  ).json();
  await signIn(page, owner, businessId);

  await page.goto(`/compras/${compra.id}`);
  await expect(page.getByText('Registrado en «Compras»')).toBeVisible();
  await page.getByRole('button', { name: 'Cancelar compra' }).click();
  const dlg = page.getByRole('dialog', { name: 'Cancelar compra' });
  await expect(dlg).toContainText('Se descuenta el stock recibido.');
  await dlg.getByRole('button', { name: 'Cancelar compra' }).click();
  await expect(dlg).toBeHidden();
  await expect(page.getByRole('heading', { name: /Compra #1/ })).toContainText('Cancelada');
  await expect(page.getByText('Anulado', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Editar' })).toHaveCount(0);

  await page.goto('/products-and-services');
  await expect(stock(page, 'Alfajor de chocolate')).toContainText('10');
  await expect(cost(page, 'Alfajor de chocolate')).toHaveText('$ 300,00');

  // The list filters by state; the supplier stays because a purchase names it.
  await page.goto('/compras?estado=recibida');
  await expect(page.getByText('Ninguna compra coincide con los filtros')).toBeVisible();
  await page.getByLabel('Estado').selectOption({ label: 'Cancelada' });
  await expect(page.getByRole('table', { name: 'Compras' })).toContainText('Golosinas Express');
  await page.goto('/proveedores');
  await page.getByRole('button', { name: 'Eliminar Golosinas Express' }).click();
  const del = page.getByRole('dialog', { name: 'Eliminar proveedor' });
  await del.getByRole('button', { name: 'Eliminar' }).click();
  await expect(del.getByText('No se puede eliminar el proveedor porque tiene compras asociadas.')).toBeVisible();
});

test('purchases: a supplier invoice A with IVA and a percepción, and the Libro IVA Compras of the month', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Factura');
  const businessId = await createBusiness(request, owner, 'Almacén Factura');
  const headers = { authorization: `Bearer ${owner.token}` };
  const api = (path: string) => `/api/v1/businesses/${businessId}${path}`;
  expect(
    (
      await request.post(api('/products'), {
        data: { nombre: 'Fideos 500 g', precio_compra: 800, precio_venta: 1400 },
        headers,
      })
    ).status(),
  ).toBe(201);
  expect(
    (
      await request.post(api('/proveedores'), { data: { nombre: 'Molino del Sur', cuit: '30712345671' }, headers })
    ).status(),
  ).toBe(201);
  await signIn(page, owner, businessId);

  await page.goto('/compras/nueva');
  await page.getByLabel('Proveedor', { exact: true }).selectOption({ label: 'Molino del Sur' });
  await addLine(page, 'fideos', 'Fideos 500 g');
  // A factura A: the cost is typed net of IVA.
  await page.getByLabel('Cantidad de Fideos 500 g').fill('100');
  await page.getByLabel('Costo unitario de Fideos 500 g').fill('900');
  await page.getByLabel('Factura del proveedor').check();
  const fp = page.getByTestId('factura-proveedor');
  await fp.getByLabel('Tipo').selectOption('A');
  await fp.getByLabel('Punto de venta').fill('3');
  await fp.getByLabel(/^Número/).fill('1234');
  await fp.getByLabel('Fecha de la factura').fill(day());
  // Tabbing out of the net proposes its IVA (neto × 21 %).
  await fp.getByLabel('Neto gravado 21 %').fill('90000');
  await fp.getByLabel('Neto gravado 21 %').press('Tab');
  await expect(fp.getByLabel('IVA 21 %')).toBeFocused();
  await expect(fp.getByLabel('IVA 21 %')).toHaveValue(/^18\.?900(,00)?$/);
  await fp.getByLabel('Percepción IIBB').fill('2700');
  await fp.getByLabel('Total de la factura').fill('111000');
  // 90.000 + 18.900 + 2.700 = 111.600: the difference shows live.
  await expect(fp.getByTestId('fp-suma')).toHaveText(/111\.600,00/);
  await expect(fp.getByTestId('fp-diferencia')).toHaveText(/-?\s?\$\s?-?600,00/);
  await fp.getByLabel('Total de la factura').fill('111600');
  await expect(fp.getByTestId('fp-diferencia')).toHaveText('Cuadra');
  await page.getByRole('button', { name: 'Guardar compra' }).click();

  await expect(page.getByRole('heading', { name: /Compra #1/ })).toBeVisible();
  const factura = page.getByRole('region', { name: 'Factura del proveedor' });
  await expect(factura).toContainText('Factura A 0003-00001234');
  await expect(factura).toContainText('18.900,00');
  await expect(factura).toContainText('Percepción IIBB');
  await expect(factura).toContainText('111.600,00');

  // The Libro IVA Compras of this month, from the purchases page.
  await page.goto('/compras');
  await page.getByLabel('Mes del Libro IVA Compras').fill(day().slice(0, 7));
  // Its label stays on one line at every width (as tall as the month field next to it), inside
  // the screen, and next to the month field from 768 px up.
  const libro = page.getByRole('button', { name: 'Libro IVA Compras' });
  for (let width = 360; width <= 1440; width += 16) {
    await page.setViewportSize({ width, height: 800 });
    const box = (await libro.boundingBox())!;
    const mes = (await page.getByLabel('Mes del Libro IVA Compras').boundingBox())!;
    expect(box.height, `${width} px`).toBeLessThanOrEqual(mes.height + 1);
    expect(box.x + box.width, `${width} px`).toBeLessThanOrEqual(width);
    if (width >= 768) expect(Math.abs(box.y - mes.y), `${width} px`).toBeLessThanOrEqual(2);
  }
  for (const size of [
    { name: '1366', width: 1366, height: 768 },
    { name: '1024', width: 1024, height: 768 },
    { name: '375', width: 375, height: 812 },
  ]) {
    await page.setViewportSize(size);
    if (process.env.SHOTS_DIR) {
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/compras-libro-iva-${size.name}.png` });
    }
  }
  await page.setViewportSize({ width: 1366, height: 768 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Libro IVA Compras' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`libro-iva-compras-${day().slice(0, 7)}.xlsx`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await download.path())!)) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const header = (ws.getRow(1).values as unknown[]).slice(1);
  const row = (ws.getRow(2).values as unknown[]).slice(1);
  expect(row[header.indexOf('Punto de venta - Número')]).toBe('0003-00001234');
  expect(row[header.indexOf('CUIT')]).toBe('30-71234567-1');
  expect(row[header.indexOf('IVA 21 %')]).toBe(18900);
  expect(row[header.indexOf('Percepción IIBB')]).toBe(2700);
  expect((ws.getRow(3).values as unknown[])[1]).toBe('Totales');
});
