import { expect, test } from '@playwright/test';
import { createBusiness, createUser, signIn, uniqueEmail } from '../support/session';

test('an invited member approved with only ventas and clientes is refused elsewhere by the permission gate', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Dueno');
  const businessId = await createBusiness(request, owner, 'Librería Central');
  const ownerAuth = { authorization: `Bearer ${owner.token}` };

  const email = uniqueEmail('cajera');
  const invite = await request.post(`/api/v1/businesses/${businessId}/invitaciones`, {
    headers: ownerAuth,
    data: { email },
  });
  expect(invite.status()).toBe(201);
  const link = new URL((await invite.json()).invitacion.enlace);

  // The invitee registers, logs in and accepts the invitation in the browser.
  const member = await createUser(request, 'Cajera', email);
  await signIn(page, member);
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('te invitó a sumarte a')).toBeVisible();
  await page.getByRole('button', { name: 'Aceptar invitación' }).click();
  await expect(page.getByText('Invitación aceptada. Un administrador debe aprobar tu acceso.')).toBeVisible();

  const approve = await request.post(`/api/v1/businesses/${businessId}/usuarios-pendientes/${member.id}/aprobar`, {
    headers: ownerAuth,
    data: { puede_ver_ventas: true, puede_editar_ventas: true, puede_ver_clientes: true },
  });
  expect(approve.status()).toBe(200);

  await page.goto('/home');
  await expect(page.getByTestId('negocio-actual')).toHaveText('Librería Central');

  await page.goto('/customers');
  await expect(page.getByRole('heading', { name: 'Clientes' })).toBeVisible();
  await expect(page.getByText('Acceso Restringido')).toHaveCount(0);

  await page.goto('/compras');
  await expect(page.getByRole('heading', { name: 'Acceso Restringido' })).toBeVisible();
  await expect(page.getByText('No tenés permisos para acceder a esta página')).toBeVisible();
  // The permission to ask for, named as the team screen names it.
  await expect(page.getByText('Permiso requerido: Ver en el módulo Compras y stock')).toBeVisible();
  await expect(page.getByText('Contactá al administrador del negocio')).toBeVisible();
  await page.getByRole('link', { name: 'Volver al inicio' }).click();
  await expect(page.getByRole('heading', { name: 'Inicio' })).toBeVisible();

  // The server refuses too, whatever the UI shows.
  const direct = await request.get(`/api/v1/businesses/${businessId}/tenant-settings`, {
    headers: { authorization: `Bearer ${member.token}` },
  });
  expect(direct.status()).toBe(200);
  const denied = await request.post(`/api/v1/businesses/${businessId}/tenant-settings`, {
    headers: { authorization: `Bearer ${member.token}` },
    data: { currency: 'USD' },
  });
  expect(denied.status()).toBe(403);
});

test('with no business selected, business links show "Sin negocio" and refuse navigation', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'Solo');
  await signIn(page, user);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Mi perfil' })).toBeVisible();
  await expect(page.getByText('Sin negocio').first()).toBeVisible();
  // An in-app prompt, not a browser alert; closing it returns focus to the link.
  const link = page.getByRole('link', { name: /Clientes/ });
  await link.click();
  const ask = page.getByRole('dialog', { name: 'Elegí un negocio' });
  await expect(ask).toContainText('Por favor seleccioná un negocio antes de continuar');
  await expect(page).toHaveURL(/\/profile$/);
  await ask.getByRole('button', { name: 'Entendido' }).click();
  await expect(ask).toHaveCount(0);
  await expect(link).toBeFocused();
  await link.click();
  await page.getByRole('link', { name: 'Ir a Negocios' }).click();
  await expect(page).toHaveURL(/\/business-users$/);
});
