import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/* Facturación electrónica (issue 16) against the fake ARCA that playwright.config.ts starts. */

const ARCA_URL = process.env.E2E_ARCA_URL!;
const EMISOR_CUIT = '30-71234567-1';

async function api(request: APIRequestContext, user: E2EUser, method: 'get' | 'post', path: string, data?: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function addToCart(page: Page, text: string, nombre: string) {
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially(text);
  await search.press('Enter');
  await expect(
    page.getByRole('list', { name: 'Ítems del carrito' }).getByRole('listitem', { name: nombre }),
  ).toBeVisible();
}

/** window.print() records what the print root shows instead of opening the dialog. */
async function capturePrint(page: Page) {
  await page.evaluate(() => {
    window.print = () => {
      const root = document.getElementById('ticket-print-root')!;
      const shown = [...root.querySelectorAll<HTMLElement>('.invoice-print')];
      (window as unknown as { printed: string }).printed = shown.map((e) => e.textContent).join('\n');
    };
  });
}
const printed = (page: Page) => page.evaluate(() => (window as unknown as { printed: string }).printed);

test('facturación: the fiscal setup with a CSR signed by ARCA, Factura B and A from the POS with CAE and QR, and a void issues its nota de crédito', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await request.post(`${ARCA_URL}/__control/reset`);
  // ARCA's portal: the CUIT is a responsable inscripto with punto de venta 1 enabled for web services.
  await request.post(`${ARCA_URL}/__control/cuit`, {
    data: { cuit: EMISOR_CUIT, condicion: 'responsable_inscripto', puntos_venta: [{ nro: 1 }] },
  });
  const owner = await createUser(request, 'Rosa');
  const businessId = await createBusiness(request, owner, 'Almacén Rosa');
  const b = `/businesses/${businessId}`;
  await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Yerba mate 1 kg',
    precio_venta: 1210,
    stock_actual: 20,
  });
  await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Harina 000',
    precio_venta: 1105,
    stock_actual: 20,
    iva: '10.5',
  });
  await signIn(page, owner, businessId);

  // Products carry their IVA rate: 21 % unless said otherwise.
  await page.goto('/products-and-services');
  await page
    .getByRole('table', { name: 'Productos' })
    .getByRole('row')
    .filter({ hasText: 'Harina 000' })
    .getByRole('button', { name: 'Acciones de Harina 000' })
    .click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  await expect(page.getByRole('dialog').getByLabel('Alícuota de IVA')).toHaveValue('10.5');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Nuevo producto' }).first().click();
  await expect(page.getByRole('dialog').getByLabel('Alícuota de IVA')).toHaveValue('21');
  await page.keyboard.press('Escape');

  // Nothing issued yet: the empty state sends to the setup.
  await page.goto('/home');
  await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Facturación' }).click();
  await expect(page.getByText('Todavía no emitiste comprobantes')).toBeVisible();
  await page.getByRole('link', { name: 'configurá la facturación' }).click();
  const form = page.getByRole('form', { name: 'Configuración fiscal' });
  await form.getByLabel(/^CUIT/).fill('30-71234567-2');
  await form.getByLabel('Razón social').fill('Almacén Rosa SRL');
  await form.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(form.getByText('CUIT no válido: revisá el dígito verificador.')).toBeVisible();
  await form.getByLabel(/^CUIT/).fill(EMISOR_CUIT);
  await form.getByLabel('Condición frente al IVA').selectOption('responsable_inscripto');
  // A responsable inscripto invoices every sale unless it chooses otherwise; this shop chooses per sale.
  await expect(form.getByLabel('En el punto de venta')).toHaveValue('siempre');
  await form.getByLabel('En el punto de venta').selectOption('elegir');
  await form.getByLabel('Inicio de actividades').fill('2020-03-01');
  await form.getByLabel('Ingresos Brutos (N.º)').fill('901-123456-7');
  await form.getByLabel('Domicilio fiscal').fill('Av. Rivadavia 1234, CABA');
  await form.getByLabel('Punto de venta principal').fill('1');

  // The key and the CSR are made here; "ARCA's portal" (the fake) signs it; the certificate goes back in.
  const download = page.waitForEvent('download');
  await form.getByRole('button', { name: 'Generar pedido (CSR)' }).click();
  const csrPem = await readFile((await (await download).path())!, 'utf8');
  expect(csrPem).toContain('CERTIFICATE REQUEST');
  await expect(form.getByTestId('cert-state')).toContainText('Clave privada cargada');
  const signed = await request.post(`${ARCA_URL}/__control/certificado`, { data: { csr_pem: csrPem } });
  const { certificado_pem } = await signed.json();
  await form.getByLabel('Certificado de ARCA (.crt o .pem)').setInputFiles({
    name: 'mostrador.crt',
    mimeType: 'application/x-x509-ca-cert',
    buffer: Buffer.from(certificado_pem),
  });
  await form.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(page.getByText('Configuración fiscal guardada.')).toBeVisible();
  await expect(form.getByTestId('cert-state')).toContainText(/Certificado cargado · CUIT 30-?71234567-?1 · vence el/);
  await form.getByRole('button', { name: 'Probar conexión' }).click();
  await expect(form.getByTestId('probar-result')).toContainText('La conexión con ARCA funciona.');

  // A responsable inscripto customer, filled from ARCA's padrón (it needs the certificate).
  await page.goto('/customers');
  await page.getByRole('button', { name: 'Nuevo cliente' }).first().click();
  const nuevo = page.getByRole('dialog', { name: 'Nuevo cliente' });
  await nuevo.getByLabel('Tipo de documento').selectOption('CUIT');
  await nuevo.getByLabel('Número').fill('30500010912');
  await nuevo.getByRole('button', { name: 'Buscar en ARCA' }).click();
  await expect(nuevo.getByLabel('Nombre o razón social')).toHaveValue(/TREBOL/i);
  await expect(nuevo.getByLabel('Condición frente al IVA')).toHaveValue('responsable_inscripto');
  await nuevo.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(nuevo).toBeHidden();

  // Factura B to a consumidor final: the toggle by keyboard, the sale at once, then the CAE.
  await page.goto('/pos');
  await addToCart(page, 'Yerba', 'Yerba mate 1 kg');
  const facturar = page.getByLabel('Facturar (factura electrónica ARCA)');
  await facturar.focus();
  await page.keyboard.press('Space');
  await expect(facturar).toBeChecked();
  await page.keyboard.press('F9');
  let done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  let estado = done.getByTestId('pos-comprobante');
  await expect(estado).toHaveAttribute('data-estado', 'autorizado', { timeout: 20_000 });
  await expect(estado).toContainText('Factura B 0001-00000001');
  await expect(estado).toContainText(/CAE \d{14}/);
  await capturePrint(page);
  await done.getByRole('button', { name: 'Factura 80 mm' }).click();
  const text = await printed(page);
  expect(text).toContain('FACTURA');
  expect(text).toContain('Cód. 006');
  expect(text).toContain('0001-00000001');
  expect(text).toContain('Almacén Rosa SRL');
  expect(text).toContain('IVA contenido');
  expect(text).toMatch(/CAE N\.º: \d{14}/);
  await expect(page.locator('#ticket-print-root .invoice-print [data-testid="arca-qr"]').first()).toBeAttached();
  await done.getByRole('button', { name: 'Nueva venta' }).click();

  // Factura A to the responsable inscripto: IVA discriminated.
  await addToCart(page, 'Harina', 'Harina 000');
  const cliente = page.getByRole('combobox', { name: /Cliente/ });
  await cliente.pressSequentially('TREBOL');
  await cliente.press('ArrowDown');
  await cliente.press('Enter');
  await facturar.check();
  await page.keyboard.press('F9');
  done = page.getByRole('dialog', { name: 'Venta #2 registrada' });
  estado = done.getByTestId('pos-comprobante');
  await expect(estado).toHaveAttribute('data-estado', 'autorizado', { timeout: 20_000 });
  await expect(estado).toContainText('Factura A 0001-00000001');
  await done.getByRole('button', { name: 'Nueva venta' }).click();

  // ARCA refuses one: the sale stands, the POS says why and what to do, and Reintentar gets the CAE.
  await request.post(`${ARCA_URL}/__control`, { data: { reject_code: '10246' } });
  await addToCart(page, 'Yerba', 'Yerba mate 1 kg');
  await facturar.check();
  await page.keyboard.press('F9');
  done = page.getByRole('dialog', { name: 'Venta #3 registrada' });
  estado = done.getByTestId('pos-comprobante');
  await expect(estado).toHaveAttribute('data-estado', 'rechazado', { timeout: 20_000 });
  await expect(estado).toContainText('Factura B rechazada por ARCA.');
  await expect(estado).toContainText('Falta la condición frente al IVA del cliente: cargala en su ficha y reintentá.');
  await expect(done.getByRole('button', { name: 'Factura 80 mm' })).toHaveCount(0);
  await request.post(`${ARCA_URL}/__control/reset`);
  await estado.getByRole('button', { name: 'Reintentar' }).click();
  await expect(estado).toHaveAttribute('data-estado', 'autorizado', { timeout: 20_000 });
  await expect(estado).toContainText('Factura B 0001-00000002');
  await done.getByRole('button', { name: 'Nueva venta' }).click();

  // The list, and the A's preview with the QR and the CAE.
  await page.goto('/facturacion');
  await expect(
    page.getByRole('table', { name: 'Comprobantes' }).getByRole('button', { name: /^Ver e imprimir/ }),
  ).toHaveCount(3);
  await page.getByRole('button', { name: 'Ver e imprimir Factura A 0001-00000001' }).click();
  const preview = page.getByRole('dialog', { name: 'Factura A 0001-00000001' });
  const doc = preview.getByTestId('invoice-document');
  await expect(doc).toContainText('Cód. 001');
  await expect(doc).toContainText('Importe neto gravado');
  await expect(doc).toContainText('IVA 10,5 %');
  await expect(doc).toContainText(/TREBOL/i);
  await expect(doc).toContainText(/CAE N\.º: \d{14}/);
  await expect(preview.getByRole('img', { name: 'Código QR de ARCA' })).toBeVisible();
  expect(await preview.getByTestId('arca-qr').getAttribute('data-url')).toMatch(
    /^https:\/\/www\.afip\.gob\.ar\/fe\/qr\/\?p=/,
  );
  await preview.getByRole('button', { name: 'Vista A4' }).click();
  await expect(doc).toContainText('Alícuota IVA');
  await preview.getByRole('button', { name: 'Cerrar' }).last().click();

  // A past sale without invoice: Emitir factura to a CUIT found in ARCA's padrón (a monotributista: A).
  const yerbaId = (await api(request, owner, 'get', `${b}/products`, undefined)).find(
    (p: { nombre: string }) => p.nombre === 'Yerba mate 1 kg',
  ).id;
  await api(request, owner, 'post', '/ventas/record-sale', {
    negocio_id: businessId,
    metodo_pago: 'efectivo',
    items: [{ id: yerbaId, cantidad: 1 }],
  });
  await page.goto('/reports');
  await page.getByRole('button', { name: /Venta #4/ }).click();
  const venta4 = page.getByRole('region', { name: 'Facturación de la venta #4' });
  await expect(venta4).toContainText('La venta no tiene factura.');
  await venta4.getByRole('button', { name: 'Emitir factura' }).click();
  const emitir = page.getByRole('dialog', { name: 'Emitir factura de la venta #4' });
  await emitir.getByLabel('Con CUIT o DNI').check();
  await emitir.getByLabel('Número').fill('20-12345678-6');
  await emitir.getByRole('button', { name: 'Buscar en ARCA' }).click();
  await expect(emitir.getByLabel('Nombre o razón social')).toHaveValue(/PEREZ/i);
  await expect(emitir.getByLabel('Condición frente al IVA')).toHaveValue('monotributista');
  await emitir.getByRole('button', { name: 'Emitir factura' }).click();
  const emitida = page.getByRole('dialog', { name: /^Factura A 0001-/ });
  await expect(emitida.getByTestId('invoice-cae')).toContainText(/CAE N\.º: \d{14}/, { timeout: 20_000 });
  await expect(emitida.getByTestId('invoice-document')).toContainText(/PEREZ/i);
  await emitida.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(venta4.getByTestId('venta-comprobante')).toContainText('Factura A 0001-00000002');

  // Voiding the B issues its nota de crédito, shown in the sale's detail.
  await page.goto('/reports');
  await page.getByRole('button', { name: /Venta #1/ }).click();
  const ventaFc = page.getByRole('region', { name: 'Facturación de la venta #1' });
  await expect(ventaFc.getByTestId('venta-comprobante')).toContainText('Factura B 0001-00000001');
  await page.getByRole('button', { name: 'Anular' }).click();
  await page
    .getByRole('dialog', { name: '¿Anular la venta #1?' })
    .getByRole('button', { name: 'Anular venta' })
    .click();
  await expect(
    ventaFc.getByTestId('venta-comprobante').filter({ hasText: 'Nota de crédito B 0001-00000001' }),
  ).toContainText('Autorizado', { timeout: 20_000 });
  await ventaFc
    .getByTestId('venta-comprobante')
    .filter({ hasText: 'Nota de crédito B' })
    .getByRole('button', { name: 'Ver' })
    .click();
  const nc = page.getByRole('dialog', { name: 'Nota de crédito B 0001-00000001' });
  await expect(nc.getByTestId('invoice-document')).toContainText('NOTA DE CRÉDITO');
  await expect(nc.getByTestId('invoice-document')).toContainText('Asociada a: Factura B 0001-00000001');

  // The dashboard counts the month's authorised facturas (not the notas de crédito).
  await page.goto('/home');
  const card = page.getByText('Facturas Emitidas', { exact: true }).locator('xpath=../..');
  await expect(card).toHaveText(/^Facturas Emitidas\s*4$/);
});
