import type { MargenOrigen } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { toCents } from '../products/common.js';
import { applicableReglaRows } from './margenes.queries.js';

/*
 * Which stored margin rule prices a product whose cost changed (decision 0024): the product's,
 * then its category's, then the supplier's; then the margin typed for a list; then none (the
 * product keeps its current margin). Shared by the supplier-list import and purchase receptions.
 */

export type MargenReglas = Awaited<ReturnType<typeof loadRules>>;

/** The stored margin rules that may apply (hundredths of %): per product, per category, the supplier's. */
export async function loadRules(ex: Executor, businessId: string, productIds: string[], proveedorId: string | null) {
  const rows = await applicableReglaRows(businessId, productIds, proveedorId, ex);
  const producto = new Map<string, number>();
  const categoria = new Map<string, number>();
  let proveedor: number | null = null;
  for (const r of rows) {
    const m = toCents(r.margen);
    if (r.producto_id) producto.set(r.producto_id, m);
    else if (r.categoria_id) categoria.set(r.categoria_id, m);
    else proveedor = m;
  }
  return { producto, categoria, proveedor };
}

/** The most specific stored rule: the product's, its category's, the supplier's; then the list's margin. */
export function marginRule(
  rules: MargenReglas,
  p: { id: string; categoria_id: string | null },
  margenLista: number | null,
): { regla: MargenOrigen; margen: number | null } {
  const own = rules.producto.get(p.id);
  if (own !== undefined) return { regla: 'producto', margen: own };
  const cat = p.categoria_id ? rules.categoria.get(p.categoria_id) : undefined;
  if (cat !== undefined) return { regla: 'categoria', margen: cat };
  if (rules.proveedor !== null) return { regla: 'proveedor', margen: rules.proveedor };
  if (margenLista !== null) return { regla: 'lista', margen: margenLista };
  return { regla: 'actual', margen: null };
}
