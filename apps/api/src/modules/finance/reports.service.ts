import { type CashFlow, type CashFlowDay, type FinanceSummary, type MonthTotals } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { addDays } from '../../lib/dates.js';
import { bigCents, moneyOut } from '../../lib/money.js';
import { cashFlowRows, summaryRows } from './finance.queries.js';

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
 * Totals of the month's non-voided movements of every origin (dates are business dates, so the
 * last day of the month counts whole), the previous month, and the unpaid accounts.
 */
export async function summary(db: Db, businessId: string, p: Period, today: string): Promise<FinanceSummary> {
  const prev = firstDay(prevMonth(p));
  const start = firstDay(p);
  const end = firstDay(nextMonth(p));
  const { m, a, cc } = await summaryRows(businessId, prev, start, end, today, db);
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
  const rows = await cashFlowRows(businessId, start, end, db);
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
