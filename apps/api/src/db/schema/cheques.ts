import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
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

const CHEQUE_TIPOS = ['tercero', 'propio'] as const;
const CHEQUE_ESTADOS = [
  'en_cartera',
  'depositado',
  'endosado',
  'cobrado',
  'rechazado',
  'entregado',
  'anulado',
] as const;
import { businesses } from './businesses.js';
import { cobros } from './caja.js';
import { customers } from './customers.js';
import { financeAccounts } from './finance.js';
import { sales } from './sales.js';
import { suppliers } from './suppliers.js';
import { users } from './users.js';

/** Cheques (issue 37, migration 0069, decision 0057): the cartera and the business's own cheques. */
export const cheques = pgTable(
  'cheques',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: CHEQUE_TIPOS }).notNull(),
    electronico: boolean('electronico').notNull().default(false),
    banco: text('banco').notNull(),
    numero: text('numero').notNull(),
    fechaEmision: date('fecha_emision', { mode: 'string' }),
    fechaPago: date('fecha_pago', { mode: 'string' }).notNull(),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    libradorNombre: text('librador_nombre'),
    libradorCuit: text('librador_cuit'),
    /** The only columns that change (with proveedor_id and actualizado_en); cheque_eventos keeps the history. */
    estado: text('estado', { enum: CHEQUE_ESTADOS }).notNull(),
    clienteId: uuid('cliente_id'),
    proveedorId: uuid('proveedor_id'),
    ventaId: uuid('venta_id'),
    cobroId: uuid('cobro_id'),
    observaciones: text('observaciones'),
    creadoPor: uuid('creado_por').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'cheques_pkey', columns: [t.id, t.businessId] }),
    unique('cheques_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'cheques_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    foreignKey({
      name: 'cheques_proveedor_fk',
      columns: [t.businessId, t.proveedorId],
      foreignColumns: [suppliers.businessId, suppliers.id],
    }),
    foreignKey({
      name: 'cheques_venta_fk',
      columns: [t.businessId, t.ventaId],
      foreignColumns: [sales.businessId, sales.id],
    }),
    foreignKey({
      name: 'cheques_cobro_fk',
      columns: [t.businessId, t.cobroId],
      foreignColumns: [cobros.businessId, cobros.id],
    }),
    check('cheques_tipo', sql`${t.tipo} IN ('tercero', 'propio')`),
    check('cheques_numero', sql`${t.numero} ~ '^[0-9]{1,12}$'`),
    check('cheques_monto', sql`${t.monto} > 0`),
    check(
      'cheques_estado',
      sql`${t.estado} IN ('en_cartera', 'depositado', 'endosado', 'cobrado', 'rechazado', 'entregado', 'anulado')`,
    ),
    check(
      'cheques_estado_tipo',
      sql`(${t.tipo} = 'tercero' AND ${t.estado} IN ('en_cartera', 'depositado', 'endosado', 'cobrado', 'rechazado', 'anulado'))
        OR (${t.tipo} = 'propio' AND ${t.estado} IN ('entregado', 'cobrado', 'anulado'))`,
    ),
    check('cheques_fechas', sql`${t.fechaEmision} IS NULL OR ${t.fechaEmision} <= ${t.fechaPago}`),
    index('cheques_vencimiento_idx').on(t.businessId, t.estado, t.fechaPago),
    index('cheques_cliente_idx')
      .on(t.businessId, t.clienteId)
      .where(sql`${t.clienteId} IS NOT NULL`),
    index('cheques_venta_idx')
      .on(t.businessId, t.ventaId)
      .where(sql`${t.ventaId} IS NOT NULL`),
    // Migration 0071: a cheque once in the business, unless the earlier one is anulado.
    uniqueIndex('cheques_unico')
      .on(t.businessId, sql`lower(btrim(${t.banco}))`, t.numero, sql`coalesce(${t.libradorCuit}, '')`)
      .where(sql`${t.estado} <> 'anulado'`),
  ],
);

/** Every state a cheque took (append-only); a rejection's debt to the customer is its `deuda`. */
export const chequeEventos = pgTable(
  'cheque_eventos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    chequeId: uuid('cheque_id').notNull(),
    estado: text('estado', { enum: CHEQUE_ESTADOS }).notNull(),
    anterior: text('anterior', { enum: CHEQUE_ESTADOS }),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    proveedorId: uuid('proveedor_id'),
    clienteId: uuid('cliente_id'),
    gastosBancarios: numeric('gastos_bancarios', { precision: 14, scale: 2 }),
    deuda: numeric('deuda', { precision: 14, scale: 2 }),
    motivo: text('motivo'),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'cheque_eventos_pkey', columns: [t.id, t.businessId] }),
    foreignKey({
      name: 'cheque_eventos_cheque_fk',
      columns: [t.businessId, t.chequeId],
      foreignColumns: [cheques.businessId, cheques.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'cheque_eventos_proveedor_fk',
      columns: [t.businessId, t.proveedorId],
      foreignColumns: [suppliers.businessId, suppliers.id],
    }),
    foreignKey({
      name: 'cheque_eventos_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    check(
      'cheque_eventos_estado',
      sql`${t.estado} IN ('en_cartera', 'depositado', 'endosado', 'cobrado', 'rechazado', 'entregado', 'anulado')`,
    ),
    check('cheque_eventos_gastos', sql`${t.gastosBancarios} >= 0`),
    check('cheque_eventos_deuda', sql`${t.deuda} > 0`),
    check('cheque_eventos_deuda_cliente', sql`${t.deuda} IS NULL OR ${t.clienteId} IS NOT NULL`),
    index('cheque_eventos_cheque_idx').on(t.businessId, t.chequeId, t.creadoEn),
    index('cheque_eventos_deuda_idx')
      .on(t.businessId, t.clienteId)
      .where(sql`${t.deuda} IS NOT NULL`),
  ],
);

/** What a cheque paid of a supplier's payables (append-only). */
export const chequePagos = pgTable(
  'cheque_pagos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    chequeId: uuid('cheque_id').notNull(),
    cuentaId: uuid('cuenta_id').notNull(),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'cheque_pagos_pkey', columns: [t.id, t.businessId] }),
    foreignKey({
      name: 'cheque_pagos_cheque_fk',
      columns: [t.businessId, t.chequeId],
      foreignColumns: [cheques.businessId, cheques.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'cheque_pagos_cuenta_fk',
      columns: [t.businessId, t.cuentaId],
      foreignColumns: [financeAccounts.businessId, financeAccounts.id],
    }).onDelete('cascade'),
    check('cheque_pagos_monto', sql`${t.monto} > 0`),
    index('cheque_pagos_cuenta_idx').on(t.businessId, t.cuentaId),
    index('cheque_pagos_cheque_idx').on(t.businessId, t.chequeId),
  ],
);
