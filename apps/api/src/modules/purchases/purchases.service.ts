import {
  type AlicuotaCompra,
  centsToDecimal,
  centsToNumber,
  comprobanteNumero,
  FACTURA_MESSAGES,
  type Factura,
  type FacturaCents,
  lineSubtotalCents,
  milliToDecimal,
  milliToNumber,
  PURCHASE_MESSAGES,
  purchaseIssues,
  purchasePayableCents,
  type PaymentCondition,
  type PaymentMethod,
  type Purchase,
  type PurchaseItem,
  type PurchaseListQuery,
  type PurchaseOutput,
  type PurchaseState,
  type PurchaseUpdate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { insertMovement } from '../finance/movements.service.js';
import { toCents, toMilli } from '../products/common.js';
import { applyStockChange } from '../posting/stock.js';
import { lockSupplier } from '../suppliers/suppliers.service.js';
import {
  clearCostosAnteriores,
  comprasCategoryId,
  deleteAccountRow as deleteAccountStatement,
  deleteInvoice,
  deleteLineRows,
  deleteMovementRow as deleteMovementStatement,
  deletePurchaseRow,
  findPurchaseRow,
  insertAccount,
  insertInvoice,
  insertLineRows,
  insertPurchase,
  invoiceRow,
  invoiceTaken,
  knownProductIds,
  libroIvaRows,
  lineRows,
  listPurchaseRows,
  lockLinkedMovement,
  lockPurchaseAccount,
  lockPurchaseMovements,
  lockPurchaseRow,
  nextPurchaseNumber,
  restoreCost,
  setPurchase,
  updateAccountRow,
  updateMovementRow,
  type AccountRow,
  type InvoiceRow,
  type MovementRow,
  type PurchaseColumns,
  type PurchaseRow,
  type SelectedPurchase as Selected,
} from './purchases.queries.js';
import { markReceptionsReverted, receiveLines } from './recepcion-stock.js';

/*
 * Purchases (API-CONTRACT §13). Every write runs in one transaction that first locks the
 * purchase row, so two requests on one purchase (two "recibida" clicks) run one after the other
 * and the second sees what the first did. Locks are taken in one order everywhere: purchase,
 * supplier, payable, then products in ascending id order (as sales do), so nothing deadlocks.
 */

/** A line as the rules handle it: quantity in thousandths, price in cents. */
interface Line {
  producto_id: string;
  cantidad: number;
  precio_unitario: number;
}

export interface StoredLine extends Line {
  id: string;
  nombre: string;
  codigo: string | null;
  unidad: string;
  subtotal: number;
  precioCompraAnterior: number | null;
  /** Thousandths that arrived (decision 0023). */
  cantidadRecibida: number;
}

/* ---------------------------------------------------------------- reading */

const accountState = (estado: string | null, vencimiento: string | null, today: string) =>
  estado === null
    ? null
    : estado === 'pagado'
      ? 'pagado'
      : vencimiento && vencimiento < today
        ? 'vencido'
        : 'pendiente';

/** A stored invoice in cents, as the rules handle it. */
function invoiceCents(r: InvoiceRow): FacturaCents {
  return {
    tipo: r.tipo,
    punto_venta: r.puntoVenta,
    numero: r.numero,
    fecha: r.fecha,
    iva: r.iva.map((i) => ({ alicuota: i.alicuota as AlicuotaCompra, neto: toCents(i.neto), iva: toCents(i.iva) })),
    no_gravado: toCents(r.noGravado),
    exento: toCents(r.exento),
    percepcion_iva: toCents(r.percepcionIva),
    percepcion_iibb: toCents(r.percepcionIibb),
    otros_impuestos: toCents(r.otrosImpuestos),
    total: toCents(r.total),
  };
}

/** The same invoice with its keys in one order, so two can be compared as JSON. */
const normalFactura = (f: FacturaCents | null): FacturaCents | null =>
  f && {
    tipo: f.tipo,
    punto_venta: f.punto_venta,
    numero: f.numero,
    fecha: f.fecha,
    iva: f.iva.map((i) => ({ alicuota: i.alicuota, neto: i.neto, iva: i.iva })),
    no_gravado: f.no_gravado,
    exento: f.exento,
    percepcion_iva: f.percepcion_iva,
    percepcion_iibb: f.percepcion_iibb,
    otros_impuestos: f.otros_impuestos,
    total: f.total,
  };

export function facturaOut(f: FacturaCents): Factura {
  return {
    tipo: f.tipo,
    punto_venta: f.punto_venta,
    numero: f.numero,
    comprobante: comprobanteNumero(f.punto_venta, f.numero),
    fecha: f.fecha,
    iva: f.iva.map((i) => ({ alicuota: i.alicuota, neto: centsToNumber(i.neto), iva: centsToNumber(i.iva) })),
    no_gravado: centsToNumber(f.no_gravado),
    exento: centsToNumber(f.exento),
    percepcion_iva: centsToNumber(f.percepcion_iva),
    percepcion_iibb: centsToNumber(f.percepcion_iibb),
    otros_impuestos: centsToNumber(f.otros_impuestos),
    total: centsToNumber(f.total),
  };
}

async function loadInvoice(ex: Executor, businessId: string, compraId: string): Promise<FacturaCents | null> {
  const r = await invoiceRow(businessId, compraId, ex);
  return r ? invoiceCents(r) : null;
}

/**
 * Replaces the purchase's invoice (or removes it with null). The same supplier's invoice on
 * another purchase answers 409 DUPLICATE, also when two requests race on the unique key.
 */
async function writeInvoice(
  ex: Executor,
  businessId: string,
  compraId: string,
  proveedorId: string | null,
  f: FacturaCents | null,
) {
  await deleteInvoice(businessId, compraId, ex);
  if (!f) return;
  if (proveedorId) {
    const dup = await invoiceTaken(businessId, proveedorId, f, ex);
    if (dup) throw conflict('DUPLICATE', FACTURA_MESSAGES.duplicate);
  }
  try {
    await insertInvoice(
      businessId,
      compraId,
      proveedorId,
      {
        tipo: f.tipo,
        puntoVenta: f.punto_venta,
        numero: f.numero,
        fecha: f.fecha,
        iva: f.iva.map((i) => ({ alicuota: i.alicuota, neto: centsToDecimal(i.neto), iva: centsToDecimal(i.iva) })),
        noGravado: centsToDecimal(f.no_gravado),
        exento: centsToDecimal(f.exento),
        percepcionIva: centsToDecimal(f.percepcion_iva),
        percepcionIibb: centsToDecimal(f.percepcion_iibb),
        otrosImpuestos: centsToDecimal(f.otros_impuestos),
        total: centsToDecimal(f.total),
      },
      ex,
    );
  } catch (e) {
    if (isUniqueViolation(e, 'purchase_invoices_numero_key')) throw conflict('DUPLICATE', FACTURA_MESSAGES.duplicate);
    throw e;
  }
}

function toPurchase(r: Selected, today: string, items?: StoredLine[], factura?: FacturaCents | null): Purchase {
  const p = r.p;
  return {
    id: p.id,
    numero: p.numero,
    proveedor_id: p.proveedorId,
    proveedor_nombre: r.proveedorActual ?? p.proveedorNombre,
    fecha: p.fecha,
    fecha_entrega: p.fechaEntrega,
    estado: p.estado,
    condicion_pago: p.condicionPago,
    metodo_pago: p.metodoPago as PaymentMethod | null,
    fecha_vencimiento: p.fechaVencimiento,
    observaciones: p.observaciones,
    total: centsToNumber(toCents(p.total)),
    cantidad_items: r.cantidadItems,
    items_pendientes: p.estado === 'cancelada' ? 0 : r.itemsPendientes,
    ...(items
      ? {
          items: items.map((l): PurchaseItem => ({
            id: l.id,
            producto_id: l.producto_id,
            producto_nombre: l.nombre,
            producto_codigo: l.codigo,
            unidad: l.unidad,
            cantidad: milliToNumber(l.cantidad),
            precio_unitario: centsToNumber(l.precio_unitario),
            subtotal: centsToNumber(l.subtotal),
            precio_compra_anterior: l.precioCompraAnterior === null ? null : centsToNumber(l.precioCompraAnterior),
            cantidad_recibida: milliToNumber(l.cantidadRecibida),
            cantidad_pendiente: p.estado === 'cancelada' ? 0 : milliToNumber(l.cantidad - l.cantidadRecibida),
          })),
        }
      : {}),
    ...(factura !== undefined ? { factura: factura && facturaOut(factura) } : {}),
    movimiento_id: r.movimientoId,
    cuenta_id: r.cuentaId,
    cuenta_estado: accountState(r.cuentaEstado, r.cuentaVencimiento, today),
    recibida_en: p.recibidaEn ? p.recibidaEn.toISOString() : null,
    cancelada_en: p.canceladaEn ? p.canceladaEn.toISOString() : null,
    creado_por: p.creadoPor,
    creado_en: p.creadoEn.toISOString(),
    actualizado_en: p.actualizadoEn.toISOString(),
  };
}

export async function loadLines(ex: Executor, businessId: string, compraId: string): Promise<StoredLine[]> {
  const rows = await lineRows(businessId, compraId, ex);
  return rows.map(({ i, nombre, codigo, unidad }) => ({
    id: i.id,
    producto_id: i.productoId,
    cantidad: toMilli(i.cantidad),
    precio_unitario: toCents(i.precioUnitario),
    subtotal: toCents(i.subtotal),
    precioCompraAnterior: i.precioCompraAnterior === null ? null : toCents(i.precioCompraAnterior),
    cantidadRecibida: toMilli(i.cantidadRecibida),
    nombre,
    codigo,
    unidad,
  }));
}

export async function findPurchase(ex: Executor, businessId: string, id: string, today: string) {
  const r = await findPurchaseRow(businessId, id, ex);
  if (!r) return null;
  return toPurchase(r, today, await loadLines(ex, businessId, id), await loadInvoice(ex, businessId, id));
}

export async function getPurchase(ex: Executor, businessId: string, id: string, today: string): Promise<Purchase> {
  const p = await findPurchase(ex, businessId, id, today);
  if (!p) throw notFound(PURCHASE_MESSAGES.notFound);
  return p;
}

export async function listPurchases(db: Db, businessId: string, q: PurchaseListQuery, today: string) {
  const { rows, total } = await listPurchaseRows(businessId, q, db);
  return { rows: rows.map((r) => toPurchase(r, today)), total };
}

/* ---------------------------------------------------------------- shared pieces of the writes */

export interface Ctx {
  tx: Executor;
  businessId: string;
  userId: string;
  today: string;
  now: Date;
  /** The depósito a reception enters (default the principal; decision 0059). */
  depositoId?: string | null;
}

/** What the audit records of a purchase. */
function snapshot(p: PurchaseRow, lines: Line[], factura: FacturaCents | null = null) {
  return {
    numero: p.numero,
    proveedor_id: p.proveedorId,
    proveedor_nombre: p.proveedorNombre,
    fecha: p.fecha,
    fecha_entrega: p.fechaEntrega,
    estado: p.estado,
    condicion_pago: p.condicionPago,
    metodo_pago: p.metodoPago,
    fecha_vencimiento: p.fechaVencimiento,
    observaciones: p.observaciones,
    total: centsToNumber(toCents(p.total)),
    items: lines.map((l) => ({
      producto_id: l.producto_id,
      cantidad: milliToNumber(l.cantidad),
      precio_unitario: centsToNumber(l.precio_unitario),
    })),
    factura: factura && facturaOut(factura),
  };
}

function changedFields<T extends Record<string, unknown>>(before: T, after: T) {
  const antes: Record<string, unknown> = {};
  const despues: Record<string, unknown> = {};
  for (const k of Object.keys(after)) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      antes[k] = before[k];
      despues[k] = after[k];
    }
  }
  return { antes, despues, changed: Object.keys(despues).length > 0 };
}

/** Every product of the lines belongs to the business; 422 on the first line that does not. */
async function assertProducts(ex: Executor, businessId: string, lines: Line[]) {
  const ids = [...new Set(lines.map((l) => l.producto_id))];
  const known = await knownProductIds(businessId, ids, ex);
  const i = lines.findIndex((l) => !known.has(l.producto_id));
  if (i >= 0) throw invalid(`items.${i}.producto_id`, PURCHASE_MESSAGES.productNotInBusiness);
}

function assertRules(p: Parameters<typeof purchaseIssues>[0]) {
  const [first] = purchaseIssues(p);
  if (first) throw invalid(first.field, first.message);
}

async function insertLines(ctx: Ctx, compraId: string, lines: Line[]) {
  await insertLineRows(
    ctx.businessId,
    compraId,
    lines.map((l, i) => ({
      posicion: i + 1,
      productoId: l.producto_id,
      cantidad: milliToDecimal(l.cantidad),
      precioUnitario: centsToDecimal(l.precio_unitario),
      subtotal: centsToDecimal(lineSubtotalCents(l.cantidad, l.precio_unitario)),
    })),
    ctx.tx,
  );
}

/** Who the movement and the payable name: the supplier, else the free-text name, else the number. */
const financeDescription = (p: PurchaseRow) =>
  p.proveedorNombre ? `Compra a ${p.proveedorNombre}` : `Compra #${p.numero}`;

const movementSnapshot = (m: { monto: string; fecha: string; metodoPago: string; descripcion: string | null }) => ({
  monto: centsToNumber(toCents(m.monto)),
  fecha: m.fecha,
  metodo_pago: m.metodoPago,
  descripcion: m.descripcion,
});

const accountSnapshot = (a: AccountRow) => ({
  tipo: a.tipo,
  cliente_id: a.clienteId,
  proveedor_id: a.proveedorId,
  proveedor_nombre: a.proveedorNombre,
  monto: centsToNumber(toCents(a.monto)),
  fecha_emision: a.fechaEmision,
  fecha_vencimiento: a.fechaVencimiento,
  descripcion: a.descripcion,
  observaciones: a.observaciones,
});

async function deleteMovementRow(ctx: Ctx, m: MovementRow) {
  await deleteMovementStatement(ctx.businessId, m.id, ctx.tx);
  await audit(ctx.tx, {
    businessId: ctx.businessId,
    userId: ctx.userId,
    entidad: 'movimiento',
    entidadId: m.id,
    accion: 'eliminar',
    antes: movementSnapshot(m),
  });
}

async function deleteAccountRow(ctx: Ctx, a: AccountRow) {
  await deleteAccountStatement(ctx.businessId, a.id, ctx.tx);
  await audit(ctx.tx, {
    businessId: ctx.businessId,
    userId: ctx.userId,
    entidad: 'cuenta',
    entidadId: a.id,
    accion: 'eliminar',
    antes: accountSnapshot(a),
  });
}

/**
 * Makes the money side match the purchase (API-CONTRACT §13): `contado` → one `egreso`
 * movement in "Compras" for the total, dated `fecha`; `cuenta_corriente` → one unpaid
 * `por_pagar` account for the supplier; nothing when the total is 0. An existing movement or
 * account is rewritten in place, or removed when the purchase no longer calls for it.
 * Callers have checked that an existing account is unpaid.
 */
async function syncFinance(ctx: Ctx, p: PurchaseRow, current: { movement?: MovementRow; account?: AccountRow }) {
  const total = toCents(p.total);
  const wants = total === 0 ? 'none' : p.condicionPago === 'contado' ? 'movement' : 'account';
  const descripcion = financeDescription(p);

  if (current.movement && wants !== 'movement') await deleteMovementRow(ctx, current.movement);
  if (current.account && wants !== 'account') await deleteAccountRow(ctx, current.account);

  if (wants === 'movement') {
    const next = { monto: centsToDecimal(total), fecha: p.fecha, metodoPago: p.metodoPago ?? 'efectivo', descripcion };
    const m = current.movement;
    if (!m) {
      await insertMovement(ctx.tx, ctx.businessId, ctx.userId, {
        tipo: 'egreso',
        categoriaId: await comprasCategoryId(ctx.businessId, ctx.tx),
        montoCents: total,
        fecha: p.fecha,
        metodoPago: next.metodoPago as PaymentMethod,
        descripcion,
        observaciones: null,
        clienteId: null,
        origen: 'compra',
        compraId: p.id,
      });
    } else {
      const c = changedFields(movementSnapshot(m), movementSnapshot(next));
      if (c.changed) {
        await updateMovementRow(ctx.businessId, m.id, next, ctx.tx);
        await audit(ctx.tx, {
          businessId: ctx.businessId,
          userId: ctx.userId,
          entidad: 'movimiento',
          entidadId: m.id,
          accion: 'actualizar',
          antes: c.antes,
          despues: c.despues,
        });
      }
    }
  }

  if (wants === 'account') {
    const a = current.account;
    if (!a) {
      const row = await insertAccount(
        ctx.businessId,
        {
          tipo: 'por_pagar',
          proveedorId: p.proveedorId,
          proveedorNombre: p.proveedorNombre,
          monto: centsToDecimal(total),
          fechaEmision: p.fecha,
          fechaVencimiento: p.fechaVencimiento!,
          descripcion,
          compraId: p.id,
          creadoPor: ctx.userId,
        },
        ctx.tx,
      );
      await audit(ctx.tx, {
        businessId: ctx.businessId,
        userId: ctx.userId,
        entidad: 'cuenta',
        entidadId: row.id,
        accion: 'crear',
        despues: accountSnapshot(row),
      });
    } else {
      const next: AccountRow = {
        ...a,
        proveedorId: p.proveedorId,
        proveedorNombre: p.proveedorNombre,
        monto: centsToDecimal(total),
        fechaEmision: p.fecha,
        fechaVencimiento: p.fechaVencimiento!,
        // A description written in Cuentas Pendientes stays; the generated one follows the supplier.
        descripcion: a.descripcion.startsWith('Compra ') ? descripcion : a.descripcion,
      };
      const c = changedFields(accountSnapshot(a), accountSnapshot(next));
      if (c.changed) {
        await updateAccountRow(
          ctx.businessId,
          a.id,
          {
            proveedorId: next.proveedorId,
            proveedorNombre: next.proveedorNombre,
            monto: next.monto,
            fechaEmision: next.fechaEmision,
            fechaVencimiento: next.fechaVencimiento,
            descripcion: next.descripcion,
          },
          ctx.tx,
        );
        await audit(ctx.tx, {
          businessId: ctx.businessId,
          userId: ctx.userId,
          entidad: 'cuenta',
          entidadId: a.id,
          accion: 'actualizar',
          antes: c.antes,
          despues: c.despues,
        });
      }
    }
  }
}

const byProduct = <T extends { producto_id: string }>(lines: T[]) =>
  [...lines].sort((a, b) => (a.producto_id < b.producto_id ? -1 : a.producto_id > b.producto_id ? 1 : 0));

/** Receives everything still pending, as one reception (decision 0023). */
async function receive(ctx: Ctx, p: PurchaseRow, lines: StoredLine[]) {
  const wanted = lines
    .filter((l) => l.cantidadRecibida < l.cantidad)
    .map((line) => ({ line, cantidad: line.cantidad - line.cantidadRecibida }));
  return (await receiveLines(ctx, p, wanted)).row;
}

/**
 * Undoes a reception: stock out with a conditional update (409 when some of it was already
 * sold), and each product's cost back to what it was, unless it changed since.
 */
async function unreceive(ctx: Ctx, p: PurchaseRow, lines: StoredLine[], next: PurchaseState) {
  const motivo = `${next === 'cancelada' ? 'Cancelación' : 'Reversión de la recepción'} de la compra #${p.numero}`;
  await precioOrigen(ctx.tx, { origen: 'compra', userId: ctx.userId, referenciaId: p.id });
  for (const l of byProduct(lines)) {
    await applyStockChange(ctx.tx, {
      businessId: ctx.businessId,
      productId: l.producto_id,
      cantidad: -l.cantidadRecibida,
      origen: 'compra',
      motivo,
      referenciaId: p.id,
      userId: ctx.userId,
      // Out of the depósito the goods entered (decision 0059).
      depositoDe: p.id,
      insufficientMessage: ({ nombre }) => PURCHASE_MESSAGES.insufficientStock(nombre),
    });
    const restored = await restoreCost(
      ctx.businessId,
      l.producto_id,
      centsToDecimal(l.precio_unitario),
      l.precioCompraAnterior === null ? null : centsToDecimal(l.precioCompraAnterior),
      ctx.tx,
    );
    const antes = centsToNumber(l.precio_unitario);
    const despues = l.precioCompraAnterior === null ? null : centsToNumber(l.precioCompraAnterior);
    if (restored && antes !== despues) {
      await audit(ctx.tx, {
        businessId: ctx.businessId,
        userId: ctx.userId,
        entidad: 'producto',
        entidadId: l.producto_id,
        accion: 'actualizar',
        antes: { precio_compra: antes },
        despues: { precio_compra: despues, motivo },
      });
    }
  }
  await clearCostosAnteriores(ctx.businessId, p.id, ctx.tx);
  await markReceptionsReverted(ctx, p.id);
  return setPurchase(ctx.businessId, p.id, { estado: 'pendiente', recibidaEn: null }, ctx.tx);
}

/* ---------------------------------------------------------------- create */

export async function createPurchase(
  db: Db,
  businessId: string,
  userId: string,
  input: PurchaseOutput,
  today: string,
  now: Date,
): Promise<Purchase> {
  const fecha = input.fecha ?? today;
  const condicion: PaymentCondition = input.condicion_pago ?? 'contado';
  const lines: Line[] = input.items.map((i) => ({ ...i }));
  const factura = normalFactura(input.factura ?? null);
  assertRules({ ...input, fecha, condicion_pago: condicion, items: lines, factura });
  return db.transaction(async (tx) => {
    const ctx: Ctx = { tx, businessId, userId, today, now, depositoId: input.deposito_id ?? null };
    let proveedorNombre = input.proveedor_nombre ?? null;
    if (input.proveedor_id) proveedorNombre = (await lockSupplier(tx, businessId, input.proveedor_id)).nombre;
    await assertProducts(tx, businessId, lines);
    const numero = await nextPurchaseNumber(businessId, tx);
    let p = await insertPurchase(
      businessId,
      {
        numero,
        proveedorId: input.proveedor_id ?? null,
        proveedorNombre,
        fecha,
        fechaEntrega: input.fecha_entrega ?? null,
        estado: 'pendiente',
        condicionPago: condicion,
        metodoPago: condicion === 'contado' ? (input.metodo_pago ?? 'efectivo') : null,
        fechaVencimiento: condicion === 'cuenta_corriente' ? input.fecha_vencimiento! : null,
        observaciones: input.observaciones ?? null,
        total: centsToDecimal(purchasePayableCents(lines, factura)),
        creadoPor: userId,
      },
      tx,
    );
    await insertLines(ctx, p.id, lines);
    await writeInvoice(tx, businessId, p.id, p.proveedorId, factura);
    await syncFinance(ctx, p, {});
    if (input.estado === 'recibida') p = await receive(ctx, p, await loadLines(tx, businessId, p.id));
    await audit(tx, {
      businessId,
      userId,
      entidad: 'compra',
      entidadId: p.id,
      accion: 'crear',
      despues: snapshot(p, lines, factura),
    });
    return getPurchase(tx, businessId, p.id, today);
  });
}

/* ---------------------------------------------------------------- update */

const sameLines = (a: Line[], b: Line[]) =>
  a.length === b.length &&
  a.every(
    (l, i) =>
      l.producto_id === b[i].producto_id && l.cantidad === b[i].cantidad && l.precio_unitario === b[i].precio_unitario,
  );

export async function lockPurchase(tx: Executor, businessId: string, id: string) {
  const row = await lockPurchaseRow(businessId, id, tx);
  if (!row) throw notFound(PURCHASE_MESSAGES.notFound);
  return row;
}

/**
 * A PUT (API-CONTRACT §13): state transitions with their effects, the lines and conditions while
 * pendiente and unpaid (rewriting the movement or payable), observaciones and fecha_entrega in
 * any state but cancelada. Fields sent with their current value are not changes, so a client
 * that sends the whole form can still just mark the purchase received.
 */
export async function updatePurchase(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  patch: PurchaseUpdate,
  today: string,
  now: Date,
): Promise<Purchase> {
  return db.transaction(async (tx) => {
    const ctx: Ctx = { tx, businessId, userId, today, now, depositoId: patch.deposito_id ?? null };
    let row = await lockPurchase(tx, businessId, id);
    if (row.estado === 'cancelada') throw conflict('INVALID_STATE', PURCHASE_MESSAGES.cancelledFinal);
    // Goods arrived in part (decision 0023): they stay; the rest can only be received.
    if (row.estado === 'recibida_parcial' && (patch.estado === 'pendiente' || patch.estado === 'cancelada')) {
      throw conflict('INVALID_STATE', PURCHASE_MESSAGES.partialCancel);
    }
    const before = row;
    let lines = await loadLines(tx, businessId, id);
    const beforeLines: Line[] = lines;
    const beforeFactura = normalFactura(await loadInvoice(tx, businessId, id));
    const factura = patch.factura !== undefined ? normalFactura(patch.factura) : beforeFactura;
    const facturaChanged = JSON.stringify(factura) !== JSON.stringify(beforeFactura);

    // The purchase as the body would leave it.
    const condicion = patch.condicion_pago ?? row.condicionPago;
    const proveedorId = patch.proveedor_id !== undefined ? patch.proveedor_id : row.proveedorId;
    const proveedorChanged = proveedorId !== row.proveedorId;
    let proveedorNombre = row.proveedorNombre;
    if (proveedorChanged && !proveedorId) proveedorNombre = patch.proveedor_nombre ?? null;
    else if (!proveedorId && patch.proveedor_nombre !== undefined) proveedorNombre = patch.proveedor_nombre;
    const fecha = patch.fecha ?? row.fecha;
    const metodo =
      condicion === 'contado'
        ? (patch.metodo_pago ?? (row.condicionPago === 'contado' ? row.metodoPago : null) ?? 'efectivo')
        : null;
    const vencimiento =
      condicion === 'cuenta_corriente'
        ? patch.fecha_vencimiento !== undefined
          ? patch.fecha_vencimiento
          : row.fechaVencimiento
        : null;
    const nextLines: Line[] = patch.items ? patch.items.map((i) => ({ ...i })) : lines;
    const termsChanged =
      proveedorChanged ||
      proveedorNombre !== row.proveedorNombre ||
      fecha !== row.fecha ||
      condicion !== row.condicionPago ||
      metodo !== row.metodoPago ||
      vencimiento !== row.fechaVencimiento ||
      !sameLines(nextLines, lines);

    const target = patch.estado ?? row.estado;
    const account = await lockPurchaseAccount(businessId, id, tx);
    // Paid, or paid in part: the money already went out.
    const paid = account?.estado === 'pagado' || (account ? toCents(account.montoPagado) > 0 : false);

    if (target === 'cancelada' && paid) throw conflict('ALREADY_PAID', PURCHASE_MESSAGES.paidCancel);
    const editableNow = row.estado === 'pendiente' || target === 'pendiente';
    if (termsChanged && (!editableNow || target === 'cancelada' || paid)) {
      throw conflict('INVALID_STATE', PURCHASE_MESSAGES.onlyPending);
    }
    // The invoice may arrive after the goods: it may change in any state but cancelada, while
    // nothing was paid (its total is what the purchase owes).
    if (facturaChanged && (target === 'cancelada' || paid)) {
      throw conflict(paid ? 'ALREADY_PAID' : 'INVALID_STATE', PURCHASE_MESSAGES.facturaLocked);
    }

    // 1. Leaving recibida: the goods go out again first.
    if (row.estado === 'recibida' && target !== 'recibida') {
      row = await unreceive(ctx, row, lines, target);
      lines = await loadLines(tx, businessId, id);
    }

    // 2. Lines and conditions, while pendiente.
    if (termsChanged) {
      assertRules({
        proveedor_id: proveedorId,
        fecha,
        condicion_pago: condicion,
        fecha_vencimiento: vencimiento,
        items: nextLines,
        factura,
      });
      if (proveedorId && proveedorChanged) proveedorNombre = (await lockSupplier(tx, businessId, proveedorId)).nombre;
      if (patch.items && !sameLines(nextLines, lines)) {
        await assertProducts(tx, businessId, nextLines);
        await deleteLineRows(businessId, id, tx);
        await insertLines(ctx, id, nextLines);
        lines = await loadLines(tx, businessId, id);
      }
      row = await setPurchase(
        businessId,
        id,
        {
          proveedorId,
          proveedorNombre,
          fecha,
          condicionPago: condicion,
          metodoPago: metodo,
          fechaVencimiento: vencimiento,
          total: centsToDecimal(purchasePayableCents(lines, factura)),
        },
        tx,
      );
      await syncFinance(ctx, row, { movement: await lockLinkedMovement(businessId, id, tx), account });
    }

    // 2b. The supplier's invoice: its total is what the purchase owes.
    if (facturaChanged || (factura && proveedorChanged)) {
      if (!termsChanged) assertRules({ items: lines, factura });
      await writeInvoice(tx, businessId, id, row.proveedorId, factura);
      const total = centsToDecimal(purchasePayableCents(lines, factura));
      if (toCents(total) !== toCents(row.total)) {
        row = await setPurchase(businessId, id, { total }, tx);
        await syncFinance(ctx, row, {
          movement: await lockLinkedMovement(businessId, id, tx),
          account: await lockPurchaseAccount(businessId, id, tx),
        });
      }
    }

    // 3. What may change in any state but cancelada.
    const extra: PurchaseColumns = {};
    if (patch.observaciones !== undefined && patch.observaciones !== row.observaciones) {
      extra.observaciones = patch.observaciones;
    }
    if (patch.fecha_entrega !== undefined && patch.fecha_entrega !== row.fechaEntrega) {
      extra.fechaEntrega = patch.fecha_entrega;
    }
    if (Object.keys(extra).length) {
      row = await setPurchase(businessId, id, extra, tx);
    }

    // 4. Arriving at recibida or cancelada.
    if (target === 'recibida' && (row.estado === 'pendiente' || row.estado === 'recibida_parcial')) {
      row = await receive(ctx, row, lines);
    }
    if (target === 'cancelada') {
      const m = await lockLinkedMovement(businessId, id, tx);
      if (m) {
        await updateMovementRow(businessId, m.id, { anulado: true }, tx);
        await audit(tx, {
          businessId,
          userId,
          entidad: 'movimiento',
          entidadId: m.id,
          accion: 'anular',
          antes: { anulado: false },
          despues: { anulado: true },
        });
      }
      const a = await lockPurchaseAccount(businessId, id, tx);
      if (a) await deleteAccountRow(ctx, a);
      row = await setPurchase(businessId, id, { estado: 'cancelada', canceladaEn: now }, tx);
    }

    const c = changedFields(snapshot(before, beforeLines, beforeFactura), snapshot(row, lines, factura));
    if (c.changed) {
      await audit(tx, {
        businessId,
        userId,
        entidad: 'compra',
        entidadId: id,
        accion: target === 'cancelada' ? 'anular' : 'actualizar',
        antes: c.antes,
        despues: c.despues,
      });
    }
    return getPurchase(tx, businessId, id, today);
  });
}

/* ---------------------------------------------------------------- delete */

/** Only a purchase that is not received and not paid: it goes with its lines, movement and payable. */
export async function deletePurchase(db: Db, businessId: string, userId: string, id: string, today: string) {
  await db.transaction(async (tx) => {
    const ctx: Ctx = { tx, businessId, userId, today, now: new Date() };
    const row = await lockPurchase(tx, businessId, id);
    if (row.estado === 'recibida') throw conflict('INVALID_STATE', PURCHASE_MESSAGES.receivedDelete);
    if (row.estado === 'recibida_parcial') throw conflict('INVALID_STATE', PURCHASE_MESSAGES.partialDelete);
    const account = await lockPurchaseAccount(businessId, id, tx);
    if (account?.estado === 'pagado' || (account && toCents(account.montoPagado) > 0)) {
      throw conflict('ALREADY_PAID', PURCHASE_MESSAGES.paidDelete);
    }
    const lines = await loadLines(tx, businessId, id);
    const movements = await lockPurchaseMovements(businessId, id, tx);
    for (const m of movements) await deleteMovementRow(ctx, m);
    if (account) await deleteAccountRow(ctx, account);
    await deletePurchaseRow(businessId, id, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'compra',
      entidadId: id,
      accion: 'eliminar',
      antes: snapshot(row, lines),
    });
  });
}

/* ---------------------------------------------------------------- Libro IVA Compras */

export interface LibroIvaCompraRow {
  fecha: string;
  tipo: string;
  comprobante: string;
  proveedor: string | null;
  cuit: string | null;
  compra: number;
  factura: FacturaCents;
}

/**
 * The supplier invoices dated in the month `YYYY-MM` (invoice date, not purchase date) of
 * purchases that are not cancelled, oldest first.
 */
export async function libroIvaCompras(db: Db, businessId: string, mes: string): Promise<LibroIvaCompraRow[]> {
  const desde = `${mes}-01`;
  const rows = await libroIvaRows(businessId, desde, db);
  return rows.map((r) => ({
    fecha: r.f.fecha,
    tipo: r.f.tipo,
    comprobante: comprobanteNumero(r.f.puntoVenta, r.f.numero),
    proveedor: r.actual ?? r.nombre,
    cuit: r.cuit,
    compra: r.numero,
    factura: invoiceCents(r.f),
  }));
}
