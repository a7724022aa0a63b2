import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route stores Idempotency-Key itself, in the same transaction as its writes. */
    ownIdempotency?: boolean;
  }
  interface FastifyRequest {
    idempotency: { businessId: string; userId: string; clave: string; answer?: string | null } | null;
  }
}

/** How long a retry waits for the first request with its key to finish. */
const WAIT_MS = 10_000;
const POLL_MS = 100;

interface KeyRow {
  ruta: string;
  hash: string;
  status: number;
  respuesta: string | null;
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

  /** Claims the key (true), or answers the retry from the first request's kept answer. */
  async function claim(req: FastifyRequest, reply: FastifyReply, clave: string): Promise<boolean> {
    const businessId = req.business!.id;
    const userId = req.auth!.id;
    const ruta = `${req.method} ${req.routeOptions.url}`;
    const hash = hashOf(req);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const now = app.services.now();
      const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
      // A new key, or one whose answer is older than the TTL, is this request's.
      const claimed = await query(
        `INSERT INTO idempotency_keys (business_id, user_id, clave, ruta, hash, status, respuesta, creado_en)
         VALUES ($1, $2, $3, $4, $5, 0, NULL, $6)
         ON CONFLICT (business_id, user_id, clave) DO UPDATE
           SET ruta = EXCLUDED.ruta, hash = EXCLUDED.hash, status = 0, respuesta = NULL, creado_en = EXCLUDED.creado_en
           WHERE idempotency_keys.status <> 0 AND idempotency_keys.creado_en < $7
         RETURNING clave`,
        [businessId, userId, clave, ruta, hash, now, expired],
      );
      if (claimed.rowCount) {
        req.idempotency = { businessId, userId, clave };
        if (Math.random() < 0.01) {
          // Expired keys of every business, also those that no longer post anything.
          await todosLosNegocios('limpieza de claves de idempotencia vencidas', () =>
            query(`DELETE FROM idempotency_keys WHERE creado_en < $1`, [expired]),
          ).catch(() => undefined);
        }
        return true;
      }
      const { rows } = await query<KeyRow>(
        `SELECT ruta, hash, status, respuesta FROM idempotency_keys
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
      if (prev.status !== 0) {
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

  app.addHook('preHandler', async (req, reply) => {
    if (!applies(req)) return;
    const clave = idempotencyKey(req);
    if (clave === null) return;
    if (!(await claim(req, reply, clave))) return reply;
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
    const ok = reply.statusCode >= 200 && reply.statusCode < 300;
    const where = [k.businessId, k.userId, k.clave];
    if (ok) {
      const answer = k.answer ?? (typeof payload === 'string' && payload !== '' ? payload : null);
      await query(
        `UPDATE idempotency_keys SET status = $4, respuesta = $5 WHERE business_id = $1 AND user_id = $2 AND clave = $3`,
        [...where, reply.statusCode, answer],
      );
    } else {
      // Nothing was created: the same key may be tried again.
      await query(`DELETE FROM idempotency_keys WHERE business_id = $1 AND user_id = $2 AND clave = $3`, where);
    }
    return payload;
  });
});
