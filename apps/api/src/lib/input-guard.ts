import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, invalid } from './errors.js';

/*
 * Text PostgreSQL cannot store is refused before any route sees it: a NUL character (text and
 * jsonb reject it) and a lone UTF-16 surrogate (it would be stored as "�", or break a jsonb
 * value). Path parameters, the query string and JSON bodies are checked, keys included, so a new
 * route is covered without doing anything.
 */

export const MSG_BAD_TEXT = 'El texto contiene caracteres no válidos.';

/** NUL, or a surrogate that is not half of a pair (with the u flag a pair is one code point). */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const BAD_TEXT = /\u0000|\p{Cs}/u;

/** The dotted path of the first bad string or key inside `value`, or null. */
export function findBadText(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return BAD_TEXT.test(value) ? path : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (BAD_TEXT.test(k)) return path;
    const found = findBadText(v, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

function check(value: unknown) {
  const field = findBadText(value);
  if (field !== null) throw invalid(field.replace(BAD_TEXT, '?'), MSG_BAD_TEXT);
}

/** A path that is not a valid URL component, or with a parameter over 255 characters, names nothing (§1.2). */
export const notFoundPath = () => new AppError(404, 'NOT_FOUND', 'Recurso no encontrado.');

/** Fastify's own errors before routing (bad percent-encoding, a too long parameter). */
export function frameworkErrors(_error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const e = notFoundPath();
  return reply.status(e.status).header('X-Request-Id', req.id).send({ detail: e.detail, code: e.code });
}

/** A file name's limit: no route, page or file of the web app answers to a longer path segment. */
const MAX_SEGMENT_BYTES = 255;

/** True when a segment of the URL's path is longer than MAX_SEGMENT_BYTES once decoded. */
export function hasLongSegment(url: string): boolean {
  const q = url.indexOf('?');
  for (const seg of (q === -1 ? url : url.slice(0, q)).split('/')) {
    // Percent-encoding only lengthens: a short segment is short decoded too.
    if (seg.length <= MAX_SEGMENT_BYTES) continue;
    let bytes = seg.length;
    try {
      bytes = Buffer.byteLength(decodeURIComponent(seg));
    } catch {
      // Not valid percent-encoding: its raw length stands.
    }
    if (bytes > MAX_SEGMENT_BYTES) return true;
  }
  return false;
}

/** Must be installed before the access plugin, so that malformed input is refused before any lookup. */
export function installInputGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (req) => {
    // Before anything looks it up (the web app's files would ask the file system): 404.
    if (hasLongSegment(req.url)) throw notFoundPath();
    check(req.params);
    check(req.query);
  });
  app.addHook('preValidation', async (req) => {
    check(req.body);
  });
}
