import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  integer,
  jsonb,
  foreignKey,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { PRECIO_ORIGENES, type CambioListaProveedor } from '@mostrador/shared';
import { businesses } from './businesses.js';
import { products } from './catalog.js';
import { users } from './users.js';

/**
 * Every change of a product's sale price or cost (issue 17). Written by the trigger
 * `products_precios_historial` (migration 0040), never by the application: the origin, reference
 * and user come from transaction-local settings (lib/precios-origen.ts).
 */
export const preciosHistorial = pgTable(
  'precios_historial',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    productoId: uuid('producto_id').notNull(),
    precioAnterior: numeric('precio_anterior', { precision: 14, scale: 2 }),
    precioNuevo: numeric('precio_nuevo', { precision: 14, scale: 2 }),
    costoAnterior: numeric('costo_anterior', { precision: 14, scale: 2 }),
    costoNuevo: numeric('costo_nuevo', { precision: 14, scale: 2 }),
    origen: text('origen', { enum: PRECIO_ORIGENES }).notNull(),
    referenciaId: uuid('referencia_id'),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'precios_historial_pkey', columns: [t.businessId, t.id] }),
    foreignKey({
      name: 'precios_historial_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }).onDelete('cascade'),
    index('precios_historial_producto_idx').on(t.businessId, t.productoId, t.fecha.desc(), t.id.desc()),
  ],
);

/** Price lists beside the product's own price ("Minorista", no row): a % over another list, or fixed prices. */
export const listasPrecios = pgTable(
  'listas_precios',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    nombre: text('nombre').notNull(),
    tipo: text('tipo', { enum: ['porcentaje', 'fija'] }).notNull(),
    /** Null: the product's own price (Minorista). */
    baseListaId: uuid('base_lista_id'),
    porcentaje: numeric('porcentaje', { precision: 7, scale: 2 }),
    cantidadMinima: numeric('cantidad_minima', { precision: 14, scale: 3 }),
    activo: boolean('activo').notNull().default(true),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'listas_precios_pkey', columns: [t.businessId, t.id] }),
    foreignKey({
      name: 'listas_precios_base_fk',
      columns: [t.businessId, t.baseListaId],
      foreignColumns: [t.businessId, t.id],
    }),
    check('listas_precios_tipo', sql`${t.tipo} IN ('porcentaje', 'fija')`),
    check(
      'listas_precios_porcentaje',
      sql`(${t.tipo} = 'porcentaje') = (${t.porcentaje} IS NOT NULL) AND coalesce(${t.porcentaje}, 0) > -100`,
    ),
    check('listas_precios_cantidad', sql`${t.cantidadMinima} IS NULL OR ${t.cantidadMinima} > 0`),
    uniqueIndex('listas_precios_nombre_key').on(t.businessId, sql`lower(${t.nombre})`),
  ],
);

/** A list's fixed price of a product, with its optional minimum quantity. */
export const listasPreciosItems = pgTable(
  'listas_precios_items',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    listaId: uuid('lista_id').notNull(),
    productoId: uuid('producto_id').notNull(),
    precio: numeric('precio', { precision: 14, scale: 2 }).notNull(),
    cantidadMinima: numeric('cantidad_minima', { precision: 14, scale: 3 }),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'listas_precios_items_pkey', columns: [t.businessId, t.listaId, t.productoId] }),
    foreignKey({
      name: 'listas_precios_items_lista_fk',
      columns: [t.businessId, t.listaId],
      foreignColumns: [listasPrecios.businessId, listasPrecios.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'listas_precios_items_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }).onDelete('cascade'),
    check('listas_precios_items_precio', sql`${t.precio} >= 0`),
    check('listas_precios_items_cantidad', sql`${t.cantidadMinima} IS NULL OR ${t.cantidadMinima} > 0`),
    index('listas_precios_items_producto_idx').on(t.businessId, t.productoId),
  ],
);

/** The dollar's cotización, entered by hand; every one is kept (the latest up to today is in force). */
export const cotizaciones = pgTable(
  'cotizaciones',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    valor: numeric('valor', { precision: 14, scale: 4 }).notNull(),
    productosActualizados: integer('productos_actualizados').notNull().default(0),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'cotizaciones_pkey', columns: [t.businessId, t.id] }),
    check('cotizaciones_valor', sql`${t.valor} > 0`),
    index('cotizaciones_fecha_idx').on(t.businessId, t.fecha.desc(), t.creadoEn.desc()),
  ],
);

/** A supplier's price list applied in one transaction: the file, the rule and every change, to show and undo. */
export const listasProveedorAplicadas = pgTable(
  'listas_proveedor_aplicadas',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    proveedorId: uuid('proveedor_id'),
    archivo: text('archivo').notNull(),
    clave: text('clave', { enum: ['codigo', 'codigo_barras', 'codigo_proveedor'] }).notNull(),
    margen: numeric('margen', { precision: 7, scale: 2 }),
    cambios: jsonb('cambios').$type<CambioListaProveedor[]>().notNull(),
    productos: integer('productos').notNull(),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
    deshechaEn: timestamp('deshecha_en', { withTimezone: true }),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'listas_proveedor_aplicadas_pkey', columns: [t.businessId, t.id] }),
    index('listas_proveedor_aplicadas_fecha_idx').on(t.businessId, t.fecha.desc()),
  ],
);
