import {
  FINANCE_MESSAGES,
  type FinanceCategory,
  type FinanceCategoryUpdate,
  type MovementType,
} from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors.js';
import {
  categoryHasMovements,
  deleteFinanceCategory,
  insertFinanceCategory,
  listFinanceCategories,
  lockFinanceCategory,
  updateFinanceCategory,
  type FinanceCategoryRow as Row,
} from './categories.queries.js';
import { defined } from './finance.common.js';

export function toCategory(r: Row): FinanceCategory {
  return {
    id: r.id,
    nombre: r.nombre,
    descripcion: r.descripcion,
    tipo: r.tipo,
    activo: r.activo,
    sistema: r.sistema,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
  };
}

const snapshot = (c: FinanceCategory) => ({
  nombre: c.nombre,
  descripcion: c.descripcion,
  tipo: c.tipo,
  activo: c.activo,
});

const duplicate = () => conflict('DUPLICATE', FINANCE_MESSAGES.categoryDuplicate);

export async function listCategories(db: Db, businessId: string, f: { tipo?: MovementType; activo?: boolean }) {
  const rows = await listFinanceCategories(businessId, f, db);
  return rows.map(toCategory);
}

export async function createCategory(
  db: Db,
  businessId: string,
  userId: string,
  input: { nombre: string; descripcion?: string | null; tipo: MovementType; activo: boolean },
) {
  try {
    return await db.transaction(async (tx) => {
      const row = await insertFinanceCategory(
        businessId,
        { nombre: input.nombre, descripcion: input.descripcion ?? null, tipo: input.tipo, activo: input.activo },
        tx,
      );
      const c = toCategory(row);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'categoria_financiera',
        entidadId: c.id,
        accion: 'crear',
        despues: snapshot(c),
      });
      return c;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'finance_categories_name_key')) throw duplicate();
    throw e;
  }
}

export async function updateCategory(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  patch: FinanceCategoryUpdate,
) {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockFinanceCategory(businessId, id, tx);
      if (!before) throw notFound(FINANCE_MESSAGES.categoryNotFound);
      const old = toCategory(before);
      // Values equal to the stored ones are no change (the client sends the whole form).
      const changes = diff(snapshot(old), defined(patch));
      const changed = (k: keyof ReturnType<typeof snapshot>) => k in changes.despues;
      if (old.sistema && (changed('nombre') || changed('tipo') || changed('activo'))) {
        throw conflict('INVALID_STATE', FINANCE_MESSAGES.categorySystem);
      }
      if (changed('tipo') && (await categoryHasMovements(businessId, id, tx))) {
        throw conflict('IN_USE', FINANCE_MESSAGES.categoryTypeInUse);
      }
      if (!changes.changed) return old;
      const row = await updateFinanceCategory(businessId, id, changes.despues, tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'categoria_financiera',
        entidadId: id,
        accion: 'actualizar',
        antes: changes.antes,
        despues: changes.despues,
      });
      return toCategory(row);
    });
  } catch (e) {
    if (isUniqueViolation(e, 'finance_categories_name_key')) throw duplicate();
    throw e;
  }
}

export async function deleteCategory(db: Db, businessId: string, userId: string, id: string) {
  await db.transaction(async (tx) => {
    const before = await lockFinanceCategory(businessId, id, tx);
    if (!before) throw notFound(FINANCE_MESSAGES.categoryNotFound);
    if (before.sistema) throw conflict('INVALID_STATE', FINANCE_MESSAGES.categorySystem);
    if (await categoryHasMovements(businessId, id, tx)) throw conflict('IN_USE', FINANCE_MESSAGES.categoryInUse);
    await deleteFinanceCategory(businessId, id, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'categoria_financiera',
      entidadId: id,
      accion: 'eliminar',
      antes: snapshot(toCategory(before)),
    });
  });
}
