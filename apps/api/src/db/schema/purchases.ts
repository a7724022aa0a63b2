import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
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
import { products } from './catalog.js';
import { suppliers } from './suppliers.js';
import { users } from './users.js';

/**
 * Purchase orders (API-CONTRACT §13). The money side lives in finance: a `contado` purchase owns
 * one movement (finance_movements.compra_id), a `cuenta_corriente` one owns one payable
 * (finance_accounts.compra_id). `numero` counts per business (1, 2, 3…) for the printed order.
 */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    numero: integer('numero').notNull(),
    proveedorId: uuid('proveedor_id'),
    // Free text when there is no supplier; otherwise the supplier's name when last written.
    proveedorNombre: text('proveedor_nombre'),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    fechaEntrega: date('fecha_entrega', { mode: 'string' }),
    estado: text('estado', { enum: ['pendiente', 'recibida_parcial', 'recibida', 'cancelada'] })
      .notNull()
      .default('pendiente'),
    condicionPago: text('condicion_pago', { enum: ['contado', 'cuenta_corriente'] })
      .notNull()
      .default('contado'),
    metodoPago: text('metodo_pago'),
    fechaVencimiento: date('fecha_vencimiento', { mode: 'string' }),
    observaciones: text('observaciones'),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    recibidaEn: timestamp('recibida_en', { withTimezone: true }),
    canceladaEn: timestamp('cancelada_en', { withTimezone: true }),
    creadoPor: uuid('creado_por').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'purchases_pkey', columns: [t.id, t.businessId] }),
    unique('purchases_business_id_key').on(t.businessId, t.id),
    unique('purchases_numero_key').on(t.businessId, t.numero),
    foreignKey({
      name: 'purchases_proveedor_fk',
      columns: [t.businessId, t.proveedorId],
      foreignColumns: [suppliers.businessId, suppliers.id],
    }),
    check('purchases_total_no_negativo', sql`${t.total} >= 0`),
    check('purchases_recibida', sql`(${t.estado} = 'recibida') = (${t.recibidaEn} IS NOT NULL)`),
    check(
      'purchases_cuenta_corriente',
      sql`${t.condicionPago} = 'contado' OR (${t.proveedorId} IS NOT NULL AND ${t.fechaVencimiento} IS NOT NULL)`,
    ),
    index('purchases_business_fecha_idx').on(t.businessId, t.fecha.desc(), t.numero.desc()),
    index('purchases_proveedor_idx')
      .on(t.businessId, t.proveedorId, t.fecha.desc())
      .where(sql`${t.proveedorId} IS NOT NULL`),
  ],
);

/**
 * The lines of a purchase. `precio_compra_anterior` keeps the product's cost from before the
 * purchase was received, so reverting the reception can restore it.
 */
export const purchaseItems = pgTable(
  'purchase_items',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    compraId: uuid('compra_id').notNull(),
    posicion: integer('posicion').notNull(),
    productoId: uuid('producto_id').notNull(),
    cantidad: numeric('cantidad', { precision: 14, scale: 3 }).notNull(),
    precioUnitario: numeric('precio_unitario', { precision: 14, scale: 2 }).notNull(),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    precioCompraAnterior: numeric('precio_compra_anterior', { precision: 14, scale: 2 }),
    /** How much of the line has arrived (decision 0023); equal to cantidad once recibida. */
    cantidadRecibida: numeric('cantidad_recibida', { precision: 14, scale: 3 }).notNull().default('0'),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'purchase_items_pkey', columns: [t.id, t.businessId] }),
    unique('purchase_items_business_id_key').on(t.businessId, t.id),
    unique('purchase_items_producto_key').on(t.compraId, t.productoId, t.businessId),
    foreignKey({
      name: 'purchase_items_compra_fk',
      columns: [t.businessId, t.compraId],
      foreignColumns: [purchases.businessId, purchases.id],
    }).onDelete('cascade'),
    // A product bought once cannot be deleted (the products module answers 409 IN_USE).
    foreignKey({
      name: 'purchase_items_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }),
    check('purchase_items_cantidad_positiva', sql`${t.cantidad} > 0`),
    check('purchase_items_precio_no_negativo', sql`${t.precioUnitario} >= 0`),
    check('purchase_items_recibida_rango', sql`${t.cantidadRecibida} >= 0 AND ${t.cantidadRecibida} <= ${t.cantidad}`),
    index('purchase_items_compra_idx').on(t.compraId, t.posicion),
    index('purchase_items_producto_idx').on(t.businessId, t.productoId),
  ],
);

/** One IVA rate of a supplier invoice, amounts as decimal strings ("1000.00"). */
export interface StoredFacturaIva {
  alicuota: string;
  neto: string;
  iva: string;
}

/**
 * The supplier's invoice of a purchase (decision 0021). A supplier's invoice (tipo, punto de
 * venta, número) is recorded once per business; without a supplier there is nothing to compare.
 */
export const purchaseInvoices = pgTable(
  'purchase_invoices',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    compraId: uuid('compra_id').notNull(),
    proveedorId: uuid('proveedor_id'),
    tipo: text('tipo', { enum: ['A', 'B', 'C', 'otro'] }).notNull(),
    puntoVenta: integer('punto_venta').notNull(),
    numero: integer('numero').notNull(),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    iva: jsonb('iva').$type<StoredFacturaIva[]>().notNull().default([]),
    noGravado: numeric('no_gravado', { precision: 14, scale: 2 }).notNull().default('0'),
    exento: numeric('exento', { precision: 14, scale: 2 }).notNull().default('0'),
    percepcionIva: numeric('percepcion_iva', { precision: 14, scale: 2 }).notNull().default('0'),
    percepcionIibb: numeric('percepcion_iibb', { precision: 14, scale: 2 }).notNull().default('0'),
    otrosImpuestos: numeric('otros_impuestos', { precision: 14, scale: 2 }).notNull().default('0'),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'purchase_invoices_pkey', columns: [t.compraId, t.businessId] }),
    foreignKey({
      name: 'purchase_invoices_compra_fk',
      columns: [t.businessId, t.compraId],
      foreignColumns: [purchases.businessId, purchases.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'purchase_invoices_proveedor_fk',
      columns: [t.businessId, t.proveedorId],
      foreignColumns: [suppliers.businessId, suppliers.id],
    }),
    check('purchase_invoices_tipo', sql`${t.tipo} IN ('A', 'B', 'C', 'otro')`),
    check('purchase_invoices_numeros', sql`${t.puntoVenta} > 0 AND ${t.numero} > 0`),
    check('purchase_invoices_total_no_negativo', sql`${t.total} >= 0`),
    uniqueIndex('purchase_invoices_numero_key')
      .on(t.businessId, t.proveedorId, t.tipo, t.puntoVenta, t.numero)
      .where(sql`${t.proveedorId} IS NOT NULL`),
    index('purchase_invoices_fecha_idx').on(t.businessId, t.fecha),
  ],
);

/**
 * One reception of a purchase's goods (decision 0023): who and when; `revertida_en` when the
 * purchase went back to pendiente or was cancelled after it.
 */
export const purchaseReceptions = pgTable(
  'purchase_receptions',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    compraId: uuid('compra_id').notNull(),
    numero: integer('numero').notNull(),
    creadoPor: uuid('creado_por').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    revertidaEn: timestamp('revertida_en', { withTimezone: true }),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'purchase_receptions_pkey', columns: [t.id, t.businessId] }),
    unique('purchase_receptions_business_id_key').on(t.businessId, t.id),
    unique('purchase_receptions_numero_key').on(t.businessId, t.compraId, t.numero),
    foreignKey({
      name: 'purchase_receptions_compra_fk',
      columns: [t.businessId, t.compraId],
      foreignColumns: [purchases.businessId, purchases.id],
    }).onDelete('cascade'),
    index('purchase_receptions_compra_idx').on(t.businessId, t.compraId, t.numero),
  ],
);

/**
 * What one reception brought: the quantity of a purchase line, the cost it set, and the product's
 * cost and sale price just before, so the price that keeps the margin is recomputed exactly.
 */
export const purchaseReceptionItems = pgTable(
  'purchase_reception_items',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    recepcionId: uuid('recepcion_id').notNull(),
    itemId: uuid('item_id').notNull(),
    productoId: uuid('producto_id').notNull(),
    cantidad: numeric('cantidad', { precision: 14, scale: 3 }).notNull(),
    costo: numeric('costo', { precision: 14, scale: 2 }).notNull(),
    costoAnterior: numeric('costo_anterior', { precision: 14, scale: 2 }),
    precioVenta: numeric('precio_venta', { precision: 14, scale: 2 }).notNull(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'purchase_reception_items_pkey', columns: [t.recepcionId, t.itemId, t.businessId] }),
    foreignKey({
      name: 'purchase_reception_items_recepcion_fk',
      columns: [t.businessId, t.recepcionId],
      foreignColumns: [purchaseReceptions.businessId, purchaseReceptions.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'purchase_reception_items_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }),
    check('purchase_reception_items_cantidad_positiva', sql`${t.cantidad} > 0`),
    index('purchase_reception_items_producto_idx').on(t.businessId, t.productoId),
  ],
);
