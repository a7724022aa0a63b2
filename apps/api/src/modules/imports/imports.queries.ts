import { and, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { StagedRowsQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { importBatches, importRows, productCategories, products } from '../../db/schema/index.js';

/*
 * The product import's statements (decision 0044): every function takes the business first.
 */

export type BatchRow = typeof importBatches.$inferSelect;
export type ImportRowRecord = typeof importRows.$inferSelect;

/* ---------------------------------------------------------------- products and categories */

/** The business's products that have a code or a barcode. */
export async function productKeys(businessId: string, ex: Executor) {
  const { rows } = await ex.execute<{ id: string; codigo: string | null; codigo_barras: string | null }>(
    sql`SELECT id, codigo, codigo_barras FROM ${products}
         WHERE business_id = ${businessId} AND (codigo IS NOT NULL OR codigo_barras IS NOT NULL)`,
  );
  return rows;
}

/** Every category of the business (or those with these lower-case names). */
export function categoryRows(businessId: string, lowerNames: string[] | null, ex: Executor) {
  const where = [eq(productCategories.businessId, businessId)];
  if (lowerNames) {
    where.push(
      sql`lower(${productCategories.nombre}) IN (SELECT jsonb_array_elements_text(${JSON.stringify(lowerNames)}::jsonb))`,
    );
  }
  return ex
    .select({ id: productCategories.id, nombre: productCategories.nombre })
    .from(productCategories)
    .where(and(...where));
}

/** Creates the categories not there yet (one created meanwhile is skipped); those created. */
export async function insertCategories(businessId: string, names: string[], ex: Executor) {
  const { rows } = await ex.execute<{ id: string; nombre: string }>(sql`
      INSERT INTO ${productCategories} (business_id, nombre)
      SELECT ${businessId}, n FROM jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) AS n
      ON CONFLICT (business_id, lower(nombre)) DO NOTHING
      RETURNING id, nombre`);
  return rows;
}

/** Inserts new products from jsonb records (ids given). */
export function insertProducts(businessId: string, values: Record<string, unknown>[], ex: Executor) {
  return ex.execute(sql`
      INSERT INTO ${products} (id, business_id, nombre, descripcion, codigo, codigo_barras, precio_compra,
                               precio_venta, stock_actual, stock_minimo, controla_stock, unidad, categoria_id, activo, iva)
      SELECT x.id, ${businessId}, x.nombre, x.descripcion, x.codigo, x.codigo_barras, x.precio_compra,
             x.precio_venta, x.stock_actual, x.stock_minimo, x.controla_stock, x.unidad, x.categoria_id, x.activo, x.iva
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS x(
          id uuid, nombre text, descripcion text, codigo text, codigo_barras text, precio_compra numeric,
          precio_venta numeric, stock_actual numeric, stock_minimo numeric, controla_stock boolean, unidad text,
          categoria_id uuid, activo boolean, iva text)`);
}

/** These products, locked to be updated. */
export function lockProducts(businessId: string, ids: string[], ex: Executor) {
  return ex
    .select()
    .from(products)
    .where(and(eq(products.businessId, businessId), inArray(products.id, ids)))
    .for('update');
}

/** Writes every column an import may change, from jsonb records by id. */
export function updateProducts(businessId: string, updates: Record<string, unknown>[], ex: Executor) {
  return ex.execute(sql`
      UPDATE ${products} p SET nombre = x.nombre, descripcion = x.descripcion, codigo_barras = x.codigo_barras,
             precio_compra = x.precio_compra, precio_venta = x.precio_venta, stock_actual = x.stock_actual,
             stock_minimo = x.stock_minimo, unidad = x.unidad, categoria_id = x.categoria_id, activo = x.activo,
             iva = x.iva, actualizado_en = now()
        FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS x(
          id uuid, nombre text, descripcion text, codigo_barras text, precio_compra numeric, precio_venta numeric,
          stock_actual numeric, stock_minimo numeric, unidad text, categoria_id uuid, activo boolean, iva text)
       WHERE p.business_id = ${businessId} AND p.id = x.id`);
}

/** The product with this code (any case) or with this barcode. */
export async function productIdByKey(
  businessId: string,
  key: { codigo: string } | { codigoBarras: string },
  ex: Executor,
) {
  const [p] = await ex
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.businessId, businessId),
        'codigo' in key
          ? sql`lower(${products.codigo}) = lower(${key.codigo})`
          : eq(products.codigoBarras, key.codigoBarras),
      ),
    );
  return p?.id;
}

/* ---------------------------------------------------------------- the staging */

/** The user's staging (locked to confirm). */
export async function batchOf(businessId: string, userId: string, lock: boolean, ex: Executor) {
  const q = ex
    .select()
    .from(importBatches)
    .where(and(eq(importBatches.businessId, businessId), eq(importBatches.userId, userId)));
  const [b] = lock ? await q.for('update') : await q;
  return b as BatchRow | undefined;
}

/** The id of the user's staging, locked. */
export async function lockBatchId(businessId: string, userId: string, ex: Executor) {
  const [b] = await ex
    .select({ id: importBatches.id })
    .from(importBatches)
    .where(and(eq(importBatches.businessId, businessId), eq(importBatches.userId, userId)))
    .for('update');
  return b?.id;
}

/** Removes a staging (its rows go with it). */
export function deleteBatch(businessId: string, id: string, ex: Executor) {
  return ex.delete(importBatches).where(and(eq(importBatches.businessId, businessId), eq(importBatches.id, id)));
}

/** Removes the user's staging, if any. */
export function deleteUserBatch(businessId: string, userId: string, ex: Executor) {
  return ex
    .delete(importBatches)
    .where(and(eq(importBatches.businessId, businessId), eq(importBatches.userId, userId)));
}

export function insertBatch(
  businessId: string,
  values: Omit<typeof importBatches.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  return ex.insert(importBatches).values({ ...values, businessId });
}

/** Stages rows from jsonb records. */
export function insertStagedRows(businessId: string, batchId: string, rows: Record<string, unknown>[], ex: Executor) {
  return ex.execute(sql`
        INSERT INTO ${importRows} (id, business_id, batch_id, fila, accion, producto_id, datos, errores)
        SELECT x.id, ${businessId}, ${batchId}, x.fila, x.accion, x.producto_id, x.datos, x.errores
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS x(id uuid, fila int, accion text, producto_id uuid, datos jsonb, errores jsonb)`);
}

/** The staged rows after `fila`, by row, a page at a time. */
export function stagedPage(businessId: string, batchId: string, afterFila: number, limit: number, ex: Executor) {
  return ex
    .select()
    .from(importRows)
    .where(and(eq(importRows.businessId, businessId), eq(importRows.batchId, batchId), gt(importRows.fila, afterFila)))
    .orderBy(importRows.fila)
    .limit(limit);
}

/** The staged rows with errors after `fila`, by row, a page at a time (for the errors file). */
export function errorRowsPage(businessId: string, batchId: string, afterFila: number, limit: number, ex: Executor) {
  return ex
    .select({ fila: importRows.fila, datos: importRows.datos, errores: importRows.errores })
    .from(importRows)
    .where(
      and(
        eq(importRows.businessId, businessId),
        eq(importRows.batchId, batchId),
        gt(importRows.fila, afterFila),
        sql`${importRows.errores} <> '[]'::jsonb`,
      ),
    )
    .orderBy(importRows.fila)
    .limit(limit);
}

/** A staging's counts, and the categories its valid rows name that do not exist yet (first 200, by row). */
export async function stagedSummary(businessId: string, batchId: string, ex: Executor) {
  const valid = sql`${importRows.errores} = '[]'::jsonb`;
  const [[counts], { rows: cats }] = await Promise.all([
    ex
      .select({
        total: sql<number>`count(*)::int`,
        validos: sql<number>`(count(*) FILTER (WHERE ${valid}))::int`,
        nuevos: sql<number>`(count(*) FILTER (WHERE ${valid} AND ${importRows.accion} = 'nuevo'))::int`,
        nuevosSinStock: sql<number>`(count(*) FILTER (WHERE ${valid} AND ${importRows.accion} = 'nuevo'
          AND ${importRows.datos}->>'stock_actual' IS NULL))::int`,
        actualizaciones: sql<number>`(count(*) FILTER (WHERE ${valid} AND ${importRows.accion} = 'actualizar'))::int`,
      })
      .from(importRows)
      .where(and(eq(importRows.businessId, businessId), eq(importRows.batchId, batchId))),
    ex.execute<{ nombre: string }>(sql`
      SELECT nombre FROM (
        SELECT DISTINCT ON (lower(r.datos->>'categoria_nombre')) r.datos->>'categoria_nombre' AS nombre, r.fila
          FROM ${importRows} r
         WHERE r.business_id = ${businessId} AND r.batch_id = ${batchId} AND r.errores = '[]'::jsonb AND r.datos->>'categoria_nombre' IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM ${productCategories} c
                            WHERE c.business_id = ${businessId} AND lower(c.nombre) = lower(r.datos->>'categoria_nombre'))
         ORDER BY lower(r.datos->>'categoria_nombre'), r.fila) t
       ORDER BY fila LIMIT 200`),
  ]);
  return { counts, cats };
}

/** A page of the staged rows (all, valid or with errors) by row, and the count. */
export async function stagedRows(businessId: string, batchId: string, q: StagedRowsQuery, ex: Executor) {
  const where = [eq(importRows.businessId, businessId), eq(importRows.batchId, batchId)];
  if (q.estado === 'validos') where.push(sql`${importRows.errores} = '[]'::jsonb`);
  if (q.estado === 'con_errores') where.push(sql`${importRows.errores} <> '[]'::jsonb`);
  const [rows, [{ total }]] = await Promise.all([
    ex
      .select()
      .from(importRows)
      .where(and(...where))
      .orderBy(importRows.fila)
      .limit(q.limit)
      .offset(q.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(importRows)
      .where(and(...where)),
  ]);
  return { rows, total };
}

/** A staged row of the staging, locked. */
export async function lockStagedRow(businessId: string, batchId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select()
    .from(importRows)
    .where(and(eq(importRows.businessId, businessId), eq(importRows.batchId, batchId), eq(importRows.id, id)))
    .for('update');
  return row as ImportRowRecord | undefined;
}

/** The first row before `fila` of the staging that matches (its row number, or null). */
export async function firstStagedBefore(businessId: string, batchId: string, fila: number, match: SQL, ex: Executor) {
  const { rows } = await ex.execute<{ fila: number }>(sql`
        SELECT min(fila) AS fila FROM ${importRows}
         WHERE business_id = ${businessId} AND batch_id = ${batchId} AND fila < ${fila} AND ${match}`);
  return rows[0]?.fila ?? null;
}

export async function updateStagedRow(
  businessId: string,
  id: string,
  values: Pick<ImportRowRecord, 'datos' | 'errores' | 'accion' | 'productoId'>,
  ex: Executor,
) {
  const [updated] = await ex
    .update(importRows)
    .set(values)
    .where(and(eq(importRows.businessId, businessId), eq(importRows.id, id)))
    .returning();
  return updated;
}

/** How many rows a staging holds. */
export async function stagedCount(businessId: string, batchId: string, ex: Executor) {
  const [{ n }] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(importRows)
    .where(and(eq(importRows.businessId, businessId), eq(importRows.batchId, batchId)));
  return n;
}
