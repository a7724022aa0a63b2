import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Pool } from 'pg';
import { TRIAL_DAYS, type Business } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { enNegocio, todosLosNegocios } from '../../db/tenant.js';
import { businesses, users } from '../../db/schema/index.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import {
  accountRows,
  ensureBusinessBasics,
  insertBusinessRow,
  repairCreatorMembership,
  userBusinessRows,
} from './businesses.queries.js';

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

/** The id is chosen here, so the new business's rows are written in its own context (RLS). */
export async function createBusiness(db: Db, userId: string, input: BusinessFields, now: Date) {
  const id = randomUUID();
  return enNegocio(id, () => insertBusiness(db, id, userId, input, now));
}

async function insertBusiness(db: Db, id: string, userId: string, input: BusinessFields, now: Date) {
  return db.transaction(async (tx) => {
    const b = await insertBusinessRow(
      id,
      {
        nombre: input.nombre,
        tipo: input.tipo ?? null,
        descripcion: input.descripcion ?? null,
        cuit: input.cuit ?? null,
        creadaPor: userId,
        trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * 86_400_000),
        creadaEn: now,
      },
      tx,
    );
    await ensureBusinessBasics(b.id, userId, tx);
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

/**
 * The caller's accepted businesses, oldest membership first (the client selects the first).
 * Unnamed statement: a named one would live on one server connection, which a transaction-mode
 * pooler (PgBouncer) does not keep for us.
 */
export async function listBusinesses(pool: Pool, userId: string): Promise<Business[]> {
  const { rows } = await todosLosNegocios('los negocios de un usuario', () => userBusinessRows(userId, pool));
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
  const { rows, total } = await accountRows(userId, db);
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
      const r = await ensureBusinessBasics(b.id, userId, tx);
      if (r.membership) orphaned += 1;
      relationships += r.membership;
      configuraciones += r.settings;
      categorias += r.categorias;
      // The creator always holds an accepted admin membership with full access.
      const fixed = await repairCreatorMembership(b.id, userId, tx);
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
