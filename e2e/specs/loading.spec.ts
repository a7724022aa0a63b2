import { expect, test, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn } from '../support/session';

/** Holds the scripts whose name matches until `release()`; `requested()` says whether one was asked for. */
async function holdScripts(page: Page, name: RegExp) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let asked = false;
  await page.route(
    (url) => url.pathname.startsWith('/assets/') && name.test(url.pathname),
    async (route) => {
      asked = true;
      await held;
      await route.continue();
    },
  );
  return { release, requested: () => asked };
}

test.beforeEach(async ({ page, request }) => {
  const owner = await createUser(request, 'Carga');
  const businessId = await createBusiness(request, owner, 'Almacén Carga');
  await signIn(page, owner, businessId);
});

test('while the application and a screen not opened before load, a skeleton shows instead of a blank page', async ({
  page,
}) => {
  const layout = await holdScripts(page, /\/app-layout-[\w-]+\.js$/);
  await page.goto('/home');
  await expect(page.getByTestId('cargando-pantalla')).toBeVisible();
  layout.release();
  await expect(page.getByRole('heading', { name: 'Inicio' })).toBeVisible();
  await expect(page.getByTestId('cargando-pantalla')).toHaveCount(0);

  const customers = await holdScripts(page, /\/customers-page-[\w-]+\.js$/);
  await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Clientes' }).click();
  await expect(page.getByTestId('cargando-pantalla')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Inicio' })).toHaveCount(0);
  customers.release();
  await expect(page.getByRole('heading', { name: 'Clientes' })).toBeVisible();
  await expect(page.getByTestId('cargando-pantalla')).toHaveCount(0);
});

test("the top bar's menus load their code when first used, and open from the keyboard", async ({ page }) => {
  const menu = await holdScripts(page, /\/business-menu-[\w-]+\.js$/);
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Inicio' })).toBeVisible();
  await expect(page.getByTestId('negocio-actual')).toHaveText('Almacén Carga');
  expect(menu.requested()).toBe(false);

  await page.getByRole('button', { name: 'Seleccionar negocio' }).focus();
  await expect.poll(menu.requested).toBe(true);
  menu.release();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Crear negocio' })).toBeVisible();
  await expect(page.getByRole('menu')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: /Almacén Carga/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Seleccionar negocio' })).toBeFocused();

  await page.getByRole('button', { name: 'Menú de perfil' }).click();
  await page.getByRole('menuitem', { name: 'Editar perfil' }).click();
  await expect(page).toHaveURL(/\/profile$/);
});
