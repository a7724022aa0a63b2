import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  index,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';
import { services } from './catalog.js';
import { customers } from './customers.js';

/**
 * Subscriptions of customers to services (API-CONTRACT §8). `estado` stores what the user chose;
 * `vencida` is also computed on read for an `activa` subscription whose `fecha_fin` has passed.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    clienteId: uuid('cliente_id').notNull(),
    servicioId: uuid('servicio_id'),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion'),
    precio: numeric('precio', { precision: 14, scale: 2 }).notNull(),
    frecuencia: text('frecuencia', {
      enum: ['semanal', 'mensual', 'trimestral', 'cuatrimestral', 'semestral', 'anual'],
    }).notNull(),
    fechaInicio: date('fecha_inicio', { mode: 'string' }).notNull(),
    fechaFin: date('fecha_fin', { mode: 'string' }),
    /** Day of the month to charge (clamped to the month's end); null: the day of fecha_inicio. */
    diaCobro: smallint('dia_cobro'),
    /** Weekly: day of the week to charge (0 Sunday … 6 Saturday); null: fecha_inicio's. */
    diaCobroSemanal: smallint('dia_cobro_semanal'),
    estado: text('estado', { enum: ['activa', 'pausada', 'cancelada', 'vencida'] })
      .notNull()
      .default('activa'),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'subscriptions_pkey', columns: [t.id, t.businessId] }),
    unique('subscriptions_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'subscriptions_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    foreignKey({
      name: 'subscriptions_servicio_fk',
      columns: [t.businessId, t.servicioId],
      foreignColumns: [services.businessId, services.id],
    }),
    check('subscriptions_precio_no_negativo', sql`${t.precio} >= 0`),
    check('subscriptions_fechas', sql`${t.fechaFin} IS NULL OR ${t.fechaFin} >= ${t.fechaInicio}`),
    check('subscriptions_dia_cobro_rango', sql`${t.diaCobro} BETWEEN 1 AND 31`),
    check('subscriptions_dia_cobro_semanal_rango', sql`${t.diaCobroSemanal} BETWEEN 0 AND 6`),
    index('subscriptions_cliente_idx').on(t.businessId, t.clienteId),
    index('subscriptions_servicio_idx')
      .on(t.businessId, t.servicioId)
      .where(sql`${t.servicioId} IS NOT NULL`),
  ],
);
