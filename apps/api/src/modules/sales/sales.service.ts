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
import { audit } from '../../lib/audit.js';
import { addDays } from '../../lib/dates.js';
import { conflict, notFound } from '../../lib/errors.js';
import { counterTurnoOf } from '../caja/rows.js';
import type { Reembolsador } from '../mercadopago/reembolsos.js';
import { toMilli } from '../products/common.js';
import { applyStockChange } from '../posting/stock.js';
import { voidSaleCheques } from '../cheques/cheques.service.js';
import { remitosVuelvenAPendiente } from '../remitos/remitos.queries.js';
import type { Autorizante } from '../autorizacion/autorizar.js';
import {
  hasReturns,
  itemRows,
  lockSale,
  markSaleVoided,
  paymentRows,
  salePage,
  saleRow,
  stockTakenBy,
  turnoState,
  voidSaleMovements,
  type ItemRow,
  type SaleRow,
} from './sales.queries.js';

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

async function itemsOf(ex: Executor, businessId: string, saleIds: string[]): Promise<Map<string, SaleItem[]>> {
  const map = new Map<string, SaleItem[]>();
  if (!saleIds.length) return map;
  const rows = await itemRows(businessId, saleIds, ex);
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
  const rows = await paymentRows(businessId, saleIds, ex);
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
  const row = await saleRow(businessId, id, ex);
  if (!row) throw notFound(SALE_MESSAGES.notFound);
  const [items, pagos] = await Promise.all([itemsOf(ex, businessId, [id]), paymentsOf(ex, businessId, [id])]);
  return toSale(row, items.get(id) ?? [], pagos.get(id) ?? []);
}

/** Newest first (or by `orden`); `total_ventas` counts every sale matching the filters. */
export async function listSales(db: Db, businessId: string, timezone: string, q: SaleListQuery) {
  const [rows, [{ total }]] = await salePage(businessId, dayRange(timezone, q.fecha_desde, q.fecha_hasta), q, db);
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
  return (await turnoState(businessId, turnoId, ex)) === 'abierto' ? turnoId : null;
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
    const sale = await lockSale(c.businessId, saleId, tx);
    if (!sale) throw notFound(SALE_MESSAGES.notFound);
    if (sale.estado === 'anulada') throw conflict('INVALID_STATE', SALE_MESSAGES.alreadyVoided);
    if (await hasReturns(c.businessId, saleId, tx)) throw conflict('INVALID_STATE', DEVOLUCION_MESSAGES.hasReturns);
    // The remitos it invoiced are to be invoiced again; their goods stay delivered (decision 0056).
    await remitosVuelvenAPendiente(
      c.businessId,
      c.userId,
      saleId,
      SALE_MESSAGES.remitosPendientes(sale.numero, motivo ?? null),
      tx,
    );
    // Its cheques go back to the customer, if they are still in the cartera (decision 0057).
    await voidSaleCheques(tx, c, saleId, motivo ?? 'Venta anulada');
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

    await markSaleVoided(
      c.businessId,
      saleId,
      { anuladaEn: c.now, anuladaPor: c.userId, motivoAnulacion: motivo ?? null, anuladaTurnoId: refundTurno },
      tx,
    );
    // What the sale took from the stock goes back (a product that did not track stock took none).
    const taken = await stockTakenBy(c.businessId, saleId, tx);
    const perProduct = new Map(taken.map((t) => [t.productoId, toMilli(t.cantidad)]));
    for (const productId of [...perProduct.keys()].sort()) {
      await applyStockChange(tx, {
        businessId: c.businessId,
        productId,
        cantidad: perProduct.get(productId)!,
        origen: 'anulacion',
        motivo: `Anulación venta #${sale.numero}`,
        referenciaId: saleId,
        // Back into the depósito it came from (decision 0059).
        depositoDe: saleId,
        userId: c.userId,
        audit: false,
      });
    }

    const voided = await voidSaleMovements(c.businessId, saleId, tx);
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
