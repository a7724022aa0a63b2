import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app.js';
import { access } from '../lib/access.js';
import { createTestApp } from '../test/app.js';
import { withDatabase } from '../test/databases.js';
import { createBusiness, registerUser } from '../test/fixtures.js';
import { connect, DEFAULT_TIMEOUTS, startupOptions } from './client.js';

const ctx = await createTestApp();
// Startup options reach the server only on a direct connection (a pooler drops them): the app role, direct.
const url = withDatabase(inject('pg').directAppUrl, new URL(ctx.appUrl).pathname.slice(1));
// The same database, with a short lock wait: a request stuck behind a lock gives up after 300 ms.
const timed = connect(url, 3, { statementMs: 4_000, lockMs: 300, idleInTransactionMs: 2_000 });
const app = await buildApp({
  database: timed,
  jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
  publicUrl: 'http://localhost:3000',
});
await app.ready();
afterAll(async () => {
  await app.close();
  await timed.close();
});

describe('session timeouts', () => {
  it('are sent in the startup packet, so every connection of the pool has them from its first query', async () => {
    expect(startupOptions(DEFAULT_TIMEOUTS)).toBe(
      '-c statement_timeout=30000 -c lock_timeout=5000 -c idle_in_transaction_session_timeout=60000',
    );
    const { rows } = await timed.pool.query<{ s: string; l: string; i: string }>(
      `SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l,
              current_setting('idle_in_transaction_session_timeout') AS i`,
    );
    expect(rows[0]).toEqual({ s: '4s', l: '300ms', i: '2s' });
  });

  it('fail a request stuck behind a row lock with a Spanish 503 instead of hanging, and change nothing', async () => {
    const owner = await registerUser(app, 'Bloqueo');
    const biz = await createBusiness(app, owner);
    const created = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/categories`,
      headers: owner.auth,
      payload: { nombre: 'Bebidas' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const cid = created.json().id as string;

    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      // The app role sees the business's rows only in its context (row-level security).
      await holder.query(`SELECT set_config('app.business_id', $1, true)`, [biz]);
      const locked = await holder.query('SELECT id FROM product_categories WHERE id = $1 FOR UPDATE', [cid]);
      expect(locked.rowCount).toBe(1);
      const res = await app.inject({
        method: 'PUT',
        url: `/api/v1/businesses/${biz}/categories/${cid}`,
        headers: owner.auth,
        payload: { nombre: 'Gaseosas' },
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({
        detail: 'Otra operación está usando estos datos y no terminó a tiempo. Probá de nuevo en unos segundos.',
        code: 'UNAVAILABLE',
      });
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const [row] = await ctx.sql<{ nombre: string }>('SELECT nombre FROM product_categories WHERE id = $1', [cid]);
    expect(row.nombre).toBe('Bebidas');
    // Once the lock is gone the same request goes through.
    const again = await app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${biz}/categories/${cid}`,
      headers: owner.auth,
      payload: { nombre: 'Gaseosas' },
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('cancel a statement that runs past statement_timeout with its own Spanish 503', async () => {
    const quick = connect(url, 1, { statementMs: 200, lockMs: 200, idleInTransactionMs: 1_000 });
    const slowApp = await buildApp({
      database: quick,
      jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
      publicUrl: 'http://localhost:3000',
    });
    const response = { 200: z.object({ ok: z.boolean() }) };
    slowApp.get('/api/v1/lento', { config: { access: access.public }, schema: { response } }, async () => {
      await quick.pool.query('SELECT pg_sleep(5)');
      return { ok: true };
    });
    await slowApp.ready();
    try {
      const res = await slowApp.inject({ method: 'GET', url: '/api/v1/lento' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        detail: 'La operación tardó demasiado y se canceló. Probá de nuevo en unos segundos.',
        code: 'UNAVAILABLE',
      });
    } finally {
      await slowApp.close();
      await quick.close();
    }
  });
});
