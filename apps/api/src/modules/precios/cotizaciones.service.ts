import { eq, sql } from 'drizzle-orm';
import {
  arsDeUsd,
  centsToNumber,
  COTIZACION_MESSAGES,
  type Cotizacion,
  type CotizacionOutput,
  type CotizacionResult,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { invalid } from '../../lib/errors.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { toCents } from '../products/common.js';
import { toUser, userName } from '../products/stock.service.js';
import {
  cotizacionRows,
  insertCotizacion,
  latestCotizacion,
  redondeoPrecios,
  usdChanges,
  writeUsdPrices,
  type CotizacionRow,
} from './cotizaciones.queries.js';

/*
 * The dollar's cotización (issue 17, decision 0017). A product priced in USD keeps precio_usd;
 * its precio_venta is always the ARS price at the cotización in force, so a sale, a list, the
 * POS and the exports read one price. A new cotización (never dated in the future) recomputes
 * those prices in one statement, with their history (origen `cotizacion`).
 */

const PREVIEW_MAX = 500;

/** Ten-thousandths of a numeric(14,4). */
const toTenThousandths = (v: string) => {
  const [i, f = ''] = v.split('.');
  return Number(i) * 10_000 + Number(f.padEnd(4, '0').slice(0, 4));
};
const valorDecimal = (n: number) => `${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, '0')}`;

/** The cotización in force (the latest by date, then by entry) and the business's rounding. */
export async function cotizacionVigente(ex: Executor, businessId: string) {
  const c = await latestCotizacion(businessId, ex);
  const redondeo = await redondeoPrecios(businessId, ex);
  return { vigente: c ? { ...c, valor: toTenThousandths(c.valor) } : null, redondeo: redondeo ?? 1 };
}

/** The ARS price (pesos) of a USD price (pesos) now; 422 without a cotización. */
export async function precioVentaDeUsd(ex: Executor, businessId: string, precioUsd: number | null): Promise<number> {
  if (precioUsd === null) throw invalid('precio_usd', COTIZACION_MESSAGES.usdRequired);
  const { vigente, redondeo } = await cotizacionVigente(ex, businessId);
  if (!vigente) throw invalid('moneda', COTIZACION_MESSAGES.required);
  return centsToNumber(arsDeUsd(Math.round(precioUsd * 100), vigente.valor, redondeo));
}

export async function listCotizaciones(ex: Executor, businessId: string, page: { limit: number; offset: number }) {
  const { rows, total } = await cotizacionRows(businessId, page, ex);
  return { total, rows: rows.map(({ c, usuarioNombre }) => toCotizacion(c, usuarioNombre)) };
}

function toCotizacion(c: CotizacionRow, usuarioNombre: string | null): Cotizacion {
  return {
    id: c.id,
    fecha: c.fecha,
    valor: Number(c.valor),
    productos_actualizados: c.productosActualizados,
    usuario: toUser(c.usuarioId, usuarioNombre),
    creado_en: c.creadoEn.toISOString(),
  };
}

/**
 * POST …/cotizaciones: with `preview`, what the new cotización would change (nothing written);
 * otherwise it is kept and, when it is the one in force, every USD product's price follows it in
 * the same transaction. A cotización dated before the one in force is kept as history only.
 */
export async function createCotizacion(
  db: Db,
  businessId: string,
  userId: string,
  input: CotizacionOutput,
  today: string,
  preview: boolean,
): Promise<CotizacionResult> {
  if (input.fecha > today) throw invalid('fecha', COTIZACION_MESSAGES.future);
  return db.transaction(async (tx) => {
    // One cotización at a time per business: two would race on the same products.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('cotizaciones'), hashtext(${businessId}))`);
    const { vigente, redondeo } = await cotizacionVigente(tx, businessId);
    const applies = !vigente || input.fecha >= vigente.fecha;
    const unit = redondeo;
    const exact = sql`(precio_usd * ${valorDecimal(input.valor)}::numeric)`;
    const rounded = sql`CASE WHEN round(${exact} / ${unit}) = 0 AND ${exact} > 0 THEN round(${exact}, 2)
                             ELSE round(${exact} / ${unit}) * ${unit} END`;
    const summary = async () => {
      const { rows, n, diferencia } = await usdChanges(businessId, rounded, PREVIEW_MAX, tx);
      return {
        productos_afectados: n,
        diferencia_total: diferencia === null ? 0 : centsToNumber(toCents(diferencia)),
        cambios: rows.map((r) => ({
          id: r.id,
          nombre: r.nombre,
          precio_usd: Number(r.precio_usd),
          precio_anterior: Number(r.anterior),
          precio_nuevo: Number(r.nuevo),
        })),
      };
    };
    const anterior = vigente ? vigente.valor / 10_000 : null;
    if (preview) {
      const s = applies ? await summary() : { productos_afectados: 0, diferencia_total: 0, cambios: [] };
      return { preview: true, cotizacion: null, anterior, ...s };
    }
    const s = applies ? await summary() : { productos_afectados: 0, diferencia_total: 0, cambios: [] };
    const row = await insertCotizacion(
      businessId,
      {
        fecha: input.fecha,
        valor: valorDecimal(input.valor),
        usuarioId: userId,
        productosActualizados: s.productos_afectados,
      },
      tx,
    );
    if (applies && s.productos_afectados > 0) {
      await precioOrigen(tx, { origen: 'cotizacion', userId, referenciaId: row.id });
      await writeUsdPrices(businessId, rounded, tx);
    }
    await audit(tx, {
      businessId,
      userId,
      entidad: 'cotizacion',
      entidadId: row.id,
      accion: 'crear',
      despues: {
        fecha: input.fecha,
        valor: input.valor / 10_000,
        anterior,
        productos_actualizados: s.productos_afectados,
        diferencia_total: s.diferencia_total,
      },
    });
    const [u] = await tx.select({ nombre: userName }).from(users).where(eq(users.id, userId));
    return { preview: false, cotizacion: toCotizacion(row, u?.nombre ?? null), anterior, ...s };
  });
}
