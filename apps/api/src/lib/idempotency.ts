import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_MESSAGES, IDEMPOTENCY_TTL_MS } from '@mostrador/shared';
import { todosLosNegocios } from '../db/tenant.js';
import { AppError } from './errors.js';
import { idempotencyKey } from './http.js';

/**
 * Every POST of a business honours `Idempotency-Key` (docs/decisions/0018-idempotent-creates.md):
 * the first request claims the key (status 0) before its handler runs, and its 2xx answer is kept;
 * a retry with the same key and body gets that answer again (`Idempotent-Replayed: true`) instead
 * of a second row, a retry with another body gets 422, and a retry while the first one is still
 * running waits for its answer. A failed request (4xx/5xx) frees its key, so it can be retried.
 * Routes that keep their own keys inside their transaction (record-sale, devoluciones) say
 * `ownIdempotency`; multipart uploads are left out (their body is read by the handler).
 *
 * A claim survives the death of its process (decision 0033): it carries a token, the instance
 * that holds it and a lease (`vence_en`) the instance renews while the request runs. The
 * request's transaction marks the key as done (status 1, with the transaction's result) before
 * it commits, and only while the claim is still its own (the token). A retry that finds a claim
 * whose lease ran out takes it over and runs the work when nothing was committed, or gets the
 * committed result.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route stores Idempotency-Key itself, in the same transaction as its writes. */
    ownIdempotency?: boolean;
  }
  interface FastifyRequest {
    idempotency: Claim | null;
  }
}

interface Claim {
  businessId: string;
  userId: string;
  clave: string;
  /** This claim's own: a claim taken over by a retry is no longer this request's to complete. */
  token: string;
  answer?: string | null;
}

/**
 * A claim nobody renews for this long belongs to a request that died with its process (or lost
 * its database for that long): a retry may take it over. Renewed every HEARTBEAT_MS.
 */
export const LEASE_MS = 8_000;
const HEARTBEAT_MS = 2_000;
/** How long a retry waits for the first request with its key to finish (longer than a lease). */
const WAIT_MS = 10_000;
const POLL_MS = 100;

/** Status of a key whose request's transaction committed; `respuesta` holds its result. */
const COMMITTED = 1;

/** This process, as it signs its claims (the host, the pid and when it started). */
const PROCESO = `${hostname()}:${process.pid}:${new Date(Date.now() - process.uptime() * 1000).toISOString()}`;

interface KeyRow {
  ruta: string;
  hash: string;
  status: number;
  respuesta: string | null;
  vencida: boolean;
}

/** The request a transaction runs for, when it holds an Idempotency-Key claim. */
const claimant = new AsyncLocalStorage<FastifyRequest>();

/**
 * Runs `fn` apart from the request it was started by: work left running after the answer (a
 * comprobante's attempt) is not the request's, and its transactions do not complete its key.
 */
export const apartFromRequest = <T>(fn: () => T): T => claimant.exit(fn);

/** The status a route answers a create with (201 when it documents it). */
function successStatus(req: FastifyRequest): number {
  const documented = Object.keys((req.routeOptions.schema?.response as object | undefined) ?? {})
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number);
  return documented.includes(201) ? 201 : (documented.sort()[0] ?? 200);
}

/** The JSON of a transaction's result (null when it has none, or none JSON can hold). */
function jsonOf(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

const hashOf = (req: FastifyRequest) =>
  createHash('sha256')
    .update(JSON.stringify({ ruta: req.routeOptions.url, params: req.params ?? null, body: req.body ?? null }))
    .digest('base64url');

function applies(req: FastifyRequest): boolean {
  if (req.method !== 'POST' || !req.business || !req.auth) return false;
  if (req.routeOptions.config?.ownIdempotency) return false;
  const type = req.headers['content-type'];
  return type === undefined || type.startsWith('application/json');
}

export const idempotencyPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('idempotency', null);
  const query = <R extends object = Record<string, unknown>>(text: string, values: unknown[]) =>
    app.db.pool.query<R>(text, values);

  /** The claims of this instance's requests in flight, whose leases it renews. */
  const running = new Set<Claim>();
  const lease = `${LEASE_MS} milliseconds`;
  const heartbeat = setInterval(() => {
    if (!running.size) return;
    const claims = [...running];
    // A lease already run out is not renewed: a retry may have taken the key over. The claims in
    // flight may be of several businesses: one statement renews them all.
    todosLosNegocios('renovación de los leases de las claves de idempotencia en curso', () =>
      query(
        `UPDATE idempotency_keys k SET vence_en = now() + $5::interval
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[]) AS c(business_id, user_id, clave, token)
        WHERE k.business_id = c.business_id AND k.user_id = c.user_id AND k.clave = c.clave
          AND k.token = c.token AND k.vence_en > now()`,
        [
          claims.map((c) => c.businessId),
          claims.map((c) => c.userId),
          claims.map((c) => c.clave),
          claims.map((c) => c.token),
          lease,
        ],
      ),
    ).catch((e: unknown) => app.log.warn({ err: e }, 'idempotencia: no se renovaron las claves en curso'));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  // The request's transaction marks its key done before it commits, with its result: if the
  // process dies before the answer is stored, a retry knows the work committed and what it gave.
  const db = app.db.db;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn, config) => {
    const k = claimant.getStore()?.idempotency;
    if (!k) return transaction(fn, config);
    return transaction(async (tx) => {
      const result = await fn(tx);
      const marked = await tx.execute(
        sql`UPDATE idempotency_keys SET status = ${COMMITTED}, respuesta = ${jsonOf(result)}
             WHERE business_id = ${k.businessId} AND user_id = ${k.userId} AND clave = ${k.clave}
               AND token = ${k.token}`,
      );
      // A retry took the key over (this request outlived its lease): it does the work, not this one.
      if (!marked.rowCount) throw new AppError(409, 'IDEMPOTENCY_IN_PROGRESS', IDEMPOTENCY_MESSAGES.inProgress);
      return result;
    }, config);
  }) as typeof db.transaction;

  /** Claims the key (true), or answers the retry from the first request's kept answer. */
  async function claim(req: FastifyRequest, reply: FastifyReply, clave: string): Promise<boolean> {
    const businessId = req.business!.id;
    const userId = req.auth!.id;
    const ruta = `${req.method} ${req.routeOptions.url}`;
    const hash = hashOf(req);
    const token = randomUUID();
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const now = app.services.now();
      const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
      // A new key, one whose answer is older than the TTL, or the same request's whose process
      // died before its transaction committed (its lease ran out) is this request's.
      const claimed = await query(
        `INSERT INTO idempotency_keys (business_id, user_id, clave, ruta, hash, status, respuesta, creado_en, token, proceso, vence_en)
         VALUES ($1, $2, $3, $4, $5, 0, NULL, $6, $8, $9, now() + $10::interval)
         ON CONFLICT (business_id, user_id, clave) DO UPDATE
           SET ruta = EXCLUDED.ruta, hash = EXCLUDED.hash, status = 0, respuesta = NULL, creado_en = EXCLUDED.creado_en,
               token = EXCLUDED.token, proceso = EXCLUDED.proceso, vence_en = EXCLUDED.vence_en
           WHERE (idempotency_keys.status NOT IN (0, ${COMMITTED}) AND idempotency_keys.creado_en < $7)
              OR (idempotency_keys.status = 0 AND idempotency_keys.vence_en IS NULL AND idempotency_keys.creado_en < $7)
              OR (idempotency_keys.status = 0 AND idempotency_keys.vence_en < now()
                  AND idempotency_keys.ruta = EXCLUDED.ruta AND idempotency_keys.hash = EXCLUDED.hash)
         RETURNING clave`,
        [businessId, userId, clave, ruta, hash, now, expired, token, PROCESO, lease],
      );
      if (claimed.rowCount) {
        req.idempotency = { businessId, userId, clave, token };
        running.add(req.idempotency);
        if (Math.random() < 0.01) {
          // Expired keys of every business, also those that no longer post anything.
          await todosLosNegocios('limpieza de claves de idempotencia vencidas', () =>
            query(`DELETE FROM idempotency_keys WHERE creado_en < $1`, [expired]),
          ).catch(() => undefined);
        }
        return true;
      }
      const { rows } = await query<KeyRow>(
        `SELECT ruta, hash, status, respuesta, coalesce(vence_en < now(), false) AS vencida FROM idempotency_keys
          WHERE business_id = $1 AND user_id = $2 AND clave = $3`,
        [businessId, userId, clave],
      );
      const prev = rows[0];
      if (!prev) continue; // the first request failed and freed the key: claim it now
      if (prev.hash !== hash || prev.ruta !== ruta) {
        throw new AppError(422, 'IDEMPOTENCY_MISMATCH', IDEMPOTENCY_MESSAGES.mismatch, {
          errors: [{ field: 'Idempotency-Key', message: IDEMPOTENCY_MESSAGES.mismatch }],
        });
      }
      if (prev.status === COMMITTED && prev.vencida) {
        // Its transaction committed and its process died before storing the answer: the result
        // of the transaction, as the route answers it.
        reply.code(successStatus(req)).header('Idempotent-Replayed', 'true');
        await reply.send(prev.respuesta === null ? undefined : JSON.parse(prev.respuesta));
        return false;
      }
      if (prev.status !== 0 && prev.status !== COMMITTED) {
        reply.code(prev.status).header('Idempotent-Replayed', 'true');
        if (prev.respuesta === null) await reply.send();
        else await reply.type('application/json; charset=utf-8').send(prev.respuesta);
        return false;
      }
      if (Date.now() >= deadline) {
        throw new AppError(409, 'IDEMPOTENCY_IN_PROGRESS', IDEMPOTENCY_MESSAGES.inProgress);
      }
      await sleep(POLL_MS);
    }
  }

  // Callback style: the rest of the request (its handler, its transactions) runs inside
  // `claimant.run`, so a transaction knows the claim it completes.
  app.addHook('preHandler', (req, reply, done) => {
    let clave: string | null;
    try {
      clave = applies(req) ? idempotencyKey(req) : null;
    } catch (e) {
      return done(e as Error);
    }
    if (clave === null) return done();
    claim(req, reply, clave).then(
      (mine) => {
        if (mine) claimant.run(req, () => done());
      },
      (e: Error) => done(e),
    );
  });

  // The answer as the client gets it (after the response schema), kept before it is compressed.
  app.addHook('preSerialization', async (req, reply, payload) => {
    if (req.idempotency && reply.statusCode >= 200 && reply.statusCode < 300) {
      req.idempotency.answer = JSON.stringify(payload);
    }
    return payload;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const k = req.idempotency;
    if (!k) return payload;
    req.idempotency = null;
    running.delete(k);
    const ok = reply.statusCode >= 200 && reply.statusCode < 300;
    const where = [k.businessId, k.userId, k.clave, k.token];
    try {
      if (ok) {
        const answer = k.answer ?? (typeof payload === 'string' && payload !== '' ? payload : null);
        await query(
          `UPDATE idempotency_keys SET status = $5, respuesta = $6
            WHERE business_id = $1 AND user_id = $2 AND clave = $3 AND token = $4`,
          [...where, reply.statusCode, answer],
        );
      } else {
        // Nothing was committed: the same key may be tried again. A request that failed after its
        // transaction committed keeps the key, and a retry gets that transaction's result now.
        const freed = await query(
          `DELETE FROM idempotency_keys WHERE business_id = $1 AND user_id = $2 AND clave = $3 AND token = $4 AND status = 0`,
          where,
        );
        if (!freed.rowCount) {
          await query(
            `UPDATE idempotency_keys SET vence_en = now()
              WHERE business_id = $1 AND user_id = $2 AND clave = $3 AND token = $4 AND status = ${COMMITTED}`,
            where,
          );
        }
      }
    } catch (e) {
      // The database went away: the answer goes out anyway, and the key's lease runs out (a retry
      // gets the committed result, or runs the work when nothing was committed).
      req.log.warn({ err: e }, 'idempotencia: no se guardó la respuesta');
    }
    return payload;
  });
});
