import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  CATEGORY_MESSAGES,
  type Category,
  type CategoryListQuery,
  type CategoryOutput,
  type CategoryUpdate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { productCategories, products, services } from '../../db/schema/index.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { defined, es, isFkViolation, searchTerms } from '../products/common.js';

type Row = typeof productCategories.$inferSelect;

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

// Qualified by hand: inside a subquery an unqualified column would name the inner table's.
const productCount = sql<number>`(SELECT count(*)::int FROM ${products} p WHERE p.business_id = "product_categories"."business_id" AND p.categoria_id = "product_categories"."id")`;
const serviceCount = sql<number>`(SELECT count(*)::int FROM ${services} s WHERE s.business_id = "product_categories"."business_id" AND s.categoria_id = "product_categories"."id")`;

function selectCategories(ex: Executor) {
  return ex.select({ c: productCategories, productos: productCount, servicios: serviceCount }).from(productCategories);
}

/** Active and inactive, sorted by name the Spanish way. */
export async function listCategories(db: Db, businessId: string, q: CategoryListQuery) {
  const where: SQL[] = [eq(productCategories.businessId, businessId)];
  if (q.activo !== undefined) where.push(eq(productCategories.activo, q.activo));
  where.push(...searchTerms(sql`f_unaccent(lower(${productCategories.nombre}))`, q.q));
  const rows = await selectCategories(db)
    .where(and(...where))
    .orderBy(es(productCategories.nombre), productCategories.id);
  return rows.map((r) => toCategory(r.c, r.productos, r.servicios));
}

export async function getCategory(ex: Executor, businessId: string, id: string): Promise<Category> {
  const [r] = await selectCategories(ex).where(
    and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)),
  );
  if (!r) throw notFound(CATEGORY_MESSAGES.notFound);
  return toCategory(r.c, r.productos, r.servicios);
}

/**
 * 422 unless the category belongs to the business (a foreign id answers the same as a missing
 * one). Locked FOR SHARE so a concurrent delete waits for the product or service being saved.
 */
export async function assertCategory(ex: Executor, businessId: string, id: string, field = 'categoria_id') {
  const [row] = await ex
    .select({ id: productCategories.id, nombre: productCategories.nombre })
    .from(productCategories)
    .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)))
    .for('share');
  if (!row) throw invalid(field, CATEGORY_MESSAGES.notInBusiness);
  return row;
}

const duplicate = () => conflict('DUPLICATE', CATEGORY_MESSAGES.duplicate);

export async function createCategory(db: Db, businessId: string, userId: string, input: CategoryOutput) {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(productCategories)
        .values({
          businessId,
          nombre: input.nombre,
          descripcion: input.descripcion ?? null,
          activo: input.activo ?? true,
        })
        .returning();
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
      const [before] = await tx
        .select()
        .from(productCategories)
        .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)))
        .for('update');
      if (!before) throw notFound(CATEGORY_MESSAGES.notFound);
      const changes = diff(snapshot(toCategory(before)), defined(patch));
      if (changes.changed) {
        await tx
          .update(productCategories)
          .set({ ...changes.despues, actualizadoEn: sql`now()` })
          .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)));
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
      const [before] = await tx
        .select()
        .from(productCategories)
        .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)))
        .for('update');
      if (!before) throw notFound(CATEGORY_MESSAGES.notFound);
      const { rows } = await tx.execute<{ used: boolean }>(sql`
        SELECT EXISTS (SELECT 1 FROM ${products} WHERE business_id = ${businessId} AND categoria_id = ${id})
            OR EXISTS (SELECT 1 FROM ${services} WHERE business_id = ${businessId} AND categoria_id = ${id}) AS used`);
      if (rows[0]?.used) throw inUse();
      await tx
        .delete(productCategories)
        .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)));
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
