import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { CHEQUE_MESSAGES, type FieldError } from '@mostrador/shared';
import { isConnectionError } from '../db/client.js';
import { attemptOf, recordAttempt } from './audit.js';
import { AppError } from './errors.js';

export const DB_UNAVAILABLE = 'No hay conexión con la base de datos. Probá de nuevo en unos segundos.';

function fieldOf(instancePath: string | undefined, params: unknown): string {
  const fromPath = (instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const issuePath = (params as { issue?: { path?: (string | number)[] } })?.issue?.path;
  if (issuePath && issuePath.length) return issuePath.join('.');
  return fromPath;
}

export const MSG_DUPLICATE = 'Ya existe un registro con esos datos. Revisalos e intentá nuevamente.';

/**
 * Unique indexes whose violation is the only check (no module reads before writing): their own
 * message. A cheque comes in through sales, cobros, conversions and by hand (migration 0071).
 */
const UNIQUE_MESSAGES: Record<string, string> = { cheques_unico: CHEQUE_MESSAGES.duplicado };

/** One error shape everywhere: {detail, code} (+ errors on 422). A 500 never leaks internals. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(async (error: FastifyError | AppError, req, reply) => {
    if (error instanceof AppError) {
      req.refusal = { code: error.code, message: typeof error.detail === 'string' ? error.detail : undefined };
      const attempt = attemptOf(error);
      if (attempt && req.business && req.auth) {
        // The refused operation rolled back; the owner still sees who tried what (lib/audit.ts).
        await recordAttempt(app.db.db, req.business.id, req.auth.id, attempt).catch((err: unknown) => {
          req.log.error({ err }, 'no se pudo registrar el intento rechazado');
        });
      }
      reply.headers(error.headers);
      return reply.status(error.status).send({ detail: error.detail, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldError[] = error.validation.map((v) => ({
        field: fieldOf(v.instancePath, v.params),
        message: v.message ?? 'Valor no válido.',
      }));
      return reply
        .status(422)
        .send({ detail: errors[0]?.message ?? 'Datos no válidos.', code: 'VALIDATION_ERROR', errors });
    }
    const code = (error as FastifyError).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_REQ_FILE_TOO_LARGE' || error.statusCode === 413) {
      return reply
        .status(413)
        .send({ detail: 'La solicitud supera el tamaño máximo permitido.', code: 'PAYLOAD_TOO_LARGE' });
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415) {
      return reply.status(415).send({ detail: 'Tipo de contenido no soportado.', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    if (
      error.statusCode === 400 ||
      code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      code === 'FST_ERR_CTP_INVALID_JSON_BODY'
    ) {
      const detail = 'El cuerpo de la solicitud no es válido.';
      return reply.status(422).send({ detail, code: 'VALIDATION_ERROR', errors: [{ field: '', message: detail }] });
    }
    if (error.statusCode === 429) {
      req.refusal = { code: 'RATE_LIMITED' };
      return reply
        .status(429)
        .send({ detail: 'Demasiados intentos. Intentá de nuevo en unos minutos.', code: 'RATE_LIMITED' });
    }
    const pgCode = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? code;
    // lock_timeout (55P03) and statement_timeout (57014): the request waited its bounded time.
    if (pgCode === '55P03' || pgCode === '57014') {
      req.log.warn({ pgCode, route: req.routeOptions.url }, 'consulta cancelada por tiempo de espera');
      return reply
        .status(503)
        .header('Retry-After', '5')
        .send({
          detail:
            pgCode === '55P03'
              ? 'Otra operación está usando estos datos y no terminó a tiempo. Probá de nuevo en unos segundos.'
              : 'La operación tardó demasiado y se canceló. Probá de nuevo en unos segundos.',
          code: 'UNAVAILABLE',
        });
    }
    // Data exceptions (class 22: a value PostgreSQL cannot take, such as an out-of-range date or
    // text it cannot encode) are the request's fault, and the transaction rolled back.
    if (typeof pgCode === 'string' && /^22[0-9A-Z]{3}$/.test(pgCode)) {
      req.log.warn({ pgCode, route: req.routeOptions.url }, 'dato rechazado por la base de datos');
      const detail = 'Algún dato de la solicitud no es válido. Revisalo e intentá nuevamente.';
      return reply.status(422).send({ detail, code: 'VALIDATION_ERROR', errors: [{ field: '', message: detail }] });
    }
    // A unique key that a request lost a race on, past the module's own check (which answers
    // with its own message): the same answer as the check's, a 409.
    if (pgCode === '23505') {
      req.log.warn({ route: req.routeOptions.url }, 'clave única repetida');
      const constraint = ((error as { cause?: { constraint?: string } }).cause ?? (error as { constraint?: string }))
        .constraint;
      return reply
        .status(409)
        .send({ detail: (constraint && UNIQUE_MESSAGES[constraint]) || MSG_DUPLICATE, code: 'DUPLICATE' });
    }
    // The database went away (killed, stopped, restarting, sessions terminated) or cannot be
    // reached: the request fails fast and may be tried again once it is back (decision 0033).
    if (isConnectionError(error)) {
      req.log.warn({ err: error, route: req.routeOptions.url }, 'sin conexión con la base de datos');
      return reply.status(503).header('Retry-After', '5').send({ detail: DB_UNAVAILABLE, code: 'UNAVAILABLE' });
    }
    req.log.error({ err: error }, 'error inesperado');
    return reply
      .status(500)
      .send({ detail: 'Ocurrió un error inesperado. Intentá nuevamente.', code: 'INTERNAL', request_id: req.id });
  });
}
