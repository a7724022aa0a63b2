import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * Issue 33, point 6: a supplier's list with costs up 8–12 % lowers a price through a stored
 * margin rule. The preview shows that decrease apart and flagged, «No bajar precios» keeps the
 * price, and the row that matched no product is listed (in the preview and after applying).
 */

const SHOTS = process.env.SHOTS_DIR;

async function send(request: APIRequestContext, user: E2EUser, method: 'post' | 'put', path: string, data: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

/** The distributor's Excel: a title row above the header, one row per product, one the shop does not have. */
async function lista() {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Lista');
  ws.addRow(['Pinturas del Oeste S.R.L. — Lista de precios']);
  ws.addRow([]);
  ws.addRow(['Código', 'Descripción', 'Costo']);
  ws.addRow(['LAT-4', 'LATEX INTERIOR 4 L', 1100]);
  ws.addRow(['ESM-1', 'ESMALTE SINTETICO 1 L', 540]);
  ws.addRow(['LIJ-120', 'LIJA AL AGUA 120', 224]);
  ws.addRow(['ROD-22', 'RODILLO LANA 22 CM', 850.5]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The page at each size, with `target` scrolled into view (the dialog scrolls on its own). */
async function shoot(page: Page, target: Locator, name: string) {
  if (!SHOTS) return;
  for (const size of [
    { w: 1440, h: 900 },
    { w: 1024, h: 768 },
    { w: 390, h: 844 },
  ]) {
    await page.setViewportSize({ width: size.w, height: size.h });
    await target.scrollIntoViewIfNeeded();
    await expect(target).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/${name}-${size.w}x${size.h}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a supplier list that lowers a price: flagged apart, kept with «No bajar precios», and its unmatched row listed', async ({
  page,
  request,
}) => {
  // Nine screenshots at three sizes on top of the journey.
  test.setTimeout(SHOTS ? 180_000 : 60_000);
  const owner = await createUser(request, 'Beto');
  const businessId = await createBusiness(request, owner, 'Pinturería Beto');
  const base = `/businesses/${businessId}`;
  const pinturas = await send(request, owner, 'post', `${base}/categories`, { nombre: 'Pinturas' });
  await send(request, owner, 'put', `${base}/reglas-margen`, { categoria_id: pinturas.id, margen: 30 });
  const product = (nombre: string, codigo: string, costo: number, precio: number, categoria_id: string | null) =>
    send(request, owner, 'post', `${base}/products`, {
      nombre,
      codigo,
      categoria_id,
      precio_compra: costo,
      precio_venta: precio,
      stock_actual: 4,
    });
  await product('Látex interior 4 L', 'LAT-4', 1000, 1600, pinturas.id);
  await product('Esmalte sintético 1 L', 'ESM-1', 500, 600, pinturas.id);
  await product('Lija al agua 120', 'LIJ-120', 200, 300, null);

  await signIn(page, owner, businessId);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/products-and-services?tab=listas');
  await page.getByRole('button', { name: 'Lista de proveedor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Actualizar con la lista de un proveedor' });
  await dialog.getByLabel('Archivo de la lista (Excel o CSV)').setInputFiles({
    name: 'pinturas-oeste.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await lista(),
  });
  await dialog.getByLabel('Buscar los productos por').selectOption('codigo');
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();

  const cambios = dialog.getByRole('region', { name: 'Cambios de la lista' });
  await expect(cambios).toContainText('4 filas · 3 productos cambian · 1 baja de precio · 1 sin coincidencia');
  // The decrease, apart and flagged: 1.100 + 30 % = 1.430, under the 1.600 it sells at.
  const bajas = cambios.getByRole('region', { name: /baja de precio con esta lista/ });
  await expect(bajas.getByRole('heading')).toHaveText('Atención: 1 producto baja de precio con esta lista');
  const latex = bajas.getByRole('row', { name: /Látex interior 4 L/ });
  await expect(latex).toContainText('Baja de precio');
  await expect(latex).toContainText('$ 1.600,00 → $ 1.430,00');
  // The rises are in their own table.
  const resto = cambios.getByRole('table', { name: 'Productos que suben o mantienen su precio' });
  await expect(resto.getByRole('row', { name: /Esmalte sintético 1 L/ })).toContainText('$ 600,00 → $ 702,00');
  await expect(resto.getByRole('row', { name: /Lija al agua 120/ })).toContainText('$ 300,00 → $ 336,00');
  await expect(resto).not.toContainText('Látex');
  // The row that matched nothing: its row, code, description and cost.
  const sinCoincidencia = dialog.getByRole('region', { name: '1 fila sin coincidencia' });
  const rodillo = sinCoincidencia.getByRole('row', { name: /ROD-22/ });
  await expect(rodillo.getByRole('cell')).toHaveText(['7', 'ROD-22', 'RODILLO LANA 22 CM', '$ 850,50']);
  await shoot(page, cambios, 'lista-proveedor-bajas');

  // «No bajar precios», from the keyboard: the preview is read again and the price stays.
  const noBajar = bajas.getByRole('checkbox', { name: /No bajar precios/ });
  await noBajar.focus();
  await page.keyboard.press('Space');
  await expect(noBajar).toBeChecked();
  await expect(latex).toContainText('Mantiene su precio');
  await expect(latex).toContainText('$ 1.600,00 (bajaba a $ 1.430,00)');
  await shoot(page, bajas, 'lista-proveedor-no-bajar');

  await dialog.getByRole('button', { name: 'Aplicar a 3 productos' }).click();
  await expect(dialog.getByRole('status')).toContainText('Se actualizaron 3 productos.');
  await expect(dialog.getByText('1 producto que bajaba de precio mantuvo su precio (se actualizó su costo).')).toBeVisible();
  await expect(
    dialog.getByRole('region', { name: '1 fila sin coincidencia' }).getByRole('row', { name: /ROD-22/ }),
  ).toBeVisible();
  await shoot(page, dialog.getByRole('status'), 'lista-proveedor-aplicada');
  await dialog.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByText('Lista de proveedor aplicada: 3 productos.')).toBeVisible();

  const products = await (
    await request.get(`/api/v1${base}/products?limit=10`, { headers: { authorization: `Bearer ${owner.token}` } })
  ).json();
  const by = Object.fromEntries(products.map((p: { nombre: string }) => [p.nombre, p]));
  expect(by['Látex interior 4 L']).toMatchObject({ precio_compra: 1100, precio_venta: 1600 });
  expect(by['Esmalte sintético 1 L']).toMatchObject({ precio_compra: 540, precio_venta: 702 });
  expect(by['Lija al agua 120']).toMatchObject({ precio_compra: 224, precio_venta: 336 });
  // The choice is remembered on this device for the next list.
  expect(await page.evaluate((id) => localStorage.getItem(`mostrador.no-bajar-precios.${id}`), businessId)).toBe(
    'true',
  );
});
