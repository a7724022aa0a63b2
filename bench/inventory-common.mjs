// Shared by the inventory benchmarks: an embedded PostgreSQL and the BUILT server (npm run build
// first) on free ports and temporary directories, a user and a business, and cleanup of all of it
// (finally, or on Ctrl-C). Progress goes to stderr; each script prints one JSON object on stdout.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = path.join(ROOT, 'apps/api/dist/main.js');
const EMBEDDED = path.join(ROOT, 'apps/api/dist/db/embedded.js');

export const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
/** A number from an environment knob, or the default when it is unset or not a number. */
export const num = (v, d) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return null;
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const cleanups = [];
let cleaning = null;
export function cleanup() {
  cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (e) {
        log(`limpieza: ${e}`);
      }
    }
  })();
  return cleaning;
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    cleanup().finally(() => process.exit(130));
  });
}

/** The server's resident memory in MB, from /proc (Linux). */
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * PostgreSQL (embedded, its own directory) and the built server using it through DATABASE_URL,
 * so the benchmark can also query the same database directly and watch only the server's memory.
 */
export async function startStack(name) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `mostrador-bench-${name}-`));
  chmodSync(dir, 0o755); // the embedded PostgreSQL runs as the system user "postgres" when we are root
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const { startEmbedded } = await import(pathToFileURL(EMBEDDED).href);
  log('arrancando PostgreSQL embebido…');
  const pgServer = await startEmbedded(path.join(dir, 'postgres'));
  cleanups.push(() => pgServer.stop());
  const admin = new pg.Client({ connectionString: pgServer.url('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE mostrador_bench TEMPLATE template0 ENCODING 'UTF8'`);
  await admin.end();
  const databaseUrl = pgServer.url('mostrador_bench');

  const port = await freePort();
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(dir, 'server.log');
  const fd = openSync(logFile, 'a');
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    RATE_LIMIT_SIGNUP_PER_HOUR: '1000',
  };
  for (const k of ['SMTP_URL', 'JWT_SECRET', 'PUBLIC_URL', 'CORS_ORIGINS']) delete env[k];
  // BENCH_NODE_ARGS: extra flags for the server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, MAIN], { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  cleanups.push(async () => {
    if (exited) return;
    const done = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await Promise.race([done, sleep(15_000)]);
    if (!exited) child.kill('SIGKILL');
  });
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (exited) throw new Error(`el servidor terminó al arrancar:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const r = await fetch(`${base}/api/v1/health`);
      if (r.ok) break;
    } catch {
      // not yet
    }
    if (performance.now() - started > 120_000) throw new Error('el servidor no arrancó en 120 s');
    await sleep(200);
  }
  log(`servidor listo en ${base} (pid ${child.pid})`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  cleanups.push(() => pool.end());
  return { base, pid: child.pid, pool, dir };
}

/** A user (signed up and logged in through the API) and a business of theirs. */
export async function ownerAndBusiness(base, nombre = 'Bench') {
  const email = `bench.${Date.now()}.${Math.random().toString(16).slice(2, 8)}@ejemplo.com`;
  const password = 'clave-segura-123';
  const signup = await fetch(`${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, nombre, apellido: 'Bench' }),
  });
  if (signup.status !== 201) throw new Error(`signup ${signup.status} ${await signup.text()}`);
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  }).then((r) => r.json());
  const auth = { authorization: `Bearer ${login.access_token}` };
  const biz = await fetch(`${base}/api/v1/businesses/`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ nombre: `${nombre} SA`, tipo: 'Comercio' }),
  }).then((r) => r.json());
  return { auth, businessId: biz.business_id, userId: login.user.id };
}

export function machine() {
  return { cores: os.cpus().length, node: process.version, loadavg_1m: round(os.loadavg()[0], 2) };
}

export function writeResult(name, result) {
  const file = fileURLToPath(new URL(`./results/${name}.json`, import.meta.url));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

/** Catalogue words, so 50,000 products look like a real shop's (and searches hit realistic counts). */
export const WORDS = {
  items: [
    'Yerba mate',
    'Azúcar',
    'Harina',
    'Fideos',
    'Arroz',
    'Aceite',
    'Dulce de leche',
    'Leche',
    'Queso',
    'Yogur',
    'Gaseosa',
    'Agua mineral',
    'Fernet',
    'Vino',
    'Cerveza',
    'Lavandina',
    'Detergente',
    'Jabón',
    'Shampoo',
    'Galletitas',
    'Alfajor',
    'Chocolate',
    'Café',
    'Té',
    'Mermelada',
    'Atún',
    'Arvejas',
    'Tomate triturado',
    'Polenta',
    'Sal fina',
    'Pimienta',
    'Mayonesa',
    'Mostaza',
    'Ñoquis',
    'Papel higiénico',
    'Servilletas',
    'Pañales',
    'Esponja',
    'Vinagre',
    'Manteca',
  ],
  brands: [
    'Playadito',
    'Taragüí',
    'Ledesma',
    'Blancaflor',
    'Matarazzo',
    'Gallo',
    'Natura',
    'La Serenísima',
    'Sancor',
    'Coca-Cola',
    'Villavicencio',
    'Branca',
    'Alamos',
    'Quilmes',
    'Ayudín',
    'Magistral',
    'Dove',
    'Oreo',
    'Jorgito',
    'Águila',
    'La Virginia',
    'Green Hills',
    'Arcor',
    'La Campagnola',
  ],
  sizes: ['250 g', '500 g', '1 kg', '2 kg', '500 ml', '750 ml', '1 l', '1,5 l', '2,25 l', 'x4', 'x12'],
};

/** The i-th synthetic product (deterministic). */
export function syntheticProduct(i) {
  const item = WORDS.items[i % WORDS.items.length];
  const brand = WORDS.brands[Math.floor(i / WORDS.items.length) % WORDS.brands.length];
  const size = WORDS.sizes[Math.floor(i / (WORDS.items.length * 3)) % WORDS.sizes.length];
  const price = 300 + ((i * 7919) % 20000);
  return {
    codigo: `P${String(i).padStart(6, '0')}`,
    nombre: `${item} ${brand} ${size} #${i}`,
    codigo_barras: `779${String(1_000_000_000 + i).padStart(10, '0')}`,
    precio_venta: price,
    precio_compra: Math.round(price * 0.7),
    stock: i % 50,
  };
}

/** Uploads `buffer` as the multipart field `file` (plus `fields`); the time it took and the answer. */
export async function post(base, path, auth, buffer, filename, fields = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([buffer]), filename);
  const t = performance.now();
  const r = await fetch(`${base}${path}`, { method: 'POST', headers: auth, body: form });
  const body = await r.json();
  const ms = performance.now() - t;
  if (r.status !== 200) throw new Error(`${path} ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms, body };
}

/** Runs `fn` while sampling the server's memory; returns its result with the peak growth. */
export async function watchingMemory(pid, fn) {
  const baseline = rssMb(pid);
  let peak = baseline;
  let running = true;
  const sampler = (async () => {
    while (running) {
      const m = rssMb(pid);
      if (m !== null && m > peak) peak = m;
      await sleep(25);
    }
  })();
  try {
    const result = await fn();
    return { result, baseline_mb: round(baseline), peak_mb: round(peak), growth_mb: round(peak - baseline) };
  } finally {
    running = false;
    await sampler;
  }
}
