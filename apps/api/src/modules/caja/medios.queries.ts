import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { paymentMethods } from '../../db/schema/index.js';

/*
 * The medios de pago's statements (decision 0044): every function takes the business first.
 */

export type MedioRow = typeof paymentMethods.$inferSelect;
type MedioColumns = Partial<Omit<typeof paymentMethods.$inferInsert, 'id' | 'businessId'>>;

/** By the business's order, then by name. */
export function listMedioRows(businessId: string, ex: Executor) {
  return ex
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.businessId, businessId))
    .orderBy(asc(paymentMethods.orden), asc(paymentMethods.nombre));
}

/** The medio locked for a change, or undefined. */
export async function lockMedioRow(businessId: string, id: string, ex: Executor) {
  const [r] = await ex
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.businessId, businessId), eq(paymentMethods.id, id)))
    .for('update');
  return r as MedioRow | undefined;
}

/** The place after the business's last medio. */
export async function nextMedioOrden(businessId: string, ex: Executor) {
  return (
    await ex
      .select({ n: sql<number>`coalesce(max(${paymentMethods.orden}), 0)::int + 1` })
      .from(paymentMethods)
      .where(eq(paymentMethods.businessId, businessId))
  )[0].n;
}

export async function insertMedio(
  businessId: string,
  cols: Omit<typeof paymentMethods.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [r] = await ex
    .insert(paymentMethods)
    .values({ businessId, ...cols })
    .returning();
  return r;
}

export async function updateMedioRow(businessId: string, id: string, cols: MedioColumns, ex: Executor) {
  const [r] = await ex
    .update(paymentMethods)
    .set(cols)
    .where(and(eq(paymentMethods.businessId, businessId), eq(paymentMethods.id, id)))
    .returning();
  return r;
}

/** Whether a sale, a movement, a closing or a return used the medio, or Mercado Pago records with it. */
export async function medioInUse(businessId: string, id: string, ex: Executor) {
  const used = await ex.execute(sql`
      SELECT 1 FROM sale_payments WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      UNION ALL SELECT 1 FROM finance_movements WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      UNION ALL SELECT 1 FROM turno_arqueos WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      UNION ALL SELECT 1 FROM devoluciones WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      UNION ALL SELECT 1 FROM mercadopago_config WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      LIMIT 1`);
  return used.rows.length > 0;
}

export async function deleteMedioRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(paymentMethods).where(and(eq(paymentMethods.businessId, businessId), eq(paymentMethods.id, id)));
}
