import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * Issue 32 point 6 (decision 0047) against the fake ARCA: the CAEA of the fortnight is asked
 * ahead, ARCA stops answering past the setting, a POS sale is invoiced under the CAEA (the ticket
 * prints the CAEA), and once ARCA answers again the comprobante is reported.
 */

const ARCA_URL = process.env.E2E_ARCA_URL!;
const EMISOR_CUIT = '30-71000600-4';
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/facturacion-caea';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

async function api(request: APIRequestContext, user: E2EUser, method: 'post' | 'put', path: string, data: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function shots(page: Page, name: string, focus?: Locator) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}x${size.height}.png` });
  }
  await page.setViewportSize(SIZES[0]);
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

test('CAEA: ARCA down past the setting, the POS invoices under the CAEA and prints it; when ARCA answers it is reported', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await request.post(`${ARCA_URL}/__control/reset`);
  // ARCA's portal: punto de venta 1 for CAE and 9 for CAEA.
  await request.post(`${ARCA_URL}/__control/cuit`, {
    data: {
      cuit: EMISOR_CUIT,
      condicion: 'responsable_inscripto',
      puntos_venta: [{ nro: 1 }, { nro: 9, emision_tipo: 'CAEA' }],
    },
  });
  const owner = await createUser(request, 'Rosa');
  const businessId = await createBusiness(request, owner, 'Despensa Rosa');
  const b = `/businesses/${businessId}`;
  const { csr_pem } = await api(request, owner, 'post', `${b}/facturacion/csr`, {
    cuit: EMISOR_CUIT,
    razon_social: 'Despensa Rosa',
  });
  const { certificado_pem } = await (
    await request.post(`${ARCA_URL}/__control/certificado`, { data: { csr_pem } })
  ).json();
  await api(request, owner, 'put', `${b}/facturacion/config`, {
    cuit: EMISOR_CUIT,
    razon_social: 'Despensa Rosa',
    condicion_iva: 'responsable_inscripto',
    punto_venta: 1,
    facturar: 'siempre',
    certificado_pem,
  });
  await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Yerba mate 1 kg',
    precio_venta: 1210,
    stock_actual: 20,
  });
  await page.setViewportSize(SIZES[0]);
  await signIn(page, owner, businessId);

  // The setting: punto de venta 9 for CAEA, at once when ARCA does not answer (0 minutes).
  await page.goto('/facturacion?tab=config');
  const form = page.getByRole('form', { name: 'Configuración fiscal' });
  await form.getByLabel('Punto de venta de CAEA').fill('1');
  await form.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(form.getByText('distinto de los puntos de venta con CAE')).toBeVisible();
  await form.getByLabel('Punto de venta de CAEA').fill('9');
  await form.getByLabel(/Pasar a CAEA después de/).fill('0');
  await form.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(page.getByText('Configuración fiscal guardada.')).toBeVisible();
  await shots(page, 'caea-ajustes', form.getByLabel('Punto de venta de CAEA'));

  // The fortnight's CAEA, asked now instead of waiting for the background pass.
  await page.getByRole('button', { name: 'Pedir e informar ahora' }).click();
  const vigente = page.getByTestId('caea-vigente');
  await expect(vigente).toContainText(/CAEA \d{14}/);
  await expect(vigente).toContainText('Informar hasta el');
  const caea = /CAEA (\d{14})/.exec((await vigente.textContent())!)![1];
  await shots(page, 'caea-config', vigente);

  // ARCA stops answering: the sale's invoice goes under the CAEA.
  await request.post(`${ARCA_URL}/__control`, { data: { down: true } });
  await page.goto('/pos');
  await expect(page.getByTestId('pos-facturar-siempre')).toBeVisible({ timeout: 30_000 });
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially('Yerba');
  await search.press('Enter');
  await expect(
    page.getByRole('list', { name: 'Ítems del carrito' }).getByRole('listitem', { name: 'Yerba mate 1 kg' }),
  ).toBeVisible();
  await page.keyboard.press('F9');
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  const estado = done.getByTestId('pos-comprobante');
  await expect(estado).toHaveAttribute('data-estado', 'autorizado', { timeout: 60_000 });
  await expect(estado).toContainText(`Factura B 0009-00000001 emitida con CAEA ${caea}`);
  await expect(estado).toContainText('es una factura válida');
  await capturePrint(page);
  await done.getByRole('button', { name: 'Factura 80 mm' }).click();
  const text = await printed(page);
  expect(text).toContain('0009-00000001');
  expect(text).toContain(`CAEA N.º: ${caea}`);
  expect(text).toContain('Vto. de CAEA');
  expect(text).not.toContain('NO VÁLIDO');
  await shots(page, 'caea-pos', estado);
  await done.getByRole('button', { name: 'Nueva venta' }).click();

  // Facturación: ARCA is down, the comprobante waits to be reported.
  await page.goto('/facturacion?tab=config');
  await expect(page.getByTestId('caea-contingencia')).toContainText('ARCA no responde desde');
  const pendiente = page.getByTestId('caea-por-informar');
  await expect(pendiente).toContainText('Factura B 0009-00000001');
  await expect(pendiente).toContainText('Por informar');
  await shots(page, 'caea-por-informar', pendiente);

  // ARCA answers again: reported, unless today is a fortnight's first day (ARCA takes the report
  // from the next day, 1414: the panel says when).
  await request.post(`${ARCA_URL}/__control`, { data: { down: false } });
  await page.getByRole('button', { name: 'Pedir e informar ahora' }).click();
  const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());
  if (['01', '16'].includes(hoy.slice(8))) {
    await expect(pendiente).toContainText('Se informa desde el');
    await expect(pendiente).toContainText('Por informar');
    return;
  }
  await expect(page.getByText('No hay comprobantes emitidos con CAEA pendientes de informar.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId('caea-contingencia')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Comprobantes' }).click();
  await expect(page.getByTestId('caea-informe').first()).toContainText('Emitida con CAEA · informada a ARCA');
  await shots(page, 'caea-comprobantes');
  // The invoice as printed from Facturación: valid, with the CAEA.
  await page.getByRole('button', { name: 'Ver e imprimir Factura B 0009-00000001' }).click();
  const pie = page.getByRole('dialog').getByTestId('invoice-cae').first();
  await expect(pie).toContainText(`CAEA N.º: ${caea}`);
  await shots(page, 'caea-factura', pie);
});
