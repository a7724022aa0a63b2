import {
  CAJA_MESSAGES,
  CHEQUE_MESSAGES,
  centsToNumber,
  CUSTOMER_MESSAGES,
  formatPesos,
  MEDIO_TIPO_CODE,
  ageingBucket,
  AGEING_BUCKETS,
  type AccountMove,
  type AgeingBucket,
  type Deudor,
  type Cobro,
  type ChequeRecibido,
  type CuentaCorriente,
  type MedioTipo,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { daysBetween, todayIn } from '../../lib/dates.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import { customerReceivables } from '../finance/accounts.queries.js';
import { receiveCheque } from '../cheques/cheques.service.js';
import { postMovement } from '../posting/finance.js';
import { toCents } from '../products/common.js';
import {
  cobroRow,
  cuentaMoveRows,
  customerBalanceRow,
  deudorRows,
  findMedio,
  insertCobro,
  salesCategory,
} from './cuenta.queries.js';
import { counterTurnoOf, iso, type R } from './rows.js';

/** The customer (locked FOR UPDATE when a payment is being taken) with its balance in cents. */
async function customerWithBalance(ex: Executor, businessId: string, id: string, lock: boolean) {
  const c = await customerBalanceRow(businessId, id, lock, ex);
  if (!c) throw notFound(CUSTOMER_MESSAGES.notFound);
  return {
    id: c.id as string,
    nombre: c.nombre as string,
    limite: c.limite_credito === null ? null : toCents(c.limite_credito as string),
    saldo: toCents(c.saldo as string),
  };
}

/**
 * The customer's account: sales on account (debe), their voids, the cobros and the returns to
 * the account (haber), oldest
 * first with the running balance.
 */
export async function getCuenta(
  ex: Executor,
  businessId: string,
  clienteId: string,
  today: string,
): Promise<CuentaCorriente> {
  const c = await customerWithBalance(ex, businessId, clienteId, false);
  const [moves, otras] = await Promise.all([
    cuentaMoveRows(businessId, clienteId, ex),
    customerReceivables(businessId, clienteId, today, ex),
  ]);
  let saldo = 0;
  const movimientos = moves.map((m): AccountMove => {
    const monto = toCents(m.monto as string);
    const debe = m.tipo === 'venta' || m.tipo === 'cheque_rechazado' ? monto : 0;
    saldo += debe - (debe ? 0 : monto);
    return {
      tipo: m.tipo as AccountMove['tipo'],
      fecha: iso(m.fecha),
      numero: m.numero as number,
      referencia_id: m.id as string,
      debe: centsToNumber(debe),
      haber: centsToNumber(debe ? 0 : monto),
      saldo: centsToNumber(saldo),
    };
  });
  return {
    cliente_id: c.id,
    cliente_nombre: c.nombre,
    saldo: centsToNumber(c.saldo),
    limite_credito: c.limite === null ? null : centsToNumber(c.limite),
    por_cobrar: centsToNumber(toCents(otras.pendiente)),
    por_cobrar_vencido: centsToNumber(toCents(otras.vencido)),
    cuentas_por_cobrar: otras.cantidad,
    total_adeudado: centsToNumber(Math.max(c.saldo, 0) + toCents(otras.pendiente)),
    movimientos,
  };
}

/** A cobro as its receipt prints it, with the customer's balance before and after it (issue 35). */
export async function getCobro(ex: Executor, businessId: string, id: string, today: string): Promise<Cobro> {
  const k = await cobroRow(businessId, id, ex);
  if (!k) throw notFound(CAJA_MESSAGES.cobroNotFound);
  const cuenta = await getCuenta(ex, businessId, k.cliente_id as string, today);
  const move = cuenta.movimientos.find((m) => m.tipo === 'cobro' && m.referencia_id === k.id);
  const monto = toCents(k.monto as string);
  const saldo = move ? toCents(String(move.saldo)) : toCents(String(cuenta.saldo));
  return {
    id: k.id as string,
    numero: k.numero as number,
    fecha: iso(k.fecha),
    cliente_id: k.cliente_id as string,
    cliente_nombre: cuenta.cliente_nombre,
    monto: centsToNumber(monto),
    medio_pago_id: k.medio_pago_id as string,
    medio_nombre: k.medio_nombre as string,
    turno_id: (k.turno_id as string | null) ?? null,
    usuario: k.usuario_id ? { id: k.usuario_id as string, nombre: (k.usuario_nombre as string | null) ?? '' } : null,
    observaciones: (k.observaciones as string | null) ?? null,
    saldo_anterior: centsToNumber(saldo + monto),
    saldo: centsToNumber(saldo),
  };
}

/**
 * A customer's payment on account: at most what they owe (the customer is locked, so concurrent
 * payments never overpay), with any medio that brings money; a numbered receipt, its income
 * movement (the cash of the day) and its place in the open turno.
 */
export async function createCobro(
  db: Db,
  ctx: { businessId: string; userId: string; timezone: string; now: Date },
  clienteId: string,
  input: {
    monto: number;
    medio_pago_id: string;
    turno_id?: string;
    observaciones?: string | null;
    cheque?: ChequeRecibido;
  },
): Promise<Cobro> {
  const { businessId, userId } = ctx;
  return db.transaction(async (tx) => {
    const c = await customerWithBalance(tx, businessId, clienteId, true);
    const m = await findMedio(businessId, input.medio_pago_id, tx);
    if (!m) throw invalid('medio_pago_id', CAJA_MESSAGES.medioNotInBusiness);
    if (!m.activo) throw invalid('medio_pago_id', CAJA_MESSAGES.medioInactive(m.nombre as string));
    if (m.tipo === 'cuenta_corriente') throw invalid('medio_pago_id', CAJA_MESSAGES.cobroWithAccount);
    if (m.tipo === 'cheque' && !input.cheque) throw invalid('cheque', CHEQUE_MESSAGES.sinDatos);
    if (c.saldo <= 0) throw conflict('OVER_BALANCE', CAJA_MESSAGES.cobroNothingOwed);
    if (input.monto > c.saldo) {
      throw new AppError(409, 'OVER_BALANCE', CAJA_MESSAGES.cobroOverBalance(formatPesos(c.saldo)), { field: 'monto' });
    }
    const turnoId = await counterTurnoOf(tx, businessId, userId, input.turno_id);
    const metodo = MEDIO_TIPO_CODE[m.tipo as MedioTipo];
    const k = await insertCobro(
      businessId,
      {
        clienteId,
        now: ctx.now,
        montoCents: input.monto,
        medioPagoId: m.id as string,
        metodo,
        turnoId,
        userId,
        observaciones: input.observaciones ?? null,
      },
      tx,
    );
    // A cheque goes to the cartera: its income is recorded when the bank credits it or it pays a
    // supplier (decision 0057).
    const chequeId =
      m.tipo === 'cheque' && input.cheque
        ? await receiveCheque(tx, ctx, {
            datos: input.cheque,
            montoCents: input.monto,
            clienteId,
            cobroId: k.id as string,
          })
        : null;
    if (!chequeId) {
      const cat = await salesCategory(businessId, tx);
      const fecha = todayIn(ctx.timezone, ctx.now);
      const descripcion = `Cobro #${k.numero as number} · ${c.nombre}`;
      await postMovement(tx, businessId, userId, {
        tipo: 'ingreso',
        categoriaId: (cat?.id as string) ?? null,
        montoCents: input.monto,
        fecha,
        metodoPago: metodo,
        medioPagoId: m.id as string,
        descripcion,
        observaciones: null,
        clienteId,
        origen: 'cobro',
        cobroId: k.id as string,
      });
    }
    const despues = {
      numero: k.numero,
      cliente_id: clienteId,
      monto: centsToNumber(input.monto),
      medio: m.nombre,
      ...(chequeId ? { cheque_id: chequeId } : {}),
    };
    await audit(tx, { businessId, userId, entidad: 'cobro', entidadId: k.id as string, accion: 'crear', despues });
    return {
      id: k.id as string,
      numero: k.numero as number,
      fecha: iso(k.fecha),
      cliente_id: clienteId,
      cliente_nombre: c.nombre,
      monto: centsToNumber(input.monto),
      medio_pago_id: m.id as string,
      medio_nombre: m.nombre as string,
      turno_id: turnoId,
      usuario: { id: userId, nombre: '' },
      observaciones: input.observaciones ?? null,
      saldo_anterior: centsToNumber(c.saldo),
      saldo: centsToNumber(c.saldo - input.monto),
    };
  });
}

/**
 * The customers who owe, most owed first, with the ageing of their balance: their payments pay
 * their oldest sales on account first, and what is left of each sale is aged by its date.
 */
export async function listDeudores(
  ex: Executor,
  businessId: string,
  timezone: string,
  today: string,
): Promise<Deudor[]> {
  const parts = await deudorRows(businessId, timezone, ex);
  const byCustomer = new Map<string, R[]>();
  for (const p of parts) byCustomer.set(p.id as string, [...(byCustomer.get(p.id as string) ?? []), p]);
  const list = [...byCustomer.values()].map((sales): Deudor => {
    const first = sales[0];
    let paid = toCents(first.pagado as string);
    const antiguedad = Object.fromEntries(AGEING_BUCKETS.map((b) => [b, 0])) as Record<AgeingBucket, number>;
    let desde: string | null = null;
    for (const s of sales) {
      const monto = toCents(s.monto as string);
      const left = monto - Math.min(paid, monto);
      paid -= monto - left;
      if (left <= 0) continue;
      desde ??= iso(s.fecha);
      antiguedad[ageingBucket(daysBetween(s.dia as string, today))] += left;
    }
    return {
      cliente_id: first.id as string,
      cliente_nombre: first.nombre as string,
      saldo: centsToNumber(toCents(first.saldo as string)),
      limite_credito: first.limite_credito === null ? null : Number(first.limite_credito),
      desde,
      antiguedad: Object.fromEntries(AGEING_BUCKETS.map((b) => [b, centsToNumber(antiguedad[b])])) as Record<
        AgeingBucket,
        number
      >,
    };
  });
  return list.sort((a, b) => b.saldo - a.saldo || a.cliente_nombre.localeCompare(b.cliente_nombre, 'es'));
}
