// Scale-out (issue 20, docs/decisions/0016): nginx on loopback in front of 1, then 2, then 4
// instances of the built API, all through PgBouncer in transaction mode to one PostgreSQL (the
// embedded one, in its own directory), recording sales for 200 businesses at once. Mid-run each
// phase kills one instance with kill -9 (and starts it again); the clients retry what failed with
// the same Idempotency-Key through nginx. Then, in SQL: every acknowledged sale exists exactly once,
// numbers are gapless per business, stock and money are exact. The same statements run directly
// with pg (bench/sales-direct.mjs), same clients and businesses, in the same run, as the reference.
//
//   node bench/scale-out.mjs                 (after npm run build; needs nginx and pgbouncer)
//
// Knobs: SCALE_DURATION (s per phase, 12), SCALE_CLIENTS (40), SCALE_BUSINESSES (200),
// SCALE_INSTANCES ("1,2,4"), SCALE_SHORT=1 (the test's version: 4 s phases, 24 clients, no file
// written), SCALE_RESULT (file to write the JSON to instead of bench/results/scale-out.json).
// Exit code 1 when any integrity count is not zero.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, chownSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { log, machine, percentile, ROOT, round, sleep, writeResult } from './inventory-common.mjs';
import { directSale } from './sales-direct.mjs';

const num = (v, d) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
const SHORT = process.env.SCALE_SHORT === '1';
const CFG = {
  duration: num(process.env.SCALE_DURATION, SHORT ? 4 : 12),
  clients: num(process.env.SCALE_CLIENTS, SHORT ? 24 : 40),
  businesses: num(process.env.SCALE_BUSINESSES, 200),
  products: 5,
  instances: (process.env.SCALE_INSTANCES ?? '1,2,4').split(',').map(Number),
};
const MAX_INSTANCES = Math.max(...CFG.instances);
const MAIN = path.join(ROOT, 'apps/api/dist/main.js');
const EMBEDDED = path.join(ROOT, 'apps/api/dist/db/embedded.js');
const APP_PASSWORD = 'clave-del-rol-de-la-app';
const asRoot = process.getuid?.() === 0;

const cleanups = [];
async function cleanup() {
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      await fn();
    } catch (e) {
      log(`limpieza: ${e}`);
    }
  }
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void cleanup().finally(() => process.exit(130)));

function binary(name) {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin']) {
    try {
      execFileSync('test', ['-x', path.join(dir, name)]);
      return path.join(dir, name);
    } catch {
      // next
    }
  }
  throw new Error(`${name} no está instalado (apt-get install -y ${name})`);
}

/* ------------------------------------------------------------------ the stack */

async function startInstance(i, port, env, dir) {
  const logFile = path.join(dir, `api-${i}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), DATA_DIR: path.join(dir, `data-${i}`) },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const inst = { i, port, child, exited: false };
  child.on('exit', () => (inst.exited = true));
  return inst;
}

async function healthy(inst, timeoutMs = 120_000) {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (inst.exited) throw new Error(`la instancia ${inst.i} terminó al arrancar`);
    const ok = await fetch(`http://127.0.0.1:${inst.port}/api/v1/health`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`la instancia ${inst.i} no arrancó`);
}

async function stopInstance(inst) {
  if (inst.exited) return;
  const done = new Promise((r) => inst.child.once('exit', r));
  inst.child.kill('SIGTERM');
  await Promise.race([done, sleep(10_000)]);
  if (!inst.exited) inst.child.kill('SIGKILL');
}

function nginxConf(dir, port, upstreams) {
  // No retry of a POST on another instance once sent (nginx's default: non_idempotent off): the
  // client retries with its Idempotency-Key. A refused connection (a dead instance) goes to the next.
  return `${asRoot ? 'user root;\n' : ''}worker_processes 1;
daemon on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mostrador {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 2m;
    location / {
      proxy_pass http://mostrador;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 1s;
      proxy_read_timeout 30s;
    }
  }
}
`;
}

/* ------------------------------------------------------------------ the load */

/** Three distinct products of a business, quantities 1–3. */
function cart(biz) {
  const picked = new Set();
  while (picked.size < 3) picked.add(biz.products[Math.floor(Math.random() * biz.products.length)]);
  return [...picked].map((p) => ({ id: p.id, tipo: 'producto', cantidad: 1 + Math.floor(Math.random() * 3) }));
}

/** What a sale does to the expected state: stock per product and money per business (cents). */
function tally(state, biz, items) {
  let total = 0;
  for (const it of items) {
    const p = biz.byId.get(it.id);
    state.stock.set(it.id, state.stock.get(it.id) - it.cantidad);
    total += p.cents * it.cantidad;
  }
  state.money.set(biz.id, state.money.get(biz.id) + total);
  state.count.set(biz.id, state.count.get(biz.id) + 1);
  return total;
}

const RETRYABLE = new Set([0, 408, 429, 500, 502, 503, 504]);

/** One sale through nginx, retried with the same key until acknowledged. */
async function apiSale(base, auth, biz, state, stats) {
  const key = randomUUID();
  const items = cart(biz);
  const body = JSON.stringify({ negocio_id: biz.id, metodo_pago: 'efectivo', items });
  const t0 = performance.now();
  for (let attempt = 0; attempt < 200; attempt++) {
    if (attempt) {
      stats.retries += 1;
      await sleep(Math.min(50 * attempt, 500));
    }
    let status = 0;
    let json = null;
    try {
      const res = await fetch(`${base}/api/v1/ventas/record-sale`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      status = res.status;
      json = await res.json().catch(() => null);
    } catch {
      // No answer (the instance died under the request, or nginx found none): retry, same key.
    }
    if (status === 201 || status === 200) {
      const expected = tally(state, biz, items);
      state.acks.push({ business: biz.id, key, id: json.id, numero: json.numero, total: json.total });
      if (Math.round(json.total * 100) !== expected) stats.wrongTotals += 1;
      const end = performance.now();
      stats.latencies.push(end - t0);
      stats.done.push(end);
      return;
    }
    if (!RETRYABLE.has(status)) {
      stats.refused.push({ status, body: json });
      return;
    }
  }
  stats.gaveUp += 1;
}

async function runPhase(base, auth, businesses, state, n, instances, respawn) {
  const stats = { latencies: [], done: [], retries: 0, refused: [], gaveUp: 0, wrongTotals: 0 };
  const t0 = performance.now();
  const deadline = t0 + CFG.duration * 1000;
  let next = 0;
  let killed = null;
  let killedAt = Infinity;
  const killer = (async () => {
    await sleep((CFG.duration * 1000) / 2);
    killedAt = performance.now();
    const victim = instances[n - 1];
    killed = { instance: victim.i, pid: victim.child.pid, at_s: round((performance.now() - t0) / 1000, 1) };
    log(`  kill -9 de la instancia ${victim.i} (pid ${victim.child.pid})`);
    victim.child.kill('SIGKILL');
    await new Promise((r) => (victim.exited ? r() : victim.child.once('exit', r)));
    instances[n - 1] = await respawn(victim);
    killed.back_after_s = round((performance.now() - t0) / 1000 - killed.at_s, 1);
  })();
  await Promise.all(
    Array.from({ length: CFG.clients }, async () => {
      while (performance.now() < deadline) {
        const biz = businesses[next++ % businesses.length];
        await apiSale(base, auth, biz, state, stats);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  await killer;
  // Before the kill: the steady state, where the instances' overhead shows.
  const steady = stats.latencies.filter((_, k) => stats.done[k] < killedAt);
  const r = {
    instances: n,
    steady: {
      sales_per_s: round(steady.length / ((killedAt - t0) / 1000), 1),
      p50_ms: round(percentile(steady, 50)),
      p99_ms: round(percentile(steady, 99)),
    },
    sales: stats.latencies.length,
    sales_per_s: round(stats.latencies.length / elapsed, 1),
    p50_ms: round(percentile(stats.latencies, 50)),
    p99_ms: round(percentile(stats.latencies, 99)),
    retries: stats.retries,
    refused: stats.refused.length,
    gave_up: stats.gaveUp,
    wrong_totals: stats.wrongTotals,
    killed,
  };
  if (stats.refused.length) log(`  rechazadas: ${JSON.stringify(stats.refused.slice(0, 3))}`);
  log(
    `  ${n} instancia(s): ${r.sales_per_s} ventas/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, ${r.retries} reintentos` +
      ` (antes del kill: ${r.steady.sales_per_s} ventas/s, p99 ${r.steady.p99_ms} ms)`,
  );
  return r;
}

async function directPhase(pool, businesses, state, userId) {
  const latencies = [];
  const t0 = performance.now();
  const deadline = t0 + CFG.duration * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: CFG.clients }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const biz = businesses[next++ % businesses.length];
          const items = cart(biz);
          const t = performance.now();
          await directSale(client, { businessId: biz.id, userId, categoryId: biz.categoryId }, items);
          latencies.push(performance.now() - t);
          tally(state, biz, items);
          state.direct += 1;
        }
      } finally {
        client.release();
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const r = {
    sales: latencies.length,
    sales_per_s: round(latencies.length / elapsed, 1),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
  };
  log(`  pg directo: ${r.sales_per_s} ventas/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms`);
  return r;
}

/* ------------------------------------------------------------------ integrity */

async function integrity(pool, businesses, state) {
  const ids = businesses.map((b) => b.id);
  const q = async (text, values) => (await pool.query(text, values)).rows;
  const ackedIds = state.acks.map((a) => a.id);
  const [{ n: inDb }] = await q('SELECT count(*)::int AS n FROM sales WHERE business_id = ANY($1::uuid[])', [ids]);
  const [{ n: ackedInDb }] = await q('SELECT count(DISTINCT id)::int AS n FROM sales WHERE id = ANY($1::uuid[])', [
    ackedIds,
  ]);
  const distinctAcks = new Set(ackedIds).size;
  const expected = state.acks.length + state.direct;
  const perBusiness = await q(
    `SELECT business_id AS id, count(*)::int AS n, count(DISTINCT numero)::int AS d, min(numero)::int AS lo,
            max(numero)::int AS hi, sum(total * 100)::bigint AS cents
       FROM sales WHERE business_id = ANY($1::uuid[]) GROUP BY business_id`,
    [ids],
  );
  let gaps = 0;
  let moneyMismatches = 0;
  let countMismatches = 0;
  for (const r of perBusiness) {
    if (r.lo !== 1 || r.hi !== r.n || r.d !== r.n) gaps += 1;
    if (Number(r.cents) !== state.money.get(r.id)) moneyMismatches += 1;
    if (r.n !== state.count.get(r.id)) countMismatches += 1;
  }
  const finance = await q(
    `SELECT business_id AS id, sum(monto * 100)::bigint AS cents FROM finance_movements
      WHERE business_id = ANY($1::uuid[]) AND origen = 'venta' AND NOT anulado GROUP BY business_id`,
    [ids],
  );
  for (const r of finance) if (Number(r.cents) !== state.money.get(r.id)) moneyMismatches += 1;
  const stock = await q('SELECT id, stock_actual::float8 AS s FROM products WHERE business_id = ANY($1::uuid[])', [
    ids,
  ]);
  const stockMismatches = stock.filter((p) => p.s !== state.stock.get(p.id)).length;
  const [{ n: keys }] = await q(
    'SELECT count(*)::int AS n FROM sale_idempotency_keys WHERE business_id = ANY($1::uuid[]) AND status = 201',
    [ids],
  );
  return {
    acknowledged: state.acks.length,
    direct: state.direct,
    sales_in_db: inDb,
    lost: state.acks.length - ackedInDb,
    duplicated: inDb - expected + (state.acks.length - distinctAcks),
    businesses_with_gaps: gaps,
    businesses_count_mismatch: countMismatches,
    stock_mismatches: stockMismatches,
    money_mismatches: moneyMismatches,
    keys_written: keys,
  };
}

/* ------------------------------------------------------------------ main */

async function main() {
  const nginxBin = binary('nginx');
  binary('pgbouncer');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mostrador-scale-out-'));
  chmodSync(dir, 0o755);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const { startEmbedded, freePort } = await import(pathToFileURL(EMBEDDED).href);

  log('arrancando PostgreSQL embebido…');
  const server = await startEmbedded(path.join(dir, 'postgres'));
  cleanups.push(() => server.stop());
  const adminUrl = new URL(server.url('postgres'));
  const pgPort = Number(adminUrl.port);
  const ownerPassword = decodeURIComponent(adminUrl.password);
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE mostrador_scale TEMPLATE template0 ENCODING 'UTF8'`);
  // The operator's app role (APP_DATABASE_URL), with the timeouts on the role: PgBouncer drops
  // the startup options that carry them on a direct connection (README, Operación).
  await admin.query(`CREATE ROLE mostrador_app LOGIN PASSWORD '${APP_PASSWORD}'`);
  for (const [k, v] of [
    ['statement_timeout', '30s'],
    ['lock_timeout', '5s'],
    ['idle_in_transaction_session_timeout', '60s'],
  ])
    await admin.query(`ALTER ROLE mostrador_app SET ${k} = '${v}'`);
  await admin.end();
  const ownerUrl = new URL(adminUrl);
  ownerUrl.pathname = '/mostrador_scale';

  const bouncerPort = await freePort();
  const bouncerDir = path.join(dir, 'pgbouncer');
  execFileSync(
    path.join(ROOT, 'scripts/ci/pgbouncer.sh'),
    [
      'start',
      bouncerDir,
      String(bouncerPort),
      String(pgPort),
      `postgres=${ownerPassword} mostrador_app=${APP_PASSWORD}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  cleanups.push(() => execFileSync(path.join(ROOT, 'scripts/ci/pgbouncer.sh'), ['stop', bouncerDir]));
  log(`PgBouncer (modo transacción) en 127.0.0.1:${bouncerPort}`);

  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: ownerUrl.toString(),
    APP_DATABASE_URL: `postgres://mostrador_app:${APP_PASSWORD}@127.0.0.1:${bouncerPort}/mostrador_scale`,
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_SIGNUP_PER_HOUR: '100000',
  };
  for (const k of ['SMTP_URL', 'JWT_SECRET', 'PUBLIC_URL', 'CORS_ORIGINS', 'REPORTS_DATABASE_URL']) delete env[k];
  const instances = [];
  const ports = [];
  for (let i = 0; i < MAX_INSTANCES; i++) ports.push(await freePort());
  cleanups.push(() => Promise.all(instances.map(stopInstance)));
  // The first migrates; the others find the migrations done.
  instances.push(await startInstance(0, ports[0], env, dir));
  await healthy(instances[0]);
  for (let i = 1; i < MAX_INSTANCES; i++) instances.push(await startInstance(i, ports[i], env, dir));
  await Promise.all(instances.map((inst) => healthy(inst)));
  log(`${MAX_INSTANCES} instancias listas`);
  const respawn = async (old) => {
    const inst = await startInstance(old.i, old.port, env, dir);
    await healthy(inst);
    return inst;
  };

  const nginxDir = path.join(dir, 'nginx');
  mkdirSync(nginxDir);
  if (asRoot) chownSync(nginxDir, 0, 0);
  const nginxPort = await freePort();
  const nginxConfFile = path.join(nginxDir, 'nginx.conf');
  let nginxUp = false;
  const nginx = (n) => {
    writeFileSync(nginxConfFile, nginxConf(nginxDir, nginxPort, ports.slice(0, n)));
    execFileSync(nginxBin, ['-p', nginxDir, '-c', nginxConfFile, ...(nginxUp ? ['-s', 'reload'] : [])], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (!nginxUp) {
      nginxUp = true;
      cleanups.push(() => {
        execFileSync(nginxBin, ['-p', nginxDir, '-c', nginxConfFile, '-s', 'stop']);
      });
    }
  };
  nginx(1);
  await sleep(300);
  const base = `http://127.0.0.1:${nginxPort}`;

  // One owner with 200 businesses, made through nginx; products straight in SQL (fast).
  const email = `escala.${Date.now()}@ejemplo.com`;
  const password = 'clave-segura-123';
  const signup = await fetch(`${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, nombre: 'Escala', apellido: 'Bench' }),
  });
  if (signup.status !== 201) throw new Error(`signup ${signup.status} ${await signup.text()}`);
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  }).then((r) => r.json());
  const auth = { authorization: `Bearer ${login.access_token}` };
  const userId = login.user.id;
  log(`creando ${CFG.businesses} negocios…`);
  const businesses = [];
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < CFG.businesses) {
        const k = made++;
        const res = await fetch(`${base}/api/v1/businesses/`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ nombre: `Negocio ${k + 1}`, tipo: 'Comercio' }),
        });
        if (res.status !== 201) throw new Error(`negocio ${res.status} ${await res.text()}`);
        businesses.push({ id: (await res.json()).business_id });
      }
    }),
  );
  // Pipeline mode, as the API's pool (db/client.ts): the direct statements go out as the API sends them.
  const pool = new pg.Pool({ connectionString: ownerUrl.toString(), max: CFG.clients + 4, pipeline: true });
  pool.on('error', () => {});
  cleanups.push(() => pool.end());
  const state = { stock: new Map(), money: new Map(), count: new Map(), acks: [], direct: 0 };
  const { rows: prods } = await pool.query(
    `INSERT INTO products (business_id, nombre, codigo, precio_venta, precio_compra, stock_actual)
     SELECT b, 'Producto ' || g, 'P' || g, 100 + g * 37.5, 60 + g * 20, 1000000
       FROM unnest($1::uuid[]) b, generate_series(1, $2) g
     RETURNING id, business_id, (precio_venta * 100)::int AS cents, stock_actual::float8 AS stock`,
    [businesses.map((b) => b.id), CFG.products],
  );
  const { rows: cats } = await pool.query(
    `SELECT business_id, id FROM finance_categories WHERE business_id = ANY($1::uuid[]) AND sistema AND tipo = 'ingreso'`,
    [businesses.map((b) => b.id)],
  );
  const catOf = new Map(cats.map((c) => [c.business_id, c.id]));
  for (const b of businesses) {
    b.products = prods.filter((p) => p.business_id === b.id);
    b.byId = new Map(b.products.map((p) => [p.id, p]));
    b.categoryId = catOf.get(b.id);
    state.money.set(b.id, 0);
    state.count.set(b.id, 0);
  }
  for (const p of prods) state.stock.set(p.id, p.stock);

  log(`referencia: las mismas sentencias directo con pg (${CFG.clients} clientes, ${CFG.duration} s)`);
  const direct = await directPhase(pool, businesses, state, userId);
  const phases = [];
  for (const n of CFG.instances) {
    nginx(n);
    await sleep(300);
    log(`nginx → ${n} instancia(s), ${CFG.clients} clientes, ${CFG.duration} s, kill -9 a la mitad`);
    phases.push(await runPhase(base, auth, businesses, state, n, instances, respawn));
  }
  const checks = await integrity(pool, businesses, state);
  const refused = phases.reduce((s, p) => s + p.refused + p.gave_up + p.wrong_totals, 0);
  const ok =
    checks.lost === 0 &&
    checks.duplicated === 0 &&
    checks.businesses_with_gaps === 0 &&
    checks.businesses_count_mismatch === 0 &&
    checks.stock_mismatches === 0 &&
    checks.money_mismatches === 0 &&
    checks.keys_written === checks.acknowledged + checks.direct &&
    refused === 0;
  const result = {
    benchmark: 'scale-out',
    date: new Date().toISOString(),
    machine: machine(),
    config: { ...CFG, short: SHORT, pool_mode: 'transaction', products_per_business: CFG.products },
    direct,
    phases: phases.map((p) => ({
      ...p,
      ratio_to_direct: round(p.sales_per_s / direct.sales_per_s, 2),
      steady_ratio_to_direct: round(p.steady.sales_per_s / direct.sales_per_s, 2),
    })),
    integrity: checks,
    ok,
  };
  if (SHORT || process.env.SCALE_RESULT) {
    const out = process.env.SCALE_RESULT;
    if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    writeResult('scale-out', result);
  }
  return ok;
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(e);
} finally {
  await cleanup();
}
if (!ok) log('FALLÓ: ver integrity en el JSON');
process.exit(ok ? 0 : 1);
