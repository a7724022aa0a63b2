import path from 'node:path';
import { tmpdir } from 'node:os';
import { defineConfig, devices } from '@playwright/test';

/**
 * The journeys in Chromium against the servers `support/servers.ts` starts (the built app on fresh
 * embedded databases and the fakes of ARCA, the printer, Mercado Pago and an SMTP peer).
 */

// Ports of this run, chosen once in the runner process and inherited by its workers, so two
// runs on one machine do not collide.
process.env.E2E_PORT_BASE ??= String(20_000 + (process.pid % 2000) * 4);
const base = Number(process.env.E2E_PORT_BASE);
export const PORT = base;
export const SMTP_APP_PORT = base + 1;
export const SMTP_PORT = base + 2;
export const MAIL_HTTP_PORT = base + 3;
/** The fake ARCA (WSAA, WSFEv1, padrón A5) the main server invoices against; outside the 4-port block. */
export const ARCA_PORT = 30_000 + (base % 2000);
export const ARCA_URL = `http://127.0.0.1:${ARCA_PORT}`;
// The specs reach the fake's control endpoint (faults, signing a CSR) through this.
process.env.E2E_ARCA_URL = ARCA_URL;
/** The fake network thermal printer (issue 35) and its control endpoint; below the ephemeral range. */
export const PRINTER_PORT = 12_000 + (base % 2000);
export const PRINTER_CONTROL_PORT = 14_000 + (base % 2000);
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

/**
 * The HTTPS journey trusts Mostrador's CA with `certutil` (Debian's libnss3-tools), which a
 * laptop's `npm test` does not need: `.ci/run` installs it and sets E2E_HTTPS=1.
 */
const NEEDS_CERTUTIL = /pos-https\.spec\.ts$/;
/** The journeys of the project "one-at-a-time" (below). */
const ONE_AT_A_TIME = /(plan|share|facturacion[a-z-]*|libro-iva-digital|printing)\.spec\.ts$/;

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Files, not tests, are spread over the workers: a file's tests keep their order. The journeys
  // share the main server, each with its own users and businesses (decision 0053). PW_WORKERS
  // overrides it on a bigger machine.
  fullyParallel: false,
  workers: Number(process.env.PW_WORKERS ?? 2),
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
    // The trace of a failed journey keeps its steps and DOM snapshots, not a film of screenshots
    // (the film was about a third of the browser's CPU in every journey).
    trace: { mode: 'retain-on-failure', screenshots: false },
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
      // Journeys that change what the others share: the fake ARCA (reset, faults, its CUITs), the
      // fake printer's mode and the clock server's time. They run one after another, beside the rest.
      // First in this list, so they start at once on one worker rather than all at the end.
      name: 'one-at-a-time',
      testMatch: ONE_AT_A_TIME,
      workers: 1,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    {
      name: 'chromium',
      testIgnore: process.env.E2E_HTTPS === '1' ? ONE_AT_A_TIME : [ONE_AT_A_TIME, NEEDS_CERTUTIL],
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
  ],
  globalSetup: './support/servers.ts',
});
