// Failover (issue 39, docs/decisions/0060): the database's primary dies under load and no
// acknowledged sale is lost. A Patroni cluster on loopback (scripts/ha.sh: etcd, a primary and a
// synchronous standby, HAProxy as the primary's stable address); PgBouncer in transaction mode in
// front of HAProxy for the requests; nginx in front of 2 built API instances; 200 businesses
// selling. Mid-run the primary's PostgreSQL is killed with kill -9; Patroni fails over to the
// standby, HAProxy follows, the old primary comes back as the synchronous standby (pg_rewind); then
// the new primary is killed the same way. Clients retry what failed (503 from the API, 502, no
// answer) with the same Idempotency-Key. Then, in SQL on the last primary: every acknowledged sale
// exists exactly once, numbers are gapless per business, stock and money are exact; and the
// standby holds the same sales.
//
//   node bench/failover.mjs          (after npm run build; needs postgresql-15 patroni etcd-server
//                                      haproxy pgbouncer nginx curl)
//
// Knobs: FAILOVER_QUICK=1 (the CI version, under 3 minutes: 24 clients, 5 s between events, JSON
// only printed unless FAILOVER_RESULT), FAILOVER_CLIENTS (40), FAILOVER_BUSINESSES (200),
// FAILOVER_SETTLE (s of selling before, between and after the kills: 20), FAILOVER_BASE_PORT
// (5440: see scripts/ha.sh), FAILOVER_RESULT (file for the JSON instead of bench/results/failover.json),
// FAILOVER_MACHINE=1 (the primary's whole "machine" dies: its Patroni is killed with its PostgreSQL,
// so the standby waits for the leader key to expire; the node is started again after the failover).
// Exit code 1 when any integrity count is not zero or a kill did not fail over.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  apiSale,
  binary,
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
} from './api-stack.mjs';
import { log, machine, num, percentile, ROOT, round, sleep, writeResult } from './inventory-common.mjs';

const QUICK = process.env.FAILOVER_QUICK === '1';
const CFG = {
  clients: num(process.env.FAILOVER_CLIENTS, QUICK ? 24 : 40),
  businesses: num(process.env.FAILOVER_BUSINESSES, 200),
  settle_s: num(process.env.FAILOVER_SETTLE, QUICK ? 5 : 20),
  instances: 2,
  products: 5,
  base_port: num(process.env.FAILOVER_BASE_PORT, 5440),
  kill: process.env.FAILOVER_MACHINE === '1' ? 'machine' : 'postgres',
};
const APP_PASSWORD = 'clave-del-rol-de-la-app';
const HA = path.join(ROOT, 'scripts/ha.sh');
const BOUNCER = path.join(ROOT, 'scripts/ci/pgbouncer.sh');
const asRoot = process.getuid?.() === 0;
const cleanups = makeCleanups();
/** The cluster's folder, whose logs are shown when the run fails (before it is removed). */
let logsDir = null;

function showLogs() {
  if (!logsDir) return;
  for (const name of ['n1', 'n2', 'etcd', 'haproxy']) {
    try {
      const lines = readFileSync(path.join(logsDir, `${name}.log`), 'utf8')
        .trimEnd()
        .split('\n');
      process.stderr.write(`--- ${name}.log (últimas 40 líneas)\n${lines.slice(-40).join('\n')}\n`);
    } catch {
      // not started
    }
  }
}

/* ------------------------------------------------------------------ the cluster */

function readPorts(haDir) {
  const env = Object.fromEntries(
    readFileSync(path.join(haDir, 'ports.env'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('=')),
  );
  return {
    ha: Number(env.HA_PORT),
    nodes: {
      n1: { pg: Number(env.N1_PG), rest: Number(env.N1_REST) },
      n2: { pg: Number(env.N2_PG), rest: Number(env.N2_REST) },
    },
  };
}

/** The status Patroni's REST API answers on a node (0 when it does not answer). */
const rest = (node, what) =>
  fetch(`http://127.0.0.1:${node.rest}/${what}`, { signal: AbortSignal.timeout(3_000) })
    .then((r) => r.status)
    .catch(() => 0);

async function primaryOf(ports) {
  for (const [name, node] of Object.entries(ports.nodes)) if ((await rest(node, 'primary')) === 200) return name;
  return null;
}

async function waitFor(what, fn, timeoutMs) {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    const v = await fn();
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`no pasó a tiempo: ${what}`);
}

/**
 * A write through the stable address, on a new connection, as the app would open one: the port of
 * the node that took it, or null. txid_current() needs a primary (a standby refuses it).
 */
async function writeProbe(haPort) {
  const c = new pg.Client({
    host: '127.0.0.1',
    port: haPort,
    user: 'postgres',
    database: 'postgres',
    connectionTimeoutMillis: 1_000,
    query_timeout: 1_000,
  });
  c.on('error', () => {});
  try {
    await c.connect();
    const { rows } = await c.query('SELECT inet_server_port() AS port, txid_current() AS x');
    return Number(rows[0].port);
  } catch {
    return null;
  } finally {
    c.end().catch(() => {});
  }
}

/** kill -9 of the primary's postmaster; measures until a write succeeds on the other node and until the old one is the synchronous standby again. */
async function killPrimary(haDir, ports, t0) {
  // Patroni's REST API may be slow to answer on a loaded machine: ask until one node says primary.
  const victim = await waitFor('un primario antes del kill', () => primaryOf(ports), 30_000);
  const pid = Number(readFileSync(path.join(haDir, victim, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const at = performance.now();
  if (CFG.kill === 'machine') {
    const patroni = Number(readFileSync(path.join(haDir, `${victim}.pid`), 'utf8').trim());
    log(`  kill -9 de la "máquina" primaria (${victim}: Patroni pid ${patroni}, PostgreSQL pid ${pid})`);
    process.kill(patroni, 'SIGKILL');
  } else {
    log(`  kill -9 del PostgreSQL primario (${victim}, pid ${pid})`);
  }
  process.kill(pid, 'SIGKILL');
  const port = await waitFor(
    'un primario nuevo que acepte escrituras',
    async () => {
      const p = await writeProbe(ports.ha);
      return p && p !== ports.nodes[victim].pg ? p : null;
    },
    90_000,
  );
  const failoverMs = performance.now() - at;
  const now = Object.entries(ports.nodes).find(([, n]) => n.pg === port)[0];
  log(`  ${now} es el primario: escrituras de nuevo a los ${round(failoverMs, 0)} ms`);
  // The dead machine comes back: its Patroni starts, finds another leader, rewinds and follows.
  if (CFG.kill === 'machine') execFileSync(HA, ['start-node', haDir, victim], { stdio: 'ignore' });
  await waitFor(
    `${victim} de vuelta como standby sincrónico`,
    async () => (await rest(ports.nodes[victim], 'sync')) === 200,
    120_000,
  );
  const rejoinMs = performance.now() - at;
  log(`  ${victim} volvió como standby sincrónico a los ${round(rejoinMs / 1000, 1)} s`);
  return {
    victim,
    pid,
    at_ms: at,
    at_s: round((at - t0) / 1000, 1),
    new_primary: now,
    failover_ms: round(failoverMs, 0),
    rejoined_as_sync_standby_ms: round(rejoinMs, 0),
  };
}

/** Standby caught up: same sales as the primary (synchronous commit flushes there; replay follows). */
async function standbySales(ports, ids) {
  const standby = (await waitFor('el primario', () => primaryOf(ports), 30_000)) === 'n1' ? 'n2' : 'n1';
  const c = new pg.Client({
    host: '127.0.0.1',
    port: ports.nodes[standby].pg,
    user: 'postgres',
    database: 'mostrador_failover',
  });
  await c.connect();
  try {
    let last = -1;
    for (let i = 0; i < 100; i++) {
      const { rows } = await c.query(
        `SELECT pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() AS caught_up,
                (SELECT count(*)::int FROM sales WHERE business_id = ANY($1::uuid[])) AS n`,
        [ids],
      );
      last = rows[0].n;
      if (rows[0].caught_up) break;
      await sleep(100);
    }
    return { node: standby, sales: last };
  } finally {
    await c.end();
  }
}

/* ------------------------------------------------------------------ main */

async function main() {
  const nginxBin = binary('nginx');
  binary('pgbouncer');
  binary('patroni');
  binary('etcd', 'etcd-server');
  binary('haproxy');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mostrador-failover-'));
  chmodSync(dir, 0o755);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const { freePort } = await import(pathToFileURL(EMBEDDED).href);

  log('arrancando el clúster (etcd, Patroni: primario + standby sincrónico, HAProxy)…');
  const haDir = path.join(dir, 'ha');
  logsDir = haDir;
  mkdirSync(haDir);
  cleanups.push(() => execFileSync(HA, ['down', haDir], { stdio: ['ignore', 'inherit', 'inherit'] }));
  const started = performance.now();
  execFileSync(HA, ['up', haDir, String(CFG.base_port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ports = readPorts(haDir);
  const clusterUpS = round((performance.now() - started) / 1000, 1);
  log(`clúster listo en ${clusterUpS} s; primario: ${await primaryOf(ports)}`);

  // HAProxy counts a server up until its first checks fail: right after it starts, a connection can
  // still land on the standby (a read-only CREATE DATABASE). Go on once writes through it reach the
  // primary several times in a row.
  let inARow = 0;
  await waitFor(
    'HAProxy manda solo al primario',
    async () => {
      inARow = (await writeProbe(ports.ha)) ? inARow + 1 : 0;
      return inARow >= 6;
    },
    60_000,
  );
  const adminUrl = `postgres://postgres@127.0.0.1:${ports.ha}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE mostrador_failover TEMPLATE template0 ENCODING 'UTF8'`);
  await admin.query(`CREATE ROLE mostrador_app LOGIN PASSWORD '${APP_PASSWORD}'`);
  for (const [k, v] of [
    ['statement_timeout', '30s'],
    ['lock_timeout', '5s'],
    ['idle_in_transaction_session_timeout', '60s'],
  ])
    await admin.query(`ALTER ROLE mostrador_app SET ${k} = '${v}'`);
  await admin.end();
  const ownerUrl = `postgres://postgres@127.0.0.1:${ports.ha}/mostrador_failover`;

  // PgBouncer in front of HAProxy: after a failover it reaches the new primary through the same
  // address. It tries a server again after 1 s (not 15) and lets a query wait 5 s for one at most.
  const bouncerPort = await freePort();
  const bouncerDir = path.join(dir, 'pgbouncer');
  execFileSync(
    BOUNCER,
    ['start', bouncerDir, String(bouncerPort), String(ports.ha), `postgres mostrador_app=${APP_PASSWORD}`],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, PGBOUNCER_SERVER_LOGIN_RETRY: '1', PGBOUNCER_QUERY_WAIT_TIMEOUT: '5' },
    },
  );
  cleanups.push(() => execFileSync(BOUNCER, ['stop', bouncerDir]));

  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: ownerUrl,
    APP_DATABASE_URL: `postgres://mostrador_app:${APP_PASSWORD}@127.0.0.1:${bouncerPort}/mostrador_failover`,
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_SIGNUP_PER_HOUR: '100000',
  };
  for (const k of [
    'SMTP_URL',
    'JWT_SECRET',
    'PUBLIC_URL',
    'CORS_ORIGINS',
    'REPORTS_DATABASE_URL',
    'TEST_APP_DATABASE_URL',
  ])
    delete env[k];
  const instances = [];
  cleanups.push(() => Promise.all(instances.map(stopInstance)));
  const apiPorts = [await freePort(), await freePort()];
  // The first migrates; the other finds the migrations done.
  instances.push(await startInstance(0, apiPorts[0], env, dir));
  await healthy(instances[0]);
  instances.push(await startInstance(1, apiPorts[1], env, dir));
  await healthy(instances[1]);

  const nginxDir = path.join(dir, 'nginx');
  mkdirSync(nginxDir);
  if (asRoot) chownSync(nginxDir, 0, 0);
  const nginxPort = await freePort();
  const nginxConfFile = path.join(nginxDir, 'nginx.conf');
  writeFileSync(nginxConfFile, nginxConf(nginxDir, nginxPort, apiPorts));
  execFileSync(nginxBin, ['-p', nginxDir, '-c', nginxConfFile], { stdio: ['ignore', 'inherit', 'inherit'] });
  cleanups.push(() => execFileSync(nginxBin, ['-p', nginxDir, '-c', nginxConfFile, '-s', 'stop']));
  await sleep(300);
  const base = `http://127.0.0.1:${nginxPort}`;

  const pool = new pg.Pool({ connectionString: ownerUrl, max: 4 });
  pool.on('error', () => {});
  cleanups.push(() => pool.end());
  log(`creando ${CFG.businesses} negocios…`);
  const { auth, businesses, state } = await ownerWithBusinesses(base, pool, CFG.businesses, CFG.products);

  // The load: clients sell round-robin over the businesses until told to stop; meanwhile, the kills.
  log(`${CFG.clients} clientes vendiendo a través de nginx → 2 instancias → PgBouncer → HAProxy`);
  const stats = newStats();
  const t0 = performance.now();
  let stop = false;
  let next = 0;
  const load = Promise.all(
    Array.from({ length: CFG.clients }, async () => {
      while (!stop) {
        const biz = businesses[next++ % businesses.length];
        await apiSale(base, auth, biz, state, stats);
      }
    }),
  );
  const kills = [];
  try {
    for (let k = 0; k < 2; k++) {
      await sleep(CFG.settle_s * 1000);
      kills.push(await killPrimary(haDir, ports, t0));
    }
    await sleep(CFG.settle_s * 1000);
  } finally {
    stop = true;
    await load;
  }
  const elapsed = (performance.now() - t0) / 1000;

  // What the counters saw around each kill: the longest stretch without an acknowledged sale, and
  // when the first sale begun after the kill was acknowledged.
  const done = [...stats.done].sort((a, b) => a - b);
  for (const kill of kills) {
    let pause = 0;
    for (let i = 1; i < done.length; i++)
      if (done[i] > kill.at_ms && done[i - 1] < kill.at_ms + kill.failover_ms)
        pause = Math.max(pause, done[i] - done[i - 1]);
    kill.selling_paused_ms = round(pause, 0);
    const firstAfter = stats.started.reduce((m, s, i) => (s > kill.at_ms ? Math.min(m, stats.done[i]) : m), Infinity);
    kill.first_new_sale_ms = Number.isFinite(firstAfter) ? round(firstAfter - kill.at_ms, 0) : null;
    delete kill.at_ms;
  }

  // The owner's pool lost its connections with each primary; it opens new ones through HAProxy.
  const checks = await integrity(pool, businesses, state);
  const standby = await standbySales(
    ports,
    businesses.map((b) => b.id),
  );
  // Two kills make two new timelines (1 → 3); more would mean a failover nobody asked for.
  const cluster = await fetch(`http://127.0.0.1:${ports.nodes.n1.rest}/cluster`, { signal: AbortSignal.timeout(3_000) })
    .then((r) => r.json())
    .catch(() => null);
  const timeline = cluster ? Math.max(...cluster.members.map((m) => m.timeline ?? 0)) : null;
  const failovers = kills.map((k) => k.failover_ms);
  const result = {
    benchmark: 'failover',
    date: new Date().toISOString(),
    machine: machine(),
    engine: 'Patroni + etcd (synchronous_mode), HAProxy (GET /primary), PgBouncer (transaction)',
    config: { ...CFG, quick: QUICK },
    cluster_up_s: clusterUpS,
    acknowledged: checks.acknowledged,
    stored: checks.sales_in_db,
    lost: checks.lost,
    duplicated: checks.duplicated,
    failover_ms: { p50: round(percentile(failovers, 50), 0), max: Math.max(...failovers) },
    kills,
    sales_per_s: round(stats.latencies.length / elapsed, 1),
    p50_ms: round(percentile(stats.latencies, 50)),
    p99_ms: round(percentile(stats.latencies, 99)),
    retries: stats.retries,
    failed_attempts: stats.failures,
    slowest_failed_attempt_ms: round(stats.slowestFailureMs, 0),
    refused: stats.refused.length,
    gave_up: stats.gaveUp,
    wrong_totals: stats.wrongTotals,
    integrity: checks,
    standby,
    timeline,
  };
  if (stats.refused.length) log(`rechazadas: ${JSON.stringify(stats.refused.slice(0, 3))}`);
  result.ok =
    intact(checks) &&
    checks.acknowledged > 0 &&
    kills.length === 2 &&
    kills.every((k) => k.new_primary !== k.victim) &&
    standby.sales === checks.sales_in_db &&
    // In-flight requests fail fast: no attempt waited for the 15 s client timeout.
    stats.slowestFailureMs < 10_000 &&
    stats.refused.length + stats.gaveUp + stats.wrongTotals === 0;
  const out = process.env.FAILOVER_RESULT;
  if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  if (QUICK || out) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else writeResult('failover', result);
  return result.ok;
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(e);
} finally {
  if (!ok) showLogs();
  await cleanups.run();
}
if (!ok) log('FALLÓ: ver el JSON y los registros del clúster');
process.exit(ok ? 0 : 1);
