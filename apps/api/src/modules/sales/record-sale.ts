import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  AUTORIZACION_ATTEMPTS,
  AUTORIZACION_MESSAGES,
  CAJA_MESSAGES,
  CHEQUE_MESSAGES,
  centsToNumber,
  CODE_MEDIO_TIPO,
  formatPesos,
  MEDIO_TIPO_CODE,
  PAYMENT_METHOD_LABELS,
  settlePayments,
  type MedioTipo,
  type PaymentMedio,
  type PaymentMethod,
  type SettledPayment,
  IDEMPOTENCY_TTL_MS,
  MAX_MONEY_CENTS,
  SALE_ATTEMPTS,
  SALE_MESSAGES,
  saleLineCents,
  type RecordSaleOutput,
  type RecordSaleResult,
  type SaleItemType,
} from '@mostrador/shared';
import type { Database } from '../../db/client.js';
import { pipelinedTransaction, type Row, type Send } from '../../db/pipeline.js';
import { asAttempt, attemptOf } from '../../lib/audit.js';
import type { Autorizante } from '../autorizacion/autorizar.js';
import { todayIn } from '../../lib/dates.js';
import { AppError, conflict, invalid } from '../../lib/errors.js';
import { counterTurno } from '../caja/rows.js';
import { receivedChequesCtes } from '../cheques/cheques.queries.js';
import { checkMercadoPagoPayments, mercadoPagoSaleReads } from '../mercadopago/venta.js';
import { toCents, toMilli } from '../products/common.js';
import { inFlight, saleSlot } from './in-flight.js';
import { listaPricer, listaReads, type ListPrice } from './lista-venta.js';
import {
  claimKeySql,
  customerSaldoSql,
  customerSql,
  expiredKeysSql,
  heldKeySql,
  incomeCtes,
  invoicingSql,
  keyAnswerCte,
  depositoStockSql,
  lockProductsSql,
  numberedSaleCtes,
  openTurnosSql,
  paymentMethodsSql,
  saleAuditCte,
  salePaymentsCte,
  salesCategorySql,
  servicesSql,
  stockTakenCtes,
  takeOverKeySql,
  turnoSql,
  type SaleDeposito,
  type StoredLine,
} from './record-sale.queries.js';
import type { SaleContext, SaleResponse } from './sales.service.js';

const qtyFormat = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 3 });

interface CatalogueEntry {
  nombre: string;
  precio: number;
  costo: number;
  activo: boolean;
  /** Thousandths; products only (read under the row lock). */
  stock: number;
  /** Products only: false when its sales change no stock. */
  controla: boolean;
  /** Products only: the business lets a sale take more than the stock. */
  sinStock: boolean;
  /** The IVA rate in force, kept on the line so an invoice issued later uses it. */
  iva: string;
}

/** A line as the sale stores it, with its amount before the line's discount. */
interface Line extends StoredLine {
  /** cantidad × precio, before the line's discount (subtotal = bruto − descuento). */
  bruto: number;
}

/** The request body as a stable fingerprint (the business is part of the key's scope already). */
function requestHash(input: RecordSaleOutput): string {
  // Without the authorization: the PIN is not kept, and the same cart authorized keeps its key.
  const { negocio_id: _ignored, autorizacion: _pin, ...rest } = input;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url');
}

/** Reused across sales: the system category "Ventas" never changes its id (it cannot be deleted). */
const salesCategoryCache = new Map<string, string>();

/**
 * The first answer to an Idempotency-Key this request could not claim (another request holds or
 * held it: the claim waited until that one ended), or null after taking the key over when that
 * answer is older than 24 hours.
 */
async function previousAnswer(send: Send, c: SaleContext, clave: string, hash: string): Promise<SaleResponse | null> {
  const [
    {
      rows: [prev],
    },
  ] = await send([
    // The sale's invoice request too, so a replay can still issue an invoice a crash left undone.
    heldKeySql(c.businessId, c.userId, clave),
  ]);
  if (prev && prev.status !== 0 && (prev.creado_en as Date).getTime() > c.now.getTime() - IDEMPOTENCY_TTL_MS) {
    if (prev.hash !== hash) {
      throw new AppError(422, 'IDEMPOTENCY_MISMATCH', SALE_MESSAGES.idempotencyMismatch, {
        errors: [{ field: 'Idempotency-Key', message: SALE_MESSAGES.idempotencyMismatch }],
      });
    }
    // jsonb reorders keys: answer with the first response's fields in their usual order.
    const r = prev.respuesta as RecordSaleResult;
    return {
      // Only a written sale's key has a status (201, set in the sale's transaction).
      status: prev.status as 201,
      body: { id: r.id, numero: r.numero, total: r.total, fecha: r.fecha, mensaje: r.mensaje },
      facturar: prev.facturar === true,
    };
  }
  await send([takeOverKeySql(c.businessId, c.userId, clave, hash, c.now)]);
  return null;
}

/**
 * What the first round trip reads, by name (only the statements this sale needs): builders of
 * record-sale.queries.ts, sent together; `record` finds each one's rows by its name.
 */
function reads(
  c: SaleContext,
  input: RecordSaleOutput,
  clave: string | null,
  hash: string | null,
  origen?: OrigenVenta,
) {
  const ids = (tipo: SaleItemType) => [...new Set(input.items.filter((i) => i.tipo === tipo).map((i) => i.id))];
  const productIds = ids('producto');
  const serviceIds = ids('servicio');
  // First a slot among the business's sales in flight (every instance counts): the reads wait for it.
  const statements: [name: string, statement: SQL][] = [['slot', saleSlot(c.businessId)]];
  // The document the sale comes from, locked before anything else (decision 0056).
  if (origen) statements.push(...origen.reads);
  if (clave) {
    // The claim: a concurrent request with the same key waits here, on the unique key, until this
    // one commits (then it finds the answer) or rolls back (then it claims the key).
    statements.push(['claim', claimKeySql(c.businessId, c.userId, clave, hash, c.now)]);
  }
  if (productIds.length) {
    // Every product line changes its stock: locked now, in ascending id order (no deadlocks
    // between concurrent sales), so their stock is read here and cannot change until commit.
    statements.push(['producto', lockProductsSql(c.businessId, productIds)]);
    // Their stock in the depósitos other than the principal, read after the lock (decision 0059).
    statements.push(['deposito', depositoStockSql(c.businessId, productIds)]);
  }
  statements.push(...listaReads(c, input, productIds));
  if (serviceIds.length) {
    statements.push(['servicio', servicesSql(c.businessId, serviceIds)]);
  }
  if (input.cliente_id) {
    // With split payments a part may go on the customer's account: the customer is locked (as a
    // cobro locks it) so that its balance and credit limit hold until this sale commits.
    statements.push(['cliente', customerSql(c.businessId, input.cliente_id, Boolean(input.pagos))]);
    if (input.pagos) {
      // Its own statement, after the lock: it sees what a concurrent sale or cobro committed.
      statements.push(['saldo', customerSaldoSql(c.businessId, input.cliente_id)]);
    }
  }
  statements.push(['medios', paymentMethodsSql(c.businessId)]);
  // The Mercado Pago orders the payments name, locked, and the business's MP medio (decision 0052).
  statements.push(...mercadoPagoSaleReads(c.businessId, input));
  // The turno the sale belongs to, held (FOR SHARE) so that it cannot close under the sale.
  statements.push(['turno', input.turno_id ? turnoSql(c.businessId, input.turno_id) : openTurnosSql(c.businessId)]);
  // Whether this sale is invoiced (decision 0013): stored with the sale, in its own INSERT.
  statements.push(['facturacion', invoicingSql(c.businessId)]);
  if (!salesCategoryCache.has(c.businessId)) {
    statements.push(['categoria', salesCategorySql(c.businessId)]);
  }
  return statements;
}

function catalogue(rows: Row[] | undefined): Map<string, CatalogueEntry> {
  return new Map(
    (rows ?? []).map((r) => [
      r.id as string,
      {
        nombre: r.nombre as string,
        precio: toCents(r.precio as string),
        costo: r.costo === null ? 0 : toCents(r.costo as string),
        activo: r.activo as boolean,
        stock: r.stock === undefined ? 0 : toMilli(r.stock as string),
        controla: r.controla !== false,
        sinStock: r.sin_stock === true,
        iva: (r.iva as string | undefined) ?? '21',
      },
    ]),
  );
}

/** The lines at their prices, or the 422 of the first line that cannot be sold. */
function priceLines(
  input: RecordSaleOutput,
  cat: Record<SaleItemType, Map<string, CatalogueEntry>>,
  listPrice: ListPrice | null,
): Line[] {
  return input.items.map((item, i) => {
    const found = cat[item.tipo].get(item.id);
    if (!found) {
      throw invalid(
        `items.${i}.id`,
        item.tipo === 'producto' ? SALE_MESSAGES.productNotInBusiness : SALE_MESSAGES.serviceNotInBusiness,
      );
    }
    if (!found.activo) {
      throw invalid(
        `items.${i}.id`,
        item.tipo === 'producto'
          ? SALE_MESSAGES.productInactive(found.nombre)
          : SALE_MESSAGES.serviceInactive(found.nombre),
      );
    }
    const precioLista =
      item.tipo === 'producto' && listPrice ? listPrice(item.id, item.cantidad, found.precio) : found.precio;
    const precio = item.precio ?? precioLista;
    const bruto = saleLineCents(item.cantidad, precio);
    if (bruto > MAX_MONEY_CENTS) throw invalid(`items.${i}.cantidad`, SALE_MESSAGES.tooMuch);
    const descuento = item.descuento ?? 0;
    if (descuento > bruto) throw invalid(`items.${i}.descuento`, SALE_MESSAGES.lineDiscountTooHigh);
    return {
      posicion: i,
      tipo: item.tipo,
      id: item.id,
      nombre: found.nombre,
      cantidad: item.cantidad,
      precio,
      precioLista,
      bruto,
      descuento,
      subtotal: bruto - descuento,
      costoUnitario: found.costo,
      costoTotal: saleLineCents(item.cantidad, found.costo),
      iva: found.iva,
    };
  });
}

/**
 * Records a sale in one transaction (API-CONTRACT §6.2) in two round trips to PostgreSQL:
 *
 * 1. BEGIN, a slot among the business's sales in flight (in-flight.ts), the Idempotency-Key
 *    claim, the products locked in ascending id order (no deadlocks) with their stock, the
 *    services, the customer, the "Ventas" category and the business's invoicing mode, sent together.
 *    Every check runs on what came back: unknown or inactive items and customers (422), totals,
 *    and the stock of each product (409 naming it), which cannot change while the rows are locked.
 * 2. One statement writes everything, then COMMIT, sent together: the number from the
 *    per-business counter (its row lock is held until commit, so numbers never skip), the sale
 *    and its lines, the stock decrements (below 0 only when the business sells without stock)
 *    with their movements, the income movement in "Ventas" with its audit row,
 *    the sale's audit row and the key's answer. Nothing waits for the application between taking
 *    the number and committing, so concurrent cashiers queue on the counter only for that.
 *
 * Nothing is stored when any part fails.
 */
export async function recordSale(
  database: Database,
  c: SaleContext,
  input: RecordSaleOutput,
  idempotencyKey?: string | null,
  origen?: OrigenVenta,
): Promise<SaleResponse> {
  const hash = idempotencyKey ? requestHash(input) : null;
  return inFlight(database.pool)(c.businessId, () =>
    pipelinedTransaction(database.pool, (send) => record(send, c, input, idempotencyKey ?? null, hash, origen)),
  );
}

/**
 * A sale made from another document (a presupuesto, remitos: decision 0056): its rows are locked
 * and checked inside the sale's transaction, and changed by the same statement that writes it, so
 * two conversions of the same document cannot both succeed.
 */
export interface OrigenVenta {
  /** Reads sent first in the first round trip (before the products are locked). */
  reads: [name: string, statement: SQL][];
  /** Checks what they read; throws (409, 422) to refuse the sale. */
  check(read: Map<string, Row[]>): void;
  /** Common table expressions written with the sale (they may read `s`). */
  ctes: SQL[];
  /** The stock already left (remitos): the sale takes none. */
  sinStock?: boolean;
}

type Precios = NonNullable<SaleContext['precios']>;

/** A member without cambiar_precios sells at the catalogue price (403 naming the first line changed). */
function priceChangeRefusal(precios: Precios, lines: Line[]): AppError | null {
  if (precios.cambiar) return null;
  const changed = lines.find((l) => l.precio !== l.precioLista);
  if (!changed) return null;
  return asAttempt(
    new AppError(403, 'PRICE_CHANGE_FORBIDDEN', SALE_MESSAGES.priceChangeForbidden(changed.nombre), {
      field: `items.${changed.posicion}.precio`,
    }),
    {
      entidad: 'venta',
      despues: {
        motivo: SALE_ATTEMPTS.priceChange,
        [changed.tipo === 'producto' ? 'producto_id' : 'servicio_id']: changed.id,
        nombre: changed.nombre,
        cantidad: changed.cantidad / 1000,
        precio_lista: centsToNumber(changed.precioLista),
        precio: centsToNumber(changed.precio),
      },
    },
  );
}

/**
 * A member without cambiar_precios discounts at most their descuento_maximo % of the subtotal
 * before discounts, the lines' and the sale's together.
 */
function discountRefusal(precios: Precios, lines: Line[], saleDescuento: number): AppError | null {
  const max = precios.cambiar ? null : precios.descuentoMaximo;
  const subtotal = lines.reduce((s, l) => s + l.bruto, 0);
  const descuento = saleDescuento + lines.reduce((s, l) => s + l.descuento, 0);
  // descuento / subtotal > max %, exactly: cents × 10 000 against cents × (max × 100), in BigInt.
  if (
    max === null ||
    descuento <= 0 ||
    BigInt(descuento) * 10_000n <= BigInt(subtotal) * BigInt(Math.round(max * 100))
  ) {
    return null;
  }
  return asAttempt(new AppError(403, 'DISCOUNT_OVER_MAX', SALE_MESSAGES.discountOverMax(max), { field: 'descuento' }), {
    entidad: 'venta',
    despues: {
      motivo: SALE_ATTEMPTS.discountOverMax,
      subtotal: centsToNumber(subtotal),
      descuento: centsToNumber(descuento),
      descuento_maximo: max,
    },
  });
}

/**
 * What the seller may not do alone goes through when the member who authorized with their PIN
 * may (decision 0049): the reason is returned, for the sale's change-log row. Without an
 * authorizer the refusal stands; with one who may not either, 403 naming them, both logged.
 */
function authorized(c: SaleContext, refusal: AppError | null, stillRefused: (a: Autorizante) => AppError | null) {
  if (!refusal) return [];
  const a = c.autorizador;
  if (!a) throw refusal;
  const attempt = attemptOf(refusal)!;
  if (stillRefused(a)) {
    throw asAttempt(
      new AppError(403, 'AUTHORIZATION_REFUSED', AUTORIZACION_MESSAGES.withoutRight(a.nombre), {
        field: 'autorizacion.usuario_id',
        motivo: refusal.code,
      }),
      {
        ...attempt,
        despues: { ...attempt.despues, autorizador_id: a.id, autorizacion: AUTORIZACION_ATTEMPTS.withoutRight },
      },
    );
  }
  return [attempt.despues.motivo as string];
}

/**
 * A seller without cambiar_precios sells at the catalogue price and within their maximum discount
 * (403 otherwise, before anything is written), unless a member who may authorized it: the reasons
 * authorized.
 */
function checkPriceControls(c: SaleContext, lines: Line[], saleDescuento: number): string[] {
  if (!c.precios) return [];
  return [
    ...authorized(c, priceChangeRefusal(c.precios, lines), (a) => priceChangeRefusal(a.precios, lines)),
    ...authorized(c, discountRefusal(c.precios, lines, saleDescuento), (a) =>
      discountRefusal(a.precios, lines, saleDescuento),
    ),
  ];
}

/**
 * The stock each product line takes ([id, thousandths] in id order; products that do not track
 * stock take none), or 409 naming the first short one unless the business sells without stock.
 */
function stockChanges(lines: Line[], products: Map<string, CatalogueEntry>, offline: boolean): [string, number][] {
  const perProduct = new Map<string, number>();
  for (const l of lines) {
    if (l.tipo === 'producto' && products.get(l.id)!.controla) {
      perProduct.set(l.id, (perProduct.get(l.id) ?? 0) + l.cantidad);
    }
  }
  const changes = [...perProduct.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [id, cantidad] of changes) {
    const p = products.get(id)!;
    // A sale taken offline already happened at the counter: it is kept, and the stock goes
    // negative with its notification, as when the business sells without stock (decision 0014).
    if (p.stock < cantidad && !p.sinStock && !offline) {
      throw conflict('INSUFFICIENT_STOCK', SALE_MESSAGES.insufficientStock(p.nombre, qtyFormat.format(p.stock / 1000)));
    }
  }
  return changes;
}

/**
 * The payments of the sale. A split payment (`pagos`) names the business's medios: each must be
 * active, and their surcharges or discounts apply to their parts. A call with only a
 * `metodo_pago` code (the contract) pays the whole base with the first medio of that kind and no
 * adjustment, so existing clients get the totals they always got.
 */
function payments(input: RecordSaleOutput, base: number, rows: Row[]) {
  const medios = rows.map((r) => ({
    id: r.id as string,
    nombre: r.nombre as string,
    tipo: r.tipo as MedioTipo,
    ajuste_porcentaje: Number(r.ajuste),
    activo: r.activo as boolean,
  }));
  let wanted: { medio: PaymentMedio; monto: number }[];
  if (input.pagos) {
    const byId = new Map(medios.map((m) => [m.id, m]));
    wanted = input.pagos.map((p, i) => {
      const m = byId.get(p.medio_pago_id);
      if (!m) throw invalid(`pagos.${i}.medio_pago_id`, CAJA_MESSAGES.medioNotInBusiness);
      if (!m.activo) throw invalid(`pagos.${i}.medio_pago_id`, CAJA_MESSAGES.medioInactive(m.nombre));
      if (m.tipo === 'cuenta_corriente' && !input.cliente_id) {
        throw invalid(`pagos.${i}.medio_pago_id`, CAJA_MESSAGES.accountNeedsCustomer);
      }
      // A cheque goes to the cartera, the customer's: its data and the customer are required (decision 0057).
      if (m.tipo === 'cheque') {
        if (!p.cheque) throw invalid(`pagos.${i}.cheque`, CHEQUE_MESSAGES.sinDatos);
        if (!input.cliente_id) throw invalid(`pagos.${i}.medio_pago_id`, CHEQUE_MESSAGES.necesitaCliente);
      }
      return { medio: m, monto: p.monto };
    });
  } else {
    const code = input.metodo_pago!;
    const tipo = CODE_MEDIO_TIPO[code];
    const m = medios.find((x) => x.tipo === tipo && x.activo) ?? medios.find((x) => x.tipo === tipo);
    const medio: PaymentMedio = m
      ? { ...m, ajuste_porcentaje: 0 }
      : { id: null, nombre: PAYMENT_METHOD_LABELS[code], tipo, ajuste_porcentaje: 0 };
    wanted = [{ medio, monto: base }];
  }
  const settled = settlePayments(base, wanted);
  if (!settled.ok) {
    throw invalid(
      'pagos',
      settled.error === 'short' ? CAJA_MESSAGES.pagosShort(formatPesos(settled.falta)) : CAJA_MESSAGES.pagosOver,
    );
  }
  const largest = settled.parts.reduce((a, b) => (b.total > a.total ? b : a));
  return {
    ...settled,
    metodoPago: input.metodo_pago && !input.pagos ? input.metodo_pago : MEDIO_TIPO_CODE[largest.medio.tipo],
  };
}

/**
 * The turno of the sale: the one named (it must be open), else the open turno its seller opened,
 * else the business's only open turno; none when there is no open turno.
 */
function saleTurno(c: SaleContext, input: RecordSaleOutput, rows: Row[]): string | null {
  if (input.turno_id) {
    const [t] = rows;
    if (!t) throw invalid('turno_id', CAJA_MESSAGES.turnoNotInBusiness);
    if (t.estado !== 'abierto') throw conflict('TURNO_CLOSED', CAJA_MESSAGES.turnoClosed);
    return t.id as string;
  }
  return counterTurno(rows, c.userId);
}

/**
 * The depósito the sale takes its stock from: its turno's caja's (decision 0059), else the
 * principal; each product's stock becomes that depósito's (the principal's is the total less the
 * others'), read under the products' lock.
 */
function saleDeposito(turno: Row | undefined, others: Row[], producto: Map<string, CatalogueEntry>): SaleDeposito {
  const deposito: SaleDeposito =
    turno?.deposito_id && turno.deposito_principal === false
      ? { id: turno.deposito_id as string, principal: false }
      : { id: (turno?.deposito_id as string | undefined) ?? null, principal: true };
  const inOthers = new Map<string, number>();
  const inThis = new Map<string, number>();
  for (const r of others) {
    const pid = r.producto_id as string;
    const q = toMilli(r.stock as string);
    inOthers.set(pid, (inOthers.get(pid) ?? 0) + q);
    if (r.deposito_id === deposito.id) inThis.set(pid, q);
  }
  for (const [pid, p] of producto) {
    p.stock = deposito.principal ? p.stock - (inOthers.get(pid) ?? 0) : (inThis.get(pid) ?? 0);
  }
  return deposito;
}

/** A sale on account may not take the customer over their credit limit, unless the seller may exceed it. */
function creditRefusal(
  exceder: boolean | undefined,
  parts: SettledPayment[],
  cliente: Row | undefined,
  saldoText?: string,
): AppError | null {
  const onAccount = parts.reduce((s, p) => s + (p.medio.tipo === 'cuenta_corriente' ? p.total : 0), 0);
  if (!onAccount || !cliente || cliente.limite_credito === null || exceder) return null;
  const limite = toCents(cliente.limite_credito as string);
  const saldo = toCents(saldoText ?? '0');
  if (saldo + onAccount <= limite) return null;
  return asAttempt(
    new AppError(
      403,
      'CREDIT_LIMIT',
      CAJA_MESSAGES.creditLimit(cliente.nombre as string, formatPesos(Math.max(0, limite - saldo))),
      { field: 'pagos' },
    ),
    {
      entidad: 'venta',
      despues: {
        motivo: SALE_ATTEMPTS.creditLimit,
        cliente_id: cliente.id as string,
        limite_credito: centsToNumber(limite),
        saldo: centsToNumber(saldo),
        monto: centsToNumber(onAccount),
      },
    },
  );
}

async function record(
  send: Send,
  c: SaleContext,
  input: RecordSaleOutput,
  idempotencyKey: string | null,
  hash: string | null,
  origen?: OrigenVenta,
): Promise<SaleResponse> {
  const wanted = reads(c, input, idempotencyKey, hash, origen);
  const results = await send(wanted.map(([, s]) => s));
  const read = new Map(wanted.map(([name], i) => [name, results[i].rows]));
  origen?.check(read);

  if (idempotencyKey && !read.get('claim')!.length) {
    const previous = await previousAnswer(send, c, idempotencyKey, hash!);
    if (previous) {
      await send([], { commit: true });
      return previous;
    }
  }

  const cat = { producto: catalogue(read.get('producto')), servicio: catalogue(read.get('servicio')) };
  const lines = priceLines(input, cat, listaPricer(c, input, read));
  const subtotal = lines.reduce((s, l) => s + l.subtotal, 0);
  const costo = lines.reduce((s, l) => s + l.costoTotal, 0);
  const descuento = input.descuento ?? 0;
  if (subtotal > MAX_MONEY_CENTS || costo > MAX_MONEY_CENTS) throw invalid('items', SALE_MESSAGES.tooMuch);
  if (descuento > subtotal) throw invalid('descuento', SALE_MESSAGES.discountTooHigh);
  const autorizados = checkPriceControls(c, lines, descuento);
  const base = subtotal - descuento;
  const pay = payments(input, base, read.get('medios') ?? []);
  checkMercadoPagoPayments(input, pay.parts, read);
  const total = pay.total;
  if (total > MAX_MONEY_CENTS) throw invalid('pagos', SALE_MESSAGES.tooMuch);
  const turnos = read.get('turno') ?? [];
  const turnoId = saleTurno(c, input, turnos);
  const deposito = saleDeposito(
    turnos.find((t) => t.id === turnoId),
    read.get('deposito') ?? [],
    cat.producto,
  );
  if (input.cliente_id && !read.get('cliente')!.length) {
    throw invalid('cliente_id', SALE_MESSAGES.customerNotInBusiness);
  }
  const cliente = read.get('cliente')?.[0];
  const saldo = read.get('saldo')?.[0]?.saldo as string | undefined;
  autorizados.push(
    ...authorized(c, creditRefusal(c.excederCredito, pay.parts, cliente, saldo), (a) =>
      creditRefusal(a.excederCredito, pay.parts, cliente, saldo),
    ),
  );
  const categoria = read.get('categoria')?.[0]?.id as string | undefined;
  if (categoria) {
    if (salesCategoryCache.size > 10_000) salesCategoryCache.clear();
    salesCategoryCache.set(c.businessId, categoria);
  }
  const categoriaId = salesCategoryCache.get(c.businessId) ?? null;

  // Checked on the locked rows: their stock cannot change until this transaction ends.
  const changes = origen?.sinStock ? [] : stockChanges(lines, cat.producto, Boolean(input.offline));

  const cfg = read.get('facturacion')?.[0];
  // Only a business ready to issue marks its sales (as the after-step did): the sweep relies on it.
  const facturar = !!cfg?.lista && (input.facturar ?? cfg.facturar === 'siempre');

  const fecha = saleDate(c.now, input);
  const body = { total: centsToNumber(total), fecha: fecha.toISOString(), mensaje: SALE_MESSAGES.created };
  const write = writeSale(c, input, idempotencyKey, origen?.ctes ?? [], {
    lines,
    stockChanges: changes,
    deposito,
    subtotal,
    descuento,
    ajuste: pay.ajuste,
    total,
    parts: pay.parts,
    metodoPago: pay.metodoPago,
    turnoId,
    costo,
    categoriaId,
    fecha,
    body,
    facturar,
    autorizados,
  });
  const cleanup =
    idempotencyKey && Math.random() < 0.01
      ? // Expired keys are cleared now and then rather than by a scheduler.
        [expiredKeysSql(new Date(c.now.getTime() - IDEMPOTENCY_TTL_MS))]
      : [];
  const written = await send([...cleanup, write], { commit: true });
  const { id, numero } = written[written.length - 1].rows[0] as { id: string; numero: number };
  return { status: 201, body: { id, numero, ...body }, facturar };
}

interface SaleFigures {
  lines: Line[];
  /** [product id, thousandths] in ascending id order. */
  stockChanges: [string, number][];
  /** The depósito the stock comes from. */
  deposito: SaleDeposito;
  subtotal: number;
  descuento: number;
  ajuste: number;
  total: number;
  parts: SettledPayment[];
  /** The contract's code of the sale (the largest part's when split). */
  metodoPago: PaymentMethod;
  turnoId: string | null;
  costo: number;
  categoriaId: string | null;
  /** When the sale happened: now, or the device's time of a sale taken offline. */
  fecha: Date;
  body: Omit<RecordSaleResult, 'id' | 'numero'>;
  /** Invoice it: the marker the reconcile sweep finds if the after-step never runs. */
  facturar: boolean;
  /** What c.autorizador authorized (none: the sale records no authorizer). */
  autorizados: string[];
}

/**
 * A sale taken offline keeps the device's time (never in the future nor more than 30 days back: a
 * wrong clock cannot move it far); its number is still taken now, so numbers follow the order in
 * which sales reach the server (decision 0003 is unchanged).
 */
function saleDate(now: Date, input: RecordSaleOutput): Date {
  if (!input.offline) return now;
  const t = new Date(input.offline.creada_en).getTime();
  const oldest = now.getTime() - 30 * 24 * 3600 * 1000;
  return new Date(Math.min(now.getTime(), Math.max(oldest, t)));
}

/**
 * The one statement that numbers and writes a checked sale (see recordSale): the common table
 * expressions of record-sale.queries.ts, in order, then the sale's id and number.
 */
function writeSale(c: SaleContext, input: RecordSaleOutput, clave: string | null, extra: SQL[], f: SaleFigures): SQL {
  const { businessId, userId } = c;
  const { lines, total } = f;
  // A part on the customer's account is a receivable, not money in: its cobro will be the income.
  // A cheque received is not money yet either: its income comes when it is credited or endorsed.
  const cheques = f.parts.flatMap((p, i) => {
    const c = input.pagos?.[i]?.cheque;
    return c && p.medio.tipo === 'cheque' ? [{ posicion: i, montoCents: p.total, c }] : [];
  });
  const paid = f.parts
    .map((p, i) => ({ ...p, posicion: i }))
    .filter(
      (p) => p.total > 0 && p.medio.tipo !== 'cuenta_corriente' && !cheques.some((c) => c.posicion === p.posicion),
    );
  const saleAudit = {
    total: centsToNumber(total),
    descuento: centsToNumber(f.descuento),
    metodo_pago: f.metodoPago,
    ...(input.pagos
      ? {
          pagos: f.parts.map((p) => ({
            medio_pago_id: p.medio.id,
            nombre: p.medio.nombre,
            monto: centsToNumber(p.monto),
            ajuste: centsToNumber(p.ajuste),
            vuelto: centsToNumber(p.vuelto),
          })),
        }
      : {}),
    ...(f.turnoId ? { turno_id: f.turnoId } : {}),
    ...(input.offline ? { offline: input.offline } : {}),
    ...(f.autorizados.length ? { autorizado_por_id: c.autorizador!.id, autorizado: f.autorizados } : {}),
    cliente_id: input.cliente_id ?? null,
    items: lines.map((l) => ({
      tipo: l.tipo,
      id: l.id,
      nombre: l.nombre,
      cantidad: l.cantidad / 1000,
      precio_unitario: centsToNumber(l.precio),
      ...(l.precio !== l.precioLista ? { precio_lista: centsToNumber(l.precioLista) } : {}),
      ...(l.descuento ? { descuento: centsToNumber(l.descuento) } : {}),
    })),
  };
  const ctes = [
    numberedSaleCtes(
      businessId,
      {
        vendedorId: userId,
        fecha: f.fecha,
        clienteId: input.cliente_id ?? null,
        metodoPago: f.metodoPago,
        subtotal: f.subtotal,
        descuento: f.descuento,
        ajuste: f.ajuste,
        total,
        costo: f.costo,
        observaciones: input.observaciones ?? null,
        autorizadoPor: f.autorizados.length ? c.autorizador!.id : null,
        turnoId: f.turnoId,
        facturar: f.facturar,
        receptor: f.facturar ? (input.receptor ?? null) : null,
      },
      lines,
    ),
    // What the customer handed over is kept for cash in a split payment only.
    salePaymentsCte(
      businessId,
      f.parts.map((p, i) => ({
        ...p,
        recibido: p.medio.tipo === 'efectivo' && input.pagos ? p.recibido : null,
        mercadopagoOrdenId: input.pagos?.[i]?.mercadopago_orden_id ?? null,
      })),
    ),
    ...(f.stockChanges.length ? [stockTakenCtes(businessId, userId, f.stockChanges, f.deposito)] : []),
    // One income movement per payment on the business's calendar day of the sale.
    ...(paid.length
      ? [
          incomeCtes(businessId, userId, {
            categoriaId: f.categoriaId,
            fecha: todayIn(c.timezone, f.fecha),
            clienteId: input.cliente_id ?? null,
            paid,
          }),
        ]
      : []),
    ...(cheques.length
      ? [
          receivedChequesCtes(businessId, userId, {
            clienteId: input.cliente_id!,
            fecha: todayIn(c.timezone, f.fecha),
            cheques: cheques.map(({ montoCents, c: d }) => ({
              montoCents,
              electronico: d.electronico,
              banco: d.banco,
              numero: d.numero,
              fechaEmision: d.fecha_emision ?? null,
              fechaPago: d.fecha_pago,
              libradorNombre: d.librador_nombre,
              libradorCuit: d.librador_cuit ?? null,
            })),
          }),
        ]
      : []),
    saleAuditCte(businessId, userId, saleAudit),
    ...(clave ? [keyAnswerCte(businessId, userId, clave, f.body)] : []),
    ...extra,
  ];
  return sql`WITH ${sql.join(ctes, sql`, `)}
    SELECT s.id, s.numero FROM s`;
}
