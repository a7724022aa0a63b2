import { and, desc, eq, sql } from 'drizzle-orm';
import type { StockMovement, StockUser } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { stockMovements, users } from '../../db/schema/index.js';

/** "Ana Pérez" of a user, for stock movements. */
export const userName = sql<string | null>`nullif(concat_ws(' ', ${users.nombre}, ${users.apellido}), '')`;

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
  const where = and(eq(stockMovements.businessId, businessId), eq(stockMovements.productoId, productId));
  const [rows, [{ total }]] = await Promise.all([
    ex
      .select({ m: stockMovements, usuarioNombre: userName })
      .from(stockMovements)
      .leftJoin(users, eq(users.id, stockMovements.usuarioId))
      .where(where)
      .orderBy(desc(stockMovements.fecha), desc(stockMovements.id))
      .limit(page.limit)
      .offset(page.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(stockMovements)
      .where(where),
  ]);
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
