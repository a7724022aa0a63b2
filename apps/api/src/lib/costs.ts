import type { FastifyInstance } from 'fastify';
import { canSeeCosts } from './access.js';

/**
 * What the business pays and earns: costs, purchase prices, margins and estimated profit. Answers
 * to a member without ver_costos leave these fields out wherever they appear (products, services,
 * sales and their lines, purchases, reports, dashboard), so no route can forget to.
 */
export const COST_FIELDS = new Set([
  'precio_compra',
  'precio_compra_anterior',
  'costo',
  'costo_unitario',
  'costo_total',
  'costo_estimado',
  'ganancia',
  'ganancias_netas',
  'estimated_profit',
]);

export function withoutCosts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCosts);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!COST_FIELDS.has(k)) out[k] = withoutCosts(v);
  return out;
}

export function installCostVisibility(app: FastifyInstance) {
  app.addHook('preSerialization', async (req, _reply, payload: unknown) =>
    req.business && !canSeeCosts(req.business) ? withoutCosts(payload) : payload,
  );
}
