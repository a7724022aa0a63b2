import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { cotizaciones, tenantSettings, users } from '../../db/schema/index.js';
import { userName } from '../products/stock.service.js';

/*
 * The dollar cotizaciones' statements (decision 0044): every function takes the business first.
 */

export type CotizacionRow = typeof cotizaciones.$inferSelect;

/** The latest cotización by date, then by entry. */
export async function latestCotizacion(businessId: string, ex: Executor) {
  const [c] = await ex
    .select({ id: cotizaciones.id, fecha: cotizaciones.fecha, valor: cotizaciones.valor })
    .from(cotizaciones)
    .where(eq(cotizaciones.businessId, businessId))
    .orderBy(desc(cotizaciones.fecha), desc(cotizaciones.creadoEn))
    .limit(1);
  return c as { id: string; fecha: string; valor: string } | undefined;
}

/** How the business rounds prices in pesos (1, 10 or 100), if set. */
export async function redondeoPrecios(businessId: string, ex: Executor) {
  const [s] = await ex
    .select({ redondeo: tenantSettings.redondeoPrecios })
    .from(tenantSettings)
    .where(eq(tenantSettings.businessId, businessId));
  return s?.redondeo;
}

/** A page of cotizaciones, newest first, and the count. */
export async function cotizacionRows(businessId: string, page: { limit: number; offset: number }, ex: Executor) {
  const where = eq(cotizaciones.businessId, businessId);
  const [rows, [{ total }]] = await Promise.all([
    ex
      .select({ c: cotizaciones, usuarioNombre: userName })
      .from(cotizaciones)
      .leftJoin(users, eq(users.id, cotizaciones.usuarioId))
      .where(where)
      .orderBy(desc(cotizaciones.fecha), desc(cotizaciones.creadoEn))
      .limit(page.limit)
      .offset(page.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(cotizaciones)
      .where(where),
  ]);
  return { rows, total };
}

/** The USD products whose price in pesos changes at the rounded price `nuevo` (an expression on precio_usd). */
const changedUsd = (businessId: string, nuevo: SQL) =>
  sql`(SELECT id, nombre, precio_usd, precio_venta AS anterior, ${nuevo} AS nuevo
         FROM products WHERE business_id = ${businessId} AND moneda = 'USD') c WHERE nuevo <> anterior`;

/** The first changes by name and, together, how many and the sum of new − old prices. */
export async function usdChanges(businessId: string, nuevo: SQL, max: number, ex: Executor) {
  const changed = changedUsd(businessId, nuevo);
  const [{ rows }, { rows: agg }] = await Promise.all([
    ex.execute<{ id: string; nombre: string; precio_usd: string; anterior: string; nuevo: string }>(
      sql`SELECT * FROM ${changed} ORDER BY nombre COLLATE "es-AR-x-icu", id LIMIT ${max}`,
    ),
    ex.execute<{ n: number; diferencia: string | null }>(
      sql`SELECT count(*)::int AS n, sum(nuevo - anterior)::text AS diferencia FROM ${changed}`,
    ),
  ]);
  return { rows, n: agg[0].n, diferencia: agg[0].diferencia };
}

/** Every USD product whose price changes takes its new price. */
export function writeUsdPrices(businessId: string, nuevo: SQL, ex: Executor) {
  return ex.execute(sql`
        UPDATE products p SET precio_venta = c.nuevo, actualizado_en = now()
          FROM (SELECT * FROM ${changedUsd(businessId, nuevo)}) c WHERE p.business_id = ${businessId} AND p.id = c.id`);
}

export async function insertCotizacion(
  businessId: string,
  values: Omit<typeof cotizaciones.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [row] = await ex
    .insert(cotizaciones)
    .values({ businessId, ...values })
    .returning();
  return row;
}
