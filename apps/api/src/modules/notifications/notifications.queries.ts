import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { NOTIFICATION_LIMIT } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { businessMembers, customers, financeAccounts, products, tenantSettings, users } from '../../db/schema/index.js';

/*
 * The notifications' statements (decision 0044): every function takes the business first. The
 * sales history of the sales-drop alert is read by sales-data.ts.
 */

/** Products at or below their minimum stock, or below 0; the lowest first. */
export async function lowStockRows(businessId: string, ex: Executor) {
  const rows = await ex
    .select({
      id: products.id,
      nombre: products.nombre,
      stock: products.stockActual,
      minimo: products.stockMinimo,
      fecha: products.actualizadoEn,
    })
    .from(products)
    .where(
      and(
        eq(products.businessId, businessId),
        eq(products.activo, true),
        eq(products.controlaStock, true),
        sql`(${products.stockActual} < 0 OR (${products.stockMinimo} > 0 AND ${products.stockActual} <= ${products.stockMinimo}))`,
      ),
    )
    .orderBy(asc(products.stockActual), asc(products.nombre))
    .limit(NOTIFICATION_LIMIT);
  return rows;
}

/** Unpaid accounts due on or before `until`, the earliest first, with the customer's name. */
export async function dueAccountRows(businessId: string, until: string, ex: Executor) {
  const rows = await ex
    .select({
      id: financeAccounts.id,
      tipo: financeAccounts.tipo,
      monto: financeAccounts.monto,
      vence: financeAccounts.fechaVencimiento,
      descripcion: financeAccounts.descripcion,
      proveedor: financeAccounts.proveedorNombre,
      cliente: sql<string | null>`nullif(concat_ws(' ', ${customers.nombre}, ${customers.apellido}), '')`,
    })
    .from(financeAccounts)
    .leftJoin(
      customers,
      and(eq(customers.businessId, financeAccounts.businessId), eq(customers.id, financeAccounts.clienteId)),
    )
    .where(
      and(
        eq(financeAccounts.businessId, businessId),
        eq(financeAccounts.estado, 'pendiente'),
        lte(financeAccounts.fechaVencimiento, until),
      ),
    )
    .orderBy(asc(financeAccounts.fechaVencimiento), asc(financeAccounts.id))
    .limit(NOTIFICATION_LIMIT);
  return rows;
}

/** Users who accepted an invitation and wait for an administrator, oldest first. */
export async function pendingMemberRows(businessId: string, ex: Executor) {
  const rows = await ex
    .select({
      id: businessMembers.id,
      userId: users.id,
      nombre: users.nombre,
      apellido: users.apellido,
      email: users.email,
      fecha: businessMembers.creadaEn,
    })
    .from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.userId))
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.estado, 'pendiente')))
    .orderBy(asc(businessMembers.creadaEn))
    .limit(NOTIFICATION_LIMIT);
  return rows;
}

/** The business's alert settings (undefined before they were saved). */
export async function salesDropSettings(businessId: string, ex: Executor) {
  const [s] = await ex
    .select({ threshold: tenantSettings.salesDropThreshold, minDays: tenantSettings.minDaysForModel })
    .from(tenantSettings)
    .where(eq(tenantSettings.businessId, businessId));
  return s;
}
