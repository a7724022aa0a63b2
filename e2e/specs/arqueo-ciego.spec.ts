import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, uniqueEmail, type E2EUser } from '../support/session';

/*
 * Issue 33, point 1: a cashier closes her turno counting blind; then she, and the owner, see what
 * was expected, how it adds up (the cash cobros included) and the difference; the owner also sees
 * what she tried and was refused.
 */

const SHOTS = process.env.ARQUEO_SCREENSHOTS;
const SIZES = [
  [1440, 900, 'desktop'],
  [1024, 768, 'tablet'],
  [390, 844, 'phone'],
] as const;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  const size = page.viewportSize();
  for (const [w, h, label] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

function caller(request: APIRequestContext, user: E2EUser) {
  return async (method: 'get' | 'post' | 'put', path: string, data?: object, status = 299) => {
    const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
    expect(res.status(), await res.text()).toBeLessThanOrEqual(status);
    return res.json();
  };
}

test('a cashier closes her turno blind; she and the owner then see the closing add up, and the owner sees her refused attempts', async ({
  page,
  request,
}) => {
  // Two people's screens, each at three sizes when taking screenshots.
  test.setTimeout(240_000);
  const owner = await createUser(request, 'Ramiro');
  const businessId = await createBusiness(request, owner, 'Ferretería Ramiro', { turno: false });
  const asOwner = caller(request, owner);
  const base = `/businesses/${businessId}`;
  const yerba = await asOwner('post', `${base}/products`, {
    nombre: 'Yerba mate 1 kg',
    codigo: 'YER001',
    precio_venta: 4000,
    stock_actual: 50,
  });
  const carmen = await asOwner('post', `${base}/clientes`, {
    nombre: 'Carmen',
    apellido: 'Vecina',
    limite_credito: 20000,
  });

  // The cashier: invited, accepted, approved to sell (no discounts, no credit over the limit).
  const email = uniqueEmail('lucia');
  const invite = await asOwner('post', `${base}/invitaciones`, { email });
  const token = new URL(invite.invitacion.enlace).searchParams.get('token');
  const lucia = await createUser(request, 'Lucía', email);
  const asLucia = caller(request, lucia);
  await asLucia('post', `/invitaciones/${token}/aceptar`);
  await asOwner('post', `${base}/usuarios-pendientes/${lucia.id}/aprobar`, {
    puede_ver_ventas: true,
    puede_editar_ventas: true,
    puede_ver_productos: true,
    puede_ver_clientes: true,
  });

  // Her day, through the API: a 10.000 float, 2 yerbas cash, 3 on Carmen's account, a 5.000 cash cobro.
  const [caja] = await asLucia('get', `${base}/cajas`);
  const medios: { id: string; tipo: string }[] = await asLucia('get', `${base}/medios-pago`);
  const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
  const turno = await asLucia('post', `${base}/cajas/${caja.id}/turnos`, { fondo_inicial: 10000 });
  expect(turno.esperado).toBeNull();
  const sale = (cantidad: number, extra: object) =>
    request.post('/api/v1/ventas/record-sale', {
      headers: { authorization: `Bearer ${lucia.token}` },
      data: { negocio_id: businessId, items: [{ id: yerba.id, tipo: 'producto', cantidad }], ...extra },
    });
  expect((await sale(2, { pagos: [{ medio_pago_id: medio('efectivo'), monto: 8000 }] })).status()).toBe(201);
  const fiado = await sale(3, {
    cliente_id: carmen.id,
    pagos: [{ medio_pago_id: medio('cuenta_corriente'), monto: 12000 }],
  });
  expect(fiado.status()).toBe(201);
  await asLucia('post', `${base}/clientes/${carmen.id}/cobros`, { monto: 5000, medio_pago_id: medio('efectivo') });
  // What she tries and is refused: a discount (her maximum is 0 %) and more on account than the limit.
  const discount = await sale(1, { descuento: 400, pagos: [{ medio_pago_id: medio('efectivo'), monto: 3600 }] });
  expect(discount.status()).toBe(403);
  // Carmen owes 7.000 of her 20.000: 16.000 more is over the limit.
  const overLimit = await sale(4, {
    cliente_id: carmen.id,
    pagos: [{ medio_pago_id: medio('cuenta_corriente'), monto: 16000 }],
  });
  expect(overLimit.status()).toBe(403);

  // Lucía at the caja: no esperado anywhere, only what to count.
  await signIn(page, lucia, businessId);
  await page.goto('/caja');
  await expect(page.getByRole('main')).toContainText(/con \$\s10\.000,00\.\s*2 ventas\./, {
    timeout: 30_000,
  });
  await expect(page.getByText(/Arqueo a ciegas: al cerrar, contá lo que hay/)).toBeVisible();
  await expect(page.getByRole('definition')).toHaveCount(0);
  await expect(page.getByText('$ 23.000,00')).toHaveCount(0);
  await shots(page, 'caja-cajera-a-ciegas');

  await page.getByRole('button', { name: 'Cerrar turno' }).click();
  const close = page.getByRole('dialog', { name: 'Cerrar turno #1' });
  await expect(close.getByText(/Arqueo a ciegas: contá lo que hay por cada medio/)).toBeVisible();
  await expect(close.getByText('Esperado', { exact: true })).toHaveCount(0);
  await expect(close.getByLabel('Cuenta corriente')).toHaveCount(0);
  await close.getByLabel('Efectivo').fill('22.900');
  await expect(close.getByText('-$ 100,00')).toHaveCount(0);
  await shots(page, 'cierre-a-ciegas');
  await close.getByRole('button', { name: 'Cerrar turno' }).click();

  // Closed: now she sees the result, and it adds up: 10.000 + 8.000 + 5.000 = 23.000; 22.900 counted.
  const report = page.getByRole('dialog', { name: 'Turno #1 · Caja 1' });
  const article = report.getByRole('article', { name: 'Cierre del turno #1' });
  await expect(article).toContainText('Cierre de caja');
  const cash = article.getByRole('region', { name: 'Efectivo' });
  await expect(cash).toContainText(/Fondo inicial\s*\$\s10\.000,00/);
  await expect(cash).toContainText(/Ventas\s*\$\s8\.000,00/);
  await expect(cash).toContainText(/Cobros de cuenta corriente\s*\$\s5\.000,00/);
  await expect(cash).toContainText(/= Esperado\s*\$\s23\.000,00/);
  await expect(cash).toContainText(/Contado\s*\$\s22\.900,00/);
  await expect(article).toContainText(/Diferencia total\s*-\$\s100,00/);
  await expect(article).toContainText(/Cuenta corriente \(no entra en caja\): \$\s12\.000,00/);
  await shots(page, 'cierre-resultado-cajera');
  await report.getByRole('button', { name: 'Listo' }).click();

  // The owner: the closing with the same figures, and what Lucía tried.
  await signIn(page, owner, businessId);
  await page.goto('/caja');
  await expect(page.getByRole('button', { name: '#1' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: '#1' }).click();
  const ownerReport = page.getByRole('dialog', { name: 'Turno #1 · Caja 1' });
  await expect(ownerReport.getByRole('region', { name: 'Efectivo' })).toContainText(
    /Cobros de cuenta corriente\s*\$\s5\.000,00/,
  );
  await expect(ownerReport).toContainText(/Cerró\s*Lucía/);
  await ownerReport.getByRole('button', { name: 'Listo' }).click();

  await page.goto('/auditoria');
  const log = page.getByRole('table', { name: 'Registro de cambios' });
  const attempts = log.getByRole('row').filter({ hasText: 'Intento rechazado' });
  await expect(attempts.first()).toBeVisible({ timeout: 30_000 });
  await expect(attempts).toHaveCount(2);
  await expect(attempts.first()).toContainText('Lucía');
  await shots(page, 'registro-intentos');

  // Where the owner decides: the setting, on by default, and who closes, per member.
  await page.getByRole('button', { name: 'Seleccionar negocio' }).click();
  await page.getByRole('menuitem', { name: 'Configuración del negocio' }).click();
  const settings = page.getByRole('dialog', { name: 'Configuración del negocio' });
  await expect(settings.getByRole('checkbox', { name: /Arqueo a ciegas/ })).toBeChecked();
  await shots(page, 'configuracion-arqueo-ciego');
  await page.keyboard.press('Escape');

  await page.goto('/business-users');
  await expect(page.getByRole('button', { name: 'Editar permisos de Lucía Prueba' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Editar permisos de Lucía Prueba' }).click();
  const perms = page.getByRole('dialog', { name: 'Editar permisos' });
  const cerrar = perms.getByRole('checkbox', { name: /Cerrar los turnos de caja que abre/ });
  await expect(cerrar).toBeVisible({ timeout: 30_000 });
  await expect(cerrar).toBeChecked();
  await cerrar.uncheck();
  await shots(page, 'equipo-cerrar-turno');
  await perms.getByRole('button', { name: 'Guardar permisos' }).click();
  await expect(perms).toBeHidden();

  // Without it, Lucía's next turno shows no "Cerrar turno", and the server refuses her.
  const next = await asLucia('post', `${base}/cajas/${caja.id}/turnos`, { fondo_inicial: 0 });
  const refused = await request.post(`/api/v1${base}/turnos/${next.id}/cerrar`, {
    headers: { authorization: `Bearer ${lucia.token}` },
    data: { contado: [] },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).detail).toBe(
    'No tenés permiso para cerrar turnos: pedíselo a alguien con acceso total.',
  );
  await signIn(page, lucia, businessId);
  await page.goto('/caja');
  await expect(page.getByRole('button', { name: 'Ingreso o retiro' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Cerrar turno' })).toHaveCount(0);
  await expect(page.getByText(/Este turno lo cierra quien lo abrió/)).toBeVisible();
});
