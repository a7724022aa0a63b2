import type { FastifyRequest } from 'fastify';
import { SALE_MESSAGES } from '@mostrador/shared';
import { invalid } from './errors.js';

/** A PUT without any recognised field → 422 (API-CONTRACT §1.1). */
export function requireSomeField(body: Record<string, unknown>): void {
  if (!Object.values(body).some((v) => v !== undefined)) {
    throw invalid('', 'No hay datos para actualizar.');
  }
}

export const clientIp = (req: FastifyRequest): string => req.ip;

const KEY_RE = /^[\x20-\x7e]{1,255}$/;

/** The optional Idempotency-Key header (record-sale, devoluciones): 1–255 printable characters. */
export function idempotencyKey(req: FastifyRequest): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!KEY_RE.test(key)) throw invalid('Idempotency-Key', SALE_MESSAGES.badIdempotencyKey);
  return key;
}
