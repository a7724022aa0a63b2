import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase } from '../test/databases.js';
import { freePort } from './embedded.js';
import { MIGRATIONS_DIR } from './migrate.js';

// Two real servers, built from these sources, on one database given by DATABASE_URL: as two
// instances behind a load balancer, with no shared setting beyond the database.
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const mainJs = path.join(root, 'apps/api/dist/main.js');
const base = mkdtempSync(path.join(tmpdir(), 'mostrador-instancias-'));
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};
const PASSWORD = 'clave-segura-123';

interface Server {
  url: string;
  child: ChildProcess;
  output: () => string;
}

function start(databaseUrl: string, name: string, port: number): Server {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(base, name),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: '3',
  };
  for (const k of ['JWT_SECRET', 'SMTP_URL', 'MOSTRADOR_CLOCK_FILE', 'PUBLIC_URL', 'TRUST_PROXY']) delete env[k];
  let out = '';
  const child = spawn(process.execPath, [mainJs], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c) => (out += String(c)));
  child.stderr?.on('data', (c) => (out += String(c)));
  return { url: `http://127.0.0.1:${port}/api/v1`, child, output: () => out };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ready(s: Server) {
  const until = Date.now() + 120_000;
  while (Date.now() < until && s.child.exitCode === null) {
    const status = await fetch(`${s.url}/health`, { signal: AbortSignal.timeout(3_000) })
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error(`el servidor no quedó listo (código ${s.child.exitCode})\n${s.output()}`);
}

async function call(s: Server, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const login = (s: Server, username: string, password: string) =>
  fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });

let databaseUrl = '';
let a: Server;
let b: Server;
let db: pg.Client;

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/api'], {
    cwd: root,
    stdio: 'inherit',
  });
  databaseUrl = await emptyDatabase();
  db = new pg.Client({ connectionString: databaseUrl });
}, 180_000);

afterAll(async () => {
  await db.end().catch(() => {});
  for (const s of [a, b]) if (s && s.child.exitCode === null) s.child.kill('SIGTERM');
  await Promise.all([a, b].map((s) => s && s.child.exitCode === null && new Promise((r) => s.child.once('exit', r))));
  rmSync(base, { recursive: true, force: true });
}, 60_000);

describe('two servers on one database', () => {
  let token = '';
  let email = '';
  let auth: Record<string, string> = {};

  it('start at once on an empty database: both serve, each migration runs once', async () => {
    const [pa, pb] = [await freePort(), await freePort()];
    a = start(databaseUrl, 'a', pa);
    b = start(databaseUrl, 'b', pb);
    await Promise.all([ready(a), ready(b)]);
    await db.connect();
    const { rows } = await db.query('SELECT hash FROM drizzle.__drizzle_migrations');
    expect(rows).toHaveLength(journal.entries.length);
    expect(new Set(rows.map((r) => r.hash)).size).toBe(journal.entries.length);
  }, 180_000);

  it('a token from one works on the other, with no JWT_SECRET set', async () => {
    email = `dos.servidores.${randomUUID().slice(0, 8)}@ejemplo.com`;
    const signup = await call(a, 'POST', '/auth/signup', {
      email,
      password: PASSWORD,
      nombre: 'Dos',
      apellido: 'Prueba',
    });
    expect(signup.status).toBe(201);
    const res = await login(b, email, PASSWORD);
    expect(res.status).toBe(200);
    token = ((await res.json()) as { access_token: string }).access_token;
    auth = { authorization: `Bearer ${token}` };
    for (const s of [a, b]) {
      const me = await call(s, 'GET', '/auth/me', undefined, auth);
      expect(me.status).toBe(200);
      expect(me.body.email).toBe(email);
    }
  });

  it('the per-e-mail login limit holds across both', async () => {
    const codes = [];
    for (const s of [a, b, a]) codes.push((await login(s, email, 'mala-clave-1')).status);
    expect(codes).toEqual([401, 401, 401]);
    for (const s of [b, a]) expect((await login(s, email, PASSWORD)).status).toBe(429);
  });

  it('sales sent to both at once: gapless numbers, exact stock, one sale per Idempotency-Key', async () => {
    const business = await call(b, 'POST', '/businesses/', { nombre: 'Almacén Dos', tipo: 'Comercio' }, auth);
    expect(business.status).toBe(201);
    const biz = business.body.business_id as string;
    const product = await call(
      a,
      'POST',
      `/businesses/${biz}/products`,
      { nombre: 'Alfajor', precio_venta: 900, stock_actual: 100 },
      auth,
    );
    expect(product.status).toBe(201);
    const sale = { metodo_pago: 'efectivo', items: [{ id: product.body.id, tipo: 'producto', cantidad: 1 }] };
    const sell = (s: Server, headers: Record<string, string> = {}) =>
      call(s, 'POST', '/ventas/record-sale', sale, { ...auth, 'x-business-id': biz, ...headers });

    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => sell(i % 2 ? a : b)));
    expect(results.map((r) => r.status)).toEqual(Array(24).fill(201));
    const numbers = await db.query<{ numero: number }>(
      'SELECT numero FROM sales WHERE business_id = $1 ORDER BY numero',
      [biz],
    );
    expect(numbers.rows.map((r) => r.numero)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const stock = async () =>
      Number(
        (await db.query('SELECT stock_actual FROM products WHERE id = $1', [product.body.id])).rows[0].stock_actual,
      );
    expect(await stock()).toBe(76);

    const key = { 'idempotency-key': randomUUID() };
    const retries = await Promise.all(Array.from({ length: 6 }, (_, i) => sell(i % 2 ? a : b, key)));
    expect(retries.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(retries.map((r) => r.body.id)).size).toBe(1);
    expect(retries[0].body.numero).toBe(25);
    const count = await db.query('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [biz]);
    expect(count.rows[0].n).toBe(25);
    expect(await stock()).toBe(75);
  });
});
