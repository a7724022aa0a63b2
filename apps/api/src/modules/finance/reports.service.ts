import { sql } from 'drizzle-orm';
import { type CashFlow, type CashFlowDay, type FinanceSummary, type MonthTotals } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { addDays } from '../../lib/dates.js';
import { bigCents, moneyOut } from '../../lib/money.js';
import { saldoOf } from '../caja/cuenta.js';

export interface Period {
  mes: number;
  anio: number;
}

/** The asked month, else the month of today in the business time zone. */
export function periodOf(q: { mes?: number; anio?: number }, today: string): Period {
  return { mes: q.mes ?? Number(today.slice(5, 7)), anio: q.anio ?? Number(today.slice(0, 4)) };
}

const firstDay = ({ mes, anio }: Period) => `${String(anio).padStart(4, '0')}-${String(mes).padStart(2, '0')}-01`;
const nextMonth = ({ mes, anio }: Period): Period => (mes === 12 ? { mes: 1, anio: anio + 1 } : { mes: mes + 1, anio });
const prevMonth = ({ mes, anio }: Period): Period => (mes === 1 ? { mes: 12, anio: anio - 1 } : { mes: mes - 1, anio });

const totals = (ingresos: bigint, egresos: bigint): MonthTotals => ({
  total_ingresos: moneyOut(ingresos),
  total_egresos: moneyOut(egresos),
  balance: moneyOut(ingresos - egresos),
});

/**
 * A sale's money given back (an egreso of origin `devolucion`) is income undone: it lowers the
 * income rather than adding to the expenses, so income counts sales net of returns (decision
 * 0009). The balance is the same either way.
 */
const isIncome = sql`(tipo = 'ingreso' OR origen = 'devolucion')`;
const signedIncome = sql`CASE WHEN tipo = 'ingreso' THEN monto ELSE -monto END`;

/**
 * Totals of the month's non-voided movements of every origin (dates are business dates, so the
 * last day of the month counts whole), the previous month, and the unpaid accounts.
 */
export async function summary(db: Db, businessId: string, p: Period, today: string): Promise<FinanceSummary> {
  const prev = firstDay(prevMonth(p));
  const start = firstDay(p);
  const end = firstDay(nextMonth(p));
  const [m] = (
    await db.execute<{ ing: string; egr: string; prev_ing: string; prev_egr: string }>(sql`
      SELECT coalesce(sum(${signedIncome}) FILTER (WHERE ${isIncome} AND fecha >= ${start}::date), 0)::text AS ing,
             coalesce(sum(monto) FILTER (WHERE NOT ${isIncome} AND fecha >= ${start}::date), 0)::text AS egr,
             coalesce(sum(${signedIncome}) FILTER (WHERE ${isIncome} AND fecha < ${start}::date), 0)::text AS prev_ing,
             coalesce(sum(monto) FILTER (WHERE NOT ${isIncome} AND fecha < ${start}::date), 0)::text AS prev_egr
        FROM finance_movements
       WHERE business_id = ${businessId} AND NOT anulado AND fecha >= ${prev}::date AND fecha < ${end}::date`)
  ).rows;
  const [a] = (
    await db.execute<{ cobrar: string; pagar: string; vencidas: number }>(sql`
      SELECT coalesce(sum(monto - monto_pagado) FILTER (WHERE tipo = 'por_cobrar'), 0)::text AS cobrar,
             coalesce(sum(monto - monto_pagado) FILTER (WHERE tipo = 'por_pagar'), 0)::text AS pagar,
             count(*) FILTER (WHERE fecha_vencimiento < ${today}::date)::int AS vencidas
        FROM finance_accounts
       WHERE business_id = ${businessId} AND estado = 'pendiente'`)
  ).rows;
  // What customers owe on account is a receivable too (decision 0008): the sum of the balances
  // of those who owe, the customers the Por cobrar tab lists (decision 0045); a balance in the
  // customer's favour is not something to collect.
  const [cc] = (
    await db.execute<{ saldo: string }>(sql`
      SELECT coalesce(sum(greatest(${saldoOf(sql`c`)}, 0)), 0)::text AS saldo
        FROM customers c WHERE c.business_id = ${businessId}`)
  ).rows;
  const clientes = bigCents(cc.saldo);
  const cobrar = bigCents(a.cobrar) + clientes;
  const pagar = bigCents(a.pagar);
  return {
    mes: p.mes,
    anio: p.anio,
    ...totals(bigCents(m.ing), bigCents(m.egr)),
    cuentas_pendientes: moneyOut(cobrar + pagar),
    por_cobrar_pendiente: moneyOut(cobrar),
    cuentas_corrientes_clientes: moneyOut(clientes),
    por_pagar_pendiente: moneyOut(pagar),
    cuentas_vencidas: Number(a.vencidas),
    mes_anterior: totals(bigCents(m.prev_ing), bigCents(m.prev_egr)),
  };
}

/** Every calendar day of the month; the running balance starts at 0 on day 1. */
export async function cashFlow(db: Db, businessId: string, p: Period): Promise<CashFlow> {
  const start = firstDay(p);
  const end = firstDay(nextMonth(p));
  // The daily totals kept with every movement (decision 0027): at most 31 rows.
  const { rows } = await db.execute<{ fecha: string; ing: string; egr: string }>(sql`
    SELECT fecha::text AS fecha, ingresos::text AS ing, egresos::text AS egr
      FROM totales_flujo_dia
     WHERE business_id = ${businessId} AND fecha >= ${start}::date AND fecha < ${end}::date`);
  const byDay = new Map(rows.map((r) => [r.fecha, r]));
  const flujo: CashFlowDay[] = [];
  let ingresos = 0n;
  let egresos = 0n;
  for (let d = start; d < end; d = addDays(d, 1)) {
    const r = byDay.get(d);
    const ing = bigCents(r?.ing);
    const egr = bigCents(r?.egr);
    ingresos += ing;
    egresos += egr;
    flujo.push({
      fecha: d,
      ingresos: moneyOut(ing),
      egresos: moneyOut(egr),
      saldo_diario: moneyOut(ing - egr),
      saldo_acumulado: moneyOut(ingresos - egresos),
    });
  }
  return {
    mes: p.mes,
    anio: p.anio,
    flujo_diario: flujo,
    total_ingresos: moneyOut(ingresos),
    total_egresos: moneyOut(egresos),
    saldo_final: moneyOut(ingresos - egresos),
  };
}
