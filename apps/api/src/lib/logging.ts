import type { FastifyInstance } from 'fastify';

/*
 * What the logs may hold. A failed query is logged as its statement and PostgreSQL error code,
 * never its parameters: they carry password hashes, e-mail addresses and every other value a
 * user typed (and PostgreSQL's own message and detail can quote them, so they stay out too).
 * Refused requests (401, 403, 429) are logged with request id, user, business, route and reason.
 */

interface PgFields {
  code?: string;
  severity?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
}

const PG_FIELDS: (keyof PgFields)[] = ['code', 'severity', 'constraint', 'table', 'column', 'routine'];

const isPgError = (e: unknown): e is Error & PgFields =>
  e instanceof Error && typeof (e as PgFields).severity === 'string' && typeof (e as PgFields).code === 'string';

/** The stack frames without the message line(s), which may quote values. */
const framesOf = (e: Error) => (e.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** Pino's `err` serializer, with database errors reduced to statement and code. */
export function serializeError(err: Error): SerializedError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  // The error itself and its causes (drizzle wraps pg's error; a wrapper may wrap drizzle's).
  const chain: unknown[] = [];
  for (let e: unknown = err; e instanceof Error && chain.length < 4; e = (e as { cause?: unknown }).cause)
    chain.push(e);
  const query = chain.map((e) => (e as { query?: unknown }).query).find((q) => typeof q === 'string');
  const pg = chain.find(isPgError) ?? null;
  if (pg === null && typeof query !== 'string') {
    return { type: err.constructor.name, message: err.message, stack: err.stack ?? '', code: (err as PgFields).code };
  }
  const out: SerializedError = {
    type: err.constructor.name,
    message: 'La consulta a la base de datos falló.',
    stack: [`${err.constructor.name}: consulta fallida`, ...framesOf(err)].join('\n'),
  };
  if (typeof query === 'string') out.query = query;
  if (pg) for (const k of PG_FIELDS) if (pg[k] !== undefined) out[k] = pg[k];
  return out;
}

export const loggerSerializers = { err: serializeError, error: serializeError };

/**
 * Fields that never reach a log line, wherever they appear (one or two levels deep): the private
 * keys of ARCA certificates, as typed and as stored, and WSAA credentials (decision 0013), and
 * Mercado Pago's credentials (decision 0052).
 */
const SECRET_FIELDS = [
  'clave_privada_pem',
  'claveCifrada',
  'clave_cifrada',
  'keyPem',
  'token',
  'sign',
  // Mercado Pago (decision 0052): the access token and webhook secret, as typed and as stored.
  'access_token',
  'webhook_secret',
  'token_cifrado',
  'webhook_secret_cifrado',
];
export const loggerRedact = {
  paths: SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
  censor: '[oculto]',
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Why the request was refused, set by the error handler (code and message). */
    refusal: { code: string; message?: string } | null;
  }
}

const REFUSED = new Set([401, 403, 429]);

export function installRefusalLog(app: FastifyInstance) {
  app.decorateRequest('refusal', null);
  app.addHook('onResponse', async (req, reply) => {
    if (!REFUSED.has(reply.statusCode)) return;
    // The request's logger already carries its id (reqId).
    req.log.warn(
      {
        userId: req.auth?.id ?? null,
        business_id: req.business?.id ?? req.requestedBusiness ?? null,
        method: req.method,
        route: req.routeOptions.url ?? null,
        status: reply.statusCode,
        reason: req.refusal?.code ?? null,
        message: req.refusal?.message,
      },
      'solicitud rechazada',
    );
  });
}
