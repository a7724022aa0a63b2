import { expect, test } from '@playwright/test';
import { createBusiness, createUser, signIn } from '../support/session';

test('a customer with a CUIT, a subscription to a service, and its estado changed', async ({ page, request }) => {
  const owner = await createUser(request, 'Gimena');
  const businessId = await createBusiness(request, owner, 'Gimnasio Gimena');
  const service = await request.post(`/api/v1/businesses/${businessId}/services`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { nombre: 'Abono mensual', precio: 15000 },
  });
  expect(service.status()).toBe(201);
  await signIn(page, owner, businessId);

  // The dashboard quick action route also leads here.
  await page.goto(`/business/${businessId}/customers`);
  await expect(page.getByRole('heading', { name: 'Clientes' })).toBeVisible();
  await expect(page.getByText('Todavía no hay clientes')).toBeVisible();

  await page.getByRole('button', { name: 'Nuevo cliente' }).first().click();
  const form = page.getByRole('dialog', { name: 'Nuevo cliente' });
  await form.getByLabel('Nombre o razón social').fill('Lucía');
  await form.getByLabel('Apellido').fill('Fernández');
  await form.getByLabel('E-mail').fill('lucia@ejemplo.com');
  await form.getByLabel('Teléfono').fill('+54 9 11 4444-5555');
  await form.getByLabel('Tipo de documento').selectOption('CUIT');
  await form.getByLabel('Número').fill('20-12345678-0');
  await form.getByLabel('Condición frente al IVA').selectOption('monotributista');
  await form.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(form.getByText('CUIT/CUIL no válido.')).toBeVisible();
  await form.getByLabel('Número').fill('20123456786');
  await form.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText('Cliente «Lucía Fernández» creado.')).toBeVisible();

  // Search finds her without accents; the document is stored with hyphens.
  await page.getByLabel('Buscar clientes').fill('lucia fernandez');
  const customer = page
    .getByRole('table', { name: 'Clientes' })
    .getByRole('row')
    .filter({ hasText: 'Lucía Fernández' });
  await expect(customer).toContainText('CUIT 20-12345678-6');

  // Her card: no subscriptions yet; create one to the service.
  await customer.getByRole('button', { name: 'Lucía Fernández' }).first().click();
  const card = page.getByRole('dialog', { name: 'Lucía Fernández' });
  await expect(card.getByText('Lucía Fernández no tiene suscripciones.')).toBeVisible();
  await card.getByRole('button', { name: 'Nueva suscripción' }).click();
  const sub = page.getByRole('dialog', { name: 'Nueva suscripción' });
  await expect(sub.getByRole('combobox', { name: 'Cliente *' })).toHaveValue(/.+/);
  await sub.getByLabel('Servicio').selectOption((await service.json()).id);
  await sub.getByLabel('Frecuencia').selectOption('mensual');
  await sub.getByRole('button', { name: 'Crear suscripción' }).click();
  await expect(sub).toBeHidden();

  const item = card.getByRole('listitem').filter({ hasText: 'Abono mensual' });
  await expect(item).toContainText('Activa');
  await expect(item).toContainText('15.000,00');
  await expect(item).toContainText('Próximo cobro');

  // Its estado changes with its own call; a paused subscription has no next charge.
  await item.getByLabel(/Estado de Abono mensual/).selectOption('pausada');
  await expect(item).toContainText('Pausada');
  await expect(item).toContainText('Sin próximo cobro');

  // The same subscription on the catalogue's subscriptions tab, filtered by estado.
  await page.keyboard.press('Escape');
  await page.goto('/products-and-services?tab=suscripciones');
  await page.getByLabel('Estado', { exact: true }).selectOption('pausada');
  const listed = page.getByRole('table', { name: 'Suscripciones' }).getByRole('row', { name: /Abono mensual/ });
  await expect(listed).toHaveCount(1);
  await expect(listed.first()).toContainText('Lucía Fernández');
  await listed
    .first()
    .getByLabel(/Estado de Abono mensual/)
    .selectOption('activa');
  await expect(page.getByText('Suscripción de Lucía Fernández: activa.')).toBeVisible();

  // A customer with a subscription cannot be deleted: the confirmation shows why.
  await page.goto('/customers');
  await page.getByRole('button', { name: 'Eliminar Lucía Fernández' }).click();
  const confirm = page.getByRole('dialog', { name: 'Eliminar cliente' });
  await expect(confirm).toContainText('¿Estás seguro de que querés eliminar a «Lucía Fernández»?');
  await confirm.getByRole('button', { name: 'Eliminar' }).click();
  await expect(confirm.getByRole('alert')).toHaveText(
    'No se puede eliminar el cliente porque tiene ventas, suscripciones o cuentas asociadas.',
  );
});

test('saving a customer offline says so, keeps the form, and the retry creates exactly one', async ({
  page,
  context,
  request,
}) => {
  const owner = await createUser(request, 'Olga');
  const businessId = await createBusiness(request, owner, 'Almacén sin señal');
  await signIn(page, owner, businessId);
  const list = () =>
    request.get(`/api/v1/businesses/${businessId}/clientes`, { headers: { authorization: `Bearer ${owner.token}` } });

  await page.goto('/customers');
  await page.getByRole('button', { name: 'Nuevo cliente' }).first().click();
  const form = page.getByRole('dialog', { name: 'Nuevo cliente' });
  await form.getByLabel('Nombre o razón social').fill('Ramona');
  await form.getByLabel('Apellido').fill('Sin Señal');

  // Offline: no spinner forever, the reason, and the form with its values.
  await context.setOffline(true);
  await form.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'No se pudo conectar. Revisá la conexión y probá de nuevo: no se guardó nada todavía.',
  );
  await expect(form.getByRole('button', { name: 'Crear cliente' })).toBeEnabled();
  await expect(form.getByLabel('Nombre o razón social')).toHaveValue('Ramona');

  // Back online, nothing was sent by itself: the list is still empty until the user retries.
  await context.setOffline(false);
  await page.waitForTimeout(500);
  expect(await (await list()).json()).toHaveLength(0);

  // The request reaches the server but its answer is lost: the retry gets the first answer.
  let lost = false;
  await page.route('**/api/v1/businesses/*/clientes', async (route) => {
    if (lost || route.request().method() !== 'POST') return route.continue();
    lost = true;
    await route.fetch();
    await route.abort('internetdisconnected');
  });
  await form.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(form.getByRole('alert')).toContainText('No se pudo conectar.');
  await form.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText('Cliente «Ramona Sin Señal» creado.')).toBeVisible();

  const customers = (await (await list()).json()) as { nombre: string }[];
  expect(customers.map((c) => c.nombre)).toEqual(['Ramona']);
});
