import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { users } from './users.js';

/**
 * Sucursales, depósitos, the stock of each depósito and transferencias (issue 38, migration 0076,
 * decision 0059). The principal depósito keeps no rows in stock_depositos: its stock is the
 * product's total (products.stock_actual) less the other depósitos'.
 */

export const sucursales = pgTable(
  'sucursales',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    direccion: text('direccion'),
    principal: boolean('principal').notNull().default(false),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'sucursales_pkey', columns: [t.id, t.businessId] }),
    unique('sucursales_business_id_key').on(t.businessId, t.id),
    uniqueIndex('sucursales_nombre_idx').on(t.businessId, sql`lower(${t.nombre})`),
    uniqueIndex('sucursales_principal_idx')
      .on(t.businessId)
      .where(sql`${t.principal}`),
  ],
);

export const depositos = pgTable(
  'depositos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    sucursalId: uuid('sucursal_id').notNull(),
    nombre: text('nombre').notNull(),
    principal: boolean('principal').notNull().default(false),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'depositos_pkey', columns: [t.id, t.businessId] }),
    unique('depositos_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'depositos_sucursal_fk',
      columns: [t.businessId, t.sucursalId],
      foreignColumns: [sucursales.businessId, sucursales.id],
    }),
    uniqueIndex('depositos_nombre_idx').on(t.businessId, sql`lower(${t.nombre})`),
    uniqueIndex('depositos_principal_idx')
      .on(t.businessId)
      .where(sql`${t.principal}`),
    index('depositos_sucursal_idx').on(t.businessId, t.sucursalId, t.creadoEn),
  ],
);

/** The stock of a product in a depósito other than the principal (thousandths as numeric). */
export const stockDepositos = pgTable(
  'stock_depositos',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    depositoId: uuid('deposito_id').notNull(),
    productoId: uuid('producto_id').notNull(),
    stock: numeric('stock', { precision: 14, scale: 3 }).notNull().default('0'),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'stock_depositos_pkey', columns: [t.businessId, t.depositoId, t.productoId] }),
    index('stock_depositos_producto_idx').on(t.businessId, t.productoId),
  ],
);

export const transferencias = pgTable(
  'transferencias',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    numero: integer('numero').notNull(),
    origenId: uuid('origen_id').notNull(),
    destinoId: uuid('destino_id').notNull(),
    estado: text('estado', { enum: ['en_transito', 'recibida'] }).notNull(),
    observaciones: text('observaciones'),
    creadoPor: uuid('creado_por').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    recibidoPor: uuid('recibido_por').references(() => users.id, { onDelete: 'set null' }),
    recibidoEn: timestamp('recibido_en', { withTimezone: true }),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'transferencias_pkey', columns: [t.id, t.businessId] }),
    unique('transferencias_business_id_key').on(t.businessId, t.id),
    unique('transferencias_numero_key').on(t.businessId, t.numero),
    index('transferencias_fecha_idx').on(t.businessId, t.creadoEn),
  ],
);

export const transferenciaItems = pgTable(
  'transferencia_items',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    transferenciaId: uuid('transferencia_id').notNull(),
    posicion: integer('posicion').notNull(),
    productoId: uuid('producto_id').notNull(),
    nombre: text('nombre').notNull(),
    cantidad: numeric('cantidad', { precision: 14, scale: 3 }).notNull(),
    cantidadRecibida: numeric('cantidad_recibida', { precision: 14, scale: 3 }),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'transferencia_items_pkey', columns: [t.id, t.businessId] }),
    unique('transferencia_items_posicion_key').on(t.businessId, t.transferenciaId, t.posicion),
    index('transferencia_items_producto_idx').on(t.businessId, t.productoId),
  ],
);
