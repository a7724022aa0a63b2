import type { FastifyRequest } from 'fastify';
import { invalid } from './errors.js';

/** A PUT without any recognised field → 422 (API-CONTRACT §1.1). */
export function requireSomeField(body: Record<string, unknown>): void {
  if (!Object.values(body).some((v) => v !== undefined)) {
    throw invalid('', 'No hay datos para actualizar.');
  }
}

export const clientIp = (req: FastifyRequest): string => req.ip;
