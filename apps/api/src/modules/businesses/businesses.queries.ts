import { and, eq, sql } from 'drizzle-orm';
import { allPermissions, DEFAULT_CAJA, DEFAULT_DEPOSITO, DEFAULT_MEDIOS, DEFAULT_SUCURSAL } from '@mostrador/shared';
import type { Pool } from 'pg';
import type { Executor } from '../../db/client.js';
import { businesses, businessMembers, financeCategories, tenantSettings } from '../../db/schema/index.js';

/*
 * The statements on a business's own tables (decision 0044): every function takes the business
 * first, but the cross-business reads by user (their businesses, the account's diagnosis), which
 * the service runs on its reviewed cross-business paths.
 */

/** What every business needs besides its row; repair re-creates whatever is missing. */
export async function ensureBusinessBasics(businessId: string, creatorId: string, ex: Executor) {
  const membership = await ex
    .insert(businessMembers)
    .values({
      businessId,
      userId: creatorId,
      rol: 'admin',
      estado: 'aceptado',
      accesoTotal: true,
      permisos: allPermissions(true),
    })
    .onConflictDoNothing()
    .returning({ id: businessMembers.id });
  const settings = await ex
    .insert(tenantSettings)
    .values({ businessId })
    .onConflictDoNothing()
    .returning({ id: tenantSettings.id });
  const categorias = await ex
    .insert(financeCategories)
    .values([
      {
        businessId,
        nombre: 'Ventas',
        tipo: 'ingreso',
        sistema: true,
        descripcion: 'Ingresos por ventas registradas en el punto de venta.',
      },
      {
        businessId,
        nombre: 'Compras',
        tipo: 'egreso',
        sistema: true,
        descripcion: 'Egresos por compras a proveedores.',
      },
    ])
    .onConflictDoNothing()
    .returning({ id: financeCategories.id });
  // The medios de pago and the first caja, only when the business has none (a business may have
  // deleted or renamed them since).
  const medios = await ex.execute(sql`
    INSERT INTO payment_methods (business_id, nombre, tipo, orden)
    SELECT ${businessId}::uuid, m.nombre, m.tipo, m.orden
      FROM (VALUES ${sql.join(
        DEFAULT_MEDIOS.map((m, i) => sql`(${m.nombre}, ${m.tipo}, ${i + 1}::int)`),
        sql`, `,
      )}) AS m (nombre, tipo, orden)
     WHERE NOT EXISTS (SELECT 1 FROM payment_methods WHERE business_id = ${businessId}::uuid)`);
  const cajas = await ex.execute(sql`
    INSERT INTO cajas (business_id, nombre)
    SELECT ${businessId}::uuid, ${DEFAULT_CAJA}
     WHERE NOT EXISTS (SELECT 1 FROM cajas WHERE business_id = ${businessId}::uuid)`);
  // The principal sucursal and depósito (decision 0059), when the business has none.
  const depositos = await ex.execute(sql`
    WITH s AS (
      INSERT INTO sucursales (business_id, nombre, principal)
      SELECT ${businessId}::uuid, ${DEFAULT_SUCURSAL}, true
       WHERE NOT EXISTS (SELECT 1 FROM sucursales WHERE business_id = ${businessId}::uuid AND principal)
      RETURNING id
    )
    INSERT INTO depositos (business_id, sucursal_id, nombre, principal)
    SELECT ${businessId}::uuid,
           coalesce((SELECT id FROM s),
                    (SELECT id FROM sucursales WHERE business_id = ${businessId}::uuid AND principal)),
           ${DEFAULT_DEPOSITO}, true
     WHERE NOT EXISTS (SELECT 1 FROM depositos WHERE business_id = ${businessId}::uuid AND principal)`);
  return {
    depositos: depositos.rowCount ?? 0,
    membership: membership.length,
    settings: settings.length,
    categorias: categorias.length,
    medios: medios.rowCount ?? 0,
    cajas: cajas.rowCount ?? 0,
  };
}

/** The business's row, with the id chosen by the caller (the rows after it are written in its context). */
export async function insertBusinessRow(
  businessId: string,
  cols: Omit<typeof businesses.$inferInsert, 'id'>,
  ex: Executor,
) {
  const [b] = await ex
    .insert(businesses)
    .values({ id: businessId, ...cols })
    .returning();
  return b;
}

/** The creator always holds an accepted admin membership with full access: the rows it fixed. */
export function repairCreatorMembership(businessId: string, creatorId: string, ex: Executor) {
  return ex
    .update(businessMembers)
    .set({ rol: 'admin', estado: 'aceptado', accesoTotal: true, permisos: allPermissions(true) })
    .where(
      and(
        eq(businessMembers.businessId, businessId),
        eq(businessMembers.userId, creatorId),
        sql`(${businessMembers.rol} <> 'admin' OR ${businessMembers.estado} <> 'aceptado' OR NOT ${businessMembers.accesoTotal})`,
      ),
    )
    .returning({ id: businessMembers.id });
}

/* ---------------------------------------------------------------- a user's businesses (cross-business) */

const SQL_LIST = `
  SELECT b.id, b.nombre, b.tipo, b.descripcion, b.cuit, b.creada_por, b.creada_en, m.rol
    FROM business_members m JOIN businesses b ON b.id = m.business_id
   WHERE m.user_id = $1 AND m.estado = 'aceptado'
   ORDER BY m.creada_en, b.id`;

/**
 * The user's accepted businesses, oldest membership first. Unnamed statement: a named one would
 * live on one server connection, which a transaction-mode pooler (PgBouncer) does not keep for
 * us. The caller runs it on its reviewed cross-business path.
 */
export function userBusinessRows(userId: string, pool: Pool) {
  return pool.query<{
    id: string;
    nombre: string;
    tipo: string | null;
    descripcion: string | null;
    cuit: string | null;
    creada_por: string;
    creada_en: Date;
    rol: 'admin' | 'empleado';
  }>(SQL_LIST, [userId]);
}

/** The user's memberships with what each business has, and how many businesses they created (a reviewed cross-business path). */
export async function accountRows(userId: string, db: Executor) {
  const { rows } = await db.execute<{
    business_id: string;
    nombre: string;
    rol: string;
    estado: string;
    es_creador: boolean;
    tiene_permisos: boolean;
    tiene_configuracion: boolean;
    categorias_sistema: boolean;
  }>(sql`
    SELECT b.id AS business_id, b.nombre, m.rol, m.estado, (b.creada_por = ${userId}) AS es_creador,
           (m.acceso_total OR m.permisos <> '{}'::jsonb) AS tiene_permisos,
           EXISTS (SELECT 1 FROM tenant_settings t WHERE t.business_id = b.id) AS tiene_configuracion,
           (SELECT count(*) FROM finance_categories c WHERE c.business_id = b.id AND c.sistema) = 2 AS categorias_sistema
      FROM business_members m JOIN businesses b ON b.id = m.business_id
     WHERE m.user_id = ${userId}
     ORDER BY m.creada_en`);
  const [{ total }] = (
    await db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM businesses WHERE creada_por = ${userId}`)
  ).rows;
  return { rows, total };
}
