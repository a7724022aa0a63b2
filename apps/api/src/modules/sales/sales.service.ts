import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  centsToNumber,
  DEVOLUCION_MESSAGES,
  SALE_MESSAGES,
  zonedToInstant,
  type MedioTipo,
  type PaymentMethod,
  type RecordSaleResult,
  type Sale,
  type SaleItem,
  type SalePayment,
  type SaleListQuery,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import {
  customers,
  devoluciones,
  financeMovements,
  saleItems,
  salePayments,
  sales,
  stockMovements,
  turnos,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { addDays } from '../../lib/dates.js';
import { conflict, notFound } from '../../lib/errors.js';
import { counterTurnoOf } from '../caja/rows.js';
import type { Reembolsador } from '../mercadopago/reembolsos.js';
import { toMilli } from '../products/common.js';
import { applyStockChange } from '../posting/stock.js';
import type { Autorizante } from '../autorizacion/autorizar.js';

/** Who records the sale, where, and when (the injected clock). */
export interface SaleContext {
  businessId: string;
  userId: string;
  timezone: string;
  now: Date;
  /**
   * May the seller change a line's price, and the largest discount in % otherwise (null: no
   * limit). Routes always say; internal callers (seed, void) sell unrestricted.
   */
  precios?: { cambiar: boolean; descuentoMaximo: number | null };
  /** May sell on account over a customer's credit limit (routes say; internal callers may). */
  excederCredito?: boolean;
  /** A member who authorized with their PIN what the seller alone may not do (decision 0049). */
  autorizador?: Autorizante;
}

export interface SaleResponse {
  /** 201: a new sale, or the same answer again for a repeated Idempotency-Key. */
  status: 201;
  body: RecordSaleResult;
  /** The sale is to be invoiced (decision 0013): the after-step creates its invoice. */
  facturar?: boolean;
}

const personName = (nombre: string | null, apellido: string | null) =>
  [nombre, apellido].filter((s) => s && s.trim()).join(' ') || null;

/** Instants of [desde 00:00, hasta+1 00:00) in the business time zone. */
export function dayRange(timezone: string, desde?: string, hasta?: string) {
  return {
    from: desde ? zonedToInstant(desde, timezone) : undefined,
    to: hasta ? zonedToInstant(addDays(hasta, 1), timezone) : undefined,
  };
}

/* ---------------------------------------------------------------- reading */

type SaleRow = typeof sales.$inferSelect;
type ItemRow = typeof saleItems.$inferSelect;

function toItem(r: ItemRow, devuelta: string, devuelto: string): SaleItem {
  return {
    id: r.id,
    tipo: r.tipo,
    producto_id: r.productoId,
    servicio_id: r.servicioId,
    nombre: r.nombre,
    cantidad: Number(r.cantidad),
    precio_unitario: Number(r.precioUnitario),
    descuento: Number(r.descuento),
    subtotal: Number(r.subtotal),
    costo_unitario: Number(r.costoUnitario),
    cantidad_devuelta: Number(devuelta),
    monto_devuelto: Number(devuelto),
  };
}

interface JoinedSale {
  s: SaleRow;
  clienteNombre: string | null;
  clienteApellido: string | null;
  vendedorNombre: string | null;
  autorizanteNombre: string | null;
  anuladorNombre: string | null;
}

function toSale(r: JoinedSale, items: SaleItem[], pagos: SalePayment[]): Sale {
  const { s } = r;
  const fecha = s.fecha.toISOString();
  const metodo = s.metodoPago as PaymentMethod;
  return {
    id: s.id,
    numero: s.numero ?? 0,
    fecha,
    fecha_venta: fecha,
    estado: s.estado,
    cliente_id: s.clienteId,
    cliente_nombre: s.clienteId ? personName(r.clienteNombre, r.clienteApellido) : null,
    metodo_pago: metodo,
    medio_pago: metodo,
    subtotal: Number(s.subtotal),
    descuento: Number(s.descuento),
    ajuste: Number(s.ajuste),
    total: Number(s.total),
    pagos,
    turno_id: s.turnoId,
    costo_estimado: Number(s.costoEstimado),
    observaciones: s.observaciones,
    vendedor: s.vendedorId ? { id: s.vendedorId, nombre: r.vendedorNombre ?? '' } : null,
    autorizado_por: s.autorizadoPor ? { id: s.autorizadoPor, nombre: r.autorizanteNombre ?? '' } : null,
    items,
    venta_detalle: items,
    anulada_en: s.anuladaEn ? s.anuladaEn.toISOString() : null,
    anulada_por: s.anuladaPor ? { id: s.anuladaPor, nombre: r.anuladorNombre ?? '' } : null,
    motivo_anulacion: s.motivoAnulacion,
    total_devuelto: centsToNumber(items.reduce((t, i) => t + Math.round(i.monto_devuelto * 100), 0)),
  };
}

const vendedor = sql<
  string | null
>`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${sales.vendedorId})`;
const autorizante = sql<
  string | null
>`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${sales.autorizadoPor})`;
const anulador = sql<
  string | null
>`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${sales.anuladaPor})`;

function selectSales(ex: Executor) {
  return ex
    .select({
      s: sales,
      clienteNombre: customers.nombre,
      clienteApellido: customers.apellido,
      vendedorNombre: vendedor,
      autorizanteNombre: autorizante,
      anuladorNombre: anulador,
    })
    .from(sales)
    .leftJoin(customers, and(eq(customers.businessId, sales.businessId), eq(customers.id, sales.clienteId)));
}

/** What the returns of a sale line took back: its quantity or its money. */
const returnedOf = (col: 'cantidad' | 'monto') =>
  sql<string>`(SELECT coalesce(sum(di.${sql.raw(col)}), 0)::text FROM devolucion_items di WHERE di.business_id = ${saleItems.businessId} AND di.venta_item_id = ${saleItems.id})`;

async function itemsOf(ex: Executor, businessId: string, saleIds: string[]): Promise<Map<string, SaleItem[]>> {
  const map = new Map<string, SaleItem[]>();
  if (!saleIds.length) return map;
  const rows = await ex
    .select({ r: saleItems, devuelta: returnedOf('cantidad'), devuelto: returnedOf('monto') })
    .from(saleItems)
    .where(and(eq(saleItems.businessId, businessId), inArray(saleItems.ventaId, saleIds)))
    .orderBy(asc(saleItems.ventaId), asc(saleItems.posicion));
  for (const { r, devuelta, devuelto } of rows) {
    const list = map.get(r.ventaId) ?? [];
    list.push(toItem(r, devuelta, devuelto));
    map.set(r.ventaId, list);
  }
  return map;
}

async function paymentsOf(ex: Executor, businessId: string, saleIds: string[]): Promise<Map<string, SalePayment[]>> {
  const map = new Map<string, SalePayment[]>();
  if (!saleIds.length) return map;
  const rows = await ex
    .select()
    .from(salePayments)
    .where(and(eq(salePayments.businessId, businessId), inArray(salePayments.ventaId, saleIds)))
    .orderBy(asc(salePayments.ventaId), asc(salePayments.posicion));
  for (const r of rows) {
    const list = map.get(r.ventaId) ?? [];
    list.push({
      medio_pago_id: r.medioPagoId,
      nombre: r.nombre,
      tipo: r.tipo as MedioTipo,
      metodo_pago: r.metodoPago as PaymentMethod,
      monto: Number(r.monto),
      ajuste: Number(r.ajuste),
      total: Number(r.total),
      recibido: r.recibido === null ? null : Number(r.recibido),
      vuelto: Number(r.vuelto),
      ...(r.mercadopagoOrdenId ? { mercadopago_orden_id: r.mercadopagoOrdenId } : {}),
    });
    map.set(r.ventaId, list);
  }
  return map;
}

export async function getSale(ex: Executor, businessId: string, id: string): Promise<Sale> {
  const [row] = await selectSales(ex).where(and(eq(sales.businessId, businessId), eq(sales.id, id)));
  if (!row) throw notFound(SALE_MESSAGES.notFound);
  const [items, pagos] = await Promise.all([itemsOf(ex, businessId, [id]), paymentsOf(ex, businessId, [id])]);
  return toSale(row, items.get(id) ?? [], pagos.get(id) ?? []);
}

/** Newest first unless `orden` asks for the number or the total (ties newest first). */
function orderOf(q: SaleListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const newest = [desc(sales.fecha), desc(sales.numero)];
  if (q.orden === 'total') return [dir(sales.total), ...newest];
  if (q.orden === 'fecha' || q.orden === 'numero') return [dir(sales.fecha), dir(sales.numero)];
  return newest;
}

/** Newest first (or by `orden`); `total_ventas` counts every sale matching the filters. */
export async function listSales(db: Db, businessId: string, timezone: string, q: SaleListQuery) {
  const where: SQL[] = [eq(sales.businessId, businessId)];
  const { from, to } = dayRange(timezone, q.fecha_desde, q.fecha_hasta);
  if (from) where.push(gte(sales.fecha, from));
  if (to) where.push(lt(sales.fecha, to));
  if (q.estado) where.push(eq(sales.estado, q.estado));
  if (q.cliente_id) where.push(eq(sales.clienteId, q.cliente_id));
  // A split sale matches each of its payments' methods.
  if (q.metodo_pago) {
    where.push(
      sql`EXISTS (SELECT 1 FROM sale_payments sp WHERE sp.business_id = ${sales.businessId} AND sp.venta_id = ${sales.id}
                   AND sp.metodo_pago = ${q.metodo_pago})`,
    );
  }
  const cond = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    selectSales(db)
      .where(cond)
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(sales)
      .where(cond),
  ]);
  const ids = rows.map((r) => r.s.id);
  const [items, pagos] = await Promise.all([itemsOf(db, businessId, ids), paymentsOf(db, businessId, ids)]);
  return {
    ventas: rows.map((r) => toSale(r, items.get(r.s.id) ?? [], pagos.get(r.s.id) ?? [])),
    total_ventas: total,
  };
}

/* ---------------------------------------------------------------- void (§14.3) */

/** The sale's turno when it is still open (null otherwise). */
async function openTurnoOf(ex: Executor, businessId: string, turnoId: string | null): Promise<string | null> {
  if (!turnoId) return null;
  const [t] = await ex
    .select({ estado: turnos.estado })
    .from(turnos)
    .where(and(eq(turnos.businessId, businessId), eq(turnos.id, turnoId)));
  return t?.estado === 'abierto' ? turnoId : null;
}

/**
 * Voids a sale in one transaction: its state, the stock of each product line back (stock
 * movement `Anulación venta #N`), and its income movement marked `anulado` (out of every total).
 */
export async function voidSale(
  db: Db,
  c: SaleContext,
  saleId: string,
  motivo: string | null | undefined,
  /** Gives back through Mercado Pago what the sale's MP orders collected (decision 0052). */
  reembolsar?: Reembolsador,
): Promise<Sale> {
  return db.transaction(async (tx) => {
    const [sale] = await tx
      .select()
      .from(sales)
      .where(and(eq(sales.businessId, c.businessId), eq(sales.id, saleId)))
      .for('update');
    if (!sale) throw notFound(SALE_MESSAGES.notFound);
    if (sale.estado === 'anulada') throw conflict('INVALID_STATE', SALE_MESSAGES.alreadyVoided);
    const [returned] = await tx
      .select({ id: devoluciones.id })
      .from(devoluciones)
      .where(and(eq(devoluciones.businessId, c.businessId), eq(devoluciones.ventaId, saleId)))
      .limit(1);
    if (returned) throw conflict('INVALID_STATE', DEVOLUCION_MESSAGES.hasReturns);
    // Refused or unreachable, Mercado Pago leaves the sale as it was.
    await reembolsar?.(tx, {
      ventaId: saleId,
      origen: 'anulacion',
      devolucionId: null,
      medioPagoId: null,
      monto: 'todo',
    });
    // The money goes back from the drawer at the counter: the sale's own turno while it is open
    // (the sale leaves it), else the open turno of the counter (the closed one stays as it closed).
    const refundTurno = await counterTurnoOf(
      tx,
      c.businessId,
      c.userId,
      await openTurnoOf(tx, c.businessId, sale.turnoId),
    );

    await tx
      .update(sales)
      .set({
        estado: 'anulada',
        anuladaEn: c.now,
        anuladaPor: c.userId,
        motivoAnulacion: motivo ?? null,
        anuladaTurnoId: refundTurno,
        // Its nota de crédito, if it was invoiced: reconciled by the sweep if the after-step never runs.
        conciliar: true,
      })
      .where(and(eq(sales.businessId, c.businessId), eq(sales.id, saleId)));

    await tx
      .update(saleItems)
      .set({ anulada: true })
      .where(and(eq(saleItems.businessId, c.businessId), eq(saleItems.ventaId, saleId)));
    // What the sale took from the stock goes back (a product that did not track stock took none).
    const taken = await tx
      .select({ productoId: stockMovements.productoId, cantidad: sql<string>`-sum(${stockMovements.cantidad})` })
      .from(stockMovements)
      .where(
        and(
          eq(stockMovements.businessId, c.businessId),
          eq(stockMovements.referenciaId, saleId),
          eq(stockMovements.origen, 'venta'),
        ),
      )
      .groupBy(stockMovements.productoId);
    const perProduct = new Map(taken.map((t) => [t.productoId, toMilli(t.cantidad)]));
    for (const productId of [...perProduct.keys()].sort()) {
      await applyStockChange(tx, {
        businessId: c.businessId,
        productId,
        cantidad: perProduct.get(productId)!,
        origen: 'anulacion',
        motivo: `Anulación venta #${sale.numero}`,
        referenciaId: saleId,
        userId: c.userId,
        audit: false,
      });
    }

    const voided = await tx
      .update(financeMovements)
      .set({ anulado: true, actualizadoEn: sql`now()` })
      .where(
        and(
          eq(financeMovements.businessId, c.businessId),
          eq(financeMovements.ventaId, saleId),
          eq(financeMovements.anulado, false),
        ),
      )
      .returning({ id: financeMovements.id });
    for (const m of voided) {
      await audit(tx, {
        businessId: c.businessId,
        userId: c.userId,
        entidad: 'movimiento',
        entidadId: m.id,
        accion: 'anular',
        antes: { anulado: false },
        despues: { anulado: true },
      });
    }

    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'venta',
      entidadId: saleId,
      accion: 'anular',
      antes: { estado: 'completada' },
      despues: {
        estado: 'anulada',
        motivo_anulacion: motivo ?? null,
        numero: sale.numero,
        ...(refundTurno ? { turno_devolucion: refundTurno } : {}),
      },
    });
    return getSale(tx, c.businessId, saleId);
  });
}
