import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import { createTestApp, siblingApp } from '../../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { SALES_IN_FLIGHT } from './in-flight.js';

// Two instances on one database, as two servers behind a load balancer; each pool has room for
// its SALES_IN_FLIGHT sales and the session checks (production pools have 20 connections).
const ctx = await createTestApp();
const a = await siblingApp(ctx, {}, SALES_IN_FLIGHT + 2);
const b = await siblingApp(ctx, {}, SALES_IN_FLIGHT + 2);

let owner: TestUser;
let biz: string;

beforeAll(async () => {
  owner = await registerUser(a, 'Dos');
  biz = await createBusiness(a, owner, 'Almacén Dos Servidores');
});

async function product(stock: number): Promise<string> {
  const res = await a.inject({
    method: 'POST',
    url: `/api/v1/businesses/${biz}/products`,
    headers: owner.auth,
    payload: { nombre: `Producto ${randomUUID().slice(0, 8)}`, precio_venta: 100, stock_actual: stock },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const sell = (app: App, id: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/ventas/record-sale',
    headers: { ...owner.auth, ...headers },
    payload: { metodo_pago: 'efectivo', items: [{ id, tipo: 'producto', cantidad: 1 }] },
  });

const stockOf = async (id: string) =>
  Number((await ctx.sql<{ s: string }>('SELECT stock_actual AS s FROM products WHERE id = $1', [id]))[0].s);

/** The other sessions on this database waiting for a lock, by what they wait for. */
async function waiting() {
  const rows = await ctx.sql<{ advisory: boolean }>(
    `SELECT wait_event = 'advisory' AS advisory FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
  );
  return { all: rows.length, onRows: rows.filter((r) => !r.advisory).length };
}

describe('sales on two instances of one database', () => {
  it(`at most ${SALES_IN_FLIGHT} sales of a business are inside PostgreSQL at once, counting both`, async () => {
    const id = await product(100);
    // A transaction holds the product, so the sales that get in queue on its row.
    const holder = new pg.Client({ connectionString: ctx.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM products WHERE id = $1 FOR UPDATE', [id]);
    // More than SALES_IN_FLIGHT per instance, so that some wait in each process.
    const count = 3 * SALES_IN_FLIGHT;
    const sales = Array.from({ length: count }, (_, i) => sell(i % 2 ? a : b, id));
    try {
      // Each instance lets its first SALES_IN_FLIGHT sales through to PostgreSQL (the others wait in
      // the process, without a connection): wait until all of those are blocked on a lock.
      const until = Date.now() + 15_000;
      let now = await waiting();
      while (now.all < 2 * SALES_IN_FLIGHT && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
        now = await waiting();
      }
      expect(now.all).toBe(2 * SALES_IN_FLIGHT);
      // Only SALES_IN_FLIGHT of them reached the product; the rest wait for a slot.
      expect(now.onRows).toBe(SALES_IN_FLIGHT);
      await holder.query('ROLLBACK');
      const results = await Promise.all(sales);
      expect(results.map((r) => r.statusCode)).toEqual(Array(count).fill(201));
    } finally {
      await holder.end();
      await Promise.allSettled(sales);
    }
    expect(await stockOf(id)).toBe(100 - count);
    // Nothing stays locked after the transactions (in this database: other test files run beside).
    expect(
      await ctx.sql(
        `SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      ),
    ).toEqual([]);
  });

  it('sales sent to both at once have gapless numbers and exact stock', async () => {
    const id = await product(1000);
    const before = await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [biz]);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => sell(i % 2 ? a : b, id)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
    const rows = await ctx.sql<{ numero: number }>('SELECT numero FROM sales WHERE business_id = $1 ORDER BY numero', [
      biz,
    ]);
    expect(rows.map((r) => r.numero)).toEqual(rows.map((_, i) => i + 1));
    expect(rows).toHaveLength(before[0].n + 30);
    expect(await stockOf(id)).toBe(970);
  });

  it('one Idempotency-Key sent to both at once records one sale', async () => {
    const id = await product(50);
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => sell(i % 2 ? a : b, id, { 'idempotency-key': key })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect(await stockOf(id)).toBe(49);
  });
});
