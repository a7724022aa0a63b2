import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { customers, financeCategories, suppliers } from '../../db/schema/index.js';
import { saldoOf } from '../caja/cuenta.js';

/*
 * Finance's shared lookups and its reports' statements (decision 0044): every function takes
 * the business first.
 */

/** Display name of a customer, as the lists show it. */
export const customerName = sql<string | null>`nullif(concat_ws(' ', ${customers.nombre}, ${customers.apellido}), '')`;

/** Whether the customer is the business's, locked FOR SHARE. */
export async function shareCustomer(businessId: string, clienteId: string, ex: Executor) {
  const [row] = await ex
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, clienteId)))
    .for('share');
  return !!row;
}

/** A finance category of the business, locked FOR SHARE (a concurrent type change waits). */
export async function shareFinanceCategory(businessId: string, categoriaId: string, ex: Executor) {
  const [cat] = await ex
    .select({ id: financeCategories.id, tipo: financeCategories.tipo, activo: financeCategories.activo })
    .from(financeCategories)
    .where(and(eq(financeCategories.businessId, businessId), eq(financeCategories.id, categoriaId)))
    .for('share');
  return cat;
}

/** The name of a supplier of the business (undefined when it is not), locked FOR SHARE. */
export async function shareSupplierName(businessId: string, proveedorId: string, ex: Executor) {
  const [row] = await ex
    .select({ nombre: suppliers.nombre })
    .from(suppliers)
    .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, proveedorId)))
    .for('share');
  return row?.nombre;
}

/**
 * A sale's money given back (an egreso of origin `devolucion`) is income undone: it lowers the
 * income rather than adding to the expenses, so income counts sales net of returns (decision
 * 0009). The balance is the same either way.
 */
const isIncome = sql`(tipo = 'ingreso' OR origen = 'devolucion')`;
const signedIncome = sql`CASE WHEN tipo = 'ingreso' THEN monto ELSE -monto END`;

/** The month's and the previous month's totals, the unpaid accounts and what customers owe on account. */
export async function summaryRows(
  businessId: string,
  prev: string,
  start: string,
  end: string,
  today: string,
  db: Executor,
) {
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
  return { m, a, cc };
}

/** The daily totals of [start, end). */
export async function cashFlowRows(businessId: string, start: string, end: string, db: Executor) {
  // The daily totals kept with every movement (decision 0027): at most 31 rows.
  const { rows } = await db.execute<{ fecha: string; ing: string; egr: string }>(sql`
    SELECT fecha::text AS fecha, ingresos::text AS ing, egresos::text AS egr
      FROM totales_flujo_dia
     WHERE business_id = ${businessId} AND fecha >= ${start}::date AND fecha < ${end}::date`);
  return rows;
}
