import type { FastifyInstance } from 'fastify';
import { paymentMethodLabel } from '@mostrador/shared';

/**
 * Every answer that carries a `metodo_pago` code (movements, sales, purchases, accounts, reports)
 * carries its label beside it as `metodo_pago_label` ("Tarjeta de Débito"), the text the
 * existing client's forms offer, so a record read back can be saved again as it is.
 */
export function withPaymentLabels(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withPaymentLabels);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = withPaymentLabels(v);
    if (k === 'metodo_pago' && (typeof v === 'string' || v === null))
      out.metodo_pago_label = v === null ? null : paymentMethodLabel(v);
  }
  return out;
}

export function installPaymentLabels(app: FastifyInstance) {
  app.addHook('preSerialization', async (_req, _reply, payload: unknown) => withPaymentLabels(payload));
}
