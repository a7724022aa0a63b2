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
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  apiSale,
  binary,
  cart,
  cleanups as makeCleanups,
  EMBEDDED,
  healthy,
  integrity,
  intact,
  newStats,
  nginxConf,
  ownerWithBusinesses,
  startInstance,
  stopInstance,
  tally,
} from './api-stack.mjs';
import { log, machine, num, percentile, ROOT, round, sleep, writeResult } from './inventory-common.mjs';
import { directSale } from './sales-direct.mjs';

const SHORT = process.env.SCALE_SHORT === '1';
const CFG = {
  duration: num(process.env.SCALE_DURATION, SHORT ? 4 : 12),
  clients: num(process.env.SCALE_CLIENTS, SHORT ? 24 : 40),
  businesses: num(process.env.SCALE_BUSINESSES, 200),
  products: 5,
  instances: (process.env.SCALE_INSTANCES ?? '1,2,4').split(',').map(Number),
};
const MAX_INSTANCES = Math.max(...CFG.instances);
const APP_PASSWORD = 'clave-del-rol-de-la-app';
const asRoot = process.getuid?.() === 0;
const cleanups = makeCleanups();
const cleanup = cleanups.run;

/* ------------------------------------------------------------------ the load */

async function runPhase(base, auth, businesses, state, n, instances, respawn) {
  const stats = newStats();
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
  // Pipeline mode, as the API's pool (db/client.ts): the direct statements go out as the API sends them.
  const pool = new pg.Pool({ connectionString: ownerUrl.toString(), max: CFG.clients + 4, pipeline: true });
  pool.on('error', () => {});
  cleanups.push(() => pool.end());
  log(`creando ${CFG.businesses} negocios…`);
  const { auth, userId, businesses, state } = await ownerWithBusinesses(base, pool, CFG.businesses, CFG.products);

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
  const ok = intact(checks) && refused === 0;
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
