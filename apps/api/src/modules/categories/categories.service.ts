import {
  CATEGORY_MESSAGES,
  type Category,
  type CategoryListQuery,
  type CategoryOutput,
  type CategoryUpdate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { defined, isFkViolation } from '../products/common.js';
import {
  categoryInUse,
  deleteCategoryRow,
  findCategoryRow,
  insertCategory,
  listCategoryRows,
  lockCategory,
  shareCategory,
  updateCategoryRow,
  type CategoryRow as Row,
} from './categories.queries.js';

export function toCategory(r: Row, cantidadProductos = 0, cantidadServicios = 0): Category {
  return {
    id: r.id,
    nombre: r.nombre,
    descripcion: r.descripcion,
    activo: r.activo,
    cantidad_productos: cantidadProductos,
    cantidad_servicios: cantidadServicios,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
  };
}

const snapshot = (c: Category) => ({ nombre: c.nombre, descripcion: c.descripcion, activo: c.activo });

/** Active and inactive, sorted by name the Spanish way. */
export async function listCategories(db: Db, businessId: string, q: CategoryListQuery) {
  const rows = await listCategoryRows(businessId, q, db);
  return rows.map((r) => toCategory(r.c, r.productos, r.servicios));
}

export async function getCategory(ex: Executor, businessId: string, id: string): Promise<Category> {
  const r = await findCategoryRow(businessId, id, ex);
  if (!r) throw notFound(CATEGORY_MESSAGES.notFound);
  return toCategory(r.c, r.productos, r.servicios);
}

/**
 * 422 unless the category belongs to the business (a foreign id answers the same as a missing
 * one). Locked FOR SHARE so a concurrent delete waits for the product or service being saved.
 */
export async function assertCategory(ex: Executor, businessId: string, id: string, field = 'categoria_id') {
  const row = await shareCategory(businessId, id, ex);
  if (!row) throw invalid(field, CATEGORY_MESSAGES.notInBusiness);
  return row;
}

const duplicate = () => conflict('DUPLICATE', CATEGORY_MESSAGES.duplicate);

export async function createCategory(db: Db, businessId: string, userId: string, input: CategoryOutput) {
  try {
    return await db.transaction(async (tx) => {
      const row = await insertCategory(
        businessId,
        { nombre: input.nombre, descripcion: input.descripcion ?? null, activo: input.activo ?? true },
        tx,
      );
      const c = toCategory(row);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'categoria',
        entidadId: c.id,
        accion: 'crear',
        despues: snapshot(c),
      });
      return c;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'product_categories_name_key')) throw duplicate();
    throw e;
  }
}

export async function updateCategory(db: Db, businessId: string, userId: string, id: string, patch: CategoryUpdate) {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockCategory(businessId, id, tx);
      if (!before) throw notFound(CATEGORY_MESSAGES.notFound);
      const changes = diff(snapshot(toCategory(before)), defined(patch));
      if (changes.changed) {
        await updateCategoryRow(businessId, id, changes.despues, tx);
        await audit(tx, {
          businessId,
          userId,
          entidad: 'categoria',
          entidadId: id,
          accion: 'actualizar',
          antes: changes.antes,
          despues: changes.despues,
        });
      }
      return getCategory(tx, businessId, id);
    });
  } catch (e) {
    if (isUniqueViolation(e, 'product_categories_name_key')) throw duplicate();
    throw e;
  }
}

const inUse = () => conflict('IN_USE', CATEGORY_MESSAGES.inUse);

/** Refused while a product or a service uses the category (the foreign keys refuse it too). */
export async function deleteCategory(db: Db, businessId: string, userId: string, id: string) {
  try {
    await db.transaction(async (tx) => {
      const before = await lockCategory(businessId, id, tx);
      if (!before) throw notFound(CATEGORY_MESSAGES.notFound);
      if (await categoryInUse(businessId, id, tx)) throw inUse();
      await deleteCategoryRow(businessId, id, tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'categoria',
        entidadId: id,
        accion: 'eliminar',
        antes: snapshot(toCategory(before)),
      });
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (isFkViolation(e)) throw inUse();
    throw e;
  }
}
