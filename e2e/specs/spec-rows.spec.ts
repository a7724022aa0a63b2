import { expect, test, type APIRequestContext } from '@playwright/test';
import { createBusiness, createUser, PASSWORD, signIn, uniqueEmail, type E2EUser } from '../support/session';

/* The specification rows of issue 33 (problem 12), checked in the browser. */

const auth = (u: E2EUser) => ({ authorization: `Bearer ${u.token}` });

/** A member approved with only ventas, through an invitation as a real one joins. */
async function cashier(request: APIRequestContext, owner: E2EUser, businessId: string) {
  const email = uniqueEmail('vendedora');
  const invite = await request.post(`/api/v1/businesses/${businessId}/invitaciones`, {
    headers: auth(owner),
    data: { email },
  });
  expect(invite.status()).toBe(201);
  const token = new URL((await invite.json()).invitacion.enlace).searchParams.get('token');
  const member = await createUser(request, 'Vendedora', email);
  const accept = await request.post(`/api/v1/invitaciones/${token}/aceptar`, { headers: auth(member) });
  expect(accept.status(), await accept.text()).toBeLessThan(300);
  const approve = await request.post(`/api/v1/businesses/${businessId}/usuarios-pendientes/${member.id}/aprobar`, {
    headers: auth(owner),
    data: { puede_ver_ventas: true, puede_editar_ventas: true },
  });
  expect(approve.status()).toBe(200);
  return member;
}

test("a customer's dialog and Finanzas give one answer to what she owes", async ({ page, request }) => {
  const owner = await createUser(request, 'Duena');
  const businessId = await createBusiness(request, owner, 'Taller Una Respuesta');
  const base = `/api/v1/businesses/${businessId}`;
  const clienta = await (
    await request.post(`${base}/clientes`, { headers: auth(owner), data: { nombre: 'Marta', apellido: 'Gil' } })
  ).json();
  const account = await request.post(`${base}/finanzas/cuentas`, {
    headers: auth(owner),
    data: {
      tipo: 'por_cobrar',
      cliente_id: clienta.id,
      descripcion: 'Reparación de portón',
      monto: 45800,
      fecha_emision: '2026-01-05',
      fecha_vencimiento: '2026-02-05',
    },
  });
  expect(account.status()).toBe(201);

  await signIn(page, owner, businessId);
  await page.goto('/customers');
  const row = page.getByRole('table', { name: 'Clientes' }).getByRole('row').filter({ hasText: 'Marta Gil' });
  await row.getByRole('button', { name: 'Marta Gil' }).first().click();
  const card = page.getByRole('dialog', { name: 'Marta Gil' });
  await expect(card.getByTestId('cuenta-saldo')).toHaveText(/^\$\s0,00$/, { timeout: 30_000 });
  const total = card.getByTestId('cuenta-total');
  await expect(total).toContainText(/una cuenta por cobrar en Finanzas por \$\s45\.800,00/);
  await expect(total).toContainText(/\(\$\s45\.800,00 vencido\)/);
  await expect(total).toContainText(/En total debe \$\s45\.800,00/);

  await page.goto('/finanzas/cuentas');
  await expect(page.getByText('Reparación de portón')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/\$\s45\.800,00/).first()).toBeVisible();
});

test('Finanzas: filters that match nothing, a cash flow that failed to load, and the tabs on a phone', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Contable');
  const businessId = await createBusiness(request, owner, 'Kiosco Filtros');
  const mov = await request.post(`/api/v1/businesses/${businessId}/finanzas/movimientos`, {
    headers: auth(owner),
    data: { tipo: 'ingreso', monto: 12345678.9, metodo_pago: 'efectivo', descripcion: 'Aporte', fecha: '2026-11-02' },
  });
  expect(mov.status(), await mov.text()).toBe(201);
  await signIn(page, owner, businessId);

  await page.goto('/finanzas/movimientos');
  await expect(page.getByText('Aporte')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Tipo').selectOption('egreso');
  await expect(page.getByText('Ningún movimiento coincide con los filtros')).toBeVisible();
  await expect(page.getByText('No hay movimientos registrados')).toHaveCount(0);
  await page.getByRole('button', { name: 'Limpiar filtros' }).click();
  await expect(page.getByText('Aporte')).toBeVisible();
  await expect(page.getByLabel('Tipo')).toHaveValue('');

  // The first load of the cash flow fails: the cards say so instead of staying grey, and a retry loads.
  let failing = true;
  await page.route('**/api/v1/businesses/*/finanzas/flujo-caja**', (route) =>
    failing ? route.fulfill({ status: 500, json: { detail: 'Error interno' } }) : route.continue(),
  );
  await page.goto('/finanzas/flujo-caja');
  await expect(page.getByRole('alert').filter({ hasText: 'Reintentar' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Total Ingresos' })).toContainText('—');
  await expect(page.getByRole('group', { name: 'Total Ingresos' }).locator('.animate-pulse')).toHaveCount(0);
  failing = false;
  await page.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByRole('group', { name: 'Total Ingresos' })).toContainText(/\$\s12\.345\.678,90/);

  // On a phone every tab is in view and the large amount stays inside its card.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/finanzas/flujo-caja');
  const nav = page.getByRole('navigation', { name: 'Secciones de finanzas' });
  for (const name of ['Resumen', 'Movimientos', 'Categorías', 'Cuentas Pendientes', 'Flujo de Caja']) {
    const box = (await nav.getByRole('link', { name }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  }
  const card = page.getByRole('group', { name: 'Total Ingresos' });
  await expect(card).toContainText(/\$\s12\.345\.678,90/);
  const amount = (await card.locator('p').nth(1).boundingBox())!;
  const frame = (await card.boundingBox())!;
  expect(amount.x + amount.width).toBeLessThanOrEqual(frame.x + frame.width);
});

test("a new shop's POS leads to loading products, and a search that finds nothing says so", async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Nueva');
  const businessId = await createBusiness(request, owner, 'Almacén Recién Abierto');
  await signIn(page, owner, businessId);
  await page.goto('/pos');
  await expect(page.getByTestId('pos-sin-productos')).toContainText('Todavía no cargaste productos.', {
    timeout: 30_000,
  });
  // A search that finds nothing says so, instead of a list that just stays closed.
  await page.getByLabel('Buscar producto o servicio, o escanear código').fill('tornillo');
  await expect(page.getByTestId('pos-busqueda-estado')).toHaveText(
    'No encontramos productos ni servicios con «tornillo». Probá con otra palabra o con el código.',
  );
  await page.getByRole('link', { name: 'importalos desde Excel' }).click();
  await expect(page).toHaveURL(/\/products-and-services\?importar=1/);
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('an expired session says so and comes back to the same screen after signing in', async ({ page, request }) => {
  const owner = await createUser(request, 'Expirada');
  const businessId = await createBusiness(request, owner, 'Ferretería Sesión');
  await signIn(page, owner, businessId);
  await page.goto('/finanzas/movimientos');
  await expect(page.getByRole('heading', { name: 'Movimientos Financieros' })).toBeVisible();
  // The token is no longer valid (as after it expires): the next request answers 401.
  await page.evaluate(() => localStorage.setItem('mostrador.token', 'vencido'));
  await page.reload();
  await expect(page).toHaveURL(/\/login\?expirada=1/);
  await expect(page.getByText('Tu sesión expiró. Ingresá de nuevo para seguir donde estabas.')).toBeVisible();
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL(/\/finanzas\/movimientos$/);
});

test('a member gets the restricted page on the change log, and a link to a business not hers shows nothing of another', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Titular');
  const businessId = await createBusiness(request, owner, 'Bazar Propio');
  const otherOwner = await createUser(request, 'Ajena');
  const otherBusiness = await createBusiness(request, otherOwner, 'Bazar Ajeno');
  const member = await cashier(request, owner, businessId);
  await signIn(page, member, businessId);

  await page.goto('/auditoria');
  await expect(page.getByRole('heading', { name: 'Acceso Restringido' })).toBeVisible();
  await expect(page.getByText('Permiso requerido: Administrador del negocio')).toBeVisible();
  await expect(page.getByText('No se pudo cargar el registro de cambios.')).toHaveCount(0);

  await page.goto(`/business/${otherBusiness}/pos`);
  await expect(page.getByRole('heading', { name: 'No encontramos ese negocio' })).toBeVisible();
  await expect(page.getByLabel('Buscar producto o servicio, o escanear código')).toHaveCount(0);
  await page.getByRole('link', { name: 'Ir a Bazar Propio' }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByTestId('negocio-actual')).toHaveText('Bazar Propio');
});
