import { mkdtempSync } from 'node:fs';
import { chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * The built app (npm run build) on fresh embedded databases: one server without SMTP (accounts
 * are confirmed at signup), one wired to a real local SMTP peer for the confirmation journey, and
 * one whose clock the plan journey moves ahead (every other journey's sessions would expire if it
 * moved the main server's clock while they run beside it on the second worker).
 */
const dataDir = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `mostrador-e2e-${name}-`));
  chmodSync(dir, 0o755);
  return dir;
};

// Ports of this run, chosen once in the runner process and inherited by its workers, so two
// runs on one machine do not collide.
process.env.E2E_PORT_BASE ??= String(20_000 + (process.pid % 2000) * 4);
const base = Number(process.env.E2E_PORT_BASE);
export const PORT = base;
export const SMTP_APP_PORT = base + 1;
const SMTP_PORT = base + 2;
export const MAIL_HTTP_PORT = base + 3;
/** The fake ARCA (WSAA, WSFEv1, padrón A5) the main server invoices against; outside the 4-port block. */
export const ARCA_PORT = 30_000 + (base % 2000);
export const ARCA_URL = `http://127.0.0.1:${ARCA_PORT}`;
// The specs reach the fake's control endpoint (faults, signing a CSR) through this.
process.env.E2E_ARCA_URL = ARCA_URL;
/** The fake network thermal printer (issue 35) and its control endpoint; below the ephemeral range. */
export const PRINTER_PORT = 12_000 + (base % 2000);
const PRINTER_CONTROL_PORT = 14_000 + (base % 2000);
process.env.E2E_PRINTER_PORT = String(PRINTER_PORT);
process.env.E2E_PRINTER_URL = `http://127.0.0.1:${PRINTER_CONTROL_PORT}`;
/** The fake Mercado Pago (decision 0052) the main server charges against; outside the 4-port block too. */
export const MP_PORT = 32_000 + (base % 2000);
export const MP_URL = `http://127.0.0.1:${MP_PORT}`;
// The specs play the customer (`/_fake/ordenes/{id}/pagar`) and add accounts through this.
process.env.E2E_MP_URL = MP_URL;
/** The clock server (plan.spec.ts) runs ahead by the milliseconds written here (see apps/api/src/lib/test-clock.ts). */
export const CLOCK_FILE = path.join(tmpdir(), `mostrador-e2e-clock-${base}`);
/** Outside the 4-port block too, below the ephemeral range. */
export const CLOCK_APP_PORT = 10_000 + (base - 20_000) / 4;
const server = '../apps/api/dist/main.js';

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Files, not tests, are spread over the workers: a file's tests keep their order. One worker:
  // on a 2-core machine two browsers, the servers and PostgreSQL left pages on "Cargando…" past
  // the journeys' timeouts (decision 0043); the journeys share the main server, each with its own
  // users and businesses. PW_WORKERS overrides it on a bigger machine.
  fullyParallel: false,
  workers: Number(process.env.PW_WORKERS ?? 1),
  retries: process.env.CI ? 1 : 0,
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    ['json', { outputFile: '../.reports/playwright.json' }],
  ],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /(plan|share)\.spec\.ts$/,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    {
      name: 'clock',
      testMatch: /(plan|share)\.spec\.ts$/,
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: `http://localhost:${CLOCK_APP_PORT}` },
    },
  ],
  webServer: [
    {
      command: `node support/smtp-peer.mjs`,
      url: `http://127.0.0.1:${MAIL_HTTP_PORT}/messages`,
      env: { SMTP_PORT: String(SMTP_PORT), HTTP_PORT: String(MAIL_HTTP_PORT) },
      reuseExistingServer: false,
    },
    {
      command: `npx tsx ../apps/api/src/modules/facturacion/fake/cli.ts --port ${ARCA_PORT}`,
      url: `${ARCA_URL}/__control`,
      reuseExistingServer: false,
    },
    {
      command: `npx tsx ../apps/api/src/modules/impresion/fake/cli.ts --port ${PRINTER_PORT} --control ${PRINTER_CONTROL_PORT}`,
      url: `http://127.0.0.1:${PRINTER_CONTROL_PORT}/__control`,
      reuseExistingServer: false,
    },
    {
      command: `npx tsx ../apps/api/src/modules/mercadopago/fake/cli.ts --port ${MP_PORT}`,
      url: `${MP_URL}/_fake`,
      reuseExistingServer: false,
    },
    {
      command: `node ${server}`,
      url: `http://localhost:${PORT}/api/v1/health`,
      env: {
        PORT: String(PORT),
        DATA_DIR: dataDir('app'),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_SIGNUP_PER_HOUR: '1000',
        ARCA_WSAA_URL: `${ARCA_URL}/wsaa`,
        ARCA_WSFE_URL: `${ARCA_URL}/wsfe`,
        ARCA_PADRON_URL: `${ARCA_URL}/padron-a5`,
        MERCADOPAGO_API_URL: MP_URL,
        // A lost notification is recovered by the next read of the pending orders after this.
        MERCADOPAGO_PENDIENTE_MS: '3000',
      },
      timeout: 120_000,
      reuseExistingServer: false,
    },
    {
      command: `node ${server}`,
      url: `http://localhost:${SMTP_APP_PORT}/api/v1/health`,
      env: {
        PORT: String(SMTP_APP_PORT),
        DATA_DIR: dataDir('smtp'),
        LOG_LEVEL: 'warn',
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        PUBLIC_URL: `http://localhost:${SMTP_APP_PORT}`,
      },
      timeout: 120_000,
      reuseExistingServer: false,
    },
    {
      command: `node ${server}`,
      url: `http://localhost:${CLOCK_APP_PORT}/api/v1/health`,
      env: {
        PORT: String(CLOCK_APP_PORT),
        DATA_DIR: dataDir('clock'),
        LOG_LEVEL: 'warn',
        MOSTRADOR_CLOCK_FILE: CLOCK_FILE,
        // A shared invoice's link expiring (share.spec.ts) is invoiced against the fake ARCA too.
        ARCA_WSAA_URL: `${ARCA_URL}/wsaa`,
        ARCA_WSFE_URL: `${ARCA_URL}/wsfe`,
        ARCA_PADRON_URL: `${ARCA_URL}/padron-a5`,
      },
      timeout: 120_000,
      reuseExistingServer: false,
    },
  ],
});
