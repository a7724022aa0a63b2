import { expect, test, type APIRequestContext } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

const ARCA_URL = process.env.E2E_ARCA_URL!;
const CUIT = '30-71234567-1';
async function api(request: APIRequestContext, user: E2EUser, method: 'get' | 'post' | 'put', path: string, data?: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}
const SIZES = [
  [1440, 900],
  [1024, 768],
  [390, 844],
] as const;

test('shots: emitir factura of a sale with services, and the config form default', async ({ page, request }) => {
  test.setTimeout(120_000);
  await request.post(`${ARCA_URL}/__control/cuit`, { data: { cuit: CUIT, condicion: 'responsable_inscripto', puntos_venta: [{ nro: 1 }] } });
  const owner = await createUser(request, 'Shots');
  const id = await createBusiness(request, owner, 'Estudio Shots');
  const b = `/businesses/${id}`;
  await signIn(page, owner, id);
  // The config form of a new setup.
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('/facturacion?tab=config');
    const form = page.getByRole('form', { name: 'Configuración fiscal' });
    await expect(form.getByLabel('En el punto de venta')).toHaveValue('siempre');
    await form.getByLabel('En el punto de venta').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/arca-wsfe-shots/config-${w}x${h}.png` });
  }
  const { csr_pem } = await api(request, owner, 'post', `${b}/facturacion/csr`, { cuit: CUIT, razon_social: 'Estudio' });
  const { certificado_pem } = await (await request.post(`${ARCA_URL}/__control/certificado`, { data: { csr_pem } })).json();
  await api(request, owner, 'put', `${b}/facturacion/config`, {
    cuit: CUIT, razon_social: 'Estudio Shots SRL', condicion_iva: 'responsable_inscripto', punto_venta: 1, facturar: 'elegir', certificado_pem,
  });
  const svc = await api(request, owner, 'post', `${b}/services`, { nombre: 'Mantenimiento mensual', precio: 24200 });
  await api(request, owner, 'post', '/ventas/record-sale', {
    negocio_id: id, metodo_pago: 'efectivo', items: [{ id: svc.id, tipo: 'servicio', cantidad: 1 }],
  });
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('/reports');
    await page.getByRole('button', { name: /Venta #1/ }).click();
    const region = page.getByRole('region', { name: 'Facturación de la venta #1' });
    await region.getByRole('button', { name: 'Emitir factura' }).click();
    const dialog = page.getByRole('dialog', { name: 'Emitir factura de la venta #1' });
    await expect(dialog.getByLabel('Vencimiento del pago')).toBeVisible();
    await dialog.getByLabel('Hasta').fill('2020-01-01');
    await dialog.getByRole('button', { name: 'Emitir factura' }).click();
    await expect(dialog.getByText('El fin del período del servicio no puede ser anterior a su inicio.')).toBeVisible();
    await page.screenshot({ path: `/tmp/arca-wsfe-shots/emitir-${w}x${h}.png` });
    await page.keyboard.press('Escape');
  }
});
