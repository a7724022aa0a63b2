import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { leerPdf } from '../support/pdf';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * Issue 35: after a supplier's list is applied, «Imprimir etiquetas de lo que cambió» opens the labels
 * screen on exactly those products; the góndola sheet (PDF) has their new prices and the price
 * per unit of measure, the barcode sheet's bars decode to their codes — an internal 04 code for
 * the one that had none.
 */

const SHOTS = process.env.SHOTS_DIR;

async function send(request: APIRequestContext, user: E2EUser, method: 'post' | 'put', path: string, data: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function lista() {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Lista');
  ws.addRow(['Código', 'Descripción', 'Costo']);
  ws.addRow(['CAF-500', 'CAFE TOSTADO 500 G', 2000]);
  ws.addRow(['AZU-1', 'AZUCAR 1 KG', 800]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

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
    await page.screenshot({ path: `${SHOTS}/${name}-${size.w}x${size.h}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function descargar(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^etiquetas-(gondola|codigo)-\d{4}-\d{2}-\d{2}\.pdf$/);
  return leerPdf(await readFile(await download.path()));
}

test('labels of what a supplier list changed: góndola prices and price per kg, barcodes that decode', async ({
  page,
  request,
}) => {
  test.setTimeout(SHOTS ? 180_000 : 90_000);
  const owner = await createUser(request, 'Elsa');
  const businessId = await createBusiness(request, owner, 'Almacén Elsa');
  const base = `/businesses/${businessId}`;
  const almacen = await send(request, owner, 'post', `${base}/categories`, { nombre: 'Almacén' });
  await send(request, owner, 'put', `${base}/reglas-margen`, { categoria_id: almacen.id, margen: 50 });
  const product = (body: object) =>
    send(request, owner, 'post', `${base}/products`, { categoria_id: almacen.id, stock_actual: 5, ...body });
  await product({
    nombre: 'Café tostado 500 g',
    codigo: 'CAF-500',
    codigo_barras: '7791234000012',
    precio_compra: 1800,
    precio_venta: 2700,
    contenido: 500,
    contenido_unidad: 'g',
  });
  await product({
    nombre: 'Azúcar 1 kg',
    codigo: 'AZU-1',
    precio_compra: 700,
    precio_venta: 1050,
    contenido: 1,
    contenido_unidad: 'kg',
  });
  await product({ nombre: 'Fideos 500 g', codigo: 'FID-500', precio_compra: 500, precio_venta: 750 });

  await signIn(page, owner, businessId);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/products-and-services?tab=listas');
  await page.getByRole('button', { name: 'Lista de proveedor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Actualizar con la lista de un proveedor' });
  await dialog.getByLabel('Archivo de la lista (Excel o CSV)').setInputFiles({
    name: 'lista.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await lista(),
  });
  await dialog.getByLabel('Buscar los productos por').selectOption('codigo');
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();
  await dialog.getByRole('button', { name: 'Aplicar a 2 productos' }).click();
  await expect(dialog.getByRole('status')).toContainText('Se actualizaron 2 productos.');
  await dialog.getByRole('link', { name: 'Imprimir etiquetas de lo que cambió' }).click();

  await expect(page.getByRole('heading', { name: 'Etiquetas' })).toBeVisible();
  await expect(page.getByLabel('Cambiados por')).toHaveValue('lista_proveedor');
  await expect(page.getByTestId('etq-referencia')).toHaveText('Solo los productos de ese cambio.');
  await shoot(page, page.getByRole('button', { name: 'Descargar PDF' }), 'etiquetas');

  // Góndola: the new prices (cost + 50 %) and the price per kg; not the product the list left alone.
  const gondola = await descargar(page);
  expect(gondola.paginas).toHaveLength(1);
  expect(gondola.textos).toEqual(
    expect.arrayContaining([
      'Café tostado 500 g',
      '$ 3.000,00',
      'Precio por kg: $ 6.000,00',
      'Azúcar 1 kg',
      '$ 1.200,00',
      'Precio por kg: $ 1.200,00',
      'PRECIO SIN IMPUESTOS NACIONALES: $ 2.479,34',
    ]),
  );
  expect(gondola.textos).not.toContain('Fideos 500 g');

  // Barcodes: the café's EAN decodes; azúcar has none yet.
  await page.getByLabel('Plantilla').selectOption('codigo');
  const codigos = await descargar(page);
  expect(codigos.codigos).toEqual(['7791234000012']);
  expect(codigos.textos).toContain('Sin código de barras');

  // Chosen by hand: azúcar gets an internal code (GS1 prefix 04), and its label now decodes to it.
  await page.getByRole('radio', { name: 'Elegir productos' }).check();
  await page.getByLabel('Buscar productos').fill('azúcar');
  await page.getByRole('checkbox', { name: /Azúcar 1 kg/ }).check();
  await expect(page.getByText('1 producto no tiene código de barras')).toBeVisible();
  await shoot(page, page.getByRole('button', { name: 'Asignar códigos internos' }), 'etiquetas-codigo-interno');
  await page.getByRole('button', { name: 'Asignar códigos internos' }).click();
  await expect(page.getByRole('checkbox', { name: /Azúcar 1 kg/ })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Productos' })).toContainText('0400000000015');
  const interno = await descargar(page);
  expect(interno.codigos).toEqual(['0400000000015']);
});

test('after a bulk price change, «Imprimir etiquetas de lo que cambió» prints them on the caja’s Zebra (ZPL), with the new prices', async ({
  page,
  request,
}) => {
  test.setTimeout(SHOTS ? 180_000 : 90_000);
  const PRINTER = process.env.E2E_PRINTER_URL!;
  const owner = await createUser(request, 'Elsa');
  const businessId = await createBusiness(request, owner, 'Almacén Elsa Zebra');
  const b = `/businesses/${businessId}`;
  await send(request, owner, 'post', `${b}/products`, {
    nombre: 'Café tostado 500 g',
    codigo: 'CAF-500',
    precio_venta: 3000,
    contenido: 500,
    contenido_unidad: 'g',
  });
  await signIn(page, owner, businessId);
  await page.setViewportSize({ width: 1440, height: 900 });

  // The label printer, from the caja's form.
  await page.goto('/caja');
  await page.getByRole('button', { name: 'Editar Caja 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar Caja 1' });
  await dialog.getByLabel('Impresora de etiquetas', { exact: true }).selectOption('zpl');
  await dialog.getByLabel('IP o nombre de la impresora de etiquetas').fill('127.0.0.1');
  await dialog.getByLabel('Puerto de etiquetas').fill(process.env.E2E_PRINTER_PORT!);
  await dialog.getByLabel('Ancho (mm)').fill('200');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('El ancho de la etiqueta va de 25 a 110 mm.')).toBeVisible();
  await dialog.getByLabel('Ancho (mm)').fill('60');
  await shoot(page, dialog.getByRole('group', { name: 'Impresora de etiquetas' }), 'impresora-etiquetas-caja');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();

  // +10 % to everything: the notice links the labels of exactly that change.
  await page.goto('/products-and-services');
  await page.getByRole('button', { name: 'Actualizar precios' }).click();
  const bulk = page.getByRole('dialog', { name: 'Actualizar precios' });
  await bulk.getByLabel('Porcentaje').fill('10');
  await bulk.getByRole('button', { name: 'Ver vista previa' }).click();
  await bulk.getByRole('button', { name: 'Aplicar a 1 producto' }).click();
  const aviso = page.getByRole('status').filter({ hasText: 'Precios actualizados: 1 producto.' });
  await shoot(page, aviso, 'masivo-etiquetas');
  await aviso.getByRole('link', { name: 'Imprimir etiquetas de lo que cambió' }).click();
  await expect(page).toHaveURL(/\/etiquetas\?origen=masivo&referencia_id=[0-9a-f-]{36}$/);

  const antes = (await (await request.get(`${PRINTER}/__control`)).json()).etiquetas.length as number;
  await page.getByRole('button', { name: 'Imprimir en la impresora de etiquetas' }).click();
  const hecho = page.getByRole('status').filter({ hasText: 'Se imprimió 1 etiqueta en la impresora de Caja 1.' });
  await expect(hecho).toBeVisible();
  await shoot(page, hecho, 'etiquetas-zpl');
  const control = await (await request.get(`${PRINTER}/__control`)).json();
  expect(control.rechazados).toEqual([]);
  const [formato] = control.etiquetas[antes] as { textos: string[]; codigos: { codigo: string }[]; copias: number }[];
  expect(formato.textos).toContain('Café tostado 500 g');
  expect(formato.textos).toContain('$ 3.300,00');
  expect(formato.textos).toContain('Precio por kg: $ 6.600,00');
  expect(formato.copias).toBe(1);

  // A new cotización of the dollar: its status line links the labels of what it changed.
  const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());
  await send(request, owner, 'post', `${b}/cotizaciones`, { fecha: hoy, valor: 1000 });
  await send(request, owner, 'post', `${b}/products`, {
    nombre: 'Mecha importada 6 mm',
    moneda: 'USD',
    precio_usd: 2,
    precio_venta: 1,
  });
  await page.goto('/products-and-services?tab=listas');
  await page.getByRole('button', { name: 'Cambiar cotización' }).click();
  const cot = page.getByRole('dialog', { name: 'Cambiar cotización del dólar' });
  await cot.getByLabel('Pesos por dólar').fill('1100');
  await cot.getByRole('button', { name: 'Ver cambios' }).click();
  await cot.getByRole('button', { name: 'Aplicar cotización' }).click();
  await expect(cot).toHaveCount(0);
  const aplicada = page.getByRole('status').filter({ hasText: 'Cotización aplicada: cambió 1 precio.' });
  await shoot(page, aplicada, 'cotizacion-etiquetas');
  await aplicada.getByRole('link', { name: 'Imprimir etiquetas de lo que cambió' }).click();
  await expect(page).toHaveURL(/\/etiquetas\?origen=cotizacion&referencia_id=[0-9a-f-]{36}$/);
  const n = (await (await request.get(`${PRINTER}/__control`)).json()).etiquetas.length as number;
  await page.getByRole('button', { name: 'Imprimir en la impresora de etiquetas' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Se imprimió 1 etiqueta' })).toBeVisible();
  const [mecha] = (await (await request.get(`${PRINTER}/__control`)).json()).etiquetas[n] as { textos: string[] }[];
  expect(mecha.textos).toContain('Mecha importada 6 mm');
  expect(mecha.textos).toContain('$ 2.200,00');
});
