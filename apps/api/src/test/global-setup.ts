import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect } from '../db/client.js';
import { startEmbedded } from '../db/embedded.js';
import { runMigrations } from '../db/migrate.js';
import { ensureAppRole } from '../db/roles.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * adminUrl: the owner (migrations, fixtures); appUrl: the app role, as the requests connect
     * (through the pooler of TEST_APP_DATABASE_URL when set); directAppUrl: the app role, straight to the server.
     */
    pg: { adminUrl: string; appUrl: string; directAppUrl: string; appRole: string; template: string; prefix: string };
  }
}

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * One PostgreSQL for the whole run: embedded by default, the server of DATABASE_URL when set.
 * A migrated template database, with the app role's privileges; each test file clones it (see app.ts).
 */
export default async function setup(project: TestProject) {
  let stop = async () => {};
  let adminUrl = process.env.DATABASE_URL;
  let dir: string | null = null;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(tmpdir(), 'mostrador-test-pg-'));
    chmodSync(dir, 0o755); // the server may run as the system user postgres
    const server = await startEmbedded(path.join(dir, 'data'));
    adminUrl = server.url('postgres');
    stop = () => server.stop();
  }
  const prefix = `mtest_${process.pid}_`;
  const template = `${prefix}template`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template} TEMPLATE template0 ENCODING 'UTF8'`);
  const ensured = await ensureAppRole(adminUrl);
  // TEST_APP_DATABASE_URL: the requests' connections go there, e.g. through PgBouncer in transaction
  // mode (.ci/run, scripts/ci/pgbouncer.sh); owner work (databases, migrations, fixtures) stays direct.
  const app = { role: ensured.role, url: process.env.TEST_APP_DATABASE_URL || ensured.url };
  const tpl = connect(withDatabase(adminUrl, template), 1);
  await runMigrations(tpl.db, { appRole: app.role });
  await tpl.close();
  await admin.end();

  project.provide('pg', { adminUrl, appUrl: app.url, directAppUrl: ensured.url, appRole: app.role, template, prefix });

  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${prefix}%`,
    ]);
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
    await c.end();
    await stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
