import { createHash, randomUUID } from 'node:crypto';
import {
  CAJA_MESSAGES,
  centsToNumber,
  DEVOLUCION_MESSAGES,
  IDEMPOTENCY_TTL_MS,
  lineShares,
  MEDIO_TIPO_CODE,
  returnShare,
  SALE_MESSAGES,
  type Devolucion,
  type DevolucionOutput,
  type MedioTipo,
  type PaymentMethod,
  type SaleItemType,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { todayIn } from '../../lib/dates.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import { counterTurnoOf, iso, person, type R } from '../caja/rows.js';
import { devolverChequeDeVenta } from '../cheques/cheques.service.js';
import type { Reembolsador } from '../mercadopago/reembolsos.js';
import { postMovement } from '../posting/finance.js';
import { applyStockChange } from '../posting/stock.js';
import { toCents, toMilli } from '../products/common.js';
import {
  devolucionItemRows,
  findDevolucionRows,
  findMedio,
  insertDevolucion,
  insertDevolucionItems,
  insertReturnKey,
  lockCustomerForReturn,
  lockReturnKey,
  lockSaleForReturn,
  nextDevolucionNumero,
  productsTakenBy,
  retakeReturnKey,
  saleDevolucionRows,
  saleExists,
  saleLineRows,
  saveReturnAnswer,
} from './devoluciones.queries.js';

export interface ReturnContext {
  businessId: string;
  userId: string;
  timezone: string;
  now: Date;
}

export interface ReturnResponse {
  status: 201;
  body: Devolucion;
}

const qtyFormat = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 3 });

/* ---------------------------------------------------------------- reading */

async function withItems(ex: Executor, businessId: string, list: R[]): Promise<Devolucion[]> {
  if (!list.length) return [];
  const ids = list.map((d) => d.id as string);
  const items = await devolucionItemRows(businessId, ids, ex);
  return list.map((d) => ({
    id: d.id as string,
    numero: d.numero as number,
    fecha: iso(d.fecha),
    venta_id: d.venta_id as string,
    venta_numero: d.venta_numero as number,
    cliente_id: (d.cliente_id as string | null) ?? null,
    cliente_nombre: (d.cliente_nombre as string | null) ?? null,
    medio_pago_id: d.medio_pago_id as string,
    medio_nombre: d.medio_nombre as string,
    medio_tipo: d.tipo as MedioTipo,
    metodo_pago: d.metodo_pago as PaymentMethod,
    monto: Number(d.monto),
    turno_id: (d.turno_id as string | null) ?? null,
    motivo: (d.motivo as string | null) ?? null,
    usuario: person(d.usuario_id, d.usuario_nombre),
    items: items
      .filter((i) => i.devolucion_id === d.id)
      .map((i) => ({
        item_id: i.venta_item_id as string,
        tipo: i.tipo as SaleItemType,
        producto_id: (i.producto_id as string | null) ?? null,
        servicio_id: (i.servicio_id as string | null) ?? null,
        nombre: i.nombre as string,
        cantidad: Number(i.cantidad),
        precio_unitario: Number(i.precio_unitario),
        monto: Number(i.monto),
      })),
  }));
}

export async function getDevolucion(ex: Executor, businessId: string, id: string): Promise<Devolucion> {
  const list = await findDevolucionRows(businessId, id, ex);
  if (!list.length) throw notFound(DEVOLUCION_MESSAGES.notFound);
  return (await withItems(ex, businessId, list))[0];
}

/** The returns of a sale, oldest first (404 when the sale is not the business's). */
export async function listDevoluciones(ex: Executor, businessId: string, ventaId: string): Promise<Devolucion[]> {
  if (!(await saleExists(businessId, ventaId, ex))) throw notFound(SALE_MESSAGES.notFound);
  const list = await saleDevolucionRows(businessId, ventaId, ex);
  return withItems(ex, businessId, list);
}

/* ---------------------------------------------------------------- idempotency */

// Keys share record-sale's table; the prefix is no printable ASCII, so no sale's key can match it.
const KEY_PREFIX = 'devolución·';

const requestHash = (ventaId: string, input: DevolucionOutput) =>
  createHash('sha256')
    .update(JSON.stringify({ ventaId, ...input }))
    .digest('base64url');

/**
 * Claims the key, or answers what the first request with it answered (a concurrent duplicate
 * waits on the key until that one ends); an answer older than 24 h is taken over.
 */
async function claimKey(ex: Executor, c: ReturnContext, clave: string, hash: string): Promise<ReturnResponse | null> {
  const key = { userId: c.userId, clave, hash, now: c.now };
  if (await insertReturnKey(c.businessId, key, ex)) return null;
  const prev = await lockReturnKey(c.businessId, c.userId, clave, ex);
  if (
    prev &&
    prev.status !== 0 &&
    new Date(prev.creado_en as string).getTime() > c.now.getTime() - IDEMPOTENCY_TTL_MS
  ) {
    if (prev.hash !== hash) {
      throw new AppError(422, 'IDEMPOTENCY_MISMATCH', DEVOLUCION_MESSAGES.idempotencyMismatch, {
        errors: [{ field: 'Idempotency-Key', message: DEVOLUCION_MESSAGES.idempotencyMismatch }],
      });
    }
    return { status: 201, body: prev.respuesta as Devolucion };
  }
  await retakeReturnKey(c.businessId, key, ex);
  return null;
}

/* ---------------------------------------------------------------- returning */

interface Line {
  id: string;
  nombre: string;
  productoId: string | null;
  vendida: number;
  devuelta: number;
  share: number;
  subtotal: number;
  costo: number;
  devuelto: { monto: number; subtotal: number; costo: number };
}

/** The sale's lines with their share of its total and what was returned of each before. */
async function saleLines(ex: Executor, businessId: string, ventaId: string, total: number): Promise<Line[]> {
  const list = await saleLineRows(businessId, ventaId, ex);
  const shares = lineShares(
    total,
    list.map((l) => toCents(l.subtotal as string)),
  );
  return list.map((l, i) => ({
    id: l.id as string,
    nombre: l.nombre as string,
    productoId: (l.producto_id as string | null) ?? null,
    vendida: toMilli(l.cantidad as string),
    devuelta: toMilli(l.devuelta as string),
    share: shares[i],
    subtotal: toCents(l.subtotal as string),
    costo: toCents(l.costo_total as string),
    devuelto: {
      monto: toCents(l.monto as string),
      subtotal: toCents(l.dsub as string),
      costo: toCents(l.dcosto as string),
    },
  }));
}

/** What each asked line returns: quantity within what is left, and its amounts (422 otherwise). */
function priceReturn(lines: Line[], input: DevolucionOutput) {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const seen = new Set<string>();
  return input.items.map((it, i) => {
    const l = byId.get(it.item_id);
    if (!l) throw invalid(`items.${i}.item_id`, DEVOLUCION_MESSAGES.itemNotInSale);
    if (seen.has(l.id)) throw invalid(`items.${i}.item_id`, DEVOLUCION_MESSAGES.repeatedItem);
    seen.add(l.id);
    const left = l.vendida - l.devuelta;
    if (it.cantidad > left) {
      throw invalid(`items.${i}.cantidad`, DEVOLUCION_MESSAGES.overQuantity(l.nombre, qtyFormat.format(left / 1000)));
    }
    const share = (of: number, before: number) => returnShare(of, l.vendida, l.devuelta, before, it.cantidad);
    return {
      line: l,
      cantidad: it.cantidad,
      monto: share(l.share, l.devuelto.monto),
      subtotal: share(l.subtotal, l.devuelto.subtotal),
      costo: share(l.costo, l.devuelto.costo),
    };
  });
}

/**
 * Returns some or all lines of a completed sale, in one transaction: the sale row is locked, so
 * concurrent returns of it queue and each sees what the others returned (never more than was
 * sold). The stock of product lines comes back, the money goes back by the medio (an egreso
 * movement; cash leaves the turno at the counter) or to the customer's account (what they owe
 * drops), and the "Devolución" takes the business's next number (advisory lock held to commit).
 */
export async function createDevolucion(
  db: Db,
  c: ReturnContext,
  ventaId: string,
  input: DevolucionOutput,
  idempotencyKey: string | null,
  /** Gives the money back through Mercado Pago when the medio is MP's and the sale was paid with it. */
  reembolsar?: Reembolsador,
): Promise<ReturnResponse> {
  return db.transaction(async (tx) => {
    const clave = idempotencyKey ? `${KEY_PREFIX}${idempotencyKey}` : null;
    if (clave) {
      const previous = await claimKey(tx, c, clave, requestHash(ventaId, input));
      if (previous) return previous;
    }
    // Locked and marked for the reconcile sweep (decision 0013).
    const sale = await lockSaleForReturn(c.businessId, ventaId, tx);
    if (!sale) throw notFound(SALE_MESSAGES.notFound);
    if (sale.estado !== 'completada') throw conflict('INVALID_STATE', DEVOLUCION_MESSAGES.saleVoided);
    const lines = await saleLines(tx, c.businessId, ventaId, toCents(sale.total as string));
    const priced = priceReturn(lines, input);
    const m = await findMedio(c.businessId, input.medio_pago_id, tx);
    if (!m) throw invalid('medio_pago_id', CAJA_MESSAGES.medioNotInBusiness);
    if (!m.activo) throw invalid('medio_pago_id', CAJA_MESSAGES.medioInactive(m.nombre as string));
    const tipo = m.tipo as MedioTipo;
    const clienteId = (sale.cliente_id as string | null) ?? null;
    if (tipo === 'cuenta_corriente' && !clienteId) {
      throw invalid('medio_pago_id', DEVOLUCION_MESSAGES.accountNeedsCustomer);
    }
    if (input.cheque_id && tipo !== 'cheque') throw invalid('medio_pago_id', DEVOLUCION_MESSAGES.chequeNeedsMedio);
    const monto = priced.reduce((s, p) => s + p.monto, 0);
    const id = randomUUID();
    // Mercado Pago gives the money back first (decision 0052): refused or unreachable, nothing is recorded.
    await reembolsar?.(tx, { ventaId, origen: 'devolucion', devolucionId: id, medioPagoId: m.id as string, monto });

    // Numbers one at a time per business, held until commit: consecutive, without gaps.
    const numero = await nextDevolucionNumero(c.businessId, tx);
    // The cheque itself goes back to the customer (it never was income: no money moves).
    if (input.cheque_id) {
      await devolverChequeDeVenta(tx, c, {
        chequeId: input.cheque_id,
        ventaId,
        montoCents: monto,
        devolucionNumero: numero as number,
        clienteId,
      });
    }
    const motivoStock = `Devolución #${numero as number} · venta #${sale.numero as number}`;
    // Products in id order, as sales lock them (no deadlocks with a sale of the same products).
    // Only what the sale took from the stock goes back (a product that did not track stock took none).
    const took = await productsTakenBy(c.businessId, sale.id as string, tx);
    const perProduct = new Map<string, number>();
    for (const p of priced) {
      const pid = p.line.productoId;
      if (pid && took.has(pid)) perProduct.set(pid, (perProduct.get(pid) ?? 0) + p.cantidad);
    }
    for (const productId of [...perProduct.keys()].sort()) {
      await applyStockChange(tx, {
        businessId: c.businessId,
        productId,
        cantidad: perProduct.get(productId)!,
        origen: 'devolucion',
        motivo: motivoStock,
        referenciaId: id,
        // Back into the depósito the sale took it from (decision 0059).
        depositoDe: sale.id as string,
        userId: c.userId,
        audit: false,
      });
    }
    // The customer, locked as a sale or a cobro locks it, when what they owe changes.
    if (tipo === 'cuenta_corriente') {
      await lockCustomerForReturn(c.businessId, clienteId, tx);
    }
    const turnoId = await counterTurnoOf(tx, c.businessId, c.userId, input.turno_id);
    const metodo = MEDIO_TIPO_CODE[tipo];
    await insertDevolucion(
      c.businessId,
      {
        id,
        numero,
        ventaId,
        fecha: c.now,
        montoCents: monto,
        medioPagoId: m.id as string,
        metodo,
        tipo,
        clienteId,
        turnoId,
        motivo: input.motivo ?? null,
        usuarioId: c.userId,
      },
      tx,
    );
    await insertDevolucionItems(
      c.businessId,
      id,
      priced.map((p) => ({
        ventaItemId: p.line.id,
        cantidad: p.cantidad,
        monto: p.monto,
        subtotal: p.subtotal,
        costo: p.costo,
      })),
      tx,
    );
    // Money back by a medio is an egreso of the sale's income; to the account it is no money.
    if (tipo !== 'cuenta_corriente' && monto > 0 && !input.cheque_id) {
      const fecha = todayIn(c.timezone, c.now);
      const descripcion = `Devolución #${numero as number} · venta #${sale.numero as number}`;
      await postMovement(tx, c.businessId, c.userId, {
        tipo: 'egreso',
        categoriaId: null,
        montoCents: monto,
        fecha,
        metodoPago: metodo,
        medioPagoId: m.id as string,
        descripcion,
        observaciones: null,
        clienteId,
        origen: 'devolucion',
        ventaId,
        devolucionId: id,
      });
    }
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'devolucion',
      entidadId: id,
      accion: 'crear',
      despues: {
        numero,
        venta_id: ventaId,
        venta_numero: sale.numero,
        monto: centsToNumber(monto),
        medio: m.nombre,
        turno_id: turnoId,
        motivo: input.motivo ?? null,
        ...(input.cheque_id ? { cheque_devuelto: input.cheque_id } : {}),
        items: priced.map((p) => ({ item_id: p.line.id, cantidad: p.cantidad / 1000, monto: centsToNumber(p.monto) })),
      },
    });
    const body = await getDevolucion(tx, c.businessId, id);
    if (clave) {
      await saveReturnAnswer(c.businessId, c.userId, clave, body, tx);
    }
    return { status: 201, body };
  });
}
