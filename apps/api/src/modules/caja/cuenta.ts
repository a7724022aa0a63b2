import { sql, type SQL } from 'drizzle-orm';

/**
 * What a customer owes on account (decision 0008): the parts paid "en cuenta corriente" of their
 * completed sales, less their cobros and the returns to their account, plus the cheques they gave that
 * bounced (with the bank's fees, decision 0057). `c` is the customers row's alias in the query.
 */
export const saldoOf = (c: SQL) => sql`(
  (SELECT coalesce(sum(sp.total), 0) FROM sales s
     JOIN sale_payments sp ON sp.business_id = s.business_id AND sp.venta_id = s.id AND sp.tipo = 'cuenta_corriente'
    WHERE s.business_id = ${c}.business_id AND s.cliente_id = ${c}.id AND s.estado = 'completada')
  - (SELECT coalesce(sum(k.monto), 0) FROM cobros k WHERE k.business_id = ${c}.business_id AND k.cliente_id = ${c}.id)
  - ${returnedToAccount(c)}
  + ${rejectedCheques(c)}
)`;

/** What went back to the customer's account in returns of their sales (decision 0009). */
export const returnedToAccount = (c: SQL) => sql`(SELECT coalesce(sum(d.monto), 0) FROM devoluciones d
    WHERE d.business_id = ${c}.business_id AND d.cliente_id = ${c}.id AND d.tipo = 'cuenta_corriente')`;

/** What the customer owes again for their cheques that bounced: the amounts plus the bank's fees (decision 0057). */
export const rejectedCheques = (c: SQL) => sql`(SELECT coalesce(sum(e.deuda), 0) FROM cheque_eventos e
    WHERE e.business_id = ${c}.business_id AND e.cliente_id = ${c}.id AND e.deuda IS NOT NULL)`;
