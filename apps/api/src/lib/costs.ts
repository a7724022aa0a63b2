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
  'costo_anterior',
  'costo_nuevo',
  'ganancia',
  'ganancias_netas',
  'estimated_profit',
  // A margin over the cost gives the cost away with the price (supplier price lists).
  'margen',
  // A purchase's supplier invoice (decision 0021): its net amounts are the shop's costs.
  'factura',
]);

export function withoutCosts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCosts);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!COST_FIELDS.has(k)) out[k] = withoutCosts(v);
  return out;
}

/**
 * Answers leave costs out for a member without ver_costos, and what such a member sends keeps the
 * costs as they are: a form that never showed the cost cannot erase it.
 */
export function installCostVisibility(app: FastifyInstance) {
  app.addHook('preHandler', async (req) => {
    const body = req.body;
    if (!req.business || canSeeCosts(req.business) || !body || typeof body !== 'object' || Array.isArray(body)) return;
    for (const k of Object.keys(body)) if (COST_FIELDS.has(k)) delete (body as Record<string, unknown>)[k];
  });
  app.addHook('preSerialization', async (req, _reply, payload: unknown) =>
    req.business && !canSeeCosts(req.business) ? withoutCosts(payload) : payload,
  );
}
