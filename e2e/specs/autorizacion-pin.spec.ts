import { expect as baseExpect, test, type Page } from '@playwright/test';
import { createBusiness, createUser, PASSWORD, signIn, uniqueEmail } from '../support/session';

// Patient: the argon2 PIN checks and the POS share a busy machine with other journeys.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Where the screenshots of the new screens go, when asked (PIN_SCREENSHOTS=/dir). */
const SHOTS = process.env.PIN_SCREENSHOTS;
const SIZES = [
  ['1440x900', 1440, 900],
  ['1024x768', 1024, 768],
  ['390x844', 390, 844],
] as const;

async function shots(page: Page, name: string, shoot: (page: Page) => Promise<void>) {
  if (!SHOTS) return;
  const size = page.viewportSize();
  for (const [label, width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await shoot(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png` });
  }
  if (size) await page.setViewportSize(size);
}

test('the owner creates a PIN in the profile; at the counter the cashier asks for authorization and the sale goes through with it', async ({
  page,
  request,
}) => {
  test.slow();
  const owner = await createUser(request, 'Marcelo');
  const businessId = await createBusiness(request, owner, 'Ferretería El Tornillo');
  const ownerAuth = { authorization: `Bearer ${owner.token}` };
  const product = await request.post(`/api/v1/businesses/${businessId}/products`, {
    headers: ownerAuth,
    data: { nombre: 'Taladro percutor', precio_venta: 80000, stock_actual: 5 },
  });
  expect(product.status()).toBe(201);
  const rosa = await request.post(`/api/v1/businesses/${businessId}/clientes`, {
    headers: ownerAuth,
    data: { nombre: 'Rosa', apellido: 'Fiado', limite_credito: 50000 },
  });
  expect(rosa.status()).toBe(201);

  // A cashier who sells with at most 5 % off.
  const email = uniqueEmail('cajera');
  const invite = await request.post(`/api/v1/businesses/${businessId}/invitaciones`, {
    headers: ownerAuth,
    data: { email },
  });
  expect(invite.status()).toBe(201);
  const token = new URL((await invite.json()).invitacion.enlace).searchParams.get('token');
  const cajera = await createUser(request, 'Lucía', email);
  const accepted = await request.post(`/api/v1/invitaciones/${token}/aceptar`, {
    headers: { authorization: `Bearer ${cajera.token}` },
  });
  expect(accepted.status()).toBe(200);
  const approve = await request.post(`/api/v1/businesses/${businessId}/usuarios-pendientes/${cajera.id}/aprobar`, {
    headers: ownerAuth,
    data: {
      puede_ver_ventas: true,
      puede_editar_ventas: true,
      puede_ver_productos: true,
      puede_ver_clientes: true,
      descuento_maximo: 5,
    },
  });
  expect(approve.status()).toBe(200);

  // The owner creates a PIN in "Mi perfil", with the account password.
  await signIn(page, owner, businessId);
  await page.goto('/profile');
  const card = page.locator('form').filter({ has: page.getByTestId('pin-estado') });
  await expect(page.getByTestId('pin-estado')).toContainText('Todavía no tenés PIN');
  await card.getByLabel('PIN', { exact: true }).fill('1234');
  await card.getByLabel('Repetí el PIN').fill('1234');
  await card.getByLabel('Tu contraseña').fill(PASSWORD);
  await card.getByRole('button', { name: 'Crear PIN' }).click();
  await expect(card.getByText('Ese PIN es muy fácil de adivinar')).toBeVisible();
  await card.getByLabel('PIN', { exact: true }).fill('4821');
  await card.getByLabel('Repetí el PIN').fill('4821');
  await card.getByRole('button', { name: 'Crear PIN' }).click();
  await expect(card.getByRole('status')).toContainText('PIN guardado');
  await expect(page.getByTestId('pin-estado')).toContainText('Tenés un PIN');
  await expect(card.getByRole('button', { name: 'Cambiar PIN' })).toBeVisible();
  await shots(page, 'perfil-pin', async (p) => {
    await p.getByTestId('pin-estado').scrollIntoViewIfNeeded();
  });

  // The cashier gives 10 % off, over her 5 %: she asks for authorization instead of calling the owner over.
  await signIn(page, cajera, businessId);
  await page.goto('/pos');
  await expect(page.getByRole('heading', { name: 'Punto de venta' })).toBeVisible();
  // She has no turno of her own: this device sells in the owner's once chosen.
  await page.getByRole('button', { name: /^Caja 1 Turno #1/ }).click();
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.fill('Taladro');
  await expect(page.getByRole('option', { name: /Taladro percutor/ })).toBeVisible();
  await search.press('Enter');
  await page.getByLabel('Descuento ($ o %)').fill('10%');
  await expect(
    page.getByText('Tu descuento máximo es 5 %: para más, pedí autorización a quien pueda darla.'),
  ).toBeVisible();
  await page.keyboard.press('F9');
  await expect(page.getByRole('dialog', { name: /Venta #/ })).toHaveCount(0);
  await shots(page, 'pos-pedir-autorizacion', async (p) => {
    await p.getByTestId('pedir-autorizacion-descuento').scrollIntoViewIfNeeded();
  });
  await page.getByTestId('pedir-autorizacion-descuento').click();

  const dialog = page.getByRole('dialog', { name: 'Pedir autorización' });
  await expect(dialog.getByRole('radio', { name: 'Marcelo Prueba' })).toBeChecked();
  const pin = dialog.getByLabel('PIN de Marcelo Prueba');
  await expect(pin).toBeFocused();
  await expect(pin).toHaveAttribute('type', 'password');
  await expect(pin).toHaveAttribute('inputmode', 'numeric');
  // Letters are not taken; a wrong PIN is refused in the dialog, which stays open.
  await pin.pressSequentially('48a20');
  await expect(pin).toHaveValue('4820');
  await pin.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('El PIN no es correcto.');
  await expect(pin).toHaveValue('');
  await expect(pin).toBeFocused();
  await pin.pressSequentially('4821');
  await shots(page, 'pos-autorizacion-dialogo', async () => {});
  await pin.press('Enter');

  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await done.getByRole('button', { name: 'Nueva venta' }).click();

  // A sale on account over Rosa's limit: refused by the server, authorized the same way.
  await search.fill('Taladro');
  await expect(page.getByRole('option', { name: /Taladro percutor/ })).toBeVisible();
  await search.press('Enter');
  await page.getByRole('radio', { name: 'Cuenta corriente' }).click();
  const cliente = page.getByRole('combobox', { name: /Cliente/ });
  await cliente.fill('rosa');
  await cliente.press('Enter');
  await expect(page.getByTestId('pos-fiado')).toContainText(/Crédito disponible\s*\$\s50\.000,00/);
  await page.getByRole('button', { name: 'Cobrar $ 80.000,00' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'La venta supera el límite de crédito de Rosa Fiado' }),
  ).toBeVisible();
  await shots(page, 'pos-limite-credito', async (p) => {
    const boton = p.getByTestId('pedir-autorizacion');
    if (!(await boton.isVisible())) await p.getByRole('button', { name: 'Cobrar', exact: true }).click();
    await boton.scrollIntoViewIfNeeded();
  });
  await page.getByTestId('pedir-autorizacion').click();
  await expect(dialog.getByRole('radio', { name: 'Marcelo Prueba' })).toBeChecked();
  await dialog.getByLabel('PIN de Marcelo Prueba').pressSequentially('4821');
  await dialog.getByRole('button', { name: 'Autorizar y cobrar' }).click();
  await expect(page.getByRole('dialog', { name: 'Venta #2 registrada' })).toBeVisible();

  await page.getByRole('dialog', { name: 'Venta #2 registrada' }).getByRole('button', { name: 'Nueva venta' }).click();

  // A price she may not change: she opens it, types the new one, and the owner authorizes it.
  await search.fill('Taladro');
  await expect(page.getByRole('option', { name: /Taladro percutor/ })).toBeVisible();
  await search.press('Enter');
  await page.getByRole('button', { name: 'Más opciones de Taladro percutor' }).click();
  const precio = page.getByLabel('Precio de Taladro percutor');
  await expect(precio).toHaveAttribute('readonly', '');
  await shots(page, 'pos-cambiar-precio', async (p) => {
    await p.getByRole('button', { name: 'Cambiar con autorización: Taladro percutor' }).scrollIntoViewIfNeeded();
  });
  await page.getByRole('button', { name: 'Cambiar con autorización: Taladro percutor' }).click();
  await expect(precio).toBeFocused();
  await precio.fill('75000');
  await precio.press('Enter');
  await page.getByRole('button', { name: 'Cobrar $ 75.000,00' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'No tenés permiso para cambiar el precio de «Taladro percutor»' }),
  ).toBeVisible();
  await page.getByTestId('pedir-autorizacion').click();
  await dialog.getByLabel('PIN de Marcelo Prueba').pressSequentially('4821');
  await dialog.getByLabel('PIN de Marcelo Prueba').press('Enter');
  await expect(page.getByRole('dialog', { name: 'Venta #3 registrada' })).toBeVisible();

  // The sales say who authorized; the change log keeps the wrong PIN with who tried.
  const sales = await (
    await request.get(`/api/v1/businesses/${businessId}/ventas/sales`, { headers: ownerAuth })
  ).json();
  expect(sales.ventas).toHaveLength(3);
  expect(sales.ventas[0]).toMatchObject({ total: 75000, autorizado_por: { id: owner.id } });
  expect(sales.ventas[1]).toMatchObject({ total: 80000, cliente_id: (await rosa.json()).id });
  expect(sales.ventas[1].autorizado_por).toEqual({ id: owner.id, nombre: 'Marcelo Prueba' });
  expect(sales.ventas[2]).toMatchObject({
    total: 72000,
    vendedor: { id: cajera.id },
    autorizado_por: { id: owner.id, nombre: 'Marcelo Prueba' },
  });
  const log = await (
    await request.get(`/api/v1/businesses/${businessId}/auditoria?accion=intento_rechazado`, { headers: ownerAuth })
  ).json();
  expect(log.map((r: { despues: { motivo: string } }) => r.despues.motivo)).toEqual([
    'Cambio de precio sin permiso',
    'Venta sobre el límite de crédito',
    'PIN de autorización incorrecto',
  ]);
  expect(log[2]).toMatchObject({
    usuario: { id: cajera.id },
    despues: { motivo: 'PIN de autorización incorrecto', autorizador_id: owner.id },
  });
});
