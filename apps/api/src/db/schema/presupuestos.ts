import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
  type AnyPgColumn,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';
import { products, services } from './catalog.js';
import { customers } from './customers.js';
import { sales } from './sales.js';
import { users } from './users.js';

/*
 * Presupuestos and remitos (issue 37, decision 0056, migration 0068). A presupuesto is editable
 * until it is accepted; `vencido` is read from `vence`, never stored. A remito is a ledger: its
 * stock left when it was written, and only its state columns change (facturado with its sale, or
 * anulado, whose stock comes back by new movements).
 */

export const presupuestos = pgTable(
  'presupuestos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    numero: integer('numero').notNull(),
    fecha: date('fecha').notNull(),
    clienteId: uuid('cliente_id').notNull(),
    estado: text('estado', { enum: ['borrador', 'enviado', 'aceptado', 'convertido', 'anulado'] })
      .notNull()
      .default('borrador'),
    validezDias: integer('validez_dias').notNull(),
    vence: date('vence').notNull(),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    descuento: numeric('descuento', { precision: 14, scale: 2 }).notNull().default('0'),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    notas: text('notas'),
    ventaId: uuid('venta_id'),
    remitoId: uuid('remito_id'),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'presupuestos_pkey', columns: [t.id, t.businessId] }),
    unique('presupuestos_business_id_key').on(t.businessId, t.id),
    unique('presupuestos_business_numero_key').on(t.businessId, t.numero),
    foreignKey({
      name: 'presupuestos_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    foreignKey({
      name: 'presupuestos_venta_fk',
      columns: [t.businessId, t.ventaId],
      foreignColumns: [sales.businessId, sales.id],
    }),
    foreignKey({
      name: 'presupuestos_remito_fk',
      columns: [t.businessId, t.remitoId],
      foreignColumns: [remitos.businessId, remitos.id] as [AnyPgColumn, AnyPgColumn],
    }),
    check('presupuestos_estado', sql`${t.estado} IN ('borrador', 'enviado', 'aceptado', 'convertido', 'anulado')`),
    check('presupuestos_validez', sql`${t.validezDias} BETWEEN 1 AND 365`),
    check('presupuestos_montos', sql`${t.subtotal} >= 0 AND ${t.descuento} >= 0 AND ${t.total} >= 0`),
    index('presupuestos_fecha_idx').on(t.businessId, t.fecha.desc(), t.numero.desc()),
    index('presupuestos_cliente_idx').on(t.businessId, t.clienteId),
  ],
);

export const presupuestoItems = pgTable(
  'presupuesto_items',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    presupuestoId: uuid('presupuesto_id').notNull(),
    posicion: integer('posicion').notNull(),
    tipo: text('tipo', { enum: ['producto', 'servicio'] }).notNull(),
    productoId: uuid('producto_id'),
    servicioId: uuid('servicio_id'),
    nombre: text('nombre').notNull(),
    cantidad: numeric('cantidad', { precision: 14, scale: 3 }).notNull(),
    precioUnitario: numeric('precio_unitario', { precision: 14, scale: 2 }).notNull(),
    precioLista: numeric('precio_lista', { precision: 14, scale: 2 }).notNull(),
    descuento: numeric('descuento', { precision: 14, scale: 2 }).notNull().default('0'),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'presupuesto_items_pkey', columns: [t.presupuestoId, t.posicion, t.businessId] }),
    foreignKey({
      name: 'presupuesto_items_presupuesto_fk',
      columns: [t.businessId, t.presupuestoId],
      foreignColumns: [presupuestos.businessId, presupuestos.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'presupuesto_items_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }),
    foreignKey({
      name: 'presupuesto_items_servicio_fk',
      columns: [t.businessId, t.servicioId],
      foreignColumns: [services.businessId, services.id],
    }),
    check('presupuesto_items_tipo', sql`${t.tipo} IN ('producto', 'servicio')`),
    check('presupuesto_items_cantidad', sql`${t.cantidad} > 0`),
    check('presupuesto_items_uno', sql`(${t.productoId} IS NULL) <> (${t.servicioId} IS NULL)`),
    index('presupuesto_items_producto_idx')
      .on(t.businessId, t.productoId)
      .where(sql`${t.productoId} IS NOT NULL`),
    index('presupuesto_items_servicio_idx')
      .on(t.businessId, t.servicioId)
      .where(sql`${t.servicioId} IS NOT NULL`),
  ],
);

export const remitos = pgTable(
  'remitos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    numero: integer('numero').notNull(),
    fecha: timestamp('fecha', { withTimezone: true }).notNull(),
    clienteId: uuid('cliente_id').notNull(),
    presupuestoId: uuid('presupuesto_id'),
    estado: text('estado', { enum: ['pendiente', 'facturado', 'anulado'] })
      .notNull()
      .default('pendiente'),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    descuento: numeric('descuento', { precision: 14, scale: 2 }).notNull().default('0'),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    notas: text('notas'),
    ventaId: uuid('venta_id'),
    facturadoEn: timestamp('facturado_en', { withTimezone: true }),
    anuladoEn: timestamp('anulado_en', { withTimezone: true }),
    anuladoPor: uuid('anulado_por').references(() => users.id, { onDelete: 'set null' }),
    motivoAnulacion: text('motivo_anulacion'),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'remitos_pkey', columns: [t.id, t.businessId] }),
    unique('remitos_business_id_key').on(t.businessId, t.id),
    unique('remitos_business_numero_key').on(t.businessId, t.numero),
    foreignKey({
      name: 'remitos_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    foreignKey({
      name: 'remitos_presupuesto_fk',
      columns: [t.businessId, t.presupuestoId],
      foreignColumns: [presupuestos.businessId, presupuestos.id],
    }),
    foreignKey({
      name: 'remitos_venta_fk',
      columns: [t.businessId, t.ventaId],
      foreignColumns: [sales.businessId, sales.id],
    }),
    check('remitos_estado', sql`${t.estado} IN ('pendiente', 'facturado', 'anulado')`),
    check('remitos_facturado', sql`(${t.estado} = 'facturado') = (${t.ventaId} IS NOT NULL)`),
    check('remitos_montos', sql`${t.subtotal} >= 0 AND ${t.descuento} >= 0 AND ${t.total} >= 0`),
    index('remitos_fecha_idx').on(t.businessId, t.fecha.desc()),
    index('remitos_pendientes_idx')
      .on(t.businessId, t.clienteId)
      .where(sql`${t.estado} = 'pendiente'`),
    index('remitos_venta_idx')
      .on(t.businessId, t.ventaId)
      .where(sql`${t.ventaId} IS NOT NULL`),
  ],
);

export const remitoItems = pgTable(
  'remito_items',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    remitoId: uuid('remito_id').notNull(),
    posicion: integer('posicion').notNull(),
    tipo: text('tipo', { enum: ['producto', 'servicio'] }).notNull(),
    productoId: uuid('producto_id'),
    servicioId: uuid('servicio_id'),
    nombre: text('nombre').notNull(),
    cantidad: numeric('cantidad', { precision: 14, scale: 3 }).notNull(),
    precioUnitario: numeric('precio_unitario', { precision: 14, scale: 2 }).notNull(),
    descuento: numeric('descuento', { precision: 14, scale: 2 }).notNull().default('0'),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'remito_items_pkey', columns: [t.remitoId, t.posicion, t.businessId] }),
    foreignKey({
      name: 'remito_items_remito_fk',
      columns: [t.businessId, t.remitoId],
      foreignColumns: [remitos.businessId, remitos.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'remito_items_producto_fk',
      columns: [t.businessId, t.productoId],
      foreignColumns: [products.businessId, products.id],
    }),
    foreignKey({
      name: 'remito_items_servicio_fk',
      columns: [t.businessId, t.servicioId],
      foreignColumns: [services.businessId, services.id],
    }),
    check('remito_items_tipo', sql`${t.tipo} IN ('producto', 'servicio')`),
    check('remito_items_cantidad', sql`${t.cantidad} > 0`),
    check('remito_items_uno', sql`(${t.productoId} IS NULL) <> (${t.servicioId} IS NULL)`),
    index('remito_items_producto_idx')
      .on(t.businessId, t.productoId)
      .where(sql`${t.productoId} IS NOT NULL`),
    index('remito_items_servicio_idx')
      .on(t.businessId, t.servicioId)
      .where(sql`${t.servicioId} IS NOT NULL`),
  ],
);

/** What happened to a remito's invoicing (migration 0071, append-only): facturado, or pendiente again. */
export const remitoEventos = pgTable(
  'remito_eventos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    remitoId: uuid('remito_id').notNull(),
    estado: text('estado', { enum: ['facturado', 'pendiente'] }).notNull(),
    ventaId: uuid('venta_id').notNull(),
    motivo: text('motivo'),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'remito_eventos_pkey', columns: [t.id, t.businessId] }),
    foreignKey({
      name: 'remito_eventos_remito_fk',
      columns: [t.businessId, t.remitoId],
      foreignColumns: [remitos.businessId, remitos.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'remito_eventos_venta_fk',
      columns: [t.businessId, t.ventaId],
      foreignColumns: [sales.businessId, sales.id],
    }).onDelete('cascade'),
    check('remito_eventos_estado', sql`${t.estado} IN ('facturado', 'pendiente')`),
    index('remito_eventos_remito_idx').on(t.businessId, t.remitoId, t.creadoEn),
    index('remito_eventos_venta_idx').on(t.businessId, t.ventaId),
  ],
);
