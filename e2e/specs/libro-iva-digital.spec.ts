import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * Libro IVA Digital (issue 32 point 8): the accountant downloads the TXT files ARCA's importer
 * takes, for ventas from Facturación and for compras from Órdenes de compra.
 */

const ARCA_URL = process.env.E2E_ARCA_URL!;
const CUIT = '30-71234567-1';

async function api(
  request: APIRequestContext,
  user: E2EUser,
  method: 'get' | 'post' | 'put',
  path: string,
  data?: object,
) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

/** Clicks a download button (or menu item) and answers the file's name and its records (CRLF-ended, ISO-8859-1). */
async function download(page: Page, name: string, role: 'button' | 'menuitem' = 'button') {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole(role, { name }).click()]);
  const text = (await readFile((await file.path())!)).toString('latin1');
  expect(text.endsWith('\r\n')).toBe(true);
  return { filename: file.suggestedFilename(), records: text.slice(0, -2).split('\r\n') };
}

async function shots(page: Page, name: string) {
  for (const size of [
    { name: '1440', width: 1440, height: 900 },
    { name: '1024', width: 1024, height: 768 },
    { name: '390', width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    if (process.env.SHOTS_DIR)
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}-${size.name}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('Libro IVA Digital: the ventas and compras TXT files download from their screens, fixed-width as ARCA reads them', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await request.post(`${ARCA_URL}/__control/reset`);
  // The strict fake knows the CUIT and its punto de venta (its control endpoint registers them).
  await request.post(`${ARCA_URL}/__control/cuit`, { data: { cuit: CUIT, puntos_venta: [{ nro: 2 }] } });
  const owner = await createUser(request, 'Contadora');
  const businessId = await createBusiness(request, owner, 'Librería Contable');
  const b = `/businesses/${businessId}`;
  const { csr_pem } = await api(request, owner, 'post', `${b}/facturacion/csr`, {
    cuit: CUIT,
    razon_social: 'Librería Contable',
  });
  const { certificado_pem } = await (
    await request.post(`${ARCA_URL}/__control/certificado`, { data: { csr_pem } })
  ).json();
  await api(request, owner, 'put', `${b}/facturacion/config`, {
    cuit: CUIT,
    razon_social: 'Librería Contable',
    condicion_iva: 'responsable_inscripto',
    punto_venta: 2,
    certificado_pem,
  });
  const cuaderno = await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Cuaderno',
    precio_venta: 1210,
    stock_actual: 50,
  });
  const libro = await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Libro',
    precio_venta: 1105,
    stock_actual: 50,
    iva: '10.5',
  });
  const venta = await api(request, owner, 'post', '/ventas/record-sale', {
    negocio_id: businessId,
    metodo_pago: 'efectivo',
    facturar: true,
    items: [
      { id: cuaderno.id, cantidad: 1 },
      { id: libro.id, cantidad: 1 },
    ],
  });
  await expect
    .poll(
      async () =>
        (await api(request, owner, 'get', `${b}/facturacion/comprobantes?venta_id=${venta.id}`)).comprobantes[0]
          ?.estado,
    )
    .toBe('autorizado');
  const proveedor = await api(request, owner, 'post', `${b}/proveedores`, {
    nombre: 'Papelera Sur',
    cuit: '30-50001091-2',
  });
  const hoy: string = (await api(request, owner, 'get', `${b}/facturacion/comprobantes?venta_id=${venta.id}`))
    .comprobantes[0].fecha;
  await api(request, owner, 'post', `${b}/compras`, {
    proveedor_id: proveedor.id,
    fecha: hoy,
    items: [{ producto_id: cuaderno.id, cantidad: 10, precio_unitario: 500 }],
    factura: {
      tipo: 'A',
      punto_venta: 4,
      numero: 321,
      fecha: hoy,
      iva: [{ alicuota: '21', neto: 5000, iva: 1050 }],
      total: 6050,
    },
  });
  const mes = hoy.slice(0, 7);
  const periodo = mes.replace('-', '');

  await signIn(page, owner, businessId);
  await page.goto('/facturacion');
  await page.getByLabel('Mes', { exact: true }).fill(mes);
  await expect(page.getByRole('button', { name: 'Libro IVA Digital (ARCA) — ventas: comprobantes' })).toBeVisible();
  await shots(page, 'libro-iva-digital-ventas');
  const cbte = await download(page, 'Libro IVA Digital (ARCA) — ventas: comprobantes');
  expect(cbte.filename).toBe(`REGINFO_CV_VENTAS_CBTE_${periodo}.txt`);
  expect(cbte.records.map((r) => r.length)).toEqual([266]);
  expect(cbte.records[0].slice(8, 16)).toBe('00600002');
  const alic = await download(page, 'Libro IVA Digital (ARCA) — ventas: alícuotas');
  expect(alic.filename).toBe(`REGINFO_CV_VENTAS_ALICUOTAS_${periodo}.txt`);
  expect(alic.records.map((r) => [r.length, r.slice(43, 47)]).sort()).toEqual([
    [62, '0004'],
    [62, '0005'],
  ]);

  await page.goto('/compras');
  await page.getByLabel('Mes del Libro IVA Compras').fill(mes);
  await shots(page, 'libro-iva-digital-compras');
  // The two files are a menu next to the .xlsx, so the header keeps one row of buttons.
  const menu = page.getByRole('button', { name: 'Libro IVA Digital (ARCA)' });
  await menu.click();
  await expect(page.getByRole('menuitem', { name: 'Compras: alícuotas (.txt)' })).toBeVisible();
  for (const size of [
    { name: '1440', width: 1440, height: 900 },
    { name: '390', width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    if (process.env.SHOTS_DIR)
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/libro-iva-digital-compras-menu-${size.name}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  const compras = await download(page, 'Compras: comprobantes (.txt)', 'menuitem');
  expect(compras.filename).toBe(`REGINFO_CV_COMPRAS_CBTE_${periodo}.txt`);
  expect(compras.records.map((r) => r.length)).toEqual([325]);
  expect(compras.records[0].slice(52, 74)).toBe(`80${'30500010912'.padStart(20, '0')}`);
  await menu.click();
  const comprasAlic = await download(page, 'Compras: alícuotas (.txt)', 'menuitem');
  expect(comprasAlic.filename).toBe(`REGINFO_CV_COMPRAS_ALICUOTAS_${periodo}.txt`);
  expect(comprasAlic.records).toEqual([
    `001${'4'.padStart(5, '0')}${'321'.padStart(20, '0')}80${'30500010912'.padStart(20, '0')}${'500000'.padStart(15, '0')}0005${'105000'.padStart(15, '0')}`,
  ]);
});
