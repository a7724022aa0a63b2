import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { buildApp, type App, type AppOptions } from '../app.js';
import { connect, type Database } from '../db/client.js';
import { withDatabase } from './databases.js';

export interface TestContext {
  app: App;
  /** The app's pool: connected as the app role, as in production. */
  database: Database;
  /** A pool as the owner (the migrations' role): fixtures and what only the owner may do. */
  owner: Database;
  /** The connection string of this file's database, as the owner. */
  url: string;
  /** The same database as the app role. */
  appUrl: string;
  /** Runs raw SQL as the owner against this file's database (fixtures and assertions on stored rows). */
  sql<T extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
}

async function appOn(database: Database, overrides: Partial<AppOptions>): Promise<App> {
  const app = await buildApp({
    database,
    jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
    publicUrl: 'http://localhost:3000',
    // Every answer is checked against its documented schema (lib/responses.ts).
    checkResponses: true,
    // Argon2id at its smallest cost: hashing stays real (auth.test.ts checks the stored hash) but
    // the thousands of signups do not spend a minute of CPU on it; production keeps the default.
    passwordCost: { memoryCost: 1024, timeCost: 1 },
    ...overrides,
    // Files register many users from one address: the signup limit has its own test.
    rateLimits: { signupPerHour: 10_000, ...overrides.rateLimits },
  });
  await app.ready();
  return app;
}

/**
 * Another instance of the app on the same database, as a second server would be: its own
 * in-process state, the same tables. Closed after the file.
 */
export async function siblingApp(ctx: TestContext, overrides: Partial<AppOptions> = {}, poolSize = 5): Promise<App> {
  const database = connect(ctx.appUrl, poolSize);
  const app = await appOn(database, overrides);
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return app;
}

/** A fresh database cloned from the migrated template, and an app on it. Closed after the file. */
export async function createTestApp(overrides: Partial<AppOptions> = {}): Promise<TestContext> {
  const { adminUrl, appUrl: appServerUrl, template, prefix } = inject('pg');
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (e) {
      // Two files cloning the template at the same instant: try again shortly.
      if (attempt > 20) throw e;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const appUrl = withDatabase(appServerUrl, name);
  const database = connect(appUrl, 5);
  const owner = connect(url, 3);
  const app = await appOn(database, overrides);
  afterAll(async () => {
    await app.close();
    await database.close();
    await owner.close();
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  return {
    app,
    database,
    owner,
    url,
    appUrl,
    sql: async <T extends object>(text: string, values: unknown[] = []) =>
      (await owner.pool.query<T>(text, values)).rows,
  };
}
