import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { getCustomer, updateCustomer } from '../modules/customers/customers.service.js';
import { createTestApp, type TestContext } from '../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../test/fixtures.js';
import { connect, type Database } from './client.js';
import { pipelinedTransaction } from './pipeline.js';
import { customers } from './schema/index.js';
import { enNegocio, TODOS_ROLE, todosLosNegocios } from './tenant.js';

/*
 * Row-level security (decision 0031): the app role sees and writes only the rows of the business
 * of the code that sends the statement, whatever the statement says.
 */

/** Tables without business_id, on purpose: users and their sessions, the server's own, and ARCA's tickets per certificate (decision 0039). */
const NOT_TENANT = ['arca_tickets_acceso', 'auth_tokens', 'rate_limit_windows', 'server_secrets', 'sessions', 'users'];

/**
 * The reviewed cross-business paths: every call of todosLosNegocios in the API's code, by file
 * and reason. A new call fails this list until someone reviews it and adds it here.
 */
const CROSS_BUSINESS = [
  ['db/seed-demo.ts', 'seed:demo reemplaza los negocios de la cuenta de demostración'],
  ['lib/access.ts', 'el único negocio del usuario: sus membresías'],
  ['lib/idempotency.ts', 'limpieza de claves de idempotencia vencidas'],
  ['lib/idempotency.ts', 'renovación de los leases de las claves de idempotencia en curso'],
  ['modules/businesses/businesses.service.ts', 'los negocios de un usuario'],
  ['modules/businesses/businesses.service.ts', 'diagnóstico de la cuenta: sus negocios y membresías'],
  ['modules/businesses/businesses.service.ts', 'reparación de la cuenta: los negocios que creó'],
  ['modules/facturacion/caea.ts', 'facturación: los negocios con contingencia CAEA'],
  ['modules/facturacion/facturador.ts', 'facturación: los comprobantes pendientes de todos los negocios'],
  ['modules/facturacion/facturador.ts', 'facturación: los comprobantes que esperan a ARCA'],
  ['modules/facturacion/facturador.ts', 'facturación: las ventas por conciliar de todos los negocios'],
  ['modules/invitations/invitations.service.ts', 'una invitación por su token'],
  ['modules/mercadopago/mercadopago.ts', 'mercado pago: las órdenes pendientes de todos los negocios'],
  ['modules/mercadopago/webhook.ts', 'mercado pago: la orden de una notificación'],
];

let ctx: TestContext;
let owner: TestUser;
let a: string;
let b: string;
let customerA: string;
let customerB: string;
const opened: Database[] = [];

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await registerUser(ctx.app, 'Duena');
  a = await createBusiness(ctx.app, owner, 'Negocio A');
  b = await createBusiness(ctx.app, owner, 'Negocio B');
  [{ id: customerA }] = await ctx.sql<{ id: string }>(
    `INSERT INTO customers (business_id, nombre) VALUES ($1, 'Cliente de A') RETURNING id`,
    [a],
  );
  [{ id: customerB }] = await ctx.sql<{ id: string }>(
    `INSERT INTO customers (business_id, nombre) VALUES ($1, 'Cliente de B') RETURNING id`,
    [b],
  );
});

afterAll(async () => {
  for (const d of opened) await d.close();
});

/** The app's own pool (app role, tenant carried on every statement). */
const app = (text: string, values: unknown[] = []) => ctx.database.pool.query(text, values);
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );
const nombreOf = async (id: string) =>
  (await ctx.sql<{ nombre: string }>('SELECT nombre FROM customers WHERE id = $1', [id]))[0]?.nombre;

describe('the policies', () => {
  it('every table with business_id, and businesses, has RLS and its policy; the app role cannot bypass it', async () => {
    const tables = await ctx.sql<{ relname: string; tenant: boolean; rls: boolean; forced: boolean }>(`
      SELECT c.relname, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
             EXISTS (SELECT 1 FROM pg_attribute a
                      WHERE a.attrelid = c.oid AND a.attname = 'business_id' AND NOT a.attisdropped) AS tenant
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`);
    const tenant = tables.filter((t) => t.tenant).map((t) => t.relname);
    expect(tenant.length).toBeGreaterThan(50);
    expect(tables.filter((t) => !t.tenant && t.relname !== 'businesses').map((t) => t.relname)).toEqual(NOT_TENANT);
    // RLS on every tenant table and businesses, nowhere else; never forced (the owner runs migrations and fixtures).
    expect(tables.filter((t) => t.rls).map((t) => t.relname)).toEqual([...tenant, 'businesses'].sort());
    expect(tables.filter((t) => t.forced)).toEqual([]);

    const policies = await ctx.sql<{
      tablename: string;
      policyname: string;
      permissive: string;
      roles: string;
      cmd: string;
      qual: string;
      with_check: string;
    }>(
      `SELECT tablename, policyname, permissive, roles::text AS roles, cmd, qual, with_check
         FROM pg_policies WHERE schemaname = 'public' ORDER BY tablename, policyname`,
    );
    // Two per table (decision 0061): the business's, one equality (no OR: it must serve as an index
    // condition), for everyone; and every business's, only for the role of the reviewed paths.
    const withTables = [...tenant, 'businesses'].sort();
    expect(policies.filter((p) => p.policyname === 'negocio_actual').map((p) => p.tablename)).toEqual(withTables);
    expect(policies.filter((p) => p.policyname === 'todos_los_negocios').map((p) => p.tablename)).toEqual(withTables);
    expect(policies.length).toBe(withTables.length * 2);
    for (const p of policies) {
      expect(p.cmd).toBe('ALL');
      expect(p.permissive).toBe('PERMISSIVE');
      if (p.policyname === 'negocio_actual') {
        const key = p.tablename === 'businesses' ? 'id' : 'business_id';
        expect(p.roles).toBe('{public}');
        for (const expr of [p.qual, p.with_check]) {
          expect(expr).toBe(`(${key} = ( SELECT (NULLIF(current_setting('app.business_id'::text, true), ''::text))::uuid AS "nullif"))`);
        }
      } else {
        expect(p.roles).toBe(`{${TODOS_ROLE}}`);
        for (const expr of [p.qual, p.with_check]) {
          expect(expr).toBe(`( SELECT (current_setting('app.todos_los_negocios'::text, true) = 'on'::text))`);
        }
      }
    }
    const [role] = await ctx.sql<{ rolbypassrls: boolean; rolsuper: boolean }>(
      'SELECT rolbypassrls, rolsuper FROM pg_roles WHERE rolname = $1',
      [inject('pg').appRole],
    );
    expect(role).toEqual({ rolbypassrls: false, rolsuper: false });
    // The reviewed paths' role logs in as nobody and bypasses nothing; the app role is its member only
    // to take it (NOINHERIT: its policy does not apply to the app role's own statements).
    const [todos] = await ctx.sql<{ rolcanlogin: boolean; rolbypassrls: boolean; rolsuper: boolean }>(
      'SELECT rolcanlogin, rolbypassrls, rolsuper FROM pg_roles WHERE rolname = $1',
      [TODOS_ROLE],
    );
    expect(todos).toEqual({ rolcanlogin: false, rolbypassrls: false, rolsuper: false });
    const [member] = await ctx.sql<{ inherit: boolean; member: boolean; privs: boolean }>(
      `SELECT r.rolinherit AS inherit, pg_has_role(r.rolname, $2, 'MEMBER') AS member,
              pg_has_role(r.rolname, $2, 'USAGE') AS privs
         FROM pg_roles r WHERE r.rolname = $1`,
      [inject('pg').appRole, TODOS_ROLE],
    );
    expect(member).toEqual({ inherit: false, member: true, privs: false });
  });
});

describe("in business A's context", () => {
  it("B's rows are invisible, and updating, deleting or adding them touches nothing", async () => {
    await enNegocio(a, async () => {
      const { rows } = await app('SELECT nombre FROM customers ORDER BY nombre');
      expect(rows).toEqual([{ nombre: 'Cliente de A' }]);
      expect((await app('SELECT id FROM customers WHERE id = $1', [customerB])).rows).toEqual([]);
      expect((await app('SELECT id FROM businesses')).rows).toEqual([{ id: a }]);
      expect((await app(`UPDATE customers SET nombre = 'Tomado' WHERE id = $1`, [customerB])).rowCount).toBe(0);
      expect((await app(`UPDATE customers SET nombre = 'Tomado' WHERE business_id = $1`, [b])).rowCount).toBe(0);
      expect((await app('DELETE FROM customers WHERE id = $1', [customerB])).rowCount).toBe(0);
      expect((await app('DELETE FROM businesses WHERE id = $1', [b])).rowCount).toBe(0);
      // A new row for B, or A's row moved to B: refused by the policy's check.
      expect(await codeOf(app(`INSERT INTO customers (business_id, nombre) VALUES ($1, 'Intruso')`, [b]))).toBe(
        '42501',
      );
      expect(await codeOf(app('UPDATE customers SET business_id = $1 WHERE id = $2', [b, customerA]))).toBe('42501');
    });
    expect(await nombreOf(customerB)).toBe('Cliente de B');
    expect(await nombreOf(customerA)).toBe('Cliente de A');
    expect((await ctx.sql('SELECT 1 FROM businesses WHERE id = $1', [b])).length).toBe(1);
    expect((await ctx.sql(`SELECT 1 FROM customers WHERE nombre = 'Intruso'`)).length).toBe(0);
  });

  it('a drizzle query returned unawaited runs in the context it was handed to, not where it is awaited', async () => {
    const query = () => ctx.database.db.select({ nombre: customers.nombre }).from(customers);
    expect(await enNegocio(a, query)).toEqual([{ nombre: 'Cliente de A' }]);
    expect(await enNegocio(b, query)).toEqual([{ nombre: 'Cliente de B' }]);
    expect(await query()).toEqual([]);
  });

  it('holds in transactions too: drizzle, pipelined, and a failing one', async () => {
    await enNegocio(a, async () => {
      const seen = await ctx.database.db.transaction(async (tx) => {
        const r = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM customers`);
        return r.rows[0].n;
      });
      expect(seen).toBe(1);
      const [r] = await pipelinedTransaction(ctx.database.pool, (send) =>
        send([sql`UPDATE customers SET nombre = 'Tomado' WHERE id IN (${customerA}, ${customerB}) RETURNING id`], {
          commit: true,
        }),
      );
      expect(r.rows).toEqual([{ id: customerA }]);
      await ctx.sql(`UPDATE customers SET nombre = 'Cliente de A' WHERE id = $1`, [customerA]);
      // A failing statement outside a transaction: its own error, and the connection stays usable.
      await expect(app('SELECT 1 / 0')).rejects.toMatchObject({ code: '22012' });
      expect((await app('SELECT count(*)::int AS n FROM customers')).rows).toEqual([{ n: 1 }]);
    });
    expect(await nombreOf(customerB)).toBe('Cliente de B');
  });

  it("a service statement without its business_id filter still cannot read or change B's customer", async () => {
    // The same service functions, on pools that drop the business_id filter of every statement on
    // customers (as a forgotten predicate would): as the owner it reaches B's customer, which is
    // the proof the filter is gone; as the app role in A's context RLS still refuses.
    const stripped: string[] = [];
    const withoutFilter = (url: string) => {
      const d = connect(url, 1);
      opened.push(d);
      d.pool.on('connect', (client: pg.PoolClient) => {
        const send = client.query.bind(client) as (c: unknown, v?: unknown, cb?: unknown) => unknown;
        const drop = (text: string) => {
          const out = text.replace(/"customers"\."business_id" = (\$\d+)/g, '($1::uuid IS NOT NULL)');
          if (out !== text) stripped.push(out);
          return out;
        };
        (client as unknown as { query: typeof send }).query = (c, v, cb) =>
          send(typeof c === 'string' ? drop(c) : { ...(c as object), text: drop((c as { text: string }).text) }, v, cb);
      });
      return d;
    };
    const asOwner = withoutFilter(ctx.url);
    expect((await enNegocio(a, () => getCustomer(asOwner.db, a, customerB))).nombre).toBe('Cliente de B');
    expect(stripped).toHaveLength(1);
    expect(stripped[0]).not.toContain('"customers"."business_id" =');

    const asApp = withoutFilter(ctx.appUrl);
    await expect(enNegocio(a, () => getCustomer(asApp.db, a, customerB))).rejects.toMatchObject({ status: 404 });
    await expect(
      enNegocio(a, () => updateCustomer(asApp.db, a, owner.id, customerB, { nombre: 'Tomado' })),
    ).rejects.toMatchObject({ status: 404 });
    expect(stripped).toHaveLength(3);
    expect(await nombreOf(customerB)).toBe('Cliente de B');
    // A's own customer, through the same filterless statements, is still found and changed.
    await enNegocio(a, () => updateCustomer(asApp.db, a, owner.id, customerA, { nombre: 'Cliente de A bis' }));
    expect(await nombreOf(customerA)).toBe('Cliente de A bis');
    await ctx.sql(`UPDATE customers SET nombre = 'Cliente de A' WHERE id = $1`, [customerA]);
  });
});

describe('the tenant of a statement', () => {
  it('without one the app role sees no tenant rows and writes none', async () => {
    expect((await app('SELECT count(*)::int AS n FROM customers')).rows).toEqual([{ n: 0 }]);
    expect((await app('SELECT count(*)::int AS n FROM businesses')).rows).toEqual([{ n: 0 }]);
    expect((await app(`UPDATE customers SET nombre = 'Tomado'`)).rowCount).toBe(0);
    expect(await codeOf(app(`INSERT INTO customers (business_id, nombre) VALUES ($1, 'Intruso')`, [a]))).toBe('42501');
    // Users and sessions are not tenant tables.
    expect((await app('SELECT count(*)::int AS n FROM users WHERE id = $1', [owner.id])).rows).toEqual([{ n: 1 }]);
  });

  it('every business takes both keys: the setting alone, or the role alone, shows nothing', async () => {
    const one = connect(ctx.appUrl, 1);
    opened.push(one);
    const count = async (settings: string) => {
      const c = await one.pool.connect();
      try {
        await c.query('BEGIN');
        await c.query(settings);
        const { rows } = await c.query<{ n: number; m: number }>(
          'SELECT (SELECT count(*)::int FROM customers) AS n, (SELECT count(*)::int FROM businesses) AS m',
        );
        await c.query('COMMIT');
        return rows[0];
      } finally {
        c.release();
      }
    };
    expect(await count(`SELECT set_config('app.todos_los_negocios', 'on', true)`)).toEqual({ n: 0, m: 0 });
    expect(await count(`SELECT set_config('role', '${TODOS_ROLE}', true)`)).toEqual({ n: 0, m: 0 });
    const both = await count(
      `SELECT set_config('app.todos_los_negocios', 'on', true), set_config('role', '${TODOS_ROLE}', true)`,
    );
    expect(both.n).toBeGreaterThanOrEqual(2);
    expect(both.m).toBeGreaterThanOrEqual(2);
  });

  it('is local to each transaction: nothing stays on the connection, and concurrent contexts do not mix', async () => {
    const one = connect(ctx.appUrl, 1);
    opened.push(one);
    const setting = async () =>
      (
        await one.pool.query<{ negocio: string | null; todos: string | null; rol: string }>(
          `SELECT coalesce(current_setting('app.business_id', true), '') AS negocio,
                  coalesce(current_setting('app.todos_los_negocios', true), '') AS todos,
                  current_user = $1 AS rol`,
          [TODOS_ROLE],
        )
      ).rows[0];
    expect(await enNegocio(a, setting)).toEqual({ negocio: a, todos: '', rol: false });
    expect(await setting()).toEqual({ negocio: '', todos: '', rol: false });
    expect(await todosLosNegocios('prueba', setting)).toEqual({ negocio: '', todos: 'on', rol: true });
    expect(await setting()).toEqual({ negocio: '', todos: '', rol: false });
    // The callback form (pg-pool's own) carries it too.
    const viaCallback = await enNegocio(
      b,
      () =>
        new Promise<unknown>((resolve, reject) =>
          one.pool.query(`SELECT current_setting('app.business_id', true) AS negocio`, [], (err, res) =>
            err ? reject(err) : resolve(res.rows[0]),
          ),
        ),
    );
    expect(viaCallback).toEqual({ negocio: b });
    const both = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const id = i % 2 ? a : b;
        return enNegocio(id, async () => ({ id, seen: (await app('SELECT id FROM businesses')).rows }));
      }),
    );
    for (const r of both) expect(r.seen).toEqual([{ id: r.id }]);
  });

  it('a request sees only its business, whatever the path names', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/businesses/${a}/clientes`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json())).toContain('Cliente de A');
    expect(JSON.stringify(res.json())).not.toContain('Cliente de B');
    const list = await ctx.app.inject({ method: 'GET', url: '/api/v1/businesses/', headers: owner.auth });
    expect(
      list
        .json()
        .map((x: { id: string }) => x.id)
        .sort(),
    ).toEqual([a, b].sort());
  });
});

describe('cross-business paths', () => {
  it('todosLosNegocios is called only from the reviewed places, for the reviewed reasons', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const found: string[][] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (
          e.name.endsWith('.ts') &&
          !e.name.endsWith('.test.ts') &&
          !full.includes(`${path.sep}test${path.sep}`)
        ) {
          const text = readFileSync(full, 'utf8');
          const rel = path.relative(root, full).split(path.sep).join('/');
          for (const m of text.matchAll(/todosLosNegocios(<[^>]*>)?\(\s*(['"`])([^'"`]*)\2/g)) found.push([rel, m[3]]);
          // Any other mention (an alias, a call with a computed reason) is refused too.
          const mentions = text.match(/todosLosNegocios/g)?.length ?? 0;
          const imports = text.match(/import \{[^}]*todosLosNegocios[^}]*\}/g)?.length ?? 0;
          const defined = rel === 'db/tenant.ts' ? (text.match(/todosLosNegocios/g)?.length ?? 0) : 0;
          expect(mentions - imports - defined, rel).toBe(found.filter(([f]) => f === rel).length);
        }
      }
    };
    walk(root);
    const sort = (l: string[][]) => [...l].sort((x, y) => (x.join() < y.join() ? -1 : 1));
    expect(sort(found)).toEqual(sort(CROSS_BUSINESS));
  });
});
