import type { FastifyInstance } from 'fastify';
import { paymentMethodLabel } from '@mostrador/shared';

/**
 * Every answer that carries a `metodo_pago` code (movements, sales, purchases, accounts, reports)
 * carries its label beside it as `metodo_pago_label` ("Tarjeta de Débito"), the text the
 * existing client's forms offer, so a record read back can be saved again as it is.
 *
 * Copy on write (issue 20): only the objects that get a label, and those that hold them, are
 * copied; everything else is returned as it came, so a big answer without medios costs one walk.
 */
export function withPaymentLabels(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = withPaymentLabels(value[i]);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | null = null;
  // Keys, not entries: one array per object instead of one more per field (GC under load, issue 20).
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = obj[k];
    const labelled = withPaymentLabels(v);
    const label = k === 'metodo_pago' && (typeof v === 'string' || v === null);
    if (!out && (labelled !== v || label)) {
      // From here on the object is rebuilt, keeping its keys' order.
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = obj[keys[j]];
    }
    if (!out) continue;
    out[k] = labelled;
    if (label) out.metodo_pago_label = v === null ? null : paymentMethodLabel(v);
  }
  return out ?? value;
}

export function installPaymentLabels(app: FastifyInstance) {
  app.addHook('preSerialization', async (_req, _reply, payload: unknown) => withPaymentLabels(payload));
}
