import type { StockMovement, StockUser } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { listStockMovementRows } from './products.queries.js';

export { userName } from './products.queries.js';

export function toUser(id: string | null, nombre: string | null): StockUser | null {
  return id ? { id, nombre: nombre ?? '' } : null;
}

/** A product's stock history, newest first. */
export async function listStockMovements(
  ex: Executor,
  businessId: string,
  productId: string,
  page: { limit: number; offset: number },
) {
  const { rows, total } = await listStockMovementRows(businessId, productId, page, ex);
  return {
    total,
    rows: rows.map(({ m, usuarioNombre }): StockMovement => ({
      id: m.id,
      fecha: m.fecha.toISOString(),
      cantidad: Number(m.cantidad),
      stock_resultante: Number(m.stockResultante),
      origen: m.origen,
      referencia_id: m.referenciaId,
      motivo: m.motivo,
      usuario: toUser(m.usuarioId, usuarioNombre),
    })),
  };
}
