import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ARCA_PORT,
  ARCA_URL,
  CLOCK_APP_PORT,
  CLOCK_FILE,
  MAIL_HTTP_PORT,
  MP_PORT,
  MP_URL,
  PORT,
  PRINTER_CONTROL_PORT,
  PRINTER_PORT,
  SMTP_APP_PORT,
  SMTP_PORT,
} from '../playwright.config';

/**
 * Global setup of the journeys: the built app (npm run build) on fresh embedded databases — one
 * server without SMTP (accounts are confirmed at signup), one wired to a real local SMTP peer for
 * the confirmation journey, and one whose clock the plan journey moves ahead — and the fakes of
 * ARCA, the network printer and Mercado Pago, all compiled, started at once and waited for
 * together. Returns the teardown, which stops them and removes their data.
 */
const e2e = fileURLToPath(new URL('..', import.meta.url));
const api = path.join(e2e, '../apps/api/dist');
const fake = (module: string) => path.join(api, 'modules', module, 'fake/cli.js');

interface Server {
  name: string;
  args: string[];
  /** Answers 200 once the server is ready. */
  url: string;
  env?: Record<string, string>;
  /** A fresh data directory (embedded PostgreSQL), removed at the end. */
  data?: boolean;
}

const arca = {
  ARCA_WSAA_URL: `${ARCA_URL}/wsaa`,
  ARCA_WSFE_URL: `${ARCA_URL}/wsfe`,
  ARCA_PADRON_URL: `${ARCA_URL}/padron-a5`,
};

const SERVERS: Server[] = [
  {
    name: 'smtp',
    args: [path.join(e2e, 'support/smtp-peer.mjs')],
    url: `http://127.0.0.1:${MAIL_HTTP_PORT}/messages`,
    env: { SMTP_PORT: String(SMTP_PORT), HTTP_PORT: String(MAIL_HTTP_PORT) },
  },
  { name: 'arca', args: [fake('facturacion'), '--port', String(ARCA_PORT)], url: `${ARCA_URL}/__control` },
  {
    name: 'impresora',
    args: [fake('impresion'), '--port', String(PRINTER_PORT), '--control', String(PRINTER_CONTROL_PORT)],
    url: `http://127.0.0.1:${PRINTER_CONTROL_PORT}/__control`,
  },
  { name: 'mercadopago', args: [fake('mercadopago'), '--port', String(MP_PORT)], url: `${MP_URL}/_fake` },
  {
    name: 'app',
    args: [path.join(api, 'main.js')],
    url: `http://localhost:${PORT}/api/v1/health`,
    data: true,
    env: {
      PORT: String(PORT),
      RATE_LIMIT_SIGNUP_PER_HOUR: '1000',
      ...arca,
      MERCADOPAGO_API_URL: MP_URL,
      // A lost notification is recovered by the next read of the pending orders after this.
      MERCADOPAGO_PENDIENTE_MS: '3000',
    },
  },
  {
    name: 'app-smtp',
    args: [path.join(api, 'main.js')],
    url: `http://localhost:${SMTP_APP_PORT}/api/v1/health`,
    data: true,
    env: {
      PORT: String(SMTP_APP_PORT),
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      PUBLIC_URL: `http://localhost:${SMTP_APP_PORT}`,
    },
  },
  {
    name: 'app-reloj',
    args: [path.join(api, 'main.js')],
    url: `http://localhost:${CLOCK_APP_PORT}/api/v1/health`,
    data: true,
    // A shared invoice's link expiring (share.spec.ts) is invoiced against the fake ARCA too.
    env: { PORT: String(CLOCK_APP_PORT), MOSTRADOR_CLOCK_FILE: CLOCK_FILE, ...arca },
  },
];

const READY_MS = 120_000;

async function ready(s: Server, child: ChildProcess): Promise<void> {
  const until = Date.now() + READY_MS;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${s.name} terminó antes de estar listo (${child.exitCode ?? child.signalCode})`);
    }
    try {
      if ((await fetch(s.url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${s.name} no respondió en ${s.url} en ${READY_MS / 1000} s`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export default async function startServers(): Promise<() => Promise<void>> {
  const dirs: string[] = [];
  const children = SERVERS.map((s) => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), LOG_LEVEL: 'warn', ...s.env };
    if (s.data) {
      const dir = mkdtempSync(path.join(tmpdir(), `mostrador-e2e-${s.name}-`));
      chmodSync(dir, 0o755);
      dirs.push(dir);
      env.DATA_DIR = dir;
    }
    return spawn(process.execPath, s.args, { cwd: e2e, env, stdio: ['ignore', 'ignore', 'inherit'] });
  });
  const teardown = async () => {
    await Promise.all(children.map(stop));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(SERVERS.map((s, i) => ready(s, children[i])));
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
