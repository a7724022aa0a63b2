import { expect, test, type APIRequestContext } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * "Probar conexión" in Facturación → Configuración tells the problems apart (decision 0039),
 * against the strict fake ARCA that playwright.config.ts starts: a punto de venta ARCA does not
 * list, one it blocked, a service the certificate is not associated with, ARCA unreachable, and
 * the working connection. Screenshots of a diagnosis at three widths.
 */

const ARCA_URL = process.env.E2E_ARCA_URL!;
const CUIT = '30-71111111-1';

async function api(request: APIRequestContext, user: E2EUser, method: 'post' | 'put', path: string, data: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

const cuit = (data: object) => ({ data: { cuit: CUIT, ...data } });

test('Probar conexión names the punto de venta, the service or the connection, each in its words', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  await request.post(`${ARCA_URL}/__control/reset`);
  const owner = await createUser(request, 'Probar');
  const businessId = await createBusiness(request, owner, 'Ferretería Probar');
  const b = `/businesses/${businessId}`;
  const { csr_pem } = await api(request, owner, 'post', `${b}/facturacion/csr`, {
    cuit: CUIT,
    razon_social: 'Ferretería Probar SA',
  });
  const { certificado_pem } = await (
    await request.post(`${ARCA_URL}/__control/certificado`, { data: { csr_pem } })
  ).json();
  await api(request, owner, 'put', `${b}/facturacion/config`, {
    cuit: CUIT,
    razon_social: 'Ferretería Probar SA',
    condicion_iva: 'responsable_inscripto',
    punto_venta: 2,
    certificado_pem,
  });
  // ARCA knows the CUIT with another punto de venta only.
  await request.post(`${ARCA_URL}/__control/cuit`, cuit({ puntos_venta: [7] }));

  await signIn(page, owner, businessId);
  await page.goto('/facturacion?tab=config');
  const form = page.getByRole('form', { name: 'Configuración fiscal' });
  const probar = form.getByRole('button', { name: 'Probar conexión' });
  const result = form.getByTestId('probar-result');
  const run = async () => {
    await probar.click();
    await expect(result).toBeVisible();
  };

  await run();
  await expect(result).toHaveAttribute('data-codigo', 'punto_venta_no_habilitado');
  await expect(result).toHaveAttribute('role', 'alert');
  await expect(result).toContainText(
    'El punto de venta 2 no está habilitado para factura electrónica por web services en ARCA',
  );
  await expect(result).toContainText('Habilitados en ARCA: 7.');
  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await result.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`probar-${width}x${height}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  await request.post(`${ARCA_URL}/__control/cuit`, cuit({ puntos_venta: [{ nro: 2, bloqueado: true }] }));
  await run();
  await expect(result).toHaveAttribute('data-codigo', 'punto_venta_bloqueado');
  await expect(result).toContainText('El punto de venta 2 está bloqueado o dado de baja en ARCA');

  await request.post(`${ARCA_URL}/__control/cuit`, cuit({ puntos_venta: [{ nro: 2 }] }));
  await request.post(`${ARCA_URL}/__control/cuit`, cuit({ servicios: ['ws_sr_constancia_inscripcion'] }));
  // The ticket of the first tries is still valid: a certificate that is not associated any more
  // shows on its next login. A new certificate for the same key does that.
  const renewed = await (await request.post(`${ARCA_URL}/__control/certificado`, { data: { csr_pem } })).json();
  await api(request, owner, 'put', `${b}/facturacion/config`, {
    cuit: CUIT,
    razon_social: 'Ferretería Probar SA',
    condicion_iva: 'responsable_inscripto',
    punto_venta: 2,
    certificado_pem: renewed.certificado_pem,
  });
  await run();
  await expect(result).toHaveAttribute('data-codigo', 'servicio_no_autorizado');
  await expect(result).toContainText('El certificado no está autorizado para el servicio «wsfe»');
  await expect(result).toContainText('coe.notAuthorized: Computador no autorizado a acceder al servicio');

  await request.post(`${ARCA_URL}/__control/cuit`, cuit({ servicios: ['wsfe', 'ws_sr_constancia_inscripcion'] }));
  await request.post(`${ARCA_URL}/__control`, { data: { down: true } });
  try {
    await run();
    await expect(result).toHaveAttribute('data-codigo', 'sin_conexion');
    await expect(result).toContainText('No se pudo conectar con ARCA: revisá la conexión a internet del servidor');
  } finally {
    await request.post(`${ARCA_URL}/__control/reset`);
  }

  await run();
  await expect(result).toHaveAttribute('data-codigo', 'ok');
  await expect(result).toHaveAttribute('role', 'status');
  await expect(result).toContainText('La conexión con ARCA funciona.');
  await expect(result).toContainText('Último comprobante del punto de venta 2: 0.');
});
