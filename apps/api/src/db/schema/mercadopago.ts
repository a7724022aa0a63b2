import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
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
import { cajas, paymentMethods } from './caja.js';
import { users } from './users.js';

/** Mercado Pago at the counter (issue 34, decision 0052). Migration 0064. */

/** The business's MP setup: the access token and webhook secret, encrypted; its MP medio. */
export const mercadopagoConfig = pgTable(
  'mercadopago_config',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    tokenCifrado: text('token_cifrado').notNull(),
    webhookSecretCifrado: text('webhook_secret_cifrado'),
    medioPagoId: uuid('medio_pago_id').notNull(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'mercadopago_config_pkey', columns: [t.businessId] }),
    foreignKey({
      name: 'mercadopago_config_medio_fk',
      columns: [t.businessId, t.medioPagoId],
      foreignColumns: [paymentMethods.businessId, paymentMethods.id],
    }),
  ],
);

/** Each caja's MP point of sale (external_pos_id, QR) and Point terminal. */
export const mercadopagoCajas = pgTable(
  'mercadopago_cajas',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    cajaId: uuid('caja_id').notNull(),
    posId: text('pos_id'),
    terminalId: text('terminal_id'),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'mercadopago_cajas_pkey', columns: [t.businessId, t.cajaId] }),
    foreignKey({
      name: 'mercadopago_cajas_caja_fk',
      columns: [t.businessId, t.cajaId],
      foreignColumns: [cajas.businessId, cajas.id],
    }).onDelete('cascade'),
    check('mercadopago_cajas_algo', sql`${t.posId} IS NOT NULL OR ${t.terminalId} IS NOT NULL`),
  ],
);

/** An order sent to MP; `estado` only moves forward from pendiente. */
export const mercadopagoOrdenes = pgTable(
  'mercadopago_ordenes',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    cajaId: uuid('caja_id').notNull(),
    tipo: text('tipo', { enum: ['qr', 'point'] }).notNull(),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    estado: text('estado', { enum: ['pendiente', 'aprobada', 'rechazada', 'cancelada', 'expirada'] })
      .notNull()
      .default('pendiente'),
    referencia: text('referencia').notNull(),
    clave: text('clave').notNull(),
    mpOrdenId: text('mp_orden_id').notNull(),
    mpEstado: text('mp_estado').notNull(),
    mpEstadoDetalle: text('mp_estado_detalle'),
    mpPagoId: text('mp_pago_id'),
    mpPagoReferencia: text('mp_pago_referencia'),
    qrData: text('qr_data'),
    aprobadaTarde: boolean('aprobada_tarde').notNull().default(false),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
    verificadoEn: timestamp('verificado_en', { withTimezone: true }).notNull().defaultNow(),
    aprobadaEn: timestamp('aprobada_en', { withTimezone: true }),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'mercadopago_ordenes_pkey', columns: [t.id, t.businessId] }),
    unique('mercadopago_ordenes_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'mercadopago_ordenes_caja_fk',
      columns: [t.businessId, t.cajaId],
      foreignColumns: [cajas.businessId, cajas.id],
    }),
    check('mercadopago_ordenes_tipo', sql`${t.tipo} IN ('qr', 'point')`),
    check('mercadopago_ordenes_monto', sql`${t.monto} > 0`),
    uniqueIndex('mercadopago_ordenes_referencia_idx').on(t.businessId, t.referencia),
    uniqueIndex('mercadopago_ordenes_mp_idx').on(t.businessId, t.mpOrdenId),
    index('mercadopago_ordenes_mp_orden_idx').on(t.mpOrdenId),
    index('mercadopago_ordenes_creado_idx').on(t.businessId, t.creadoEn),
  ],
);

/** Money given back through MP (append-only ledger). */
export const mercadopagoReembolsos = pgTable(
  'mercadopago_reembolsos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    ordenId: uuid('orden_id').notNull(),
    origen: text('origen', { enum: ['devolucion', 'anulacion', 'aprobada_tarde'] }).notNull(),
    ventaId: uuid('venta_id'),
    devolucionId: uuid('devolucion_id'),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    mpReembolsoId: text('mp_reembolso_id'),
    mpEstado: text('mp_estado'),
    clave: text('clave').notNull(),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'mercadopago_reembolsos_pkey', columns: [t.id, t.businessId] }),
    foreignKey({
      name: 'mercadopago_reembolsos_orden_fk',
      columns: [t.businessId, t.ordenId],
      foreignColumns: [mercadopagoOrdenes.businessId, mercadopagoOrdenes.id],
    }).onDelete('cascade'),
    check('mercadopago_reembolsos_monto', sql`${t.monto} > 0`),
    uniqueIndex('mercadopago_reembolsos_clave_idx').on(t.businessId, t.clave),
    index('mercadopago_reembolsos_orden_idx').on(t.businessId, t.ordenId),
  ],
);
