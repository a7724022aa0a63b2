import { rmSync, writeFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { CLOCK_APP_PORT, CLOCK_FILE } from '../playwright.config';
import { leerPdf } from '../support/pdf';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * Issue 35: the invoice of a sale, shared from the POS: its link opens the PDF without any
 * session, and once a week has gone by (the clock server moved ahead) it has expired and says so.
 * Runs on the clock server, which invoices against the fake ARCA.
 */

const SHOTS = process.env.SHOTS_DIR;
const ARCA_URL = process.env.E2E_ARCA_URL!;
const EMISOR_CUIT = '30-71234567-1';
const DAY = 86_400_000;

// The server whose clock these journeys move (project "one-at-a-time": nothing else runs beside them).
test.use({ baseURL: `http://localhost:${CLOCK_APP_PORT}` });

test.afterEach(() => rmSync(CLOCK_FILE, { force: true }));

async function api(request: APIRequestContext, user: E2EUser, method: 'post' | 'put', path: string, data: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
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
    await page.screenshot({ path: `${SHOTS}/${name}-${size.w}x${size.h}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a shared invoice opens without login and expires after a week', async ({ page, browser, request }) => {
  test.setTimeout(SHOTS ? 180_000 : 90_000);
  await request.post(`${ARCA_URL}/__control/reset`);
  // ARCA's portal: a responsable inscripto with punto de venta 1 enabled for web services.
  await request.post(`${ARCA_URL}/__control/cuit`, {
    data: { cuit: EMISOR_CUIT, condicion: 'responsable_inscripto', puntos_venta: [{ nro: 1 }] },
  });
  const owner = await createUser(request, 'Dora');
  const businessId = await createBusiness(request, owner, 'Librería Dora');
  const b = `/businesses/${businessId}`;
  const { csr_pem } = await api(request, owner, 'post', `${b}/facturacion/csr`, {
    cuit: EMISOR_CUIT,
    razon_social: 'Librería Dora',
  });
  const { certificado_pem } = await (
    await request.post(`${ARCA_URL}/__control/certificado`, { data: { csr_pem } })
  ).json();
  await api(request, owner, 'put', `${b}/facturacion/config`, {
    cuit: EMISOR_CUIT,
    razon_social: 'Librería Dora',
    condicion_iva: 'responsable_inscripto',
    punto_venta: 1,
    facturar: 'siempre',
    certificado_pem,
  });
  await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Cuaderno rayado',
    codigo: 'CUA-1',
    precio_venta: 2420,
    stock_actual: 20,
  });

  await signIn(page, owner, businessId);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/pos');
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially('CUA-1');
  await search.press('Enter');
  await expect(page.getByLabel('Cantidad de Cuaderno rayado')).toHaveValue('1');
  await page.keyboard.press('F9');
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done.getByTestId('pos-comprobante')).toHaveAttribute('data-estado', 'autorizado', { timeout: 30_000 });
  await done.getByRole('button', { name: 'Compartir factura' }).click();

  const share = page.getByRole('dialog', { name: 'Compartir' });
  const link = share.getByRole('textbox', { name: 'Enlace' });
  await expect(link).toHaveValue(/\/api\/v1\/documentos\/[\w-]+\.[\w-]{43}$/);
  const url = await link.inputValue();
  const whatsapp = share.getByRole('link', { name: 'Enviar por WhatsApp' });
  // A sale to consumidor final: WhatsApp asks whom to send it to; the message carries the link.
  const wa = new URL((await whatsapp.getAttribute('href'))!);
  expect(wa.origin + wa.pathname).toBe('https://wa.me/');
  expect(wa.searchParams.get('text')).toContain(url);
  expect(wa.searchParams.get('text')).toMatch(/^Hola, te compartimos Factura B 0001-\d{8} de Librería Dora: /);
  await expect(share.getByTestId('compartir-vence')).toContainText(
    'Cualquiera con el enlace ve el PDF sin iniciar sesión',
  );
  await shoot(page, share, 'compartir-factura');

  // Without any session: the PDF of the invoice.
  const anon = await browser.newContext();
  const open = await anon.request.get(url);
  expect(open.status()).toBe(200);
  expect(open.headers()['content-type']).toBe('application/pdf');
  const pdf = await leerPdf(await open.body());
  expect(pdf.textos).toEqual(expect.arrayContaining(['Librería Dora', 'FACTURA B', 'Cuaderno rayado']));
  expect(pdf.textos.some((t) => t.startsWith('CAE N.º: '))).toBe(true);

  // A week later it has expired: the API says so, and a browser shows a page saying it.
  writeFileSync(CLOCK_FILE, String(7 * DAY + 60_000));
  await new Promise((r) => setTimeout(r, 250));
  const expired = await anon.request.get(url);
  expect(expired.status()).toBe(410);
  expect((await expired.json()).detail).toBe('El enlace venció: pedile al comercio que te lo comparta de nuevo.');
  const visitor = await anon.newPage();
  await visitor.goto(url);
  await expect(visitor.getByText('El enlace venció: pedile al comercio que te lo comparta de nuevo.')).toBeVisible();
  await shoot(visitor, visitor.getByRole('heading', { name: 'Documento compartido' }), 'compartir-vencido');
  await anon.close();
});
