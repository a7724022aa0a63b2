import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, uniqueEmail, type E2EUser } from '../support/session';

/*
 * Mercado Pago at the counter (issue 34, decision 0052) against the fake MP of the config: the
 * admin sets it up on Caja, the POS charges by QR and Point, the customer is played through the
 * fake's control (`/_fake/ordenes/{id}/pagar | rechazar`), and the sale records itself.
 */
const MP = process.env.E2E_MP_URL!;
const SHOTS = '/work/wt/shots/mp-web';
const LEFTOVER_SHOTS = '/work/wt/shots/leftovers';
const SIZES = [
  [1440, 900],
  [1024, 768],
  [390, 844],
] as const;

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

/** A fresh MP account in the fake, with its own POS and terminal, notifying the main server. */
async function mpCuenta(request: APIRequestContext, baseURL: string) {
  const n = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const cuenta = {
    access_token: `APP_USR-e2e-${n}`,
    webhook_url: `${baseURL}/api/v1/webhooks/mercadopago`,
    webhook_secret: `secreto-${n}`,
    pos: [`CAJA-${n}`],
    terminales: [`NEWLAND_N950__E2E${n}`],
  };
  const res = await request.post(`${MP}/_fake/cuentas`, { data: cuenta });
  expect(res.status()).toBe(200);
  return cuenta;
}

async function cliente(request: APIRequestContext, accion: 'pagar' | 'rechazar', mpOrdenId: string) {
  const res = await request.post(`${MP}/_fake/ordenes/${encodeURIComponent(mpOrdenId)}/${accion}`, { data: {} });
  expect(res.status(), await res.text()).toBe(200);
}

async function shots(page: Page, name: string, dir = SHOTS) {
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(300);
    // Dialogs over a long page come out cut in a full-page capture: the new shots take the viewport.
    await page.screenshot({ path: `${dir}/${name}-${w}x${h}.png`, fullPage: dir === SHOTS });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function sellYerba(page: Page, cantidad = 1) {
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially(`${cantidad}*YER001`);
  await search.press('Enter');
  await expect(page.getByLabel('Cantidad de Yerba mate 1 kg')).toHaveValue(String(cantidad));
}

/** The order the POS creates next (the answer of POST …/mercadopago/ordenes). */
const nextOrden = (page: Page) =>
  page
    .waitForResponse((r) => r.url().includes('/mercadopago/ordenes') && r.request().method() === 'POST', {
      timeout: 30_000,
    })
    .then(async (r) => {
      expect(r.status()).toBe(201);
      return (await r.json()) as { id: string; mp_orden_id: string; monto: number };
    });

async function setup(page: Page, request: APIRequestContext, baseURL: string, nombre: string) {
  const owner = await createUser(request, 'Marta');
  const businessId = await createBusiness(request, owner, nombre);
  await api(request, owner, 'post', `/businesses/${businessId}/products`, {
    nombre: 'Yerba mate 1 kg',
    codigo: 'YER001',
    precio_venta: 4000,
    stock_actual: 50,
  });
  const cuenta = await mpCuenta(request, baseURL);
  await signIn(page, owner, businessId);
  return { owner, businessId, cuenta };
}

/** The settings screen: token and secret, Probar conexión, the caja's QR and Point, Guardar. */
async function configurar(page: Page, cuenta: Awaited<ReturnType<typeof mpCuenta>>, capture = false) {
  await page.goto('/caja');
  const mp = page.getByRole('form', { name: 'Configuración de Mercado Pago' });
  await expect(mp).toBeVisible({ timeout: 30_000 });
  await expect(mp.getByText('Sin configurar')).toBeVisible();
  await expect(mp.getByRole('button', { name: 'Probar conexión' })).toBeDisabled();
  // The token is required the first time.
  await mp.getByRole('button', { name: 'Guardar' }).click();
  await expect(mp.getByText('Ingresá el access token de tu cuenta de Mercado Pago.')).toBeVisible();
  await mp.getByLabel(/Access token/).fill(cuenta.access_token);
  await mp.getByLabel('Clave secreta de los webhooks').fill(cuenta.webhook_secret);
  await mp.getByRole('button', { name: 'Guardar' }).click();
  await expect(mp.getByText('Configuración de Mercado Pago guardada.')).toBeVisible();
  await expect(mp.getByText('Configurado', { exact: true })).toBeVisible();
  // Write-only: never shown back.
  await expect(mp.getByLabel(/Access token/)).toHaveValue('');
  await mp.getByRole('button', { name: 'Probar conexión' }).click();
  await expect(mp.getByRole('status').filter({ hasText: 'Conexión correcta' })).toBeVisible({ timeout: 30_000 });
  await mp.getByLabel('Caja de Mercado Pago (QR)').selectOption(cuenta.pos[0]!);
  await mp.getByLabel('Terminal Point').selectOption(cuenta.terminales[0]!);
  await mp.getByRole('button', { name: 'Guardar' }).click();
  await expect(mp.getByText('Configuración de Mercado Pago guardada.')).toBeVisible();
  await expect(mp.getByRole('textbox', { name: 'URL de notificaciones' })).toHaveValue(
    /\/api\/v1\/webhooks\/mercadopago$/,
  );
  if (capture) await shots(page, 'configuracion');
}

test('a QR sale approved: configured on Caja, the QR on screen, the customer pays, the sale records itself', async ({
  page,
  request,
  baseURL,
}) => {
  const { cuenta } = await setup(page, request, baseURL!, 'Almacén Marta QR');
  await configurar(page, cuenta, true);

  await page.goto('/pos');
  await sellYerba(page, 2);
  await page.getByRole('radio', { name: 'Mercado Pago' }).click();
  await page.keyboard.press('F9');
  await page.getByRole('button', { name: /^Cobrar con Mercado Pago/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cobrar con Mercado Pago' });
  await expect(dialog.getByTestId('mp-monto')).toHaveText(/8\.000,00/);
  const orden = nextOrden(page);
  await dialog.getByRole('button', { name: 'QR' }).click();
  const o = await orden;
  expect(o.monto).toBe(8000);
  await expect(dialog.getByTestId('mp-qr')).toBeVisible();
  await expect(dialog.getByText('Esperando el pago…')).toBeVisible();
  await shots(page, 'pos-qr');

  await cliente(request, 'pagar', o.mp_orden_id);
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done.getByRole('article')).toContainText('Mercado Pago');
  await done.getByRole('button', { name: 'Nueva venta' }).click();

  // The conciliación: MP's payment against the sale, to the cent.
  await page.goto('/finanzas/mercadopago');
  await expect(page.getByRole('heading', { name: 'Conciliación de Mercado Pago' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Conciliado', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Cobrado por MP' })).toContainText('8.000,00');
  await expect(page.getByRole('group', { name: 'Vendido' })).toContainText('8.000,00');
  await expect(page.getByRole('group', { name: 'Diferencia' })).toContainText('0,00');
  await shots(page, 'conciliacion');
});

test('a Point sale rejected, then paid in cash', async ({ page, request, baseURL }) => {
  const { cuenta } = await setup(page, request, baseURL!, 'Almacén Marta Point');
  await configurar(page, cuenta);
  await page.goto('/pos');
  await sellYerba(page, 1);
  await page.getByRole('radio', { name: 'Mercado Pago' }).click();
  await page.keyboard.press('F9');
  await page.getByRole('button', { name: /^Cobrar con Mercado Pago/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cobrar con Mercado Pago' });
  const orden = nextOrden(page);
  await dialog.getByRole('button', { name: 'Point' }).click();
  const o = await orden;
  await expect(dialog.getByText('Cobrá en el Point')).toBeVisible();
  await cliente(request, 'rechazar', o.mp_orden_id);
  await expect(dialog.getByTestId('mp-final')).toContainText('Rechazada', { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Elegir otro medio' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('radio', { name: 'Efectivo' }).click();
  await page.keyboard.press('F9');
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done.getByRole('article')).toContainText('Efectivo');
});

test('a split payment: cash and QR', async ({ page, request, baseURL }) => {
  const { cuenta } = await setup(page, request, baseURL!, 'Almacén Marta Dividido');
  await configurar(page, cuenta);
  await page.goto('/pos');
  await sellYerba(page, 2);
  await page.getByRole('button', { name: 'Dividir el pago' }).click();
  await page.getByLabel('Medio del pago 1').selectOption({ label: 'Efectivo' });
  await page.getByLabel('Monto del pago 1').fill('3.000');
  await page.getByLabel('Medio del pago 2').selectOption({ label: 'Mercado Pago' });
  await page.getByLabel('Monto del pago 2').fill('5.000');
  await page.keyboard.press('F9');
  await page.getByRole('button', { name: /^Cobrar$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cobrar con Mercado Pago' });
  await expect(dialog.getByTestId('mp-monto')).toHaveText(/5\.000,00/);
  const orden = nextOrden(page);
  await dialog.getByRole('button', { name: 'QR' }).click();
  const o = await orden;
  expect(o.monto).toBe(5000);
  await expect(dialog.getByTestId('mp-qr')).toBeVisible();
  await cliente(request, 'pagar', o.mp_orden_id);
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible({ timeout: 30_000 });
  const ticket = await done.getByRole('article').innerText();
  expect(ticket).toContain('Efectivo');
  expect(ticket).toContain('Mercado Pago');
});

test('a lost notification: the approval is read by polling and the sale records itself', async ({
  page,
  request,
  baseURL,
}) => {
  const { cuenta } = await setup(page, request, baseURL!, 'Almacén Marta Sin Aviso');
  await configurar(page, cuenta);
  await page.goto('/pos');
  await sellYerba(page, 1);
  await page.getByRole('radio', { name: 'Mercado Pago' }).click();
  await page.keyboard.press('F9');
  await page.getByRole('button', { name: /^Cobrar con Mercado Pago/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cobrar con Mercado Pago' });
  const orden = nextOrden(page);
  await dialog.getByRole('button', { name: 'QR' }).click();
  const o = await orden;
  await expect(dialog.getByTestId('mp-qr')).toBeVisible();
  // MP's notification of the payment never arrives.
  expect((await request.post(`${MP}/_fake`, { data: { perder_notificaciones: true } })).status()).toBe(200);
  try {
    await cliente(request, 'pagar', o.mp_orden_id);
    const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
    await expect(done).toBeVisible({ timeout: 45_000 });
    await expect(done.getByRole('article')).toContainText('Mercado Pago');
  } finally {
    await request.post(`${MP}/_fake`, { data: { perder_notificaciones: false } });
  }
});

test('a refund through MP: a cashier charges by QR (the POS knows MP from the caja), a devolución and an anulación give the money back through MP, and the conciliación follows', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const owner = await createUser(request, 'Marta');
  const businessId = await createBusiness(request, owner, 'Almacén Marta Devuelve', { turno: false });
  const b = `/businesses/${businessId}`;
  await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Yerba mate 1 kg',
    codigo: 'YER001',
    precio_venta: 4000,
    stock_actual: 50,
  });
  // The owner sets MP up through the API: the caja has its QR, no Point terminal.
  const cuenta = await mpCuenta(request, baseURL!);
  const [caja] = await api(request, owner, 'get', `${b}/cajas`);
  await api(request, owner, 'put', `${b}/mercadopago/config`, {
    access_token: cuenta.access_token,
    webhook_secret: cuenta.webhook_secret,
    cajas: [{ caja_id: caja.id, pos_id: cuenta.pos[0] }],
  });
  // The cashier: invited, accepted, approved to sell; not an admin (she cannot read MP's config).
  const email = uniqueEmail('lucia');
  const invite = await api(request, owner, 'post', `${b}/invitaciones`, { email });
  const token = new URL(invite.invitacion.enlace).searchParams.get('token');
  const lucia = await createUser(request, 'Lucía', email);
  await api(request, lucia, 'post', `/invitaciones/${token}/aceptar`);
  await api(request, owner, 'post', `${b}/usuarios-pendientes/${lucia.id}/aprobar`, {
    puede_ver_ventas: true,
    puede_editar_ventas: true,
    puede_ver_productos: true,
  });
  await api(request, lucia, 'post', `${b}/cajas/${caja.id}/turnos`, { fondo_inicial: 0 });
  const config = await request.get(`/api/v1${b}/mercadopago/config`, {
    headers: { authorization: `Bearer ${lucia.token}` },
  });
  expect(config.status()).toBe(403);

  // She sells by QR: the POS goes straight to MP (no sale refused first) and offers only the QR.
  const refused: number[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/ventas/record-sale') && r.status() >= 400) refused.push(r.status());
  });
  await signIn(page, lucia, businessId);
  await page.goto('/pos');
  const porQr = async (cantidad: number, numero: number, capture = false) => {
    await sellYerba(page, cantidad);
    await page.getByRole('radio', { name: 'Mercado Pago' }).click();
    await page.keyboard.press('F9');
    await page.getByRole('button', { name: /^Cobrar con Mercado Pago/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cobrar con Mercado Pago' });
    await expect(dialog.getByRole('button', { name: 'QR' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Point' })).toHaveCount(0);
    if (capture) await shots(page, 'pos-cajera-solo-qr', LEFTOVER_SHOTS);
    const orden = nextOrden(page);
    await dialog.getByRole('button', { name: 'QR' }).click();
    const o = await orden;
    expect(o.monto).toBe(cantidad * 4000);
    await cliente(request, 'pagar', o.mp_orden_id);
    const done = page.getByRole('dialog', { name: `Venta #${numero} registrada` });
    await expect(done).toBeVisible({ timeout: 30_000 });
    await expect(done.getByRole('article')).toContainText('Mercado Pago');
    await done.getByRole('button', { name: 'Nueva venta' }).click();
    return o;
  };
  const o = await porQr(2, 1, true);
  const o2 = await porQr(1, 2);
  expect(refused).toEqual([]);

  // The owner returns one yerba of sale #1 by Mercado Pago, from the sales report.
  await signIn(page, owner, businessId);
  await page.goto('/reports');
  await page.getByRole('button', { name: /Venta #1/ }).click();
  await page.getByRole('button', { name: 'Devolver' }).click();
  const dev = page.getByRole('dialog', { name: 'Devolver de la venta #1' });
  await dev.getByLabel('A devolver de Yerba mate 1 kg').fill('1');
  await expect(dev.getByTestId('devolucion-total')).toHaveText(/\$\s4\.000,00/);
  await expect(dev.getByLabel('Devolver el dinero por').locator('option:checked')).toHaveText('Mercado Pago');
  await expect(dev.getByTestId('devolucion-mp')).toContainText('Se le devuelve al cliente por Mercado Pago');
  await shots(page, 'devolucion-mp', LEFTOVER_SHOTS);
  await dev.getByRole('button', { name: /^Devolver \$/ }).click();
  const devuelta = page.getByRole('dialog', { name: 'Devolución #1 registrada' });
  await expect(devuelta).toBeVisible({ timeout: 30_000 });
  await devuelta.getByRole('button', { name: 'Listo' }).click();

  // MP refunded 4.000 of the order (its refund endpoint, read back from the fake) and we recorded it.
  const mpOrden = async (id: string) => {
    const r = await request.get(`${MP}/v1/orders/${encodeURIComponent(id)}`, {
      headers: { authorization: `Bearer ${cuenta.access_token}` },
    });
    expect(r.status()).toBe(200);
    return (await r.json()) as { status: string; transactions: { refunds?: { amount: string; status: string }[] } };
  };
  const mp1 = await mpOrden(o.mp_orden_id);
  expect(mp1.status).toBe('processed');
  expect(mp1.transactions.refunds?.map((r) => r.amount)).toEqual(['4000.00']);
  const nuestra = await api(request, owner, 'get', `${b}/mercadopago/ordenes/${o.id}`);
  expect(nuestra.reembolsos).toEqual([expect.objectContaining({ origen: 'devolucion', monto: 4000 })]);

  // Sale #2 voided: the anulación gives back everything its order holds.
  await page.getByRole('button', { name: /Venta #2/ }).click();
  await page.getByRole('button', { name: 'Anular', exact: true }).click();
  const anular = page.getByRole('dialog', { name: '¿Anular la venta #2?' });
  await expect(anular.getByTestId('anular-mp')).toContainText('se le devuelve al cliente por Mercado Pago');
  await shots(page, 'anular-mp', LEFTOVER_SHOTS);
  await anular.getByRole('button', { name: 'Anular venta' }).click();
  await expect(page.getByText('La venta #2 quedó anulada')).toBeVisible({ timeout: 30_000 });
  const mp2 = await mpOrden(o2.mp_orden_id);
  expect(mp2.status).toBe('refunded');
  expect(mp2.transactions.refunds?.map((r) => r.amount)).toEqual(['4000.00']);
  const nuestra2 = await api(request, owner, 'get', `${b}/mercadopago/ordenes/${o2.id}`);
  expect(nuestra2.reembolsos).toEqual([expect.objectContaining({ origen: 'anulacion', monto: 4000 })]);

  // The conciliación: sale #1's 8.000 less the refund against the sale less its return; the voided
  // sale #2, refunded in full, on neither side.
  await page.goto('/finanzas/mercadopago');
  await expect(page.getByText('Conciliado', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Cobrado por MP' })).toContainText('4.000,00');
  await expect(page.getByRole('group', { name: 'Vendido' })).toContainText('4.000,00');
  await expect(page.getByRole('group', { name: 'Diferencia' })).toContainText('0,00');
  await expect(page.getByText('Venta sin cobro', { exact: true })).toHaveCount(0);
  await expect(page.getByText('Cobrado sin venta', { exact: true })).toHaveCount(0);
});
