import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createTestApp } from '../test/app.js';
import { registerUser } from '../test/fixtures.js';
import { resolveJwtSecret } from './jwt-secret.js';

const ctx = await createTestApp();
const base = mkdtempSync(path.join(tmpdir(), 'mostrador-jwt-'));
const apps: App[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
  rmSync(base, { recursive: true, force: true });
});

/** Another instance on the same database, with its own data directory (`secretFile`: a key left there). */
async function instance(opts: { given?: string; secretFile?: string } = {}) {
  const dataDir = mkdtempSync(path.join(base, 'data-'));
  if (opts.secretFile) writeFileSync(path.join(dataDir, 'jwt-secret'), `${opts.secretFile}\n`);
  const app = await buildApp({
    database: ctx.database,
    jwtSecret: await resolveJwtSecret({ given: opts.given, dataDir, db: ctx.owner.db, embedded: false }),
    publicUrl: 'http://localhost:3000',
  });
  await app.ready();
  apps.push(app);
  return app;
}

const me = (app: App, token: string) =>
  app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } });

describe('the token signing key', () => {
  it('on DATABASE_URL without JWT_SECRET, instances share the key kept in the database', async () => {
    // The first instance had been using DATA_DIR/jwt-secret: its key goes to the database.
    const previous = 'clave-anterior-del-archivo-0123456789abcdefghij';
    const a = await instance({ secretFile: previous });
    const b = await instance();
    const user = await registerUser(a, 'Clave');
    expect((await me(b, user.token)).statusCode).toBe(200);
    expect((await me(a, user.token)).statusCode).toBe(200);
    expect(await ctx.sql('SELECT nombre, valor FROM server_secrets')).toEqual([{ nombre: 'jwt', valor: previous }]);

    // JWT_SECRET, when given, wins: that instance does not accept the others' tokens.
    const own = await instance({ given: 'otro-secreto-de-pruebas-0123456789abcdefghij' });
    expect((await me(own, user.token)).statusCode).toBe(401);
  });

  it('instances starting at the same moment on a database without a key agree on one', async () => {
    await ctx.sql(`DELETE FROM server_secrets`);
    const keys = await Promise.all(
      Array.from({ length: 5 }, () =>
        resolveJwtSecret({ dataDir: mkdtempSync(path.join(base, 'data-')), db: ctx.owner.db, embedded: false }),
      ),
    );
    expect(new Set(keys).size).toBe(1);
    expect(keys[0].length).toBeGreaterThanOrEqual(32);
    expect(await ctx.sql('SELECT valor FROM server_secrets')).toEqual([{ valor: keys[0] }]);
  });

  it('on the embedded PostgreSQL it stays in DATA_DIR/jwt-secret', async () => {
    const dir = mkdtempSync(path.join(base, 'embebido-'));
    const first = await resolveJwtSecret({ dataDir: dir, db: ctx.owner.db, embedded: true });
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe(first);
    expect(await resolveJwtSecret({ dataDir: dir, db: ctx.owner.db, embedded: true })).toBe(first);
    const [{ valor }] = await ctx.sql<{ valor: string }>(`SELECT valor FROM server_secrets WHERE nombre = 'jwt'`);
    expect(first).not.toBe(valor);
  });
});
