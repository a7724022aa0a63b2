import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkSource,
  checkTree,
  exportsWithoutBusinessFirst,
  readTables,
  tenantUses,
  type Finding,
} from '../test/tenant-statements.js';

/*
 * Every statement on a business's table filters by business_id (decision 0030): the static
 * check over apps/api/src, and the checker's own cases.
 */

const src = fileURLToPath(new URL('../', import.meta.url));

/**
 * The statements that may go across businesses, by file, function and table; each needs its
 * reason. An entry that no longer matches a statement fails the test (the list stays honest).
 */
const ALLOWED: { file: string; fn: string; table: string; reason: string }[] = [
  {
    file: 'lib/access.ts',
    fn: 'SQL_ONLY_BUSINESS',
    table: 'business_members',
    reason: "The caller's only business when a request names none: a membership lookup by user.",
  },
  {
    file: 'modules/invitations/invitations.queries.ts',
    fn: 'invitationByToken',
    table: 'invitations',
    reason: 'An invitation is found by its secret token; the invitee does not belong to the business yet.',
  },
  {
    file: 'modules/facturacion/facturacion.queries.ts',
    fn: 'caeaBusinesses',
    table: 'facturacion_config',
    reason:
      'The CAEA sweep lists the businesses with a CAEA punto de venta; each is then handled in its own enNegocio (decision 0047).',
  },
  {
    file: 'modules/facturacion/comprobantes.queries.ts',
    fn: 'claimDue',
    table: 'comprobantes',
    reason: 'The background pass claims the due comprobantes of every business (the update pairs business_id, id).',
  },
  {
    file: 'modules/facturacion/ventas.queries.ts',
    fn: 'markedSales',
    table: 'sales',
    reason: 'The reconcile sweep reads the marked sales of every business (the later statements pair business_id, id).',
  },
  {
    file: 'modules/mercadopago/mercadopago.queries.ts',
    fn: 'ordenByMpId',
    table: 'mercadopago_ordenes',
    reason:
      "MP's notifications name an order by MP's id, before its business is known (through todosLosNegocios); the business's webhook secret then checks the signature (decision 0052).",
  },
  {
    file: 'modules/sales/record-sale.queries.ts',
    fn: 'expiredKeysSql',
    table: 'sale_idempotency_keys',
    reason:
      'Expired idempotency keys are cleared now and then, instead of a scheduler (row-level security keeps it to the selling business).',
  },
];

const matches = (f: Finding, e: { file: string; fn: string; table: string }) =>
  f.file === e.file && f.fn === e.fn && f.table === e.table;

describe('statements on tenant tables', () => {
  it('every statement on a tenant table under apps/api/src names its business_id', () => {
    const { findings, files } = checkTree(src);
    expect(files).toBeGreaterThan(100);
    const listed = ALLOWED;
    const unexpected = findings
      .filter((f) => !listed.some((e) => matches(f, e)))
      .map((f) => `${f.file}:${f.line} ${f.fn} [${f.kind} ${f.table}] ${f.text}`);
    expect(unexpected).toEqual([]);
    const stale = listed.filter((e) => !findings.some((f) => matches(f, e)));
    expect(stale).toEqual([]);
  });
});

/**
 * The modules whose statements on tenant tables all live in their `*.queries.ts` (decision 0044):
 * their other files (services, routes, helpers) name no tenant table, and every function a
 * queries file exports takes the business id first. The list grows until it holds every module.
 */
const CONVERTED = [
  'settings',
  'services',
  'categories',
  'suppliers',
  'members',
  'tasks',
  'customers',
  'products',
  'finance',
  'dashboard',
  'devoluciones',
  'subscriptions',
  'notifications',
  'businesses',
  'caja',
  'plan',
  'pos',
  'invitations',
  'audit',
  'precios',
  'imports',
  'purchases',
  'autorizacion',
  'facturacion',
  'impresion',
  'etiquetas',
  'sales',
  'mercadopago',
  'presupuestos',
  'remitos',
  'cheques',
  'depositos',
];

/** Exported queries that go across businesses, with their reason (the ALLOWED list's statements). */
const NOT_BUSINESS_FIRST: { file: string; fn: string; reason: string }[] = [
  {
    file: 'modules/mercadopago/mercadopago.queries.ts',
    fn: 'ordenByMpId',
    reason: "A notification's order, found by MP's id before its business is known (through todosLosNegocios).",
  },
  {
    file: 'modules/mercadopago/mercadopago.queries.ts',
    fn: 'ordenesPorVerificar',
    reason: 'The polling pass: the pending orders of every business (through todosLosNegocios).',
  },
  {
    file: 'modules/invitations/invitations.queries.ts',
    fn: 'invitationByToken',
    reason: 'An invitation is found by its secret token before its business is known (through todosLosNegocios).',
  },
  {
    file: 'modules/businesses/businesses.queries.ts',
    fn: 'userBusinessRows',
    reason: "The businesses of a user, before one is chosen (through todosLosNegocios, 'los negocios de un usuario').",
  },
  {
    file: 'modules/businesses/businesses.queries.ts',
    fn: 'accountRows',
    reason: "The account's diagnosis: the user's memberships in every business (through todosLosNegocios).",
  },
  {
    file: 'modules/facturacion/facturacion.queries.ts',
    fn: 'caeaBusinesses',
    reason:
      "The CAEA sweep's businesses, before any is chosen (through todosLosNegocios, 'facturación: los negocios con contingencia CAEA').",
  },
  {
    file: 'modules/facturacion/comprobantes.queries.ts',
    fn: 'waitingForArca',
    reason:
      "The businesses whose comprobantes wait for WSFE, to wake them when it answers (through todosLosNegocios, 'facturación: los comprobantes que esperan a ARCA').",
  },
  {
    file: 'modules/facturacion/comprobantes.queries.ts',
    fn: 'claimDue',
    reason:
      "The background pass claims the due comprobantes of every business (through todosLosNegocios, 'facturación: los comprobantes pendientes de todos los negocios').",
  },
  {
    file: 'modules/facturacion/ventas.queries.ts',
    fn: 'markedSales',
    reason:
      "The reconcile sweep's marked sales of every business (through todosLosNegocios, 'facturación: las ventas por conciliar de todos los negocios').",
  },
  {
    file: 'modules/facturacion/ventas.queries.ts',
    fn: 'clearSettledMarks',
    reason:
      'The same sweep clears, in one statement, the marks of those sales already settled, by (business_id, id) pairs of several businesses (same todosLosNegocios path).',
  },
  {
    file: 'modules/sales/record-sale.queries.ts',
    fn: 'expiredKeysSql',
    reason:
      "record-sale's now-and-then clearing of expired idempotency keys (the ALLOWED statement): row-level security keeps it to the selling business.",
  },
];

/** Data-access files of a converted module that keep another name, each with its reason. */
const DATA_FILES: { file: string; reason: string }[] = [
  {
    file: 'modules/notifications/sales-data.ts',
    reason:
      'The sales history of the sales-drop alert; notifications.test.ts replaces this file by name and records its arguments after the executor.',
  },
  {
    file: 'modules/caja/cuenta.ts',
    reason:
      "What a customer owes, as SQL fragments correlated with an outer customers row (its business_id); record-sale's pipelined statement and caja's queries embed them.",
  },
];

describe('the data layer of each converted module', () => {
  const tables = readTables(src);
  const sources = (m: string) =>
    readdirSync(`${src}modules/${m}`)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => ({ file: `modules/${m}/${f}`, text: readFileSync(`${src}modules/${m}/${f}`, 'utf8') }));

  it('keeps statements on tenant tables out of services, routes and helpers', () => {
    const found = CONVERTED.flatMap(sources)
      .filter((s) => !s.file.endsWith('.queries.ts') && !DATA_FILES.some((d) => d.file === s.file))
      .flatMap((s) => tenantUses(s.file, s.text, tables))
      .map((f) => `${f.file}:${f.line} ${f.fn} [${f.table}] ${f.text}`);
    expect(found).toEqual([]);
  });

  it('has each module query take the business id first', () => {
    const queries = CONVERTED.flatMap(sources).filter((s) => s.file.endsWith('.queries.ts'));
    expect(queries.length).toBeGreaterThanOrEqual(CONVERTED.length);
    const found = queries
      .flatMap((s) => exportsWithoutBusinessFirst(s.file, s.text))
      .filter((f) => !NOT_BUSINESS_FIRST.some((e) => e.file === f.file && e.fn === f.fn))
      .map((f) => `${f.file}:${f.line} ${f.fn}`);
    expect(found).toEqual([]);
    const stale = NOT_BUSINESS_FIRST.filter(
      (e) => !queries.some((s) => exportsWithoutBusinessFirst(s.file, s.text).some((f) => f.fn === e.fn)),
    );
    expect(stale).toEqual([]);
  });

  it('the uses check finds drizzle statements, predicates and SQL text on tenant tables, not types', () => {
    const code = `import { eq, sql } from 'drizzle-orm';
import { customers, users } from '../../db/schema/index.js';
type Row = typeof customers.$inferSelect;
export async function f(db, businessId, id) {
  await db.select().from(users).where(eq(users.id, id));
  const cond = eq(customers.id, id);
  await db.execute(sql\`UPDATE services SET activo = false WHERE business_id = \${businessId}\`);
  await db.execute(sql\`SELECT 1 FROM users u JOIN sales s ON s.vendedor_id = u.id\`);
  await db.query('INSERT INTO audit_log (business_id) VALUES ($1)', [businessId]);
  return { customers: 1, nombre: 'Elegí from the list' };
}`;
    expect(tenantUses('x.ts', code, tables).map((f) => `${f.line} ${f.table}`)).toEqual([
      '6 customers',
      '7 services',
      '8 sales',
      '9 audit_log',
    ]);
  });

  it('the business-first check reads exported functions and arrows only', () => {
    const code = `export async function a(businessId: string, ex) {}
export async function b(ex, businessId: string) {}
export const c = (businessId: string) => 1;
export const d = async (id: string) => 1;
function e(ex) {}
export const COLS = { id: 1 };`;
    expect(exportsWithoutBusinessFirst('x.ts', code).map((f) => `${f.line} ${f.fn}`)).toEqual(['2 b', '4 d']);
  });
});

describe('the tenant tables', () => {
  it('are the schema tables with a business_id column', () => {
    const tables = readTables(src);
    const tenant = [...tables.values()].filter((t) => t.tenant).map((t) => t.sql);
    expect(tenant).toEqual(
      expect.arrayContaining([
        'customers',
        'services',
        'finance_movements',
        'finance_accounts',
        'finance_categories',
        'payment_methods',
        'purchases',
        'purchase_items',
        'business_members',
        // Its business_id comes from a helper of the schema file (`businessId: business()`).
        'totales_ventas_dia',
      ]),
    );
    const other = [...tables.values()].filter((t) => !t.tenant).map((t) => t.sql);
    expect(other).toEqual(expect.arrayContaining(['users', 'businesses', 'sessions', 'auth_tokens']));
    expect(tables.get('customers')?.columns.get('businessId')).toBe('business_id');
  });
});

describe('the checker', () => {
  const tables = readTables(src);
  const header = `import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { businesses, customers, saleItems, sales, services, products, users } from '../../db/schema/index.js';
`;
  /** The findings of a snippet, as `line kind table` (line 1 is the snippet's first line). */
  const check = (code: string) =>
    checkSource('snippet.ts', header + code, tables).map((f) => `${f.line - 3} ${f.kind} ${f.table}`);

  it('flags an update, a delete and a select by id alone', () => {
    expect(
      check(`async function f(tx, businessId, id) {
  await tx.update(services).set({ activo: false }).where(eq(services.id, id));
  await tx.delete(customers).where(eq(customers.id, id));
  await tx.select().from(products).where(eq(products.id, id));
  await tx.select().from(products);
}`),
    ).toEqual(['2 update services', '3 delete customers', '4 select products', '5 select products']);
  });

  it('passes the same statements with business_id', () => {
    expect(
      check(`async function f(tx, businessId, id) {
  await tx.update(services).set({ activo: false }).where(and(eq(services.businessId, businessId), eq(services.id, id)));
  await tx.delete(customers).where(and(eq(customers.id, id), eq(customers.businessId, businessId)));
  await tx.select().from(products).where(sql\`\${products.businessId} = \${businessId} AND \${products.id} = \${id}\`);
  await tx.select().from(products).where(sql\`business_id = \${businessId}\`);
  await tx.update(users).set({ nombre: 'x' }).where(eq(users.id, id));
  await tx.insert(services).values({ businessId, nombre: 'x' });
}`),
    ).toEqual([]);
  });

  it('follows a condition kept in a const, an array with pushes, or a helper', () => {
    expect(
      check(`const scoped = (b, id) => and(eq(services.businessId, b), eq(services.id, id));
async function f(tx, businessId, id, q) {
  const where = [eq(products.activo, true)];
  if (q) where.push(eq(products.businessId, businessId));
  await tx.select().from(products).where(and(...where));
  const cond = and(eq(customers.businessId, businessId), eq(customers.id, id));
  await tx.delete(customers).where(cond);
  await tx.update(services).set({}).where(scoped(businessId, id));
  const byId = eq(customers.id, id);
  await tx.delete(customers).where(byId);
}`),
    ).toEqual(['10 delete customers']);
  });

  it('follows a builder a function returns to where it is used; the last where counts', () => {
    expect(
      check(`function base(ex, businessId) {
  return ex.select().from(services).where(eq(services.businessId, businessId)).$dynamic();
}
function bare(ex) {
  return ex.select().from(products);
}
async function f(db, businessId, id) {
  await base(db, businessId).orderBy(services.nombre);
  await base(db, businessId).where(eq(services.id, id));
  await bare(db).where(and(eq(products.businessId, businessId), eq(products.id, id)));
}`),
    ).toEqual(['2 select services']);
  });

  it('flags a join to a tenant table on its id alone, passes one on the pair with business_id', () => {
    expect(
      check(`const other = alias(products, 'otro');
async function f(db, businessId) {
  await db.select().from(sales).innerJoin(customers, eq(customers.id, sales.clienteId))
    .where(eq(sales.businessId, businessId));
  await db.select().from(sales)
    .leftJoin(customers, and(eq(customers.businessId, sales.businessId), eq(customers.id, sales.clienteId)))
    .where(eq(sales.businessId, businessId));
  await db.select().from(saleItems)
    .innerJoin(sales, and(eq(sales.businessId, saleItems.businessId), eq(sales.id, saleItems.ventaId)))
    .where(eq(sales.businessId, businessId));
  await db.select().from(products).innerJoin(other, eq(other.id, products.id)).where(eq(products.businessId, businessId));
  await db.select().from(users).innerJoin(customers, eq(customers.email, users.email));
  await db.select().from(customers).innerJoin(businesses, eq(businesses.id, customers.businessId)).where(eq(customers.id, 'x'));
}`),
    ).toEqual(['3 join customers', '11 join otro', '12 join customers', '13 select customers']);
  });

  it('flags an upsert whose conflict target leaves business_id out', () => {
    expect(
      check(`async function f(tx, businessId, v) {
  await tx.insert(services).values(v).onConflictDoUpdate({ target: services.id, set: { nombre: v.nombre } });
  await tx.insert(services).values(v).onConflictDoUpdate({ target: [services.businessId, services.id], set: v });
}`),
    ).toEqual(['2 insert services']);
  });

  it('flags SQL text on a tenant table without business_id: templates and plain strings', () => {
    expect(
      check(`async function f(tx, businessId, id) {
  await tx.execute(sql\`UPDATE services SET activo = false WHERE id = \${id}\`);
  await tx.execute(sql\`DELETE FROM \${customers} WHERE \${customers.id} = \${id}\`);
  await pool.query('SELECT nombre FROM products p WHERE p.id = $1', [id]);
  await tx.execute(sql\`SELECT s.id FROM sales s JOIN customers c ON c.id = s.cliente_id WHERE s.business_id = \${businessId}\`);
  await tx.execute(sql\`SELECT id FROM sales WHERE business_id = \${businessId}
    AND id IN (SELECT venta_id FROM sale_items WHERE producto_id = \${id})\`);
  await pool.query('SELECT business_id FROM business_members WHERE user_id = $1', [id]);
}`),
    ).toEqual([
      '2 sql services',
      '3 sql customers',
      '4 sql products',
      '5 sql customers',
      '6 sql sale_items',
      '8 sql business_members',
    ]);
  });

  it('passes SQL text that names each table’s business_id', () => {
    expect(
      check(`async function f(tx, businessId, id) {
  await tx.execute(sql\`UPDATE services SET activo = false WHERE business_id = \${businessId} AND id = \${id}\`);
  await tx.execute(sql\`DELETE FROM \${customers} WHERE \${customers.businessId} = \${businessId} AND \${customers.id} = \${id}\`);
  await tx.execute(sql\`SELECT s.id FROM sales s JOIN customers c ON c.business_id = s.business_id AND c.id = s.cliente_id
    WHERE s.business_id = \${businessId}\`);
  const cond = sql\`p.business_id = \${businessId}\`;
  await tx.execute(sql\`SELECT p.id FROM products p WHERE \${cond} AND p.id = \${id}\`);
  await pool.query('UPDATE users SET nombre = $1 WHERE id = $2', ['x', id]);
  await pool.query('SELECT 1');
  const message = 'Elegí un producto from the list';
}`),
    ).toEqual([]);
  });
});
