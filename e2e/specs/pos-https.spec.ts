import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, request as playwrightRequest, test, type Browser } from '@playwright/test';
import config from '../playwright.config';
import { createBusiness, createUser, PASSWORD, uniqueEmail } from '../support/session';

/*
 * Issue 36, HTTPS on the shop's network: a tablet that trusts Mostrador's local CA opens the
 * back-room PC by its name over HTTPS, installs the POS (service worker), loses the connection,
 * reopens the POS and sells. This journey starts its own server with HTTPS_PORT on a fresh data
 * directory, and its own Chromium with an NSS database (certutil) where the CA is trusted.
 */
const HOST = 'tienda.local';
const base = Number(process.env.E2E_PORT_BASE);
const HTTP_PORT = 16_000 + (base % 2000);
const HTTPS_PORT = 18_000 + (base % 2000);
const local = `http://localhost:${HTTP_PORT}`;
const shop = `https://${HOST}:${HTTPS_PORT}`;
const main = fileURLToPath(new URL('../../apps/api/dist/main.js', import.meta.url));
const launch = config.use?.launchOptions ?? {};

let server: ChildProcess;
let dataDir: string;
let home: string;
let browser: Browser;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'mostrador-e2e-https-'));
  chmodSync(dataDir, 0o755);
  server = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(HTTP_PORT),
      HTTPS_PORT: String(HTTPS_PORT),
      HTTPS_HOSTS: HOST,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SIGNUP_PER_HOUR: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await expect
    .poll(async () => (await fetch(`${local}/api/v1/health`).catch(() => null))?.status, { timeout: 120_000 })
    .toBe(200);

  // The CA, downloaded over plain HTTP from the page that explains how to install it, trusted for
  // websites ("C,,") in an NSS database under the HOME Chromium is given.
  const crt = await fetch(`${local}/certificado/mostrador-ca.crt`);
  expect(crt.status).toBe(200);
  home = mkdtempSync(path.join(tmpdir(), 'mostrador-e2e-home-'));
  const nss = path.join(home, '.pki', 'nssdb');
  mkdirSync(nss, { recursive: true });
  const caFile = path.join(home, 'mostrador-ca.crt');
  writeFileSync(caFile, Buffer.from(await crt.arrayBuffer()));
  const certutil = (...args: string[]) => {
    const r = spawnSync('certutil', ['-d', `sql:${nss}`, ...args], { encoding: 'utf8' });
    expect(r.status, `certutil ${args.join(' ')}: ${r.stderr}`).toBe(0);
  };
  certutil('-N', '--empty-password');
  certutil('-A', '-t', 'C,,', '-n', 'Mostrador CA local', '-i', caFile);

  browser = await chromium.launch({
    ...launch,
    env: { ...process.env, HOME: home },
    args: [...(launch.args ?? []), `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  });
});

test.afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
  }
  for (const d of [dataDir, home]) if (d) rmSync(d, { recursive: true, force: true });
});

test('a tablet trusting the local CA opens https://tienda.local, installs the POS, and sells offline after reopening it', async () => {
  test.setTimeout(150_000);
  const request = await playwrightRequest.newContext({ baseURL: local });
  const owner = await createUser(request, 'Tamara', uniqueEmail('tamara'));
  const businessId = await createBusiness(request, owner, 'Almacén Con Candado');
  const headers = { authorization: `Bearer ${owner.token}` };
  const product = await request.post(`/api/v1/businesses/${businessId}/products`, {
    data: { nombre: 'Alfajor de maicena', codigo: 'ALF001', precio_venta: 1200, stock_actual: 10, unidad: 'unidad' },
    headers,
  });
  expect(product.status(), await product.text()).toBe(201);

  const context = await browser.newContext({ ...config.projects?.[1]?.use, baseURL: shop, locale: 'es-AR' });
  const page = await context.newPage();
  // A certificate the browser did not trust would fail this navigation (no interstitial is clicked).
  const response = await page.goto('/login');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['strict-transport-security']).toContain('max-age=');
  expect(await page.evaluate(() => window.isSecureContext)).toBe(true);

  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).not.toHaveURL(/\/login/);

  const catalogue = page.waitForResponse((r) => r.url().includes(`/businesses/${businessId}/pos/catalogo`) && r.ok());
  await page.goto('/pos');
  await expect(page.getByRole('heading', { name: 'Punto de venta' })).toBeVisible();
  await catalogue;
  await expect(page.getByTestId('pos-conexion')).toHaveText(/En línea/);
  // The service worker keeps the app: over HTTPS on the LAN, as on localhost.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const shell = await caches.open('mostrador-shell-v1');
        const api = await caches.open('mostrador-api-v1');
        return (
          Boolean(navigator.serviceWorker.controller) &&
          Boolean(await shell.match('/app.html')) &&
          (await api.keys()).some((r) => r.url.endsWith('/api/v1/businesses/'))
        );
      }),
    )
    .toBe(true);

  // No connection: the POS is closed and opened again, and sells.
  await context.setOffline(true);
  await page.close();
  const again = await context.newPage();
  await again.goto('/pos');
  await expect(again.getByRole('heading', { name: 'Punto de venta' })).toBeVisible();
  await expect(again.getByTestId('pos-conexion')).toHaveText(/Sin conexión/);
  const search = again.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially('ALF001');
  await search.press('Enter');
  await expect(
    again.getByRole('list', { name: 'Ítems del carrito' }).getByRole('listitem', { name: 'Alfajor de maicena' }),
  ).toBeVisible();
  await again.keyboard.press('F9');
  const done = again.getByRole('dialog', { name: 'Venta guardada: pendiente de sincronizar' });
  await expect(done).toBeVisible();
  await expect(done.getByRole('article')).toContainText('PENDIENTE DE SINCRONIZAR');
  await done.getByRole('button', { name: 'Nueva venta' }).click();
  await expect(again.getByTestId('pos-pendientes')).toHaveText('1 pendiente de sincronizar');

  // Back online, the sale reaches the server once.
  await context.setOffline(false);
  await expect(again.getByTestId('pos-pendientes')).toHaveText('Todo sincronizado', { timeout: 60_000 });
  const sales = await request.get(`/api/v1/businesses/${businessId}/ventas/sales`, { headers });
  expect((await sales.json()).ventas).toHaveLength(1);
  await context.close();
  await request.dispose();
});
