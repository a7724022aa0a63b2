import { rmSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { CLOCK_APP_PORT, CLOCK_FILE } from '../playwright.config';
import { createBusiness, createUser, PASSWORD, signIn, type E2EUser } from '../support/session';

const DAY = 86_400_000;

// The server whose clock these journeys move (project "one-at-a-time": nothing else runs beside them).
test.use({ baseURL: `http://localhost:${CLOCK_APP_PORT}` });

test.afterEach(() => rmSync(CLOCK_FILE, { force: true }));

/** Moves the server's clock and logs in again (sessions last 12 hours). */
async function travel(request: Parameters<typeof createUser>[0], user: E2EUser, days: number) {
  writeFileSync(CLOCK_FILE, String(days * DAY));
  await new Promise((r) => setTimeout(r, 250));
  const login = await request.post('/api/v1/auth/login', { form: { username: user.email, password: PASSWORD } });
  return { ...user, token: (await login.json()).access_token as string };
}

test('a business past its trial is read-only until a plan is chosen', async ({ page, request }) => {
  const owner = await createUser(request, 'Vencida');
  const businessId = await createBusiness(request, owner, 'Verdulería Lola');
  await signIn(page, owner, businessId);
  await page.goto('/finanzas/categorias');
  await expect(page.getByText(/Estás en la prueba gratis: te quedan 14 días/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nueva Categoría' })).toBeVisible();

  const later = await travel(request, owner, 20);
  await signIn(page, later, businessId);
  await page.goto('/finanzas/categorias');
  await expect(page.getByRole('alert').filter({ hasText: 'modo solo lectura hasta el' })).toBeVisible();
  // Reading works; writing is not offered…
  await expect(page.getByText('Ventas').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nueva Categoría' })).toHaveCount(0);
  // …and the server refuses it with the message of the contract.
  const refused = await request.post(`/api/v1/businesses/${businessId}/finanzas/categorias`, {
    headers: { authorization: `Bearer ${later.token}` },
    data: { nombre: 'Alquiler', tipo: 'egreso' },
  });
  expect(refused.status()).toBe(402);
  expect((await refused.json()).detail).toMatch(
    /^Tu período de prueba terminó\. El negocio está en modo solo lectura hasta el \d{2}\/\d{2}\/\d{4}; elegí un plan para volver a registrar datos\.$/,
  );

  await page.getByRole('link', { name: 'Elegir plan' }).click();
  await expect(page.getByRole('heading', { name: 'Plan del negocio' })).toBeVisible();
  await expect(page.getByText('El pago todavía no está integrado')).toBeVisible();
  await page.getByRole('button', { name: 'Elegir Profesional' }).click();
  await expect(page.getByText('Plan registrado. Ya podés seguir registrando datos.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'solo lectura' })).toHaveCount(0);

  await page.goto('/finanzas/categorias');
  await expect(page.getByRole('button', { name: 'Nueva Categoría' })).toBeVisible();
});
