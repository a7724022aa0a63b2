import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  customerListQuery,
  productListQuery,
  serviceListQuery,
  supplierListQuery,
  taskListQuery,
} from '@mostrador/shared';
import { listCustomers } from '../modules/customers/customers.service.js';
import { listProducts } from '../modules/products/products.service.js';
import { listServices } from '../modules/services/services.service.js';
import { listSuppliers } from '../modules/suppliers/suppliers.service.js';
import { listTasks } from '../modules/tasks/tasks.service.js';
import type { BusinessContext } from '../lib/access.js';
import { createTestApp, type TestContext } from '../test/app.js';
import { withDatabase } from '../test/databases.js';
import { createBusiness, registerUser, type TestUser } from '../test/fixtures.js';
import { connect, type Database } from './client.js';
import { SEARCH_FUNCTIONS, SEARCH_ROW_FUNCTIONS } from './roles.js';
import { enNegocio } from './tenant.js';

/*
 * Searches under row-level security (decision 0031, migration 0055): the indexable words go
 * through each table's security-definer function, which uses the table's pg_trgm index and returns
 * the ids of the business of the transaction's setting only.
 */

const { directAppUrl, appRole } = inject('pg');

let ctx: TestContext;
let owner: TestUser;
let a: string;
let b: string;
let dbName: string;
let explained: Database;
const notices: string[] = [];

/** Each searchable table: how its rows are made, its GIN index, its search function and the app's list. */
const TABLES = [
  {
    table: 'products',
    index: 'products_busqueda_idx',
    rows: 50_000,
    fn: 'buscar_productos',
    // The list reads the rows themselves from its rows function (migration 0066), not ids by key.
    rowsFn: 'buscar_productos_filas',
    insert: `INSERT INTO products (business_id, nombre, codigo, precio_venta)
             SELECT $1, $2 || ' ' || i, $3 || i, 100 FROM generate_series(1, $4::int) i`,
    list: (db: Database, q: string) =>
      listProducts(db.db, a, productListQuery.parse({ q })).then((r) => r.rows.map((x) => x.nombre)),
  },
  {
    table: 'customers',
    rows: 20_000,
    index: 'customers_search_idx',
    fn: 'buscar_clientes',
    insert: `INSERT INTO customers (business_id, nombre, apellido, email)
             SELECT $1, $2 || ' ' || i, 'Pérez', $3 || i || '@correo.com' FROM generate_series(1, $4::int) i`,
    list: (db: Database, q: string) =>
      listCustomers(db.db, a, customerListQuery.parse({ q })).then((r) => r.rows.map((x) => x.nombre)),
  },
  {
    table: 'suppliers',
    rows: 20_000,
    index: 'suppliers_search_idx',
    fn: 'buscar_proveedores',
    insert: `INSERT INTO suppliers (business_id, nombre, contacto)
             SELECT $1, $2 || ' ' || i, $3 || i FROM generate_series(1, $4::int) i`,
    list: (db: Database, q: string) =>
      listSuppliers(db.db, a, supplierListQuery.parse({ q }), '2026-01-01').then((r) => r.rows.map((x) => x.nombre)),
  },
  {
    table: 'services',
    rows: 20_000,
    index: 'services_search_idx',
    fn: 'buscar_servicios',
    insert: `INSERT INTO services (business_id, nombre, descripcion, precio)
             SELECT $1, $2 || ' ' || i, $3 || i, 100 FROM generate_series(1, $4::int) i`,
    list: (db: Database, q: string) =>
      listServices(db.db, a, serviceListQuery.parse({ q })).then((r) => r.rows.map((x) => x.nombre)),
  },
  {
    table: 'tasks',
    rows: 20_000,
    index: 'tasks_busqueda_idx',
    fn: 'buscar_tareas',
    insert: `INSERT INTO tasks (business_id, titulo, descripcion)
             SELECT $1, $2 || ' ' || i, $3 || i FROM generate_series(1, $4::int) i`,
    // A creator sees every task (the route builds the member's context; only the business counts here).
    list: (db: Database, q: string) =>
      listTasks(
        db.db,
        { userId: owner.id, business: { id: a, isCreator: true } as BusinessContext, now: new Date() },
        taskListQuery.parse({ q }),
      ).then((r) => r.tareas.map((x) => x.titulo)),
  },
] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await registerUser(ctx.app, 'Duena');
  a = await createBusiness(ctx.app, owner, 'Negocio A');
  b = await createBusiness(ctx.app, owner, 'Negocio B');
  for (const t of TABLES) {
    // Enough rows in each business for the planner to prefer the trigram index (as it does for a
    // business's whole list without RLS), a few that match «ñandú» (with and without accents).
    await ctx.sql(t.insert, [a, 'Artículo común', 'relleno', t.rows]);
    await ctx.sql(t.insert, [b, 'Artículo común', 'relleno', t.rows]);
    await ctx.sql(t.insert, [a, 'Yerba Ñandú de A', 'nandu', 3]);
    await ctx.sql(t.insert, [b, 'Yerba Ñandú de B', 'nandu', 3]);
    await ctx.sql(`ANALYZE ${t.table}`);
  }
  // A pool of the app role as the app makes them (tenant carried), whose connections explain every
  // statement they run, the ones inside functions too, as notices: EXPLAIN alone does not show what a
  // function runs. A database-scoped role setting, on this file's database only.
  [{ dbName }] = await ctx.sql<{ dbName: string }>('SELECT current_database() AS "dbName"');
  const settings = {
    session_preload_libraries: 'auto_explain',
    'auto_explain.log_min_duration': '0',
    'auto_explain.log_nested_statements': 'on',
    'auto_explain.log_level': 'notice',
  };
  for (const [name, value] of Object.entries(settings)) {
    await ctx.sql(`ALTER ROLE ${appRole} IN DATABASE ${dbName} SET ${name} = '${value}'`);
  }
  explained = connect(withDatabase(directAppUrl, dbName), 1);
  explained.pool.on('connect', (c: pg.PoolClient) => c.on('notice', (n) => notices.push(n.message ?? '')));
});

afterAll(async () => {
  await explained?.close();
  if (dbName) await ctx.sql(`ALTER ROLE ${appRole} IN DATABASE ${dbName} RESET ALL`);
});

describe.each(TABLES)('the search of $table', (t) => {
  it(`uses its trigram index as the app role in the business's context, and finds only its rows`, async () => {
    notices.length = 0;
    const found = await enNegocio(a, () => t.list(explained, 'ñandu yerba'));
    expect(found.sort()).toEqual(['Yerba Ñandú de A 1', 'Yerba Ñandú de A 2', 'Yerba Ñandú de A 3']);
    const plans = notices.join('\n');
    // The function's statement: the trigram index, restricted to the business of the context.
    expect(plans).toMatch(new RegExp(`Bitmap Index Scan on ${t.index}`));
    if ('rowsFn' in t) {
      // The app's statement counts and pages the function's rows: no second read of the table.
      expect(plans).toMatch(new RegExp(`Function Scan on ${t.rowsFn}`));
      expect(plans).not.toMatch(/Index Cond: .*\bid = ANY/);
    } else {
      // The app's statement: the matching ids by the primary key, not every row of the business.
      // The InitPlan's value reads «(InitPlan 1).col1» from PostgreSQL 17 on, «$0» before.
      expect(plans).toMatch(/Index Cond: .*\bid = ANY \((\(InitPlan|\$\d)/);
    }
    expect(plans).not.toMatch(new RegExp(`Seq Scan on ${t.table}`));
  });

  const functions = [
    { fn: t.fn, select: `SELECT ${t.fn}($1::text[]) AS id` },
    ...('rowsFn' in t ? [{ fn: t.rowsFn, select: `SELECT id FROM ${t.rowsFn}($1::text[])` }] : []),
  ];
  it.each(functions)('$fn answers the business of the context only, and nothing without one', async ({ select }) => {
    const call = (q: string[]) => explained.pool.query<{ id: string }>(select, [q]);
    const ofBusiness = async (id: string) =>
      (await ctx.sql<{ business_id: string }>(`SELECT business_id FROM ${t.table} WHERE id = $1`, [id]))[0].business_id;
    const inA = (await enNegocio(a, () => call(['nandu']))).rows;
    expect(inA).toHaveLength(3);
    for (const r of inA) expect(await ofBusiness(r.id)).toBe(a);
    const inB = (await enNegocio(b, () => call(['NANDÚ', 'yerba']))).rows;
    expect(inB).toHaveLength(3);
    for (const r of inB) expect(await ofBusiness(r.id)).toBe(b);
    // B's words in A's context: nothing of B.
    expect((await enNegocio(a, () => call(['de b']))).rows).toEqual([]);
    // No context at all, or an empty setting: nothing, even as the owner (who is not subject to RLS).
    expect((await call(['nandu'])).rows).toEqual([]);
    expect((await ctx.sql(select, [['nandu']])).length).toBe(0);
    const owned = await ctx.owner.pool.connect();
    try {
      await owned.query('BEGIN');
      await owned.query(`SELECT set_config('app.business_id', '', true)`);
      expect((await owned.query(select, [['nandu']])).rows).toEqual([]);
    } finally {
      await owned.query('ROLLBACK');
      owned.release();
    }
  });
});

describe('the search functions', () => {
  it('are security definers of the owner with a fixed search_path, callable by the app role and not by PUBLIC', async () => {
    const rows = await ctx.sql<{ name: string; definer: boolean; config: string[]; app: boolean; anyone: boolean }>(
      `SELECT p.proname AS name, p.prosecdef AS definer, p.proconfig AS config,
              has_function_privilege($1, p.oid, 'EXECUTE') AS app,
              coalesce(array_position(p.proacl::text[], '=X/' || r.rolname) IS NOT NULL, true) AS anyone
         FROM pg_proc p JOIN pg_roles r ON r.oid = p.proowner
        WHERE p.proname LIKE 'buscar\\_%' ORDER BY 1`,
      [appRole],
    );
    expect(rows.map((r) => r.name).sort()).toEqual([...SEARCH_FUNCTIONS, ...SEARCH_ROW_FUNCTIONS, 'buscar_ids'].sort());
    for (const r of rows) {
      // The rows functions plan their own statement for the trigram index (migration 0066).
      const planned = (SEARCH_ROW_FUNCTIONS as readonly string[]).includes(r.name)
        ? ['enable_seqscan=off', 'enable_indexscan=off']
        : [];
      expect(r.config).toEqual(['search_path=public, pg_temp', ...planned]);
      expect(r.anyone).toBe(false);
      // The helper takes a table and an expression: only the definers (the owner) call it.
      expect({ name: r.name, definer: r.definer, app: r.app }).toEqual({
        name: r.name,
        definer: r.name !== 'buscar_ids',
        app: r.name !== 'buscar_ids',
      });
    }
  });
});
