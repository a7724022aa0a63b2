import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import {
  BULK_PRICE_PREVIEW_MAX,
  numberPattern,
  productListQuery,
  searchTokens,
  type BulkPriceOutput,
  type ProductListQuery,
} from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { preciosHistorial, productCategories, products, stockMovements, users } from '../../db/schema/index.js';
import type { FirstRead } from '../../lib/access.js';
import { auditRowsSql } from '../posting/audit.js';
import { es, indexableWord, likeEscaped, searchTerms, searchWords } from './common.js';

/*
 * The products' statements (decision 0044): every function takes the business first. The list's
 * statement is also what the access check sends with the session lookup (firstListRead).
 */

export type ProductRow = typeof products.$inferSelect;
export type ProductChanges = Partial<Omit<typeof products.$inferInsert, 'id' | 'businessId'>>;

/** "Ana Pérez" of a user, for stock movements. */
export const userName = sql<string | null>`nullif(concat_ws(' ', ${users.nombre}, ${users.apellido}), '')`;

function selectProducts(ex: Executor) {
  return ex
    .select({ p: products, categoriaNombre: productCategories.nombre })
    .from(products)
    .leftJoin(
      productCategories,
      and(eq(productCategories.businessId, products.businessId), eq(productCategories.id, products.categoriaId)),
    );
}

export const lowStock = sql`(${products.activo} AND ${products.controlaStock} AND (${products.stockActual} < 0 OR (${products.stockMinimo} > 0 AND ${products.stockActual} <= ${products.stockMinimo})))`;

/**
 * The list's conditions. `found`: the rows come from the search's rows function (migration 0066),
 * which already holds the indexable search words; otherwise every word is tested on each row read.
 */
export function productFilters(businessId: string, q: Partial<ProductListQuery>, found = false): SQL[] {
  const where: SQL[] = [eq(products.businessId, businessId)];
  if (q.categoria_id === 'ninguna') where.push(isNull(products.categoriaId));
  else if (q.categoria_id) where.push(eq(products.categoriaId, q.categoria_id));
  if (q.activo !== undefined) where.push(eq(products.activo, q.activo));
  if (q.stock_bajo !== undefined) where.push(q.stock_bajo ? lowStock : sql`NOT ${lowStock}`);
  const words = found ? searchWords(q.q).filter((w) => !indexableWord(w)) : searchWords(q.q);
  where.push(...searchTerms(sql`${products.busqueda}`, words.join(' ')));
  return where;
}

const SORT_COLUMNS = {
  nombre: es(products.nombre),
  codigo: es(products.codigo),
  precio_venta: sql`${products.precioVenta}`,
  stock_actual: sql`${products.stockActual}`,
  actualizado_en: sql`${products.actualizadoEn}`,
};

/** Typographic inch marks, read as `"` (search-rank.ts foldSearch). */
const INCH_MARKS = '\u201c\u201d\u2033\u02ba';

/**
 * The search's rank of a product (shared search-rank.ts, decision 0050): 0 its exact code or
 * barcode, 1 every token typed (numbers and sizes as whole tokens, the same pattern JavaScript
 * tests), 2 the rest. The tokens come folded; typographic inch marks read as `"`.
 */
function searchRankSql(typed: string): SQL {
  const text = sql`translate(${products.busqueda}, ${INCH_MARKS}, '""""')`;
  const tokens = searchTokens(typed);
  const every = tokens.length
    ? sql.join(
        tokens.map((t) => (t.numeric ? sql`${text} ~ ${numberPattern(t.text)}` : sql`strpos(${text}, ${t.text}) > 0`)),
        sql` AND `,
      )
    : sql`false`;
  const code = typed.trim();
  return sql`CASE WHEN ${products.codigoBarras} = ${code} OR lower(${products.codigo}) = lower(${code}) THEN 0
                  WHEN ${every} THEN 1 ELSE 2 END`;
}

function orderOf(q: Partial<ProductListQuery>): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const name = es(products.nombre);
  if (q.orden === 'relevancia') return [...(q.q?.trim() ? [asc(searchRankSql(q.q))] : []), asc(name), asc(products.id)];
  const main = q.orden && q.orden !== 'nombre' ? [dir(SORT_COLUMNS[q.orden])] : [];
  return [...main, q.orden === 'nombre' || !q.orden ? dir(name) : asc(name), asc(products.id)];
}

/** Above this many matches, walking the name index finds a page faster than sorting all matches. */
export const WALK_THRESHOLD = 5000;

/**
 * Above this many matches a search is ranked by name, as the list (decision 0050): so few letters
 * typed yet that ranking every match (a pattern per number typed, on each row) would cost more
 * than the answer is worth. The POS still refuses Enter on a first result that lacks a word.
 */
export const RANK_LIMIT = 2000;

/** The query ordered by name instead of by relevance when it matches more than RANK_LIMIT. */
const byName = (q: ProductListQuery, total: number): ProductListQuery =>
  q.orden === 'relevancia' && total > RANK_LIMIT ? { ...q, orden: undefined } : q;

/** A ranked search, which needs its count before its order (listPageRaw). */
const rankedSearch = (q: Partial<ProductListQuery>) => q.orden === 'relevancia' && !!q.q?.trim();

/**
 * The stock a list row shows: the total, or with `deposito_id` that depósito's (decision 0059: the
 * principal's is the total less the other depósitos').
 */
function listStock(businessId: string, q: Partial<ProductListQuery>): SQL {
  if (!q.deposito_id) return sql`products.stock_actual`;
  const principal = sql`(SELECT principal FROM depositos WHERE business_id = ${businessId} AND id = ${q.deposito_id})`;
  return sql`(CASE WHEN ${principal}
      THEN products.stock_actual - coalesce((SELECT sum(sd.stock) FROM stock_depositos sd
             WHERE sd.business_id = ${businessId} AND sd.producto_id = products.id), 0)
      ELSE coalesce((SELECT sd.stock FROM stock_depositos sd WHERE sd.business_id = ${businessId}
             AND sd.deposito_id = ${q.deposito_id} AND sd.producto_id = products.id), 0) END)`;
}

/** The columns of the list's raw rows (toProduct reads them; timestamps as text, see TEXT_TIMESTAMPS). */
const listColumns = (
  businessId: string,
  q: Partial<ProductListQuery>,
) => sql`products.id, products.nombre, products.descripcion, products.codigo,
  products.codigo_barras AS "codigoBarras", products.precio_compra AS "precioCompra",
  products.precio_venta AS "precioVenta", ${listStock(businessId, q)} AS "stockActual",
  products.stock_minimo AS "stockMinimo", products.controla_stock AS "controlaStock",
  products.unidad, products.categoria_id AS "categoriaId", products.activo, products.iva,
  products.creado_en AS "creadoEn", products.actualizado_en AS "actualizadoEn",
  products.moneda, products.precio_usd AS "precioUsd", products.contenido,
  products.contenido_unidad AS "contenidoUnidad", product_categories.nombre AS "categoriaNombre"`;

const withCategory = sql`LEFT JOIN product_categories
  ON product_categories.business_id = products.business_id AND product_categories.id = products.categoria_id`;

const conListas = (businessId: string) =>
  sql`EXISTS (SELECT 1 FROM listas_precios WHERE business_id = ${businessId} AND activo) AS "conListas"`;

/**
 * The page, the full count and whether the business has active price lists, in one statement: on
 * a small server every round trip wakes a PostgreSQL backend, which cost more than the queries
 * themselves (issue 20, docs/decisions/0028). The count and the flag are uncorrelated subqueries,
 * run once; the rows come raw, without the query builder's mapping. Every search word is tested on
 * each row read: with none indexable, or walking the name index past WALK_THRESHOLD matches, whose
 * count (`total`) the search statement already gave.
 */
function listStatement(businessId: string, q: ProductListQuery, total?: number): SQL {
  const where = and(...productFilters(businessId, q));
  const count = total ?? sql`(SELECT count(*)::int FROM products WHERE ${where})`;
  return sql`
    SELECT ${listColumns(businessId, q)}, ${count} AS "total", ${conListas(businessId)}
      FROM products ${withCategory}
     WHERE ${where}
     ORDER BY ${sql.join(orderOf(q), sql`, `)}
     LIMIT ${q.limit} OFFSET ${q.offset}`;
}

/**
 * With an indexable search word: the business's matching rows come once from the rows function
 * (migration 0066, through the trigram index), and one statement counts them and, up to
 * WALK_THRESHOLD matches, sorts its page (by rank up to RANK_LIMIT in a ranked search, by name
 * above). It always answers one row: with no product (`id` null) when the page is empty or the
 * matches are too many to sort, so the count still comes back (listProducts then walks the name
 * index). The function's rows are named `products`, so the list's conditions and order apply to them.
 */
function searchStatement(businessId: string, q: ProductListQuery): SQL {
  const words = searchWords(q.q).filter(indexableWord).map(likeEscaped);
  const where = and(...productFilters(businessId, q, true));
  const name = es(products.nombre);
  const order = rankedSearch(q)
    ? [sql`CASE WHEN n.total <= ${RANK_LIMIT} THEN ${searchRankSql(q.q ?? '')} END`, asc(name), asc(products.id)]
    : orderOf(q);
  return sql`
    WITH found AS MATERIALIZED (
      SELECT * FROM buscar_productos_filas(ARRAY[${sql.join(
        words.map((w) => sql`${w}`),
        sql`, `,
      )}]::text[]) AS products
       WHERE ${where}),
    n AS (SELECT count(*)::int AS total FROM found)
    SELECT page.*, n.total AS "total", ${conListas(businessId)}
      FROM n LEFT JOIN LATERAL (
        SELECT ${listColumns(businessId, q)}
          FROM found AS products ${withCategory}
         WHERE n.total <= ${WALK_THRESHOLD}
         ORDER BY ${sql.join(order, sql`, `)}
         LIMIT ${q.limit} OFFSET ${q.offset}) page ON true`;
}

const indexedSearch = (q: Partial<ProductListQuery>) => searchWords(q.q).some(indexableWord);

/** The list's statement: the search's with an indexable word, else the one testing each row. */
const pageStatement = (businessId: string, q: ProductListQuery) =>
  indexedSearch(q) ? searchStatement(businessId, q) : listStatement(businessId, q);

const dialect = new PgDialect();
/** Timestamps as PostgreSQL writes them, as drizzle reads them (toProduct parses them alike). */
const TEXT_TIMESTAMPS: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMPTZ
      ? (v: string) => v
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The list's statement for the access check to send with the session lookup (access.ts
 * firstRead): null for a query the route will refuse, or a ranked one without an indexable word
 * (whose order needs its count first).
 */
export function firstListRead(businessId: string, query: unknown): FirstRead | null {
  const parsed = productListQuery.safeParse(query);
  if (!parsed.success || (rankedSearch(parsed.data) && !indexedSearch(parsed.data))) return null;
  const { sql: text, params } = dialect.sqlToQuery(pageStatement(businessId, parsed.data));
  return { query: { text, values: params, types: TEXT_TIMESTAMPS }, input: JSON.stringify(parsed.data) };
}

/** The full count of the list (the list's statement answered an empty page). */
export async function countProducts(businessId: string, q: ProductListQuery, ex: Executor) {
  const where = and(...productFilters(businessId, q));
  return (
    await ex
      .select({ total: sql<number>`count(*)::int` })
      .from(products)
      .where(where)
  )[0].total;
}

/** The raw rows of the list's statement (readList reads them). */
export async function listPageRaw(businessId: string, q: ProductListQuery, db: Executor) {
  if (rankedSearch(q) && !indexedSearch(q)) q = byName(q, await countProducts(businessId, q, db));
  return (await db.execute<Record<string, unknown>>(pageStatement(businessId, q))).rows;
}

/** The page of a search with more than WALK_THRESHOLD matches, walking the name index (`total` known). */
export async function walkPageRaw(businessId: string, q: ProductListQuery, total: number, db: Executor) {
  return total > WALK_THRESHOLD
    ? (await db.execute<Record<string, unknown>>(listStatement(businessId, byName(q, total), total))).rows
    : [];
}

export async function findProductRow(businessId: string, id: string, ex: Executor) {
  const [r] = await selectProducts(ex).where(and(eq(products.businessId, businessId), eq(products.id, id)));
  return r;
}

export async function insertProduct(businessId: string, cols: ProductChanges, ex: Executor) {
  const [row] = await ex
    .insert(products)
    .values({ businessId, ...cols } as typeof products.$inferInsert)
    .returning({ id: products.id });
  return row;
}

/** The first price of a new product opens its price history. */
export async function insertFirstPrice(
  businessId: string,
  v: { productoId: string; precioNuevo: string; costoNuevo: string | null; usuarioId: string },
  ex: Executor,
) {
  await ex.insert(preciosHistorial).values({ businessId, ...v, origen: 'alta' });
}

/** Locks the product for an update or a delete; false when it is not the business's. */
export async function lockProduct(businessId: string, id: string, ex: Executor) {
  const [locked] = await ex
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.businessId, businessId), eq(products.id, id)))
    .for('update');
  return !!locked;
}

export async function updateProductRow(businessId: string, id: string, cols: ProductChanges, ex: Executor) {
  await ex
    .update(products)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(products.businessId, businessId), eq(products.id, id)));
}

/** Whether a sale, a purchase or a void moved the product's stock. */
export async function productMovedByOperations(businessId: string, id: string, ex: Executor) {
  const [used] = await ex
    .select({ one: sql`1` })
    .from(stockMovements)
    .where(
      and(
        eq(stockMovements.businessId, businessId),
        eq(stockMovements.productoId, id),
        sql`${stockMovements.origen} IN ('venta', 'compra', 'anulacion')`,
      ),
    )
    .limit(1);
  return !!used;
}

export async function deleteProductRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(products).where(and(eq(products.businessId, businessId), eq(products.id, id)));
}

const ROUNDING: Record<BulkPriceOutput['redondeo'], number> = { ninguno: 2, entero: 0, decena: -1, centena: -2 };

/**
 * The bulk price change's candidates: new price = old × (1 + porcentaje/100), rounded half-up in
 * PostgreSQL's exact numeric (to cents, or to the chosen unit — never down to 0).
 */
function bulkPrice(businessId: string, input: BulkPriceOutput) {
  const col = priceColumn(input);
  const exact = sql`(${col} * (10000 + ${input.porcentaje}::numeric) / 10000)`;
  const digits = ROUNDING[input.redondeo];
  const rounded =
    digits === 2
      ? sql`round(${exact}, 2)`
      : sql`CASE WHEN round(${exact}, ${digits}) = 0 THEN round(${exact}, 2) ELSE round(${exact}, ${digits}) END`;
  const cond = bulkPriceCond(businessId, input);
  const candidates = sql`SELECT id, nombre, ${col} AS anterior, ${rounded} AS nuevo FROM ${products} WHERE ${cond}`;
  return { col, rounded, candidates };
}

const priceColumn = (input: BulkPriceOutput) =>
  input.campo === 'precio_compra' ? sql.raw('precio_compra') : sql.raw('precio_venta');

/** The products the bulk change reaches. */
function bulkPriceCond(businessId: string, input: BulkPriceOutput) {
  const col = priceColumn(input);
  const where: SQL[] = [sql`business_id = ${businessId}`, sql`${col} IS NOT NULL`];
  if (input.categoria_id) where.push(sql`categoria_id = ${input.categoria_id}`);
  if (!input.incluir_inactivos) where.push(sql`activo`);
  // A price in dollars follows its cotización: a bulk change of peso prices leaves it alone.
  if (input.campo !== 'precio_compra') where.push(sql`moneda = 'ARS'`);
  return sql.join(where, sql` AND `);
}

/** The name of a product whose new price would pass the maximum, if any. */
export async function bulkPriceTooHigh(businessId: string, input: BulkPriceOutput, ex: Executor) {
  const { candidates } = bulkPrice(businessId, input);
  const { rows: tooHigh } = await ex.execute<{ nombre: string }>(
    sql`SELECT nombre FROM (${candidates}) c WHERE nuevo > 999999999999.99 LIMIT 1`,
  );
  return tooHigh[0]?.nombre;
}

/** A dry run: the first changes by name and how many products would change. */
export async function bulkPricePreview(businessId: string, input: BulkPriceOutput, ex: Executor) {
  const { candidates } = bulkPrice(businessId, input);
  const changed = sql`(${candidates}) c WHERE nuevo <> anterior`;
  const [{ rows }, { rows: count }] = await Promise.all([
    ex.execute<{ id: string; nombre: string; anterior: string; nuevo: string }>(
      sql`SELECT * FROM ${changed} ORDER BY nombre COLLATE "es-AR-x-icu", id LIMIT ${BULK_PRICE_PREVIEW_MAX}`,
    ),
    ex.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${changed}`),
  ]);
  return { rows, n: count[0].n };
}

/** One statement updates every product and writes one audit row each: the changes by name. */
export async function bulkPriceApply(businessId: string, userId: string, input: BulkPriceOutput, ex: Executor) {
  const { col, rounded } = bulkPrice(businessId, input);
  const cond = bulkPriceCond(businessId, input);
  const campo = input.campo;
  const { rows } = await ex.execute<{ id: string; nombre: string; anterior: string; nuevo: string }>(sql`
    WITH sel AS (
      SELECT id, nombre, ${col} AS anterior, ${rounded} AS nuevo FROM ${products}
       WHERE ${cond} FOR UPDATE
    ), changed AS (
      SELECT * FROM sel WHERE nuevo <> anterior
    ), upd AS (
      UPDATE ${products} p SET ${col} = changed.nuevo, actualizado_en = now()
        FROM changed WHERE p.business_id = ${businessId} AND p.id = changed.id
      RETURNING p.id
    ), aud AS (${auditRowsSql(businessId, userId, {
      entidad: 'producto',
      accion: 'actualizar',
      entidadId: sql`id`,
      antes: sql`jsonb_build_object(${campo}::text, anterior::float8)`,
      despues: sql`jsonb_build_object(${campo}::text, nuevo::float8)`,
      from: sql`FROM changed`,
    })})
    SELECT changed.id, changed.nombre, changed.anterior, changed.nuevo
      FROM changed JOIN upd ON upd.id = changed.id
     ORDER BY changed.nombre COLLATE "es-AR-x-icu", changed.id`);
  return rows;
}

/** A product's stock history, newest first, and its count. */
export async function listStockMovementRows(
  businessId: string,
  productId: string,
  page: { limit: number; offset: number },
  ex: Executor,
) {
  const where = and(eq(stockMovements.businessId, businessId), eq(stockMovements.productoId, productId));
  const [rows, [{ total }]] = await Promise.all([
    ex
      .select({ m: stockMovements, usuarioNombre: userName })
      .from(stockMovements)
      .leftJoin(users, eq(users.id, stockMovements.usuarioId))
      .where(where)
      .orderBy(desc(stockMovements.fecha), desc(stockMovements.id))
      .limit(page.limit)
      .offset(page.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(stockMovements)
      .where(where),
  ]);
  return { rows, total };
}
