import { mkdtempSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { runServerProgram, serverBinaries, serverDir } from '../test/clusters.js';
import { createBusiness, registerUser, type TestUser } from '../test/fixtures.js';
import { openDatabase, type OpenDatabase } from './bootstrap.js';
import { freePort } from './embedded.js';
import { DATA_AGE_HEADER } from './reports.js';

// REPORTS_DATABASE_URL (docs/decisions/0015): a primary and its streaming replica, made here with
// initdb and pg_basebackup -R on free loopback ports. Needs the machine's PostgreSQL server
// programs (Debian's postgresql package; .ci/run installs them): without them the file is skipped
// and says why.
const bin = serverBinaries();
const reason = 'sin los programas del servidor PostgreSQL (initdb, pg_basebackup): apt-get install postgresql';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!bin)(`reports on a streaming replica${bin ? '' : ` (omitido: ${reason})`}`, () => {
  let dir = '';
  let primaryPort = 0;
  let replicaPort = 0;
  const started: string[] = [];
  let opened: OpenDatabase;
  let app: App;
  let owner: TestUser;
  let biz: string;
  let productId: string;
  let superReplica: pg.Client;

  const url = (port: number, db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const pgctl = (data: string, ...args: string[]) => runServerProgram(bin!, 'pg_ctl', ['-D', data, ...args]);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mostrador-replica-'));
    serverDir(dir);
    primaryPort = await freePort();
    replicaPort = await freePort();
    const primary = path.join(dir, 'primary');
    const replica = path.join(dir, 'replica');
    runServerProgram(bin!, 'initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    // initdb with trust lets loopback connect, replication included.
    appendFileSync(
      path.join(primary, 'postgresql.conf'),
      `\nport = ${primaryPort}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nfsync = off\n`,
    );
    pgctl(primary, '-w', '-l', path.join(dir, 'primary.log'), 'start');
    started.push(primary);
    runServerProgram(bin!, 'pg_basebackup', [
      '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replica, '-R', '-X', 'stream', '--no-sync',
    ]); // prettier-ignore
    appendFileSync(path.join(replica, 'postgresql.conf'), `\nport = ${replicaPort}\n`);
    pgctl(replica, '-w', '-l', path.join(dir, 'replica.log'), 'start');
    started.push(replica);

    opened = await openDatabase(url(primaryPort), path.join(dir, 'data'), 5, undefined, {
      reportsDatabaseUrl: url(replicaPort),
    });
    app = await buildApp({
      database: opened.database,
      reports: opened.reports,
      jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
      publicUrl: 'http://localhost:3000',
      checkResponses: true,
    });
    await app.ready();
    superReplica = new pg.Client({ connectionString: url(replicaPort) });
    superReplica.on('error', () => {}); // the last test stops the replica under it
    await superReplica.connect();

    owner = await registerUser(app, 'Replica');
    biz = await createBusiness(app, owner);
    const p = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/products`,
      headers: owner.auth,
      payload: { nombre: 'Yerba', precio_venta: 1500, stock_actual: 100 },
    });
    expect(p.statusCode, p.body).toBe(201);
    productId = p.json().id;
  }, 180_000);

  afterAll(async () => {
    await superReplica?.end().catch(() => {});
    await app?.close();
    await opened?.close();
    for (const data of started.reverse()) {
      try {
        pgctl(data, '-m', 'immediate', '-w', 'stop');
      } catch {
        // already stopped
      }
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const sell = async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/ventas`,
      headers: owner.auth,
      payload: { metodo_pago: 'efectivo', items: [{ id: productId, tipo: 'producto', cantidad: 1 }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const report = () =>
    app.inject({ method: 'GET', url: `/api/v1/businesses/${biz}/ventas/reporte`, headers: owner.auth });
  const reportedSales = async () => {
    const res = await report();
    expect(res.statusCode, res.body).toBe(200);
    return { total: res.json().total_ventas as number, age: res.headers[DATA_AGE_HEADER.toLowerCase()] };
  };
  /** Until the report (read on the replica) counts `n` sales. */
  const reportCounts = async (n: number) => {
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      if ((await reportedSales()).total === n) return;
      await sleep(100);
    }
    throw new Error(`el reporte no llegó a ${n} ventas`);
  };

  it('the replica is a standby, and the app reads it as the app role', async () => {
    const { rows } = await superReplica.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
    expect(rows[0].r).toBe(true);
    expect(app.reports.replica).toBe(true);
    expect(opened.reports!.pool.options.connectionString).toContain(`${opened.appRole}@`);
  });

  it('reports come from the replica: with replay paused, a new sale is read back on the primary but not in the report, and the age shows', async () => {
    await sell();
    await reportCounts(1);
    expect((await reportedSales()).age).toBe('0');

    await superReplica.query('SELECT pg_wal_replay_pause()');
    try {
      const id = await sell();
      // What must see its own write goes to the primary.
      const detail = await app.inject({
        method: 'GET',
        url: `/api/v1/businesses/${biz}/ventas/sales/${id}`,
        headers: owner.auth,
      });
      expect(detail.statusCode, detail.body).toBe(200);
      const list = await app.inject({
        method: 'GET',
        url: `/api/v1/businesses/${biz}/ventas/sales`,
        headers: owner.auth,
      });
      expect(list.json().total_ventas).toBe(2);
      // The report, on the paused replica, still counts one, and says how old its data are.
      await sleep(2_200);
      const stale = await reportedSales();
      expect(stale.total).toBe(1);
      expect(Number(stale.age)).toBeGreaterThanOrEqual(1);
      // So do the dashboard and the finance summary.
      const dash = await app.inject({
        method: 'GET',
        url: `/api/v1/ventas/dashboard-stats-v2?negocio_id=${biz}&periodo=mes`,
        headers: owner.auth,
      });
      expect(dash.statusCode, dash.body).toBe(200);
      expect(Number(dash.headers[DATA_AGE_HEADER.toLowerCase()])).toBeGreaterThanOrEqual(1);
      const summary = await app.inject({
        method: 'GET',
        url: `/api/v1/businesses/${biz}/finanzas/resumen`,
        headers: owner.auth,
      });
      expect(summary.statusCode, summary.body).toBe(200);
      expect(summary.headers[DATA_AGE_HEADER.toLowerCase()]).toBeDefined();
    } finally {
      await superReplica.query('SELECT pg_wal_replay_resume()');
    }
    await reportCounts(2);
    await sleep(1_100);
    expect((await reportedSales()).age).toBe('0');
  });

  it('the reads were served by the replica (its pg_stat_database counts them)', async () => {
    const { rows } = await superReplica.query<{ n: number }>(
      `SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = 'postgres'`,
    );
    expect(Number(rows[0].n)).toBeGreaterThan(5);
  });

  it('when the replica does not answer, reports read the primary instead of failing', async () => {
    pgctl(started[1], '-m', 'fast', '-w', 'stop');
    await sleep(1_100);
    const res = await report();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().total_ventas).toBe(2);
    expect(res.headers[DATA_AGE_HEADER.toLowerCase()]).toBeUndefined();
  });
});
