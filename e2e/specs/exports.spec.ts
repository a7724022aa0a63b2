import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

async function create(request: APIRequestContext, user: E2EUser, path: string, data: object) {
  const res = await request.post(`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

/** Clicks an export button and opens the file the browser saves: its name, its rows and every cell as text. */
async function exportFrom(page: Page, button: Locator) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download.path());
  const rows: string[][] = [];
  book.eachSheet((sheet) =>
    sheet.eachRow((row) => {
      const texts: string[] = [];
      row.eachCell((cell) => texts.push(String(cell.text ?? '').trim()));
      rows.push(texts);
    }),
  );
  return { name: download.suggestedFilename(), rows, cells: rows.flat() };
}

test('every export button downloads a real .xlsx with the rows on screen: products, customers, suppliers, purchases, a purchase order, finance movements and the sales report', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Exporta');
  const businessId = await createBusiness(request, owner, 'Almacén Exporta');
  const api = (path: string) => `/businesses/${businessId}${path}`;
  const yerba = await create(request, owner, api('/products'), {
    nombre: 'Yerba Exportable 1 kg',
    codigo: 'EXP001',
    precio_venta: 4200,
    precio_compra: 2900,
    stock_actual: 10,
  });
  const cliente = await create(request, owner, api('/clientes'), { nombre: 'Lucía', apellido: 'Exportadora' });
  const proveedor = await create(request, owner, api('/proveedores'), { nombre: 'Distribuidora Exporta' });
  const compra = await create(request, owner, api('/compras'), {
    proveedor_id: proveedor.id,
    metodo_pago: 'transferencia',
    estado: 'recibida',
    items: [{ producto_id: yerba.id, cantidad: 12, precio_unitario: 2950 }],
  });
  const venta = await create(request, owner, api('/ventas'), {
    cliente_id: cliente.id,
    metodo_pago: 'efectivo',
    items: [{ id: yerba.id, tipo: 'producto', cantidad: 2 }],
  });
  await signIn(page, owner, businessId);

  await page.goto('/products-and-services');
  await expect(page.getByRole('table', { name: 'Productos' })).toContainText('Yerba Exportable 1 kg');
  const products = await exportFrom(page, page.getByRole('button', { name: 'Exportar', exact: true }));
  expect(products.name).toMatch(/\.xlsx$/);
  // 10 in stock, 12 bought, 2 sold.
  expect(products.cells).toEqual(expect.arrayContaining(['EXP001', 'Yerba Exportable 1 kg', '20']));

  await page.goto('/customers');
  await expect(page.getByText('Lucía Exportadora').first()).toBeVisible();
  const customers = await exportFrom(page, page.getByRole('button', { name: 'Exportar', exact: true }));
  expect(customers.name).toMatch(/^clientes-.*\.xlsx$/);
  expect(customers.cells.join(' ')).toContain('Lucía');
  expect(customers.cells.join(' ')).toContain('Exportadora');

  await page.goto('/proveedores');
  await expect(page.getByText('Distribuidora Exporta').first()).toBeVisible();
  const suppliers = await exportFrom(page, page.getByRole('button', { name: 'Exportar', exact: true }));
  expect(suppliers.name).toMatch(/\.xlsx$/);
  expect(suppliers.cells).toContain('Distribuidora Exporta');

  await page.goto('/compras');
  await expect(page.getByRole('table', { name: 'Compras' })).toContainText('Distribuidora Exporta');
  const purchases = await exportFrom(page, page.getByRole('button', { name: 'Exportar', exact: true }));
  expect(purchases.name).toMatch(/\.xlsx$/);
  expect(purchases.cells).toContain('Distribuidora Exporta');

  await page.goto(`/compras/${compra.id}`);
  const order = await exportFrom(page, page.getByRole('button', { name: 'Exportar .xlsx' }));
  expect(order.name).toMatch(/\.xlsx$/);
  expect(order.cells).toEqual(expect.arrayContaining(['Yerba Exportable 1 kg', 'Distribuidora Exporta']));

  // The sale's income movement in finance.
  await page.goto('/finanzas/movimientos');
  await expect(page.getByText(`Venta #${venta.numero}`).first()).toBeVisible();
  const movements = await exportFrom(page, page.getByRole('button', { name: 'Exportar', exact: true }));
  expect(movements.name).toMatch(/^movimientos-.*\.xlsx$/);
  expect(movements.rows.some((r) => r.includes(`Venta #${venta.numero}`) && r.includes('Lucía Exportadora'))).toBe(
    true,
  );

  await page.goto('/reports');
  await expect(page.getByText('Yerba Exportable 1 kg').first()).toBeVisible();
  const report = await exportFrom(page, page.getByRole('button', { name: 'Exportar a Excel' }));
  expect(report.name).toMatch(/\.xlsx$/);
  expect(report.cells).toEqual(expect.arrayContaining(['Yerba Exportable 1 kg', 'Lucía Exportadora']));
  // A backwards custom range is refused and shows no figures (not the previous period's).
  await page.getByRole('button', { name: 'Personalizado' }).click();
  await page.getByLabel('Desde').fill('2026-11-20');
  await page.getByLabel('Hasta').fill('2026-11-10');
  await expect(page.getByText('La fecha desde no puede ser posterior a la fecha hasta.')).toBeVisible();
  await expect(page.getByText('Total vendido')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Exportar a Excel' })).toBeDisabled();

  // The sale itself: its number and customer on one row of the sales sheet.
  expect(report.rows.some((r) => r[0] === String(venta.numero) && r.includes('Lucía Exportadora'))).toBe(true);
});
