import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Pool } from 'pg';
import { allPermissions, DEFAULT_CAJA, DEFAULT_MEDIOS, TRIAL_DAYS, type Business } from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { enNegocio, todosLosNegocios } from '../../db/tenant.js';
import { businesses, businessMembers, financeCategories, tenantSettings, users } from '../../db/schema/index.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';

type BusinessRow = typeof businesses.$inferSelect;

export function toBusiness(b: BusinessRow, rol: 'admin' | 'empleado', userId: string): Business {
  return {
    id: b.id,
    nombre: b.nombre,
    tipo: b.tipo,
    descripcion: b.descripcion,
    cuit: b.cuit,
    creada_por: b.creadaPor,
    creada_en: b.creadaEn.toISOString(),
    rol,
    es_creador: b.creadaPor === userId,
  };
}

export interface BusinessFields {
  nombre: string;
  tipo?: string | null;
  descripcion?: string | null;
  cuit?: string | null;
}

/** What every business needs besides its row; repair re-creates whatever is missing. */
export async function ensureBusinessBasics(ex: Executor, businessId: string, creatorId: string) {
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
  return {
    membership: membership.length,
    settings: settings.length,
    categorias: categorias.length,
    medios: medios.rowCount ?? 0,
    cajas: cajas.rowCount ?? 0,
  };
}

/** The id is chosen here, so the new business's rows are written in its own context (RLS). */
export async function createBusiness(db: Db, userId: string, input: BusinessFields, now: Date) {
  const id = randomUUID();
  return enNegocio(id, () => insertBusiness(db, id, userId, input, now));
}

async function insertBusiness(db: Db, id: string, userId: string, input: BusinessFields, now: Date) {
  return db.transaction(async (tx) => {
    const [b] = await tx
      .insert(businesses)
      .values({
        id,
        nombre: input.nombre,
        tipo: input.tipo ?? null,
        descripcion: input.descripcion ?? null,
        cuit: input.cuit ?? null,
        creadaPor: userId,
        trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * 86_400_000),
        creadaEn: now,
      })
      .returning();
    await ensureBusinessBasics(tx, b.id, userId);
    await audit(tx, {
      businessId: b.id,
      userId,
      entidad: 'negocio',
      entidadId: b.id,
      accion: 'crear',
      despues: { nombre: b.nombre, tipo: b.tipo, descripcion: b.descripcion, cuit: b.cuit },
    });
    return toBusiness(b, 'admin', userId);
  });
}

const SQL_LIST = `
  SELECT b.id, b.nombre, b.tipo, b.descripcion, b.cuit, b.creada_por, b.creada_en, m.rol
    FROM business_members m JOIN businesses b ON b.id = m.business_id
   WHERE m.user_id = $1 AND m.estado = 'aceptado'
   ORDER BY m.creada_en, b.id`;

/**
 * The caller's accepted businesses, oldest membership first (the client selects the first).
 * Unnamed statement: a named one would live on one server connection, which a transaction-mode
 * pooler (PgBouncer) does not keep for us.
 */
export async function listBusinesses(pool: Pool, userId: string): Promise<Business[]> {
  const { rows } = await todosLosNegocios('los negocios de un usuario', () =>
    pool.query<{
      id: string;
      nombre: string;
      tipo: string | null;
      descripcion: string | null;
      cuit: string | null;
      creada_por: string;
      creada_en: Date;
      rol: 'admin' | 'empleado';
    }>(SQL_LIST, [userId]),
  );
  return rows.map((r) => ({ ...r, creada_en: r.creada_en.toISOString(), es_creador: r.creada_por === userId }));
}

export async function getBusiness(db: Db, businessId: string, userId: string, rol: 'admin' | 'empleado') {
  const [b] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!b) throw notFound('Negocio no encontrado.');
  return toBusiness(b, rol, userId);
}

export async function updateBusiness(
  db: Db,
  businessId: string,
  userId: string,
  rol: 'admin' | 'empleado',
  patch: Partial<BusinessFields>,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(businesses).where(eq(businesses.id, businessId)).for('update');
    if (!before) throw notFound('Negocio no encontrado.');
    const [after] = await tx
      .update(businesses)
      .set({ ...patch, actualizadaEn: sql`now()` })
      .where(eq(businesses.id, businessId))
      .returning();
    const d = diff(
      { nombre: before.nombre, tipo: before.tipo, descripcion: before.descripcion, cuit: before.cuit },
      patch,
    );
    if (d.changed) {
      await audit(tx, { businessId, userId, entidad: 'negocio', entidadId: businessId, accion: 'actualizar', ...d });
    }
    return toBusiness(after, rol, userId);
  });
}

export async function deleteBusiness(db: Db, businessId: string) {
  await db.delete(businesses).where(eq(businesses.id, businessId));
}

/** `{email}` of the debug and repair routes must be the caller's own e-mail or user id. */
export async function assertOwnAccount(db: Db, userId: string, emailOrId: string) {
  const [u] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  const key = decodeURIComponent(emailOrId).trim().toLowerCase();
  if (!u || (key !== u.email.toLowerCase() && key !== u.id)) {
    throw new AppError(403, 'FORBIDDEN', 'Solo podés consultar tu propia cuenta.');
  }
  return u;
}

export async function debugAccount(db: Db, userId: string, email: string) {
  return todosLosNegocios('diagnóstico de la cuenta: sus negocios y membresías', () => debugRows(db, userId, email));
}

async function debugRows(db: Db, userId: string, email: string) {
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
  return {
    user_id: userId,
    email,
    total_relationships: rows.length,
    total_businesses: total,
    memberships: rows,
  };
}

export async function repairAccount(db: Db, userId: string) {
  return todosLosNegocios('reparación de la cuenta: los negocios que creó', () => repairRows(db, userId));
}

async function repairRows(db: Db, userId: string) {
  return db.transaction(async (tx) => {
    const own = await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.creadaPor, userId));
    let relationships = 0;
    let permisos = 0;
    let configuraciones = 0;
    let categorias = 0;
    let orphaned = 0;
    for (const b of own) {
      const r = await ensureBusinessBasics(tx, b.id, userId);
      if (r.membership) orphaned += 1;
      relationships += r.membership;
      configuraciones += r.settings;
      categorias += r.categorias;
      // The creator always holds an accepted admin membership with full access.
      const fixed = await tx
        .update(businessMembers)
        .set({ rol: 'admin', estado: 'aceptado', accesoTotal: true, permisos: allPermissions(true) })
        .where(
          and(
            eq(businessMembers.businessId, b.id),
            eq(businessMembers.userId, userId),
            sql`(${businessMembers.rol} <> 'admin' OR ${businessMembers.estado} <> 'aceptado' OR NOT ${businessMembers.accesoTotal})`,
          ),
        )
        .returning({ id: businessMembers.id });
      permisos += fixed.length + r.membership;
    }
    return {
      message: `Reparación completada: ${relationships} ${relationships === 1 ? 'relación creada' : 'relaciones creadas'}.`,
      user_id: userId,
      total_businesses: own.length,
      orphaned_businesses_found: orphaned,
      relationships_repaired: relationships,
      permisos_reparados: permisos,
      configuraciones_reparadas: configuraciones,
      categorias_reparadas: categorias,
    };
  });
}
