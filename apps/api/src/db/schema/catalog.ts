import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';
import { xid8 } from './xid8.js';
import { users } from './users.js';

/** Product and service categories (API-CONTRACT §5); the name is unique per business ignoring case. */
export const productCategories = pgTable(
  'product_categories',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion'),
    activo: boolean('activo').notNull().default(true),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'product_categories_pkey', columns: [t.id, t.businessId] }),
    unique('product_categories_business_id_key').on(t.businessId, t.id),
    uniqueIndex('product_categories_name_key').on(t.businessId, sql`lower(${t.nombre})`),
  ],
);

/**
 * Products (API-CONTRACT §4.1). `stock_actual` changes only through applyStockChange (sales,
 * purchases, imports, voids, adjustments), never below 0 unless the business sells without stock. `busqueda` is the folded text that
 * search-as-you-type matches with a trigram index, computed once per write instead of per query.
 */
export const products = pgTable(
  'products',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion'),
    codigo: text('codigo'),
    codigoBarras: text('codigo_barras'),
    precioCompra: numeric('precio_compra', { precision: 14, scale: 2 }),
    precioVenta: numeric('precio_venta', { precision: 14, scale: 2 }).notNull(),
    /** USD: precio_venta is precio_usd at the cotización in force, rounded (issue 17, migration 0040). */
    moneda: text('moneda', { enum: ['ARS', 'USD'] })
      .notNull()
      .default('ARS'),
    precioUsd: numeric('precio_usd', { precision: 14, scale: 2 }),
    stockActual: numeric('stock_actual', { precision: 14, scale: 3 }).notNull().default('0'),
    stockMinimo: numeric('stock_minimo', { precision: 14, scale: 3 }).notNull().default('0'),
    /** False: its sales, purchases and voids change no stock (issue 15). */
    controlaStock: boolean('controla_stock').notNull().default(true),
    unidad: text('unidad').notNull().default('unidad'),
    categoriaId: uuid('categoria_id'),
    activo: boolean('activo').notNull().default(true),
    /** The IVA rate its price includes (issue 16). */
    iva: text('iva').notNull().default('21'),
    /** Net content (500 g, 1,5 l) for the price per unit of measure on shelf labels (issue 35). */
    contenido: numeric('contenido', { precision: 12, scale: 3 }),
    contenidoUnidad: text('contenido_unidad'),
    /** The transaction that last wrote the row (trigger): the POS catalogue's cursor (0038). */
    cambioXid: xid8('cambio_xid').notNull().default('0'),
    busqueda: text('busqueda').generatedAlwaysAs(
      sql`f_unaccent(lower(nombre || ' ' || coalesce(codigo, '') || ' ' || coalesce(codigo_barras, '')))`,
    ),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'products_pkey', columns: [t.id, t.businessId] }),
    unique('products_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'products_categoria_fk',
      columns: [t.businessId, t.categoriaId],
      foreignColumns: [productCategories.businessId, productCategories.id],
    }),
    uniqueIndex('products_codigo_key')
      .on(t.businessId, sql`lower(${t.codigo})`)
      .where(sql`${t.codigo} IS NOT NULL`),
    uniqueIndex('products_codigo_barras_key')
      .on(t.businessId, t.codigoBarras)
      .where(sql`${t.codigoBarras} IS NOT NULL`),
    check('products_stock_minimo_no_negativo', sql`${t.stockMinimo} >= 0`),
    check('products_precios_no_negativos', sql`${t.precioVenta} >= 0 AND coalesce(${t.precioCompra}, 0) >= 0`),
    index('products_nombre_idx').on(t.businessId, sql`${t.nombre} COLLATE "es-AR-x-icu"`, t.id),
    index('products_categoria_idx')
      .on(t.businessId, t.categoriaId)
      .where(sql`${t.categoriaId} IS NOT NULL`),
    index('products_cambio_idx').on(t.businessId, t.cambioXid),
    index('products_busqueda_idx').using('gin', sql`${t.busqueda} gin_trgm_ops`),
  ],
);

/** Every change of a product's stock: who, when, how much, why, and the resulting stock. */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    productoId: uuid('producto_id').notNull(),
    origen: text('origen', {
      enum: [
        'inicial',
        'venta',
        'anulacion',
        'compra',
        'ajuste',
        'importacion',
        'devolucion',
        'remito',
        'transferencia',
      ],
    }).notNull(),
    cantidad: numeric('cantidad', { precision: 14, scale: 3 }).notNull(),
    stockResultante: numeric('stock_resultante', { precision: 14, scale: 3 }).notNull(),
    motivo: text('motivo'),
    referenciaId: uuid('referencia_id'),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
    /** The depósito the stock entered or left (migration 0076). */
    depositoId: uuid('deposito_id').notNull(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'stock_movements_pkey', columns: [t.id, t.businessId] }),
    unique('stock_movements_business_id_key').on(t.businessId, t.id),
    // A product without sales or purchases may be deleted: its own history goes with it.
    foreignKey({
      name: 'stock_movements_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }).onDelete('cascade'),
    index('stock_movements_producto_idx').on(t.businessId, t.productoId, t.fecha.desc()),
    index('stock_movements_referencia_idx')
      .on(t.businessId, t.referenciaId)
      .where(sql`${t.referenciaId} IS NOT NULL`),
  ],
);

/** Services (API-CONTRACT §7). */
export const services = pgTable(
  'services',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion'),
    precio: numeric('precio', { precision: 14, scale: 2 }).notNull(),
    costo: numeric('costo', { precision: 14, scale: 2 }),
    duracionMinutos: integer('duracion_minutos'),
    cambioXid: xid8('cambio_xid').notNull().default('0'),
    categoriaId: uuid('categoria_id'),
    activo: boolean('activo').notNull().default(true),
    /** The IVA rate its price includes (issue 16). */
    iva: text('iva').notNull().default('21'),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'services_pkey', columns: [t.id, t.businessId] }),
    unique('services_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'services_categoria_fk',
      columns: [t.businessId, t.categoriaId],
      foreignColumns: [productCategories.businessId, productCategories.id],
    }),
    check('services_precios_no_negativos', sql`${t.precio} >= 0 AND coalesce(${t.costo}, 0) >= 0`),
    check('services_duracion', sql`${t.duracionMinutos} IS NULL OR ${t.duracionMinutos} BETWEEN 1 AND 1440`),
    index('services_nombre_idx').on(t.businessId, sql`${t.nombre} COLLATE "es-AR-x-icu"`),
    index('services_categoria_idx')
      .on(t.businessId, t.categoriaId)
      .where(sql`${t.categoriaId} IS NOT NULL`),
    index('services_cambio_idx').on(t.businessId, t.cambioXid),
    index('services_search_idx').using('gin', sql`f_unaccent(lower(${t.nombre})) gin_trgm_ops`),
  ],
);

/**
 * Tombstones of deleted products, services and customers (trigger), so that a POS catalogue
 * refreshed "since a cursor" learns what to drop (decision 0014).
 */
export const posEliminados = pgTable(
  'pos_eliminados',
  {
    businessId: uuid('business_id').notNull(),
    entidad: text('entidad', { enum: ['producto', 'servicio', 'cliente'] }).notNull(),
    id: uuid('id').notNull(),
    cambioXid: xid8('cambio_xid').notNull(),
    eliminadoEn: timestamp('eliminado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'pos_eliminados_pkey', columns: [t.businessId, t.entidad, t.id] }),
    check('pos_eliminados_entidad', sql`${t.entidad} IN ('producto', 'servicio', 'cliente')`),
    index('pos_eliminados_cambio_idx').on(t.businessId, t.cambioXid),
  ],
);
