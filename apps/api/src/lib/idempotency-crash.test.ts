import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_MESSAGES } from '@mostrador/shared';
import { buildApp, type App } from '../app.js';
import { connect, type Database } from '../db/client.js';
import * as schema from '../db/schema/index.js';
import { createTestApp } from '../test/app.js';
import { createBusiness, registerUser } from '../test/fixtures.js';
import { LEASE_MS } from './idempotency.js';

/**
 * Issue 31, point 6: a cobro whose process died (kill -9) while it held its Idempotency-Key.
 * The dying instance is another app on the same database whose connection fails where the
 * process would have died: its key is left as a dead process leaves it, and the retry goes to a
 * healthy instance through HTTP.
 */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Cobradora');
const biz = await createBusiness(app, owner, 'Almacén Cobros');
const base = `/api/v1/businesses/${biz}`;
const inject = (a: App, method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  a.inject({
    method,
    url,
    headers: { ...owner.auth, ...(key ? { 'idempotency-key': key } : {}) },
    ...(payload ? { payload } : {}),
  });

const arroz = (
  await inject(app, 'POST', `${base}/products`, { nombre: 'Arroz', precio_venta: 1000, stock_actual: 500 })
).json();
const medios = (await inject(app, 'GET', `${base}/medios-pago`)).json() as { id: string; tipo: string }[];
const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
const juan = (await inject(app, 'POST', `${base}/clientes`, { nombre: 'Juan', limite_credito: 100000 })).json();
// Juan owes 50.000: enough for every cobro below.
const fiado = await inject(app, 'POST', '/api/v1/ventas/record-sale', {
  negocio_id: biz,
  cliente_id: juan.id,
  items: [{ id: arroz.id, cantidad: 50 }],
  pagos: [{ medio_pago_id: medio('cuenta_corriente'), monto: 50000 }],
});
expect(fiado.statusCode, fiado.body).toBe(201);

const cobro = { monto: 1000, medio_pago_id: medio('efectivo') };
const cobrar = (a: App, key: string) => inject(a, 'POST', `${base}/clientes/${juan.id}/cobros`, cobro, key);
const cobros = async () =>
  (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM cobros WHERE business_id = $1', [biz]))[0].n;
const keyRow = async (clave: string) =>
  (
    await ctx.sql<{ status: number; token: string | null; proceso: string | null; vigente: boolean }>(
      `SELECT status, token, proceso, vence_en > now() AS vigente FROM idempotency_keys
        WHERE business_id = $1 AND user_id = $2 AND clave = $3`,
      [biz, owner.id, clave],
    )
  )[0];

const lost = () => new Error('Connection terminated unexpectedly');

interface Faults {
  /** Before a transaction gets its connection (rejecting: the process died before it). */
  beforeTransaction?: () => Promise<void>;
  /** Statements of the pool (the key's own, outside the transaction) that never reach the database. */
  dropped?: RegExp;
}

/** Another instance on the same database, whose database connection fails as `faults` say. */
async function dyingInstance(faults: Faults): Promise<App> {
  const real = connect(ctx.appUrl, 3);
  const pool = new Proxy(real.pool, {
    get(target, prop) {
      if (prop === 'query') {
        return (text: unknown, values?: unknown[]) =>
          typeof text === 'string' && faults.dropped?.test(text)
            ? Promise.reject(lost())
            : target.query(text as string, values);
      }
      if (prop === 'connect') {
        return async () => {
          await faults.beforeTransaction?.();
          return target.connect();
        };
      }
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as pg.Pool;
  const database: Database = { db: drizzle(pool, { schema }), pool, close: () => real.close() };
  const dying = await buildApp({
    database,
    jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
    publicUrl: 'http://localhost:3000',
    checkResponses: true,
  });
  await dying.ready();
  afterAll(async () => {
    await dying.close();
    await database.close();
  });
  return dying;
}

describe('an Idempotency-Key whose request died with its process', () => {
  it('runs the cobro once when the dead request had not committed it', async () => {
    const dead = await dyingInstance({
      beforeTransaction: () => Promise.reject(lost()),
      dropped: /^DELETE FROM idempotency_keys/,
    });
    const key = randomUUID();
    const before = await cobros();
    const died = await cobrar(dead, key);
    expect(died.statusCode).toBe(503);
    // Left claimed ("running") by an instance that is gone, as a kill -9 leaves it.
    expect(await keyRow(key)).toMatchObject({ status: 0, vigente: true });
    expect((await keyRow(key)).proceso).toMatch(/:\d+:/);
    expect(await cobros()).toBe(before);

    // The client retries at once: the retry waits for the lease to run out and does the work.
    const started = Date.now();
    const retry = await cobrar(app, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(LEASE_MS + 2_000);
    expect(await cobros()).toBe(before + 1);
    // And from then on the key answers that cobro.
    const again = await cobrar(app, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(retry.json());
    expect(await cobros()).toBe(before + 1);
  }, 30_000);

  it('answers the committed cobro when the dead request had committed it but not stored its answer', async () => {
    const dead = await dyingInstance({ dropped: /^UPDATE idempotency_keys SET status = \$5/ });
    const key = randomUUID();
    const before = await cobros();
    const died = await cobrar(dead, key);
    // The cobro committed; the process died before storing the answer (the client may never have
    // seen it).
    expect(died.statusCode, died.body).toBe(201);
    expect(await cobros()).toBe(before + 1);
    expect((await keyRow(key)).status).toBe(1);

    const retry = await cobrar(app, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(died.json());
    expect(await cobros()).toBe(before + 1);
    // The same body under another key is a new cobro; the same key with another body is refused.
    const mismatch = await inject(app, 'POST', `${base}/clientes/${juan.id}/cobros`, { ...cobro, monto: 2000 }, key);
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().detail).toBe(IDEMPOTENCY_MESSAGES.mismatch);
    expect(await cobros()).toBe(before + 1);
  }, 30_000);

  it('a request that outlived its lease cannot commit: the retry that took its key over does the work', async () => {
    let resume!: () => void;
    const stuck = new Promise<void>((r) => (resume = r));
    let waiting!: () => void;
    const reached = new Promise<void>((r) => (waiting = r));
    // Its process stops answering (its lease is not renewed) just before its transaction.
    const slow = await dyingInstance({
      beforeTransaction: () => {
        waiting();
        return stuck;
      },
      dropped: /SET vence_en = now\(\) \+/,
    });
    const key = randomUUID();
    const before = await cobros();
    const first = cobrar(slow, key);
    await reached;
    const retry = await cobrar(app, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await cobros()).toBe(before + 1);

    // The first one wakes up and runs its transaction: the key is no longer its own, nothing stays.
    resume();
    const late = await first;
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    expect(await cobros()).toBe(before + 1);
    const again = await cobrar(app, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(retry.json());
  }, 30_000);
});
