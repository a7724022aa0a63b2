import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
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
} from 'drizzle-orm/pg-core';
import type { PermissionMap, ScaleLayout } from '@mostrador/shared';
import { users } from './users.js';

export const businesses = pgTable('businesses', {
  id: uuid('id').primaryKey().defaultRandom(),
  nombre: text('nombre').notNull(),
  tipo: text('tipo'),
  descripcion: text('descripcion'),
  cuit: text('cuit'),
  creadaPor: uuid('creada_por')
    .notNull()
    .references(() => users.id),
  plan: text('plan', { enum: ['trial', 'esencial', 'profesional', 'empresarial'] })
    .notNull()
    .default('trial'),
  trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }).notNull(),
  creadaEn: timestamp('creada_en', { withTimezone: true }).notNull().defaultNow(),
  actualizadaEn: timestamp('actualizada_en', { withTimezone: true }).notNull().defaultNow(),
});

export const businessMembers = pgTable(
  'business_members',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rol: text('rol', { enum: ['admin', 'empleado'] })
      .notNull()
      .default('empleado'),
    estado: text('estado', { enum: ['pendiente', 'aceptado', 'rechazado'] })
      .notNull()
      .default('pendiente'),
    accesoTotal: boolean('acceso_total').notNull().default(false),
    permisos: jsonb('permisos').$type<PermissionMap>().notNull(),
    /** Counter controls outside the 32 module flags (see migration 0026). */
    verCostos: boolean('ver_costos').notNull().default(false),
    cambiarPrecios: boolean('cambiar_precios').notNull().default(false),
    /** May sell on account over a customer's credit limit. */
    excederCredito: boolean('exceder_credito').notNull().default(false),
    /** May close the turnos they opened (migration 0061); others' turnos take full access. */
    cerrarTurno: boolean('cerrar_turno').notNull().default(true),
    /** Largest discount in % without cambiar_precios; null: no limit. */
    descuentoMaximo: numeric('descuento_maximo', { precision: 5, scale: 2 }).default('0'),
    invitadoPor: uuid('invitado_por').references(() => users.id, { onDelete: 'set null' }),
    creadaEn: timestamp('creada_en', { withTimezone: true }).notNull().defaultNow(),
    ultimoAcceso: timestamp('ultimo_acceso', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'business_members_pkey', columns: [t.id, t.businessId] }),
    check('business_members_descuento_maximo_rango', sql`${t.descuentoMaximo} BETWEEN 0 AND 100`),
    unique('business_members_business_user_key').on(t.businessId, t.userId),
    index('business_members_user_idx').on(t.userId),
  ],
);

export const tenantSettings = pgTable(
  'tenant_settings',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .unique()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull().default('es-AR'),
    timezone: text('timezone').notNull().default('America/Argentina/Buenos_Aires'),
    currency: text('currency').notNull().default('ARS'),
    salesDropThreshold: numeric('sales_drop_threshold', { precision: 5, scale: 2 }).notNull().default('15'),
    minDaysForModel: integer('min_days_for_model').notNull().default(30),
    balanza: jsonb('balanza').$type<ScaleLayout>(),
    /** The POS asks for an open turno before selling. */
    cajaRequiereTurno: boolean('caja_requiere_turno').notNull().default(true),
    /** A sale may take more than the stock; the stock goes negative (issue 15). */
    venderSinStock: boolean('vender_sin_stock').notNull().default(false),
    /** USD prices in pesos are rounded to this many pesos: 1, 10 or 100 (issue 17). */
    redondeoPrecios: integer('redondeo_precios').notNull().default(1),
    /** Members without full access count a turno without seeing what is expected (issue 33). */
    arqueoCiego: boolean('arqueo_ciego').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'tenant_settings_pkey', columns: [t.id, t.businessId] })],
);

/** Finance categories; "Ventas" and "Compras" are created with every business (sistema). */
export const financeCategories = pgTable(
  'finance_categories',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion'),
    tipo: text('tipo', { enum: ['ingreso', 'egreso'] }).notNull(),
    activo: boolean('activo').notNull().default(true),
    sistema: boolean('sistema').notNull().default(false),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'finance_categories_pkey', columns: [t.id, t.businessId] }),
    unique('finance_categories_business_id_key').on(t.businessId, t.id),
    uniqueIndex('finance_categories_name_key').on(t.businessId, t.tipo, sql`lower(${t.nombre})`),
  ],
);

/** One row per change to money, stock, permissions, memberships, settings and plan. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    entidad: text('entidad').notNull(),
    entidadId: uuid('entidad_id'),
    accion: text('accion').notNull(),
    antes: jsonb('antes'),
    despues: jsonb('despues'),
    fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'audit_log_pkey', columns: [t.id, t.businessId] }),
    index('audit_log_business_fecha_idx').on(t.businessId, t.fecha),
  ],
);
