import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createTestApp } from '../test/app.js';
import { emptyDatabase, withDatabase } from '../test/databases.js';
import { createBusiness, registerUser } from '../test/fixtures.js';
import { StartupError } from '../lib/startup-error.js';
import { openDatabase } from './bootstrap.js';
import { MIGRATIONS_DIR, runMigrations } from './migrate.js';
import { LEDGER_TABLES, ensureAppRole, userOf } from './roles.js';
import { enNegocio, todosLosNegocios } from './tenant.js';

const ctx = await createTestApp();
const { appRole } = inject('pg');
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};
const dataDir = mkdtempSync(path.join(tmpdir(), 'mostrador-roles-'));

/** Runs `text` through the app's own pool: what a request could do. */
const asApp = (text: string, values: unknown[] = []) => ctx.database.pool.query(text, values);
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );

/** Roles made by these tests (they are shared by the whole server): dropped at the end. */
const madeRoles: string[] = [];
const admin = async (text: string, values: unknown[] = []) => {
  const c = new pg.Client({ connectionString: inject('pg').adminUrl });
  await c.connect();
  try {
    return await c.query(text, values);
  } finally {
    await c.end();
  }
};
afterAll(async () => {
  for (const r of madeRoles.reverse()) {
    await ctx.sql(`DROP OWNED BY ${r}`).catch(() => {});
    await admin(`DROP ROLE IF EXISTS ${r}`);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** A login role made for one test, with a password (an owner, or an operator's app role). */
async function loginRole(prefix: string, attributes: string) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  madeRoles.push(name);
  await admin(`CREATE ROLE ${name} LOGIN ${attributes} PASSWORD '${password}'`);
  const u = new URL(ctx.url);
  u.username = name;
  u.password = password;
  return { name, url: u.toString() };
}

describe('the requests connection', () => {
  it('is the app role: no superuser, owns no table, cannot create tables or roles', async () => {
    const { rows } = await asApp(
      `SELECT current_user AS who, r.rolsuper, r.rolcreaterole, r.rolcreatedb,
              has_schema_privilege('public', 'CREATE') AS create_in_public,
              has_database_privilege(current_database(), 'CREATE') AS create_schema,
              (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS owned
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows).toEqual([
      {
        who: appRole,
        rolsuper: false,
        rolcreaterole: false,
        rolcreatedb: false,
        create_in_public: false,
        create_schema: false,
        owned: 0,
      },
    ]);
    expect(appRole).not.toBe(userOf(ctx.url));
    // The tables belong to the owner, the one that ran the migrations.
    const owners = await ctx.sql<{ tableowner: string }>(
      `SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'`,
    );
    expect(owners).toEqual([{ tableowner: userOf(ctx.url) }]);
    expect(await codeOf(asApp('CREATE TABLE intrusa (id int)'))).toBe('42501');
    expect(await codeOf(asApp(`CREATE ROLE intruso_${randomBytes(3).toString('hex')}`))).toBe('42501');
  });

  it('has exactly read and write on the tables, read and insert on audit_log, nothing on server_secrets', async () => {
    // The ledgers have their own, narrower grants: ledgers.test.ts (decision 0032).
    const grants = await ctx.sql<{ table_name: string; privileges: string }>(
      `SELECT t.tablename AS table_name,
              coalesce((SELECT string_agg(g.privilege_type, ',' ORDER BY g.privilege_type)
                          FROM information_schema.role_table_grants g
                         WHERE g.grantee = $1 AND g.table_schema = 'public' AND g.table_name = t.tablename), '') AS privileges
         FROM pg_tables t WHERE t.schemaname = 'public' ORDER BY 1`,
      [appRole],
    );
    expect(grants.length).toBeGreaterThan(30);
    for (const g of grants.filter((t) => !(t.table_name in LEDGER_TABLES))) {
      const expected =
        g.table_name === 'audit_log'
          ? 'INSERT,SELECT'
          : g.table_name === 'server_secrets'
            ? ''
            : 'DELETE,INSERT,SELECT,UPDATE';
      expect(`${g.table_name}: ${g.privileges}`).toBe(`${g.table_name}: ${expected}`);
    }
    expect(await codeOf(asApp('SELECT valor FROM server_secrets'))).toBe('42501');
    expect(await codeOf(asApp('SELECT count(*) FROM drizzle.__drizzle_migrations'))).toBe('42501');
  });
});

describe('the audit log through the app connection', () => {
  it('takes new rows; refuses UPDATE, DELETE and TRUNCATE, and the rows stay as written', async () => {
    const owner = await registerUser(ctx.app, 'Auditora');
    const biz = await createBusiness(ctx.app, owner);
    // In the business's context, as a request (row-level security, decision 0031).
    const { rows } = await enNegocio(biz, () =>
      asApp(
        `INSERT INTO audit_log (business_id, user_id, entidad, accion, despues)
         VALUES ($1, $2, 'prueba', 'crear', '{"a": 1}') RETURNING id`,
        [biz, owner.id],
      ),
    );
    const id = rows[0].id as string;
    expect(await codeOf(asApp(`UPDATE audit_log SET accion = 'borrar' WHERE id = $1`, [id]))).toBe('42501');
    expect(await codeOf(asApp('DELETE FROM audit_log WHERE id = $1', [id]))).toBe('42501');
    expect(await codeOf(asApp('DELETE FROM audit_log'))).toBe('42501');
    expect(await codeOf(asApp('TRUNCATE audit_log'))).toBe('42501');
    // The reviewed cross-business paths take another role (decision 0061), with the same privileges.
    await todosLosNegocios('prueba', async () => {
      expect(await codeOf(asApp(`UPDATE audit_log SET accion = 'borrar' WHERE id = $1`, [id]))).toBe('42501');
      expect(await codeOf(asApp('DELETE FROM audit_log WHERE id = $1', [id]))).toBe('42501');
      expect((await asApp('SELECT accion FROM audit_log WHERE id = $1', [id])).rows).toEqual([{ accion: 'crear' }]);
    });
    expect(await ctx.sql('SELECT accion, despues FROM audit_log WHERE id = $1', [id])).toEqual([
      { accion: 'crear', despues: { a: 1 } },
    ]);
    // The route reads it back.
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${biz}/auditoria?entidad=prueba`,
      headers: owner.auth,
    });
    expect(res.statusCode).toBe(200);
  });

  it('deleting a business or a user still takes its rows along: the foreign keys act as the owner', async () => {
    const owner = await registerUser(ctx.app, 'Duena');
    const other = await registerUser(ctx.app, 'Otra');
    const biz = await createBusiness(ctx.app, owner);
    const keep = await createBusiness(ctx.app, other);
    await enNegocio(keep, () =>
      asApp(`INSERT INTO audit_log (business_id, user_id, entidad, accion) VALUES ($1, $2, 'prueba', 'ver')`, [
        keep,
        owner.id,
      ]),
    );
    const count = async (b: string) =>
      (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE business_id = $1', [b]))[0].n;
    expect(await count(biz)).toBeGreaterThan(0);

    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/v1/businesses/${biz}`, headers: owner.auth });
    expect(del.statusCode).toBe(204);
    expect(await count(biz)).toBe(0);

    // ON DELETE SET NULL is an UPDATE of audit_log, done with the owner's rights.
    await asApp('DELETE FROM users WHERE id = $1', [owner.id]);
    expect(
      await ctx.sql(`SELECT user_id FROM audit_log WHERE business_id = $1 AND entidad = 'prueba'`, [keep]),
    ).toEqual([{ user_id: null }]);
  });
});

describe('migrations as the owner', () => {
  it('two starts at once on an empty database: migrations once, by the owner; requests as the app role', async () => {
    const url = await emptyDatabase();
    const [a, b] = await Promise.all([openDatabase(url, dataDir, 2), openDatabase(url, dataDir, 2)]);
    try {
      const { rows } = await a.asOwner((o) =>
        o.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations'),
      );
      expect(rows).toEqual([{ n: journal.entries.length }]);
      for (const open of [a, b]) {
        expect(open.appRole).toBe(appRole);
        const who = await open.database.pool.query('SELECT current_user AS who');
        expect(who.rows).toEqual([{ who: appRole }]);
      }
      const owners = await a.asOwner((o) =>
        o.pool.query(`SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname IN ('public', 'drizzle')`),
      );
      expect(owners.rows).toEqual([{ tableowner: userOf(url) }]);
      expect(await codeOf(a.database.pool.query(`UPDATE audit_log SET accion = 'x'`))).toBe('42501');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a table added by a later migration is covered when the migrations run again', async () => {
    await ctx.sql('CREATE TABLE tabla_nueva (id int)');
    expect(await codeOf(asApp('SELECT * FROM tabla_nueva'))).toBe('42501');
    const owner = new pg.Pool({ connectionString: ctx.url, max: 1 });
    const { drizzle } = await import('drizzle-orm/node-postgres');
    await runMigrations(drizzle(owner), { appRole });
    await owner.end();
    expect(await codeOf(asApp('INSERT INTO tabla_nueva VALUES (1)'))).toBe('ok');
    expect(await codeOf(asApp('UPDATE audit_log SET accion = accion'))).toBe('42501');
  });
});

describe('creating the app role', () => {
  it('many starts at once, as a new owner: one role, no superuser, and each gets a working login', async () => {
    const owner = await loginRole('mtest_duenio', 'CREATEROLE');
    madeRoles.push(`${owner.name}_app`);
    const results = await Promise.all(Array.from({ length: 6 }, () => ensureAppRole(owner.url)));
    expect(new Set(results.map((r) => r.role))).toEqual(new Set([`${owner.name}_app`]));
    expect(new Set(results.map((r) => r.url)).size).toBe(1);
    const { rows } = await admin(
      'SELECT rolcanlogin, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = $1',
      [results[0].role],
    );
    expect(rows).toEqual([{ rolcanlogin: true, rolsuper: false, rolcreaterole: false, rolcreatedb: false }]);
    const c = new pg.Client({ connectionString: withDatabase(results[0].url, new URL(ctx.url).pathname.slice(1)) });
    await c.connect();
    expect((await c.query('SELECT current_user AS who')).rows).toEqual([{ who: results[0].role }]);
    await c.end();
    // A later start finds it as it should be.
    expect(await ensureAppRole(owner.url)).toEqual(results[0]);
  });

  it('an owner that may not create roles gets a Spanish message that names APP_DATABASE_URL', async () => {
    const owner = await loginRole('mtest_sinrol', 'NOCREATEROLE');
    const err = await ensureAppRole(owner.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toContain('APP_DATABASE_URL');
    expect((err as Error).message).toContain(owner.name);
  });

  it("APP_DATABASE_URL: the operator's role gets the same privileges; the owner's own user is refused", async () => {
    const operator = await loginRole('mtest_operador', '');
    const open = await openDatabase(ctx.url, dataDir, 2, undefined, { appDatabaseUrl: operator.url });
    try {
      expect(open.appRole).toBe(operator.name);
      expect((await open.database.pool.query('SELECT current_user AS who')).rows).toEqual([{ who: operator.name }]);
      expect(await codeOf(open.database.pool.query('SELECT count(*) FROM businesses'))).toBe('ok');
      expect(await codeOf(open.database.pool.query('DELETE FROM audit_log'))).toBe('42501');
    } finally {
      await open.close();
    }
    const same = await openDatabase(ctx.url, dataDir, 2, undefined, { appDatabaseUrl: ctx.url }).catch((e) => e);
    expect(same).toBeInstanceOf(StartupError);
    expect((same as Error).message).toContain('APP_DATABASE_URL');
  });
});
