import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
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
import { paymentMethods, turnos } from './caja.js';
import { products, services } from './catalog.js';
import { customers } from './customers.js';
import { mercadopagoOrdenes } from './mercadopago.js';
import { users } from './users.js';

/**
 * Sales (API-CONTRACT §6.1). Never deleted: a void sets `estado = anulada` and reverses stock
 * and money. `numero` is per business, consecutive from 1 without gaps (sale_counters). `costo_estimado`
 * is the sum of the lines' cost snapshots, so profit figures need no join with the lines.
 */
export const sales = pgTable(
  'sales',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    // Taken as the last write of the sale's transaction (the counter stays locked only for its
    // commit), so it is never null once the sale is visible.
    numero: integer('numero'),
    fecha: timestamp('fecha', { withTimezone: true }).notNull(),
    estado: text('estado', { enum: ['completada', 'anulada'] })
      .notNull()
      .default('completada'),
    clienteId: uuid('cliente_id'),
    metodoPago: text('metodo_pago').notNull(),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    descuento: numeric('descuento', { precision: 14, scale: 2 }).notNull().default('0'),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    costoEstimado: numeric('costo_estimado', { precision: 14, scale: 2 }).notNull().default('0'),
    /** The surcharges and discounts of the medios de pago (negative for a discount). */
    ajuste: numeric('ajuste', { precision: 14, scale: 2 }).notNull().default('0'),
    /** The turno of the caja the sale was taken in (null: sold without one). */
    turnoId: uuid('turno_id'),
    observaciones: text('observaciones'),
    vendedorId: uuid('vendedor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who authorized with their PIN what the seller alone could not do (decision 0049). */
    autorizadoPor: uuid('autorizado_por').references(() => users.id, { onDelete: 'set null' }),
    anuladaEn: timestamp('anulada_en', { withTimezone: true }),
    /** The turno whose drawer the void's money left from (decision 0009; null: none was open). */
    anuladaTurnoId: uuid('anulada_turno_id'),
    anuladaPor: uuid('anulada_por').references(() => users.id, { onDelete: 'set null' }),
    motivoAnulacion: text('motivo_anulacion'),
    /** The POS asked for an invoice, or the business invoices every sale (decision 0013). */
    facturar: boolean('facturar').notNull().default(false),
    /** The receptor the POS named for the invoice, if any. */
    facturarReceptor: jsonb('facturar_receptor'),
    /** Its comprobantes (invoice, notas de crédito) are still to be reconciled by the sweep. */
    conciliar: boolean('conciliar').notNull().default(false),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'sales_pkey', columns: [t.id, t.businessId] }),
    unique('sales_business_id_key').on(t.businessId, t.id),
    unique('sales_business_numero_key').on(t.businessId, t.numero),
    foreignKey({
      name: 'sales_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    check('sales_montos', sql`${t.subtotal} >= 0 AND ${t.descuento} >= 0 AND ${t.total} >= 0`),
    check('sales_total', sql`${t.total} = ${t.subtotal} - ${t.descuento} + ${t.ajuste}`),
    foreignKey({
      name: 'sales_turno_fk',
      columns: [t.businessId, t.turnoId],
      foreignColumns: [turnos.businessId, turnos.id],
    }),
    foreignKey({
      name: 'sales_anulada_turno_fk',
      columns: [t.businessId, t.anuladaTurnoId],
      foreignColumns: [turnos.businessId, turnos.id],
    }),
    index('sales_anulada_turno_idx')
      .on(t.businessId, t.anuladaTurnoId)
      .where(sql`${t.anuladaTurnoId} IS NOT NULL`),
    index('sales_turno_idx')
      .on(t.businessId, t.turnoId)
      .where(sql`${t.turnoId} IS NOT NULL`),
    check('sales_anulada', sql`(${t.estado} = 'anulada') = (${t.anuladaEn} IS NOT NULL)`),
    // Reports, lists and dashboards read a business's sales by date.
    index('sales_business_fecha_idx').on(t.businessId, t.fecha.desc()),
    index('sales_cliente_idx')
      .on(t.businessId, t.clienteId)
      .where(sql`${t.clienteId} IS NOT NULL`),
    index('sales_conciliar_idx')
      .on(t.businessId, t.id)
      .where(sql`${t.conciliar}`),
  ],
);

/**
 * The payments of a sale: the part of the total each medio covers (monto), its surcharge or
 * discount (ajuste), what the customer pays with it (total) and, for cash, what was handed over
 * (recibido) and the change (vuelto). `metodo_pago` is the contract's code of the medio's kind.
 */
export const salePayments = pgTable(
  'sale_payments',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    ventaId: uuid('venta_id').notNull(),
    posicion: integer('posicion').notNull(),
    medioPagoId: uuid('medio_pago_id'),
    metodoPago: text('metodo_pago').notNull(),
    tipo: text('tipo').notNull(),
    nombre: text('nombre').notNull(),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    ajuste: numeric('ajuste', { precision: 14, scale: 2 }).notNull().default('0'),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    recibido: numeric('recibido', { precision: 14, scale: 2 }),
    vuelto: numeric('vuelto', { precision: 14, scale: 2 }).notNull().default('0'),
    /** The Mercado Pago order that paid this part (migration 0064): one payment per order, ever. */
    mercadopagoOrdenId: uuid('mercadopago_orden_id'),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'sale_payments_pkey', columns: [t.id, t.businessId] }),
    foreignKey({
      name: 'sale_payments_mercadopago_fk',
      columns: [t.businessId, t.mercadopagoOrdenId],
      foreignColumns: [mercadopagoOrdenes.businessId, mercadopagoOrdenes.id],
    }),
    uniqueIndex('sale_payments_mercadopago_idx')
      .on(t.businessId, t.mercadopagoOrdenId)
      .where(sql`${t.mercadopagoOrdenId} IS NOT NULL`),
    foreignKey({
      name: 'sale_payments_venta_fk',
      columns: [t.businessId, t.ventaId],
      foreignColumns: [sales.businessId, sales.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'sale_payments_medio_fk',
      columns: [t.businessId, t.medioPagoId],
      foreignColumns: [paymentMethods.businessId, paymentMethods.id],
    }),
    check('sale_payments_monto', sql`${t.monto} >= 0`),
    check('sale_payments_total', sql`${t.total} = ${t.monto} + ${t.ajuste} AND ${t.total} >= 0`),
    check('sale_payments_vuelto', sql`${t.vuelto} >= 0`),
    index('sale_payments_venta_idx').on(t.businessId, t.ventaId, t.posicion),
    index('sale_payments_cuenta_idx')
      .on(t.businessId, t.ventaId)
      .where(sql`${t.tipo} = 'cuenta_corriente'`),
  ],
);

/** The lines of a sale, with the name, price and cost as they were when sold. */
export const saleItems = pgTable(
  'sale_items',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    ventaId: uuid('venta_id').notNull(),
    posicion: integer('posicion').notNull(),
    tipo: text('tipo', { enum: ['producto', 'servicio'] }).notNull(),
    productoId: uuid('producto_id'),
    servicioId: uuid('servicio_id'),
    nombre: text('nombre').notNull(),
    cantidad: numeric('cantidad', { precision: 14, scale: 3 }).notNull(),
    precioUnitario: numeric('precio_unitario', { precision: 14, scale: 2 }).notNull(),
    /** The catalogue price when sold (differs from precio_unitario when changed at the counter). */
    precioLista: numeric('precio_lista', { precision: 14, scale: 2 }),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    /** The line's own discount: subtotal = cantidad × precio_unitario − descuento. */
    descuento: numeric('descuento', { precision: 14, scale: 2 }).notNull().default('0'),
    costoUnitario: numeric('costo_unitario', { precision: 14, scale: 2 }).notNull().default('0'),
    costoTotal: numeric('costo_total', { precision: 14, scale: 2 }).notNull().default('0'),
    // Copies of the sale's date and state, so product figures read the lines of a period through
    // one index instead of joining every line of the business's history.
    fecha: timestamp('fecha', { withTimezone: true }),
    anulada: boolean('anulada').notNull().default(false),
    /** The IVA rate of the product or service when sold (issue 16); null on older lines. */
    iva: text('iva'),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'sale_items_pkey', columns: [t.id, t.businessId] }),
    foreignKey({
      name: 'sale_items_venta_fk',
      columns: [t.businessId, t.ventaId],
      foreignColumns: [sales.businessId, sales.id],
    }).onDelete('cascade'),
    // A product or service with sales cannot be deleted (409 IN_USE): deactivate it instead.
    foreignKey({
      name: 'sale_items_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }),
    foreignKey({
      name: 'sale_items_servicio_fk',
      columns: [t.businessId, t.servicioId],
      foreignColumns: [services.businessId, services.id],
    }),
    check(
      'sale_items_tipo',
      sql`(${t.tipo} = 'producto' AND ${t.productoId} IS NOT NULL AND ${t.servicioId} IS NULL) OR (${t.tipo} = 'servicio' AND ${t.servicioId} IS NOT NULL AND ${t.productoId} IS NULL)`,
    ),
    check('sale_items_cantidad', sql`${t.cantidad} > 0`),
    check('sale_items_descuento', sql`${t.descuento} >= 0`),
    check('sale_items_montos', sql`${t.precioUnitario} >= 0 AND ${t.subtotal} >= 0 AND ${t.costoUnitario} >= 0`),
    index('sale_items_venta_idx').on(t.businessId, t.ventaId, t.posicion),
    index('sale_items_fecha_idx')
      .on(t.businessId, t.fecha)
      .where(sql`NOT ${t.anulada}`),
    index('sale_items_producto_idx')
      .on(t.businessId, t.productoId)
      .where(sql`${t.productoId} IS NOT NULL`),
    index('sale_items_servicio_idx')
      .on(t.businessId, t.servicioId)
      .where(sql`${t.servicioId} IS NOT NULL`),
  ],
);

/**
 * The last sale number of each business. Taking a number locks the row until the sale commits,
 * so numbers are consecutive without gaps even under concurrency (a failed sale rolls it back).
 * Record-sale takes it in its last statement, so concurrent sales wait on it only for a commit.
 */
export const saleCounters = pgTable('sale_counters', {
  businessId: uuid('business_id')
    .primaryKey()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  ultimoNumero: integer('ultimo_numero').notNull(),
});

/**
 * Idempotency keys of record-sale (API-CONTRACT §6.2), kept 24 h per business and user: the
 * hash of the request body and the first response, written in the sale's transaction.
 */
export const saleIdempotencyKeys = pgTable(
  'sale_idempotency_keys',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clave: text('clave').notNull(),
    hash: text('hash').notNull(),
    status: integer('status').notNull(),
    respuesta: jsonb('respuesta').notNull(),
    ventaId: uuid('venta_id'),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'sale_idempotency_keys_pkey', columns: [t.businessId, t.userId, t.clave] }),
    index('sale_idempotency_keys_creado_idx').on(t.creadoEn),
  ],
);
