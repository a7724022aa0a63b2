import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  BULK_PRICE_PREVIEW_MAX,
  centsToDecimal,
  centsToNumber,
  milliToDecimal,
  milliToNumber,
  PRODUCT_MESSAGES,
  type BulkPriceOutput,
  type BulkPriceResult,
  type Product,
  type ProductListQuery,
  type ProductOutput,
  type ProductUpdate,
  type StockAdjustmentOutput,
  type StockAdjustmentResult,
  type IvaRate,
  type ContenidoUnidad,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { audit, diff } from '../../lib/audit.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { precioVentaDeUsd } from '../precios/cotizaciones.service.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { assertCategory } from '../categories/categories.service.js';
import { defined, isFkViolation, num } from './common.js';
import { applyStockChange } from '../posting/stock.js';
import {
  bulkPriceApply,
  bulkPricePreview,
  bulkPriceTooHigh,
  countProducts,
  deleteProductRow,
  findProductRow,
  insertFirstPrice,
  insertProduct,
  listPageRaw,
  lockProduct,
  productMovedByOperations,
  walkPageRaw,
  updateProductRow,
  type ProductChanges,
  type ProductRow as Row,
} from './products.queries.js';
import { toUser, userName } from './stock.service.js';

export { firstListRead } from './products.queries.js';

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
    contenido: num(r.contenido),
    contenido_unidad: (r.contenidoUnidad as ContenidoUnidad | null) ?? null,
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
  contenido: p.contenido ?? null,
  contenido_unidad: p.contenido_unidad ?? null,
});
type Snapshot = ReturnType<typeof snapshot>;

type ListRow = Omit<ProductColumns, 'creadoEn' | 'actualizadoEn'> & {
  creadoEn: string;
  actualizadoEn: string;
  categoriaNombre: string | null;
  total: number;
  conListas: boolean;
};

/**
 * The products of the list's statement. Its search form always answers a row with the count (`id`
 * null when the page is empty or the matches are too many to sort: then the page walks the name
 * index); the other answers no row for an empty page, so the count then runs alone.
 */
export async function readList(db: Db, businessId: string, q: ProductListQuery, raw: Record<string, unknown>[]) {
  let rows = raw as ListRow[];
  if (!rows.length) {
    const total = q.offset === 0 ? 0 : await countProducts(businessId, q, db);
    return { rows: [] as Product[], total, conListas: false };
  }
  const { total, conListas } = rows[0];
  if ((rows[0].id as string | null) === null) rows = (await walkPageRaw(businessId, q, total, db)) as ListRow[];
  return {
    rows: rows.map((r) =>
      toProduct({ ...r, creadoEn: new Date(r.creadoEn), actualizadoEn: new Date(r.actualizadoEn) }, r.categoriaNombre),
    ),
    total,
    conListas,
  };
}

/**
 * The page, the full count and whether the business has active price lists (`conListas`), in one
 * statement as planned; a search with more matches than a page can sort walks the name index after.
 */
export async function listProducts(
  db: Db,
  businessId: string,
  q: ProductListQuery,
): Promise<{ rows: Product[]; total: number; conListas?: boolean }> {
  return readList(db, businessId, q, await listPageRaw(businessId, q, db));
}

export async function findProduct(ex: Executor, businessId: string, id: string): Promise<Product | null> {
  const r = await findProductRow(businessId, id, ex);
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

function columns(s: Partial<Snapshot>): ProductChanges {
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
    contenido: s.contenido === undefined ? undefined : s.contenido === null ? null : s.contenido.toFixed(3),
    contenidoUnidad: s.contenido_unidad,
  };
}

/** Net content and its unit go together (the table's check says so too). */
function assertContenido(s: Pick<Snapshot, 'contenido' | 'contenido_unidad'>) {
  if ((s.contenido === null) !== (s.contenido_unidad === null)) {
    throw invalid(s.contenido === null ? 'contenido' : 'contenido_unidad', PRODUCT_MESSAGES.contenidoIncompleto);
  }
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
        contenido: input.contenido ?? null,
        contenido_unidad: input.contenido_unidad ?? null,
      };
      assertContenido(values);
      if (values.moneda === 'USD') values.precio_venta = await precioVentaDeUsd(tx, businessId, values.precio_usd);
      else values.precio_usd = null;
      const row = await insertProduct(businessId, columns(values), tx);
      // The first price opens the product's price history (imports leave it out: one row per product would slow them).
      await insertFirstPrice(
        businessId,
        {
          productoId: row.id,
          precioNuevo: money(values.precio_venta),
          costoNuevo: values.precio_compra === null ? null : money(values.precio_compra),
          usuarioId: userId,
        },
        tx,
      );
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
      if (!(await lockProduct(businessId, id, tx))) throw notFound(PRODUCT_MESSAGES.notFound);
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
      assertContenido({ ...snapshot(before), ...given });
      const d = changes.despues as Partial<Snapshot>;
      if (d.categoria_id) await assertCategory(tx, businessId, d.categoria_id);
      await precioOrigen(tx, { origen: 'manual', userId });
      await updateProductRow(businessId, id, columns(d), tx);
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
      if (!(await lockProduct(businessId, id, tx))) throw notFound(PRODUCT_MESSAGES.notFound);
      const before = (await findProduct(tx, businessId, id))!;
      if (await productMovedByOperations(businessId, id, tx)) throw inUse();
      await deleteProductRow(businessId, id, tx);
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
      depositoId: input.deposito_id ?? null,
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
  return db.transaction(async (tx) => {
    if (input.categoria_id) await assertCategory(tx, businessId, input.categoria_id);
    const tooHigh = await bulkPriceTooHigh(businessId, input, tx);
    if (tooHigh !== undefined) throw invalid('porcentaje', PRODUCT_MESSAGES.priceTooHigh(tooHigh));

    if (input.dry_run) {
      const { rows, n } = await bulkPricePreview(businessId, input, tx);
      return {
        dry_run: true,
        productos_afectados: n,
        cambios: rows.map((r) => ({
          id: r.id,
          nombre: r.nombre,
          precio_anterior: Number(r.anterior),
          precio_nuevo: Number(r.nuevo),
        })),
      };
    }

    // One id per application, on every price history row it writes: its labels are asked by it.
    const referencia = randomUUID();
    await precioOrigen(tx, { origen: 'masivo', userId, referenciaId: referencia });
    const rows = await bulkPriceApply(businessId, userId, input, tx);
    return {
      dry_run: false,
      referencia_id: referencia,
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
