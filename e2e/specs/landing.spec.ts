import { expect, test } from '@playwright/test';

/** The landing page's sections, in order. */
const SECTION_IDS = ['inicio', 'problema', 'funcionalidades', 'modulos', 'beneficios', 'precios', 'faq', 'contacto'];

const LEGAL_PAGES = [
  { href: '/politicas', name: 'Política de privacidad' },
  { href: '/terminos', name: 'Términos y condiciones' },
  { href: '/cookies', name: 'Política de cookies' },
];

test.describe('landing page', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the top bar links to the sections, to log in and to register', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Principal' });
    for (const [name, href] of [
      ['Inicio', '#inicio'],
      ['Funcionalidades', '#funcionalidades'],
      ['Precios', '#precios'],
      ['Contacto', '#contacto'],
    ]) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(nav.getByRole('link', { name: 'Iniciar sesión' })).toHaveAttribute('href', '/login');
    await expect(nav.getByRole('link', { name: 'Registrarse' })).toHaveAttribute('href', '/register');
    await expect(nav.getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
  });

  test('has every section, in order, under a single h1', async ({ page }) => {
    await page.goto('/');
    const ids = await page.locator('main > section').evaluateAll((sections) => sections.map((s) => s.id));
    expect(ids).toEqual(SECTION_IDS);
    for (const id of SECTION_IDS) await expect(page.locator(`section#${id}`)).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);

    const hero = page.locator('#inicio');
    await expect(hero.getByText('14 días de prueba gratis, sin tarjeta')).toBeVisible();
    await expect(hero.getByRole('link', { name: 'Prueba gratis 14 días' })).toHaveAttribute('href', '/register');

    const modules = page.locator('#modulos');
    for (const name of [
      'Punto de venta y reportes de ventas',
      'Compras y proveedores',
      'Inventario',
      'Clientes',
      'Finanzas',
      'Tareas',
      'Usuarios por negocio con permisos',
    ]) {
      await expect(modules.getByRole('heading', { name, exact: true })).toBeVisible();
    }

    const contact = page.locator('#contacto');
    await expect(contact.getByRole('link', { name: 'hola@mostrador.com.ar' })).toHaveAttribute(
      'href',
      'mailto:hola@mostrador.com.ar',
    );
    await expect(contact.getByRole('link', { name: 'Registrarme gratis' })).toHaveAttribute('href', '/register');
  });

  test('shows the three plans with their limits, the trial and the read-only period', async ({ page }) => {
    await page.goto('/');
    const pricing = page.locator('#precios');
    await expect(pricing.getByText('Precios referenciales.')).toBeVisible();
    await expect(pricing.getByText('14 días de prueba gratis sin tarjeta')).toBeVisible();
    await expect(pricing.getByText('modo solo lectura')).toBeVisible();
    await expect(pricing).toContainText('durante 30 días más');

    const tiers = [
      {
        name: 'Esencial',
        limits: ['Hasta 5 usuarios', '10 GB de almacenamiento'],
        cta: 'Prueba gratis',
        href: '/register',
      },
      {
        name: 'Profesional',
        limits: ['Hasta 20 usuarios', '100 GB de almacenamiento'],
        cta: 'Prueba gratis',
        href: '/register',
      },
      {
        name: 'Empresarial',
        limits: ['Usuarios ilimitados', 'Almacenamiento ilimitado'],
        cta: 'Contactanos',
        href: '#contacto',
      },
    ];
    for (const tier of tiers) {
      const card = pricing.locator('li').filter({ has: page.getByRole('heading', { name: tier.name, exact: true }) });
      await expect(card).toHaveCount(1);
      await expect(card.getByRole('heading', { name: tier.name, exact: true })).toBeVisible();
      for (const limit of tier.limits) await expect(card.getByText(limit, { exact: true })).toBeVisible();
      await expect(card.getByRole('link', { name: tier.cta })).toHaveAttribute('href', tier.href);
    }
  });

  test('the FAQ is an accordion of exactly four native details items', async ({ page }) => {
    await page.goto('/');
    const items = page.locator('#faq details');
    await expect(items).toHaveCount(4);
    for (let i = 0; i < 4; i++) {
      await expect(items.nth(i)).toHaveJSProperty('open', false);
      await expect(items.nth(i).locator('summary')).toHaveCount(1);
    }

    const item = items.filter({ hasText: '¿Qué pasa cuando termina la prueba?' });
    const answer = item.getByText('modo solo lectura durante 30 días');
    await expect(answer).toBeHidden();
    await item.locator('summary').click();
    await expect(item).toHaveJSProperty('open', true);
    await expect(answer).toBeVisible();

    await item.locator('summary').click();
    await expect(item).toHaveJSProperty('open', false);
  });

  test('the footer links to the legal pages, and each one loads with its h1', async ({ page }) => {
    for (const { href, name } of LEGAL_PAGES) {
      await page.goto('/');
      const link = page.getByRole('contentinfo').getByRole('link', { name, exact: true });
      await expect(link).toHaveAttribute('href', href);
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
      await expect(page.getByText('Última actualización: 21 de noviembre de 2026')).toBeVisible();
      await expect(page.getByRole('banner').getByRole('link', { name: 'Mostrador' })).toHaveAttribute('href', '/');
    }
  });

  test('"Saltar al contenido" stays out of sight until the keyboard reaches it, on the landing and legal pages', async ({
    page,
  }) => {
    for (const href of ['/', ...LEGAL_PAGES.map((p) => p.href)]) {
      await page.goto(href);
      const skip = page.getByRole('link', { name: 'Saltar al contenido' });
      await expect(skip).toHaveAttribute('href', '#contenido');
      // sr-only: still in the page for screen readers, but a 1 px clipped box nobody sees.
      const hidden = await skip.boundingBox();
      expect(hidden!.width).toBeLessThanOrEqual(1);
      expect(hidden!.height).toBeLessThanOrEqual(1);
      await page.keyboard.press('Tab');
      await expect(skip).toBeFocused();
      const shown = await skip.boundingBox();
      expect(shown!.width).toBeGreaterThan(100);
      expect(shown!.height).toBeGreaterThan(20);
      expect(shown!.y).toBeLessThan(40);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/#contenido$/);
      await page.keyboard.press('Tab');
      await expect(skip).not.toBeFocused();
      expect((await skip.boundingBox())!.width).toBeLessThanOrEqual(1);
    }
  });

  test('loads less than 150 KB of JavaScript', async ({ page }) => {
    const scripts: Promise<{ url: string; bytes: number }>[] = [];
    page.on('response', (response) => {
      const isScript =
        response.request().resourceType() === 'script' ||
        (response.headers()['content-type'] ?? '').includes('javascript');
      if (!isScript) return;
      scripts.push(
        response
          .body()
          .then((body) => ({ url: response.url(), bytes: body.length }))
          .catch(() => ({ url: response.url(), bytes: 0 })),
      );
    });
    await page.goto('/', { waitUntil: 'load' });
    await page.locator('#faq details').first().waitFor();

    const loaded = await Promise.all(scripts);
    expect(loaded.length, 'the menu script is measured').toBeGreaterThan(0);
    const total = loaded.reduce((sum, s) => sum + s.bytes, 0);
    expect(total, JSON.stringify(loaded)).toBeLessThan(150_000);
    // The landing has no framework: only the tiny menu script (a few KB at most).
    for (const script of loaded) expect(script.bytes, script.url).toBeLessThan(10_000);
  });
});

test.describe('landing page on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu button toggles the navigation', async ({ page }) => {
    await page.goto('/');
    const button = page.getByRole('button', { name: 'Abrir menú' });
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toHaveAttribute('aria-controls', 'menu-principal');
    await expect(nav).toBeHidden();

    await button.click();
    await expect(page.getByRole('button', { name: 'Cerrar menú' })).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Registrarse' })).toBeVisible();

    // Following an anchor closes the menu.
    await nav.getByRole('link', { name: 'Precios', exact: true }).click();
    await expect(page).toHaveURL(/#precios$/);
    await expect(nav).toBeHidden();
    await expect(page.getByRole('button', { name: 'Abrir menú' })).toHaveAttribute('aria-expanded', 'false');
  });
});
