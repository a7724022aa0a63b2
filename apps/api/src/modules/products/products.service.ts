import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import {
  BULK_PRICE_PREVIEW_MAX,
  centsToDecimal,
  centsToNumber,
  milliToDecimal,
  milliToNumber,
  PRODUCT_MESSAGES,
  productListQuery,
  type BulkPriceOutput,
  type BulkPriceResult,
  type Product,
  type ProductListQuery,
  type ProductOutput,
  type ProductUpdate,
  type StockAdjustmentOutput,
  type StockAdjustmentResult,
  type IvaRate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { preciosHistorial, productCategories, products, stockMovements, users } from '../../db/schema/index.js';
import type { FirstRead } from '../../lib/access.js';
import { audit, diff } from '../../lib/audit.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { precioVentaDeUsd } from '../precios/cotizaciones.service.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { assertCategory } from '../categories/categories.service.js';
import { defined, es, indexableWord, isFkViolation, num, searchFunction, searchTerms, searchWords } from './common.js';
import { auditRowsSql } from '../posting/audit.js';
import { applyStockChange } from '../posting/stock.js';
import { toUser, userName } from './stock.service.js';

type Row = typeof products.$inferSelect;

/**
 * stock_bajo: active, tracking stock, and at or below its minimum (API-CONTRACT §4.1) or below 0
 * (sold without stock).
 */
const isLow = (r: Pick<Row, 'activo' | 'stockMinimo' | 'stockActual' | 'controlaStock'>) =>
  r.activo &&
  r.controlaStock &&
  (Number(r.stockActual) < 0 || (Number(r.stockMinimo) > 0 && Number(r.stockActual) <= Number(r.stockMinimo)));

/** The columns a product's answer shows. */
type ProductColumns = Omit<Row, 'businessId' | 'cambioXid' | 'busqueda'>;

export function toProduct(r: ProductColumns, categoriaNombre: string | null): Product {
  return {
    id: r.id,
    nombre: r.nombre,
    descripcion: r.descripcion,
    codigo: r.codigo,
    codigo_barras: r.codigoBarras,
    precio_compra: num(r.precioCompra),
    precio_venta: Number(r.precioVenta),
    stock_actual: Number(r.stockActual),
    stock_minimo: Number(r.stockMinimo),
    controla_stock: r.controlaStock,
    unidad: r.unidad,
    categoria_id: r.categoriaId,
    categoria_nombre: categoriaNombre,
    activo: r.activo,
    stock_bajo: isLow(r),
    iva: r.iva as IvaRate,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
    moneda: r.moneda,
    precio_usd: num(r.precioUsd),
  };
}

/** What the audit records of a product (money and quantities as numbers). */
const snapshot = (p: Product) => ({
  nombre: p.nombre,
  descripcion: p.descripcion,
  codigo: p.codigo,
  codigo_barras: p.codigo_barras,
  precio_compra: p.precio_compra,
  precio_venta: p.precio_venta,
  stock_minimo: p.stock_minimo,
  controla_stock: p.controla_stock,
  unidad: p.unidad,
  categoria_id: p.categoria_id,
  activo: p.activo,
  iva: p.iva ?? '21',
  moneda: p.moneda ?? 'ARS',
  precio_usd: p.precio_usd ?? null,
});
type Snapshot = ReturnType<typeof snapshot>;

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

/** The search function's condition for the indexable words (migration 0055). */
const productSearch = searchFunction('buscar_productos', products.id);

/**
 * The list's conditions. `viaIndex`: the indexable search words through the trigram index (the
 * search function); otherwise they are tested on each row read, as walking the name index does.
 */
export function productFilters(businessId: string, q: Partial<ProductListQuery>, viaIndex = false): SQL[] {
  const where: SQL[] = [eq(products.businessId, businessId)];
  if (q.categoria_id === 'ninguna') where.push(isNull(products.categoriaId));
  else if (q.categoria_id) where.push(eq(products.categoriaId, q.categoria_id));
  if (q.activo !== undefined) where.push(eq(products.activo, q.activo));
  if (q.stock_bajo !== undefined) where.push(q.stock_bajo ? lowStock : sql`NOT ${lowStock}`);
  where.push(...searchTerms(sql`${products.busqueda}`, q.q, viaIndex ? productSearch : undefined));
  return where;
}

const SORT_COLUMNS = {
  nombre: es(products.nombre),
  codigo: es(products.codigo),
  precio_venta: sql`${products.precioVenta}`,
  stock_actual: sql`${products.stockActual}`,
  actualizado_en: sql`${products.actualizadoEn}`,
};

function orderOf(q: Partial<ProductListQuery>): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const name = es(products.nombre);
  const main = q.orden && q.orden !== 'nombre' ? [dir(SORT_COLUMNS[q.orden])] : [];
  return [...main, q.orden === 'nombre' || !q.orden ? dir(name) : asc(name), asc(products.id)];
}

/**
 * Runs `fn` in a transaction planned for a trigram search: no sequential or plain index scans, so
 * PostgreSQL takes the pg_trgm bitmap. Its cost model prices that bitmap close to a sequential
 * scan of 50,000 rows (which really takes several times longer), and would walk the name index
 * hoping to meet 50 matches early — slow for a word whose products all sort near the end.
 */
function trigramPlanned<T>(db: Db, fn: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`,
    );
    return fn(tx);
  });
}

/** Above this many matches, walking the name index finds a page faster than sorting all matches. */
const WALK_THRESHOLD = 5000;

/**
 * The page, the full count and whether the business has active price lists, in one statement: on
 * a small server every round trip wakes a PostgreSQL backend, which cost more than the queries
 * themselves (issue 20, docs/decisions/0028). The count and the flag are uncorrelated subqueries,
 * run once; the rows come raw, without the query builder's mapping (the columns toProduct reads,
 * timestamps parsed as drizzle does). Null with an indexable search word (listProducts).
 */
function listStatement(businessId: string, q: ProductListQuery): SQL | null {
  if (searchWords(q.q).some(indexableWord)) return null;
  const where = and(...productFilters(businessId, q));
  return sql`
    SELECT products.id, products.nombre, products.descripcion, products.codigo,
           products.codigo_barras AS "codigoBarras", products.precio_compra AS "precioCompra",
           products.precio_venta AS "precioVenta", products.stock_actual AS "stockActual",
           products.stock_minimo AS "stockMinimo", products.controla_stock AS "controlaStock",
           products.unidad, products.categoria_id AS "categoriaId", products.activo, products.iva,
           products.creado_en AS "creadoEn", products.actualizado_en AS "actualizadoEn",
           products.moneda, products.precio_usd AS "precioUsd",
           product_categories.nombre AS "categoriaNombre",
           (SELECT count(*)::int FROM products WHERE ${where}) AS "total",
           EXISTS (SELECT 1 FROM listas_precios WHERE business_id = ${businessId} AND activo) AS "conListas"
      FROM products
      LEFT JOIN product_categories
        ON product_categories.business_id = products.business_id AND product_categories.id = products.categoria_id
     WHERE ${where}
     ORDER BY ${sql.join(orderOf(q), sql`, `)}
     LIMIT ${q.limit} OFFSET ${q.offset}`;
}

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
 * firstRead): null for a query the route will refuse, or one with an indexable search word.
 */
export function firstListRead(businessId: string, query: unknown): FirstRead | null {
  const parsed = productListQuery.safeParse(query);
  const statement = parsed.success ? listStatement(businessId, parsed.data) : null;
  if (!statement) return null;
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return { query: { text, values: params, types: TEXT_TIMESTAMPS }, input: JSON.stringify(parsed.data) };
}

/** The products of the list's statement; an empty page names no count, so the count then runs alone. */
export async function readList(db: Db, businessId: string, q: ProductListQuery, raw: Record<string, unknown>[]) {
  const rows = raw as ListRow[];
  if (!rows.length) {
    const where = and(...productFilters(businessId, q));
    const total =
      q.offset === 0
        ? 0
        : (
            await db
              .select({ total: sql<number>`count(*)::int` })
              .from(products)
              .where(where)
          )[0].total;
    return { rows: [] as Product[], total, conListas: false };
  }
  return {
    rows: rows.map((r) =>
      toProduct({ ...r, creadoEn: new Date(r.creadoEn), actualizadoEn: new Date(r.actualizadoEn) }, r.categoriaNombre),
    ),
    total: rows[0].total,
    conListas: rows[0].conListas,
  };
}

type ListRow = Omit<ProductColumns, 'creadoEn' | 'actualizadoEn'> & {
  creadoEn: string;
  actualizadoEn: string;
  categoriaNombre: string | null;
  total: number;
  conListas: boolean;
};

/**
 * The page and the full count. Without an indexable search word both come in one statement as
 * planned, with whether the business has active price lists (`conListas`; unknown otherwise); with
 * one, the count goes first through the trigram index, and the page either sorts those matches
 * (few) or walks the name index (many, so a page fills quickly).
 */
export async function listProducts(
  db: Db,
  businessId: string,
  q: ProductListQuery,
): Promise<{ rows: Product[]; total: number; conListas?: boolean }> {
  const statement = listStatement(businessId, q);
  if (statement) return readList(db, businessId, q, (await db.execute<Record<string, unknown>>(statement)).rows);
  const indexed = and(...productFilters(businessId, q, true));
  // `where` starts with the business's predicate (productFilters); named again here so the
  // statement shows it where it is finished (tenant-statements.test.ts).
  const page = (ex: Executor, where = indexed) =>
    selectProducts(ex)
      .where(and(eq(products.businessId, businessId), where))
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset);
  const count = async (ex: Executor) =>
    (
      await ex
        .select({ total: sql<number>`count(*)::int` })
        .from(products)
        .where(indexed)
    )[0].total;
  const total = await trigramPlanned(db, count);
  const rows =
    total === 0
      ? []
      : total > WALK_THRESHOLD
        ? await page(db, and(...productFilters(businessId, q)))
        : await trigramPlanned(db, page);
  return { rows: rows.map((r) => toProduct(r.p, r.categoriaNombre)), total };
}

export async function findProduct(ex: Executor, businessId: string, id: string): Promise<Product | null> {
  const [r] = await selectProducts(ex).where(and(eq(products.businessId, businessId), eq(products.id, id)));
  return r ? toProduct(r.p, r.categoriaNombre) : null;
}

export async function getProduct(ex: Executor, businessId: string, id: string): Promise<Product> {
  const p = await findProduct(ex, businessId, id);
  if (!p) throw notFound(PRODUCT_MESSAGES.notFound);
  return p;
}

/** A unique violation on the code or barcode, as the 409 the contract names. */
function duplicateOf(e: unknown, codigo: string | null | undefined, barras: string | null | undefined) {
  if (isUniqueViolation(e, 'products_codigo_key')) {
    return conflict('DUPLICATE', PRODUCT_MESSAGES.duplicateCode(codigo ?? ''));
  }
  if (isUniqueViolation(e, 'products_codigo_barras_key')) {
    return conflict('DUPLICATE', PRODUCT_MESSAGES.duplicateBarcode(barras ?? ''));
  }
  return null;
}

function columns(s: Partial<Snapshot>) {
  return {
    nombre: s.nombre,
    descripcion: s.descripcion,
    codigo: s.codigo,
    codigoBarras: s.codigo_barras,
    precioCompra: s.precio_compra === undefined ? undefined : s.precio_compra === null ? null : money(s.precio_compra),
    precioVenta: s.precio_venta === undefined ? undefined : money(s.precio_venta),
    stockMinimo: s.stock_minimo === undefined ? undefined : milliToDecimal(Math.round(s.stock_minimo * 1000)),
    controlaStock: s.controla_stock,
    unidad: s.unidad,
    categoriaId: s.categoria_id,
    activo: s.activo,
    iva: s.iva,
    moneda: s.moneda,
    precioUsd: s.precio_usd === undefined ? undefined : s.precio_usd === null ? null : money(s.precio_usd),
  };
}

const money = (n: number) => centsToDecimal(Math.round(n * 100));

export async function createProduct(db: Db, businessId: string, userId: string, input: ProductOutput) {
  try {
    return await db.transaction(async (tx) => {
      if (input.categoria_id) await assertCategory(tx, businessId, input.categoria_id);
      const values: Snapshot = {
        nombre: input.nombre,
        descripcion: input.descripcion ?? null,
        codigo: input.codigo ?? null,
        codigo_barras: input.codigo_barras ?? null,
        precio_compra:
          input.precio_compra === undefined || input.precio_compra === null ? null : centsToNumber(input.precio_compra),
        precio_venta: centsToNumber(input.precio_venta),
        stock_minimo: milliToNumber(input.stock_minimo ?? 0),
        controla_stock: input.controla_stock ?? true,
        unidad: input.unidad ?? 'unidad',
        categoria_id: input.categoria_id ?? null,
        activo: input.activo ?? true,
        iva: input.iva ?? '21',
        moneda: input.moneda ?? 'ARS',
        precio_usd: input.precio_usd == null ? null : centsToNumber(input.precio_usd),
      };
      if (values.moneda === 'USD') values.precio_venta = await precioVentaDeUsd(tx, businessId, values.precio_usd);
      else values.precio_usd = null;
      const [row] = await tx
        .insert(products)
        .values({ businessId, ...columns(values) } as typeof products.$inferInsert)
        .returning({ id: products.id });
      // The first price opens the product's price history (imports leave it out: one row per product would slow them).
      await tx.insert(preciosHistorial).values({
        businessId,
        productoId: row.id,
        precioNuevo: money(values.precio_venta),
        costoNuevo: values.precio_compra === null ? null : money(values.precio_compra),
        origen: 'alta',
        usuarioId: userId,
      });
      await audit(tx, {
        businessId,
        userId,
        entidad: 'producto',
        entidadId: row.id,
        accion: 'crear',
        despues: { ...values, stock_actual: milliToNumber(values.controla_stock ? (input.stock_actual ?? 0) : 0) },
      });
      if (values.controla_stock && input.stock_actual && input.stock_actual > 0) {
        await applyStockChange(tx, {
          businessId,
          productId: row.id,
          cantidad: input.stock_actual,
          origen: 'inicial',
          motivo: 'Stock inicial',
          userId,
          audit: false,
        });
      }
      return getProduct(tx, businessId, row.id);
    });
  } catch (e) {
    throw duplicateOf(e, input.codigo, input.codigo_barras) ?? e;
  }
}

/**
 * A PUT: the given fields change. `stock_actual` equal to the current stock is ignored (the
 * existing client sends the whole form); a different value is refused: stock changes only
 * through its own operations.
 */
export async function updateProduct(db: Db, businessId: string, userId: string, id: string, patch: ProductUpdate) {
  const { stock_actual, ...rest } = defined(patch);
  try {
    return await db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: products.id })
        .from(products)
        .where(and(eq(products.businessId, businessId), eq(products.id, id)))
        .for('update');
      if (!locked) throw notFound(PRODUCT_MESSAGES.notFound);
      const before = (await findProduct(tx, businessId, id))!;
      if (stock_actual !== undefined && stock_actual !== Math.round(before.stock_actual * 1000)) {
        throw invalid('stock_actual', PRODUCT_MESSAGES.stockNotEditable);
      }
      const given: Partial<Snapshot> = {
        ...(rest as Omit<Partial<Snapshot>, 'precio_compra' | 'precio_venta' | 'stock_minimo' | 'precio_usd'>),
        ...(rest.precio_compra !== undefined
          ? { precio_compra: rest.precio_compra === null ? null : centsToNumber(rest.precio_compra) }
          : {}),
        ...(rest.precio_venta !== undefined ? { precio_venta: centsToNumber(rest.precio_venta) } : {}),
        ...(rest.stock_minimo !== undefined ? { stock_minimo: milliToNumber(rest.stock_minimo) } : {}),
        ...(rest.precio_usd !== undefined
          ? { precio_usd: rest.precio_usd === null ? null : centsToNumber(rest.precio_usd) }
          : {}),
      };
      if (given.unidad === null) given.unidad = 'unidad';
      // A product in dollars: its peso price follows precio_usd and the cotización in force.
      const moneda = given.moneda ?? before.moneda ?? 'ARS';
      if (moneda === 'USD') {
        const usd = given.precio_usd !== undefined ? given.precio_usd : (before.precio_usd ?? null);
        if (given.moneda !== undefined || given.precio_usd !== undefined || given.precio_venta !== undefined) {
          given.precio_venta = await precioVentaDeUsd(tx, businessId, usd);
        }
      } else if (given.moneda === 'ARS') given.precio_usd = null;
      const changes = diff(snapshot(before), given);
      if (!changes.changed) return before;
      const d = changes.despues as Partial<Snapshot>;
      if (d.categoria_id) await assertCategory(tx, businessId, d.categoria_id);
      await precioOrigen(tx, { origen: 'manual', userId });
      await tx
        .update(products)
        .set({ ...columns(d), actualizadoEn: sql`now()` })
        .where(and(eq(products.businessId, businessId), eq(products.id, id)));
      await audit(tx, {
        businessId,
        userId,
        entidad: 'producto',
        entidadId: id,
        accion: 'actualizar',
        antes: changes.antes,
        despues: changes.despues,
      });
      return getProduct(tx, businessId, id);
    });
  } catch (e) {
    throw duplicateOf(e, rest.codigo, rest.codigo_barras) ?? e;
  }
}

const inUse = () => conflict('IN_USE', PRODUCT_MESSAGES.inUse);

/**
 * Refused once a sale or purchase moved the product's stock (and by the foreign keys of the
 * sales and purchase lines); otherwise the product and its own stock history go.
 */
export async function deleteProduct(db: Db, businessId: string, userId: string, id: string) {
  try {
    await db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: products.id })
        .from(products)
        .where(and(eq(products.businessId, businessId), eq(products.id, id)))
        .for('update');
      if (!locked) throw notFound(PRODUCT_MESSAGES.notFound);
      const before = (await findProduct(tx, businessId, id))!;
      const [used] = await tx
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
      if (used) throw inUse();
      await tx.delete(products).where(and(eq(products.businessId, businessId), eq(products.id, id)));
      await audit(tx, {
        businessId,
        userId,
        entidad: 'producto',
        entidadId: id,
        accion: 'eliminar',
        antes: { ...snapshot(before), stock_actual: before.stock_actual },
      });
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (isFkViolation(e)) throw inUse();
    throw e;
  }
}

/** POST …/ajuste-stock: one transaction, a conditional update, a movement `ajuste` and its audit row. */
export async function adjustStock(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  input: StockAdjustmentOutput,
): Promise<StockAdjustmentResult> {
  return db.transaction(async (tx) => {
    const r = await applyStockChange(tx, {
      businessId,
      productId: id,
      cantidad: input.cantidad,
      origen: 'ajuste',
      motivo: input.motivo,
      userId,
      untracked: 'refuse',
    });
    const [u] = await tx.select({ nombre: userName }).from(users).where(eq(users.id, userId));
    return {
      producto_id: id,
      stock_anterior: milliToNumber(r.stockAnterior),
      stock_actual: milliToNumber(r.stockActual),
      movimiento: {
        id: r.movimientoId!,
        cantidad: milliToNumber(input.cantidad),
        motivo: input.motivo,
        fecha: r.fecha.toISOString(),
        usuario: toUser(userId, u?.nombre ?? null),
      },
    };
  });
}

const ROUNDING: Record<BulkPriceOutput['redondeo'], number> = { ninguno: 2, entero: 0, decena: -1, centena: -2 };

/**
 * POST …/actualizacion-masiva: new price = old × (1 + porcentaje/100), rounded half-up in
 * PostgreSQL's exact numeric (to cents, or to the chosen unit — never down to 0). A dry run
 * writes nothing; otherwise one statement updates every product and writes one audit row each.
 */
export async function bulkPriceUpdate(
  db: Db,
  businessId: string,
  userId: string,
  input: BulkPriceOutput,
): Promise<BulkPriceResult> {
  const col = input.campo === 'precio_compra' ? sql.raw('precio_compra') : sql.raw('precio_venta');
  const exact = sql`(${col} * (10000 + ${input.porcentaje}::numeric) / 10000)`;
  const digits = ROUNDING[input.redondeo];
  const rounded =
    digits === 2
      ? sql`round(${exact}, 2)`
      : sql`CASE WHEN round(${exact}, ${digits}) = 0 THEN round(${exact}, 2) ELSE round(${exact}, ${digits}) END`;
  const where: SQL[] = [sql`business_id = ${businessId}`, sql`${col} IS NOT NULL`];
  if (input.categoria_id) where.push(sql`categoria_id = ${input.categoria_id}`);
  if (!input.incluir_inactivos) where.push(sql`activo`);
  // A price in dollars follows its cotización: a bulk change of peso prices leaves it alone.
  if (input.campo !== 'precio_compra') where.push(sql`moneda = 'ARS'`);
  const cond = sql.join(where, sql` AND `);

  return db.transaction(async (tx) => {
    if (input.categoria_id) await assertCategory(tx, businessId, input.categoria_id);
    const candidates = sql`SELECT id, nombre, ${col} AS anterior, ${rounded} AS nuevo FROM ${products} WHERE ${cond}`;
    const { rows: tooHigh } = await tx.execute<{ nombre: string }>(
      sql`SELECT nombre FROM (${candidates}) c WHERE nuevo > 999999999999.99 LIMIT 1`,
    );
    if (tooHigh[0]) throw invalid('porcentaje', PRODUCT_MESSAGES.priceTooHigh(tooHigh[0].nombre));

    if (input.dry_run) {
      const changed = sql`(${candidates}) c WHERE nuevo <> anterior`;
      const [{ rows }, { rows: count }] = await Promise.all([
        tx.execute<{ id: string; nombre: string; anterior: string; nuevo: string }>(
          sql`SELECT * FROM ${changed} ORDER BY nombre COLLATE "es-AR-x-icu", id LIMIT ${BULK_PRICE_PREVIEW_MAX}`,
        ),
        tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${changed}`),
      ]);
      return {
        dry_run: true,
        productos_afectados: count[0].n,
        cambios: rows.map((r) => ({
          id: r.id,
          nombre: r.nombre,
          precio_anterior: Number(r.anterior),
          precio_nuevo: Number(r.nuevo),
        })),
      };
    }

    const campo = input.campo;
    await precioOrigen(tx, { origen: 'masivo', userId });
    const { rows } = await tx.execute<{ id: string; nombre: string; anterior: string; nuevo: string }>(sql`
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
    return {
      dry_run: false,
      productos_afectados: rows.length,
      cambios: rows.slice(0, BULK_PRICE_PREVIEW_MAX).map((r) => ({
        id: r.id,
        nombre: r.nombre,
        precio_anterior: Number(r.anterior),
        precio_nuevo: Number(r.nuevo),
      })),
    };
  });
}
