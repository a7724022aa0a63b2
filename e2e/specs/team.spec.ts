import { expect, test, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, uniqueEmail } from '../support/session';

const menu = (page: Page) => page.getByRole('navigation', { name: 'Menú principal' });

test('an owner invites, approves with only ventas and clientes, and the member sees only those modules', async ({
  page,
  request,
  browser,
}) => {
  const owner = await createUser(request, 'Duena');
  const businessId = await createBusiness(request, owner, 'Almacén Equipo');
  await signIn(page, owner, businessId);
  await page.goto('/business-users');

  // The team section replaces the placeholder: the owner is the only member, protected.
  const team = page.getByRole('heading', { name: 'Equipo de Almacén Equipo' });
  await expect(team).toBeVisible();
  const members = page.getByRole('list', { name: 'Miembros del negocio' });
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await expect(members).toContainText('Creador');
  await expect(members).toContainText('No se puede quitar ni modificar');
  await expect(page.getByText('No hay invitaciones abiertas')).toBeVisible();

  // Invite by e-mail in the UI; the link is shown.
  const email = uniqueEmail('luis');
  await page.getByRole('button', { name: 'Invitar' }).click();
  const invite = page.getByRole('dialog', { name: 'Invitar al equipo' });
  await invite.getByRole('button', { name: 'Crear invitación' }).click();
  await expect(invite.getByText('Este campo es obligatorio.')).toBeVisible();
  await invite.getByLabel('E-mail').fill('no-es-un-email');
  await invite.getByRole('button', { name: 'Crear invitación' }).click();
  await expect(invite.getByText('El e-mail no es válido.')).toBeVisible();
  await invite.getByLabel('E-mail').fill(email);
  await invite.getByLabel('Mensaje (opcional)').fill('¡Bienvenido al equipo!');
  await invite.getByRole('button', { name: 'Crear invitación' }).click();
  await expect(invite.getByRole('status')).toContainText(`Invitación creada para ${email}`);
  const link = await invite.getByLabel('Enlace de invitación').inputValue();
  expect(link).toMatch(/\/invitacion\?token=/);
  await invite.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByRole('list', { name: 'Invitaciones abiertas' })).toContainText(email);

  // The invitee registers, signs in and accepts through the link.
  const luis = await createUser(request, 'Luis', email);
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, luis);
  const url = new URL(link);
  await memberPage.goto(url.pathname + url.search);
  await expect(memberPage.getByText('¡Bienvenido al equipo!')).toBeVisible();
  await memberPage.getByRole('button', { name: 'Aceptar invitación' }).click();
  await expect(memberPage.getByText('Invitación aceptada. Un administrador debe aprobar tu acceso.')).toBeVisible();

  // The owner sees the pending user (and the bell says so) and approves with ventas and clientes only.
  await page.reload();
  await expect(page.getByRole('button', { name: /^Notificaciones \(1\)$/ })).toBeVisible();
  await page.getByRole('button', { name: /^Notificaciones/ }).click();
  const bellItem = page.getByRole('menuitem', { name: /Usuario pendiente de aprobación/ });
  await expect(bellItem).toContainText(email);
  await page.keyboard.press('Escape');
  const pending = page.getByRole('list', { name: 'Usuarios pendientes' });
  await expect(pending).toContainText('Luis Prueba');
  await page.getByRole('button', { name: 'Aprobar a Luis Prueba' }).click();
  const approve = page.getByRole('dialog', { name: 'Aprobar usuario' });
  await expect(approve.getByRole('checkbox', { name: 'Ver Finanzas' })).not.toBeChecked();
  await approve.getByRole('checkbox', { name: 'Todo Ventas' }).check();
  // Selling at the POS also needs to see products and customers: the dialog says so.
  const posNote = approve.getByRole('note');
  await expect(posNote).toContainText('Para vender en el punto de venta también necesita Ver en Productos y Clientes');
  await approve.getByRole('checkbox', { name: 'Todo Clientes' }).check();
  await expect(posNote).toContainText('Productos');
  await expect(approve.getByRole('checkbox', { name: 'Asignar Ventas' })).toBeChecked();
  await approve.getByRole('button', { name: 'Aprobar' }).click();
  await expect(approve).toBeHidden();
  await expect(pending).toHaveCount(0);
  const luisRow = members.getByRole('listitem').filter({ hasText: 'Luis Prueba' });
  await expect(luisRow).toContainText('Empleado');
  await expect(luisRow).toContainText('Ve: Clientes, Ventas');
  await expect(page.getByRole('button', { name: 'Notificaciones', exact: true })).toBeVisible();

  // The member now works in the business and sees only those modules in the menu.
  await memberPage.goto('/home');
  await expect(memberPage.getByTestId('negocio-actual')).toHaveText('Almacén Equipo');
  const nav = menu(memberPage);
  await expect(nav.getByRole('link', { name: 'Clientes' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Punto de venta' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Reporte de ventas' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Inicio' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Negocios' })).toBeVisible();
  for (const hidden of [
    'Finanzas',
    'Tareas',
    'Productos y servicios',
    'Categorías',
    'Órdenes de compra',
    'Proveedores',
  ]) {
    await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
  }
  // A member sees no team administration.
  await memberPage.goto('/business-users');
  await expect(memberPage.getByRole('heading', { name: 'Negocios' })).toBeVisible();
  await expect(memberPage.getByRole('heading', { name: /^Equipo de/ })).toHaveCount(0);
  // …and is refused elsewhere, by the page and by the server.
  await memberPage.goto('/finanzas');
  await expect(memberPage.getByRole('heading', { name: 'Acceso Restringido' })).toBeVisible();
  const denied = await request.get(`/api/v1/businesses/${businessId}/finanzas/resumen`, {
    headers: { authorization: `Bearer ${luis.token}` },
  });
  expect(denied.status()).toBe(403);
  const allowed = await request.get(`/api/v1/businesses/${businessId}/clientes`, {
    headers: { authorization: `Bearer ${luis.token}` },
  });
  expect(allowed.status()).toBe(200);

  // The owner grants finanzas too: the member's menu shows it after the next load.
  await page.getByRole('button', { name: 'Editar permisos de Luis Prueba' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar permisos' });
  await expect(edit.getByRole('checkbox', { name: 'Editar Ventas' })).toBeChecked();
  await edit.getByRole('checkbox', { name: 'Ver Finanzas' }).check();
  await edit.getByRole('button', { name: 'Guardar permisos' }).click();
  await expect(edit).toBeHidden();
  await expect(luisRow).toContainText('Ve: Clientes, Ventas, Finanzas');
  await memberPage.reload();
  await expect(menu(memberPage).getByRole('link', { name: 'Finanzas' })).toBeVisible();

  // Removal, with confirmation, applies from the next request.
  await page.getByRole('button', { name: 'Quitar a Luis Prueba' }).click();
  const confirm = page.getByRole('dialog', { name: 'Quitar del equipo' });
  await expect(confirm).toContainText('¿Estás seguro de que querés quitar a Luis Prueba del negocio?');
  await confirm.getByRole('button', { name: 'Quitar' }).click();
  await expect(confirm).toBeHidden();
  await expect(members.getByRole('listitem')).toHaveCount(1);
  const after = await request.get(`/api/v1/businesses/${businessId}/clientes`, {
    headers: { authorization: `Bearer ${luis.token}` },
  });
  expect(after.status()).toBe(403);
  await memberContext.close();
});

test('an owner rejects a pending user and revokes an invitation', async ({ page, request }) => {
  const owner = await createUser(request, 'Rechazo');
  const businessId = await createBusiness(request, owner, 'Kiosco Rechazos');
  const auth = { authorization: `Bearer ${owner.token}` };
  const email = uniqueEmail('pedro');
  const inv = await request.post(`/api/v1/businesses/${businessId}/invitaciones`, { headers: auth, data: { email } });
  const token = new URL((await inv.json()).invitacion.enlace).searchParams.get('token');
  const pedro = await createUser(request, 'Pedro', email);
  await request.post(`/api/v1/invitaciones/${token}/aceptar`, { headers: { authorization: `Bearer ${pedro.token}` } });
  const other = uniqueEmail('otra');
  await request.post(`/api/v1/businesses/${businessId}/invitaciones`, { headers: auth, data: { email: other } });

  await signIn(page, owner, businessId);
  await page.goto('/business-users');
  await page.getByRole('button', { name: 'Rechazar a Pedro Prueba' }).click();
  const dlg = page.getByRole('dialog', { name: 'Rechazar solicitud' });
  await dlg.getByRole('button', { name: 'Rechazar' }).click();
  await expect(dlg).toBeHidden();
  await expect(page.getByRole('list', { name: 'Usuarios pendientes' })).toHaveCount(0);
  const res = await request.get(`/api/v1/businesses/${businessId}`, {
    headers: { authorization: `Bearer ${pedro.token}` },
  });
  expect(res.status()).toBe(403);

  const open = page.getByRole('list', { name: 'Invitaciones abiertas' });
  await expect(open).toContainText(other);
  await page.getByRole('button', { name: `Revocar la invitación de ${other}` }).click();
  await page.getByRole('dialog', { name: 'Revocar invitación' }).getByRole('button', { name: 'Revocar' }).click();
  await expect(page.getByText('No hay invitaciones abiertas')).toBeVisible();
});

test('an invitation link opens on a page that says who invites to which business; the invitee signs up there and accepts', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Marta');
  const businessId = await createBusiness(request, owner, 'Ferretería La Llave', { turno: false });
  const email = uniqueEmail('nuevo');
  const invite = await request.post(`/api/v1/businesses/${businessId}/invitaciones`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { email, rol: 'empleado', mensaje: 'Te esperamos el lunes.' },
  });
  expect(invite.status()).toBe(201);
  const link = new URL((await invite.json()).invitacion.enlace);

  // No session: not a bare login form but the invitation itself.
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'Invitación a un negocio' })).toBeVisible();
  await expect(page.getByText('te invitó a sumarte a')).toContainText(
    'Marta Prueba te invitó a sumarte a Ferretería La Llave como empleado.',
  );
  await expect(page.getByText('Te esperamos el lunes.')).toBeVisible();
  await expect(page.getByText('La invitación es para')).toContainText(email);
  await expect(page.getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aceptar invitación' })).toHaveCount(0);

  // Signing up from there: the e-mail comes filled and the page comes back.
  await page.getByRole('link', { name: 'Crear cuenta' }).click();
  await expect(page).toHaveURL(/\/register\?/);
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await page.getByLabel('Nombre').fill('Nico');
  await page.getByLabel('Contraseña').fill('clave-segura-123');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page).toHaveURL(/\/invitacion\?token=/);
  await page.getByRole('button', { name: 'Aceptar invitación' }).click();
  await expect(page.getByRole('status')).toHaveText('Invitación aceptada. Un administrador debe aprobar tu acceso.');

  // An unknown token says so, with a way on.
  await page.goto('/invitacion?token=no-existe');
  await expect(page.getByText('La invitación no existe o expiró.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ir al inicio' })).toBeVisible();
});
