import { expect, test } from '@playwright/test';
import { MAIL_HTTP_PORT, SMTP_APP_PORT } from '../playwright.config';
import { PASSWORD, uniqueEmail } from '../support/session';

const smtpApp = `http://localhost:${SMTP_APP_PORT}`;

async function confirmationLink(email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`http://127.0.0.1:${MAIL_HTTP_PORT}/messages`);
    const messages: { to: string[]; raw: string }[] = await res.json();
    const mail = messages.find((m) => m.to.includes(email));
    // Quoted-printable may wrap long lines with "=\r\n".
    const body = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = body?.match(/https?:\/\/\S+\/confirm\?token=[\w-]+/)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No llegó el e-mail de confirmación a ${email}`);
}

test('register, confirm the e-mail, come back and enter without typing the password again, create a business, log out', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('nueva');
  await page.goto(`${smtpApp}/register`);
  await page.getByLabel('Nombre').fill('Nora');
  await page.getByLabel('Apellido').fill('Quiroga');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.getByRole('heading', { name: 'Revisá tu correo' })).toBeVisible();
  await expect(page.getByText('Cuenta creada. Te enviamos un e-mail para confirmarla.')).toBeVisible();

  // Before confirming, the account cannot enter: not from here, not from the login page.
  await page.getByRole('button', { name: 'Ya confirmé mi e-mail' }).click();
  await expect(page.getByText('Todavía no confirmaste tu e-mail.', { exact: false })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('mostrador.token'))).toBeNull();
  const mail = await context.newPage();
  await mail.goto(`${smtpApp}/login`);
  await mail.getByLabel('E-mail').fill(email);
  await mail.getByLabel('Contraseña').fill(PASSWORD);
  await mail.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(mail.getByText('Debés confirmar tu e-mail antes de iniciar sesión. Revisá tu correo.')).toBeVisible();

  // The link of the e-mail, opened in another tab.
  await mail.goto(await confirmationLink(email));
  await expect(mail.getByText('Tu e-mail fue confirmado. Ya podés iniciar sesión.')).toBeVisible();
  await mail.close();

  // Back on the signup tab: one click and the new user is in.
  await page.bringToFront();
  await page.getByRole('button', { name: 'Ya confirmé mi e-mail' }).click();
  await expect(page).toHaveURL(/\/home$/);

  // No business yet: the user is led to create one.
  await expect(page.getByRole('heading', { name: 'Creá tu primer negocio' })).toBeVisible();
  await page.getByLabel('Nombre del negocio').fill('Kiosco Nora');
  await page.getByLabel('Tipo').selectOption('Tienda');
  await page.getByRole('button', { name: 'Crear negocio' }).click();

  await expect(page.getByRole('heading', { name: 'Inicio' })).toBeVisible();
  await expect(page.getByTestId('negocio-actual')).toHaveText('Kiosco Nora');
  for (const card of ['Ventas del Mes', 'Facturas Emitidas', 'Productos Activos', 'Clientes Registrados']) {
    await expect(page.getByText(card, { exact: true })).toBeVisible();
  }
  // The month's sales card (the monthly chart may show another $ 0,00 once it loads).
  const ventasDelMes = page.getByText('Ventas del Mes', { exact: true }).locator('xpath=../..');
  await expect(ventasDelMes.getByText('$ 0,00', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Menú de perfil' }).click();
  await expect(page.getByRole('menu').getByText(email)).toBeVisible();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // A request still in flight when the session ended answers 401 and loads /login once more
  // (api.ts): asked during that reload, the page has no context yet, so ask again.
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('mostrador.token')).catch(() => 'recargando'))
    .toBeNull();

  // The application is not reachable without a session.
  await page.goto(`${smtpApp}/home`);
  await expect(page).toHaveURL(/\/login$/);
});

test('a wrong password shows the Spanish error and keeps the user on the login page', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(uniqueEmail('nadie'));
  await page.getByLabel('Contraseña').fill('no-es-la-clave-1');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByText('E-mail o contraseña incorrectos.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});
