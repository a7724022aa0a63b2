import { sql } from 'drizzle-orm';
import {
  check,
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
import { businesses } from './businesses.js';
import { productCategories, products } from './catalog.js';
import { suppliers } from './suppliers.js';

/**
 * A supplier's own code for a product (issue 17, decision 0024): a supplier's list keyed by
 * "Código del proveedor" finds the product by it. Several codes per product and supplier are
 * allowed; one code of a supplier names one product.
 */
export const productosProveedor = pgTable(
  'productos_proveedor',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    proveedorId: uuid('proveedor_id').notNull(),
    codigo: text('codigo').notNull(),
    productoId: uuid('producto_id').notNull(),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'productos_proveedor_pkey', columns: [t.businessId, t.proveedorId, t.codigo] }),
    foreignKey({
      name: 'productos_proveedor_proveedor_fk',
      columns: [t.businessId, t.proveedorId],
      foreignColumns: [suppliers.businessId, suppliers.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'productos_proveedor_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }).onDelete('cascade'),
    check('productos_proveedor_codigo', sql`length(${t.codigo}) BETWEEN 1 AND 50`),
    index('productos_proveedor_producto_idx').on(t.businessId, t.productoId),
  ],
);

/**
 * A margin over the cost (%) stored for one product, category or supplier: recomputing prices
 * from new costs uses the most specific one (product > category > supplier).
 */
export const reglasMargen = pgTable(
  'reglas_margen',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    productoId: uuid('producto_id'),
    categoriaId: uuid('categoria_id'),
    proveedorId: uuid('proveedor_id'),
    margen: numeric('margen', { precision: 7, scale: 2 }).notNull(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'reglas_margen_pkey', columns: [t.businessId, t.id] }),
    foreignKey({
      name: 'reglas_margen_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reglas_margen_categoria_fk',
      columns: [t.businessId, t.categoriaId],
      foreignColumns: [productCategories.businessId, productCategories.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reglas_margen_proveedor_fk',
      columns: [t.businessId, t.proveedorId],
      foreignColumns: [suppliers.businessId, suppliers.id],
    }).onDelete('cascade'),
    check('reglas_margen_uno', sql`num_nonnulls(${t.productoId}, ${t.categoriaId}, ${t.proveedorId}) = 1`),
    check('reglas_margen_margen', sql`${t.margen} > -100 AND ${t.margen} <= 1000`),
    uniqueIndex('reglas_margen_producto_key')
      .on(t.businessId, t.productoId)
      .where(sql`${t.productoId} IS NOT NULL`),
    uniqueIndex('reglas_margen_categoria_key')
      .on(t.businessId, t.categoriaId)
      .where(sql`${t.categoriaId} IS NOT NULL`),
    uniqueIndex('reglas_margen_proveedor_key')
      .on(t.businessId, t.proveedorId)
      .where(sql`${t.proveedorId} IS NOT NULL`),
  ],
);
