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
import { businesses, financeCategories } from './businesses.js';
import { cobros, paymentMethods } from './caja.js';
import { cheques } from './cheques.js';
import { customers } from './customers.js';
import { devoluciones } from './devoluciones.js';
import { purchases } from './purchases.js';
import { suppliers } from './suppliers.js';
import { users } from './users.js';

/**
 * Income and expense movements (API-CONTRACT §10.2). Sales, purchases and account payments
 * write their movement here too (`origen`), so every total reads one ledger. Composite foreign
 * keys keep a movement from pointing at another business's category, customer or account.
 */
export const financeMovements = pgTable(
  'finance_movements',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: ['ingreso', 'egreso'] }).notNull(),
    categoriaId: uuid('categoria_id'),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    metodoPago: text('metodo_pago').notNull(),
    descripcion: text('descripcion'),
    observaciones: text('observaciones'),
    clienteId: uuid('cliente_id'),
    origen: text('origen', { enum: ['manual', 'venta', 'compra', 'cuenta', 'cobro', 'devolucion', 'cheque'] })
      .notNull()
      .default('manual'),
    // Links to the records that generated the movement; the sales and purchases modules add their keys.
    ventaId: uuid('venta_id'),
    compraId: uuid('compra_id'),
    cuentaId: uuid('cuenta_id'),
    /** The business's medio de pago, when known (sales and cobros). */
    medioPagoId: uuid('medio_pago_id'),
    /** The customer's payment on account that brought this income. */
    cobroId: uuid('cobro_id'),
    /** The return of a sale whose money went back (an egreso, decision 0009). */
    devolucionId: uuid('devolucion_id'),
    /** The cheque that made it (credited, debited, endorsed, its fees; migration 0069). */
    chequeId: uuid('cheque_id'),
    anulado: boolean('anulado').notNull().default(false),
    creadoPor: uuid('creado_por').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'finance_movements_pkey', columns: [t.id, t.businessId] }),
    unique('finance_movements_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'finance_movements_categoria_fk',
      columns: [t.businessId, t.categoriaId],
      foreignColumns: [financeCategories.businessId, financeCategories.id],
    }),
    foreignKey({
      name: 'finance_movements_cobro_fk',
      columns: [t.businessId, t.cobroId],
      foreignColumns: [cobros.businessId, cobros.id],
    }),
    foreignKey({
      name: 'finance_movements_devolucion_fk',
      columns: [t.businessId, t.devolucionId],
      foreignColumns: [devoluciones.businessId, devoluciones.id],
    }),
    foreignKey({
      name: 'finance_movements_medio_fk',
      columns: [t.businessId, t.medioPagoId],
      foreignColumns: [paymentMethods.businessId, paymentMethods.id],
    }),
    foreignKey({
      name: 'finance_movements_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    foreignKey({
      name: 'finance_movements_cuenta_fk',
      columns: [t.businessId, t.cuentaId],
      foreignColumns: [financeAccounts.businessId, financeAccounts.id],
    }),
    foreignKey({
      name: 'finance_movements_compra_fk',
      columns: [t.businessId, t.compraId],
      foreignColumns: [purchases.businessId, purchases.id],
    }),
    foreignKey({
      name: 'finance_movements_cheque_fk',
      columns: [t.businessId, t.chequeId],
      foreignColumns: [cheques.businessId, cheques.id],
    }),
    index('finance_movements_cheque_idx')
      .on(t.businessId, t.chequeId)
      .where(sql`${t.chequeId} IS NOT NULL`),
    check('finance_movements_monto_positive', sql`${t.monto} > 0`),
    index('finance_movements_business_fecha_idx').on(t.businessId, t.fecha.desc(), t.creadoEn.desc()),
    // Cash flow and summary as index-only scans (issue 20, migration 0048).
    index('finance_movements_flujo_idx')
      .on(t.businessId, t.fecha, t.tipo, t.origen, t.monto)
      .where(sql`NOT ${t.anulado}`),
    index('finance_movements_categoria_idx').on(t.businessId, t.categoriaId),
    index('finance_movements_cliente_idx')
      .on(t.businessId, t.clienteId)
      .where(sql`${t.clienteId} IS NOT NULL`),
    index('finance_movements_compra_idx')
      .on(t.businessId, t.compraId)
      .where(sql`${t.compraId} IS NOT NULL`),
  ],
);

/**
 * Accounts receivable and payable (API-CONTRACT §10.5). `estado` stores pendiente or pagado;
 * vencido is computed from the due date in the business time zone when read.
 */
export const financeAccounts = pgTable(
  'finance_accounts',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: ['por_cobrar', 'por_pagar'] }).notNull(),
    clienteId: uuid('cliente_id'),
    proveedorId: uuid('proveedor_id'),
    proveedorNombre: text('proveedor_nombre'),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    /** Paid so far (payments in parts); the account is pagado when it reaches monto. */
    montoPagado: numeric('monto_pagado', { precision: 14, scale: 2 }).notNull().default('0'),
    fechaEmision: date('fecha_emision', { mode: 'string' }).notNull(),
    fechaVencimiento: date('fecha_vencimiento', { mode: 'string' }).notNull(),
    estado: text('estado', { enum: ['pendiente', 'pagado'] })
      .notNull()
      .default('pendiente'),
    descripcion: text('descripcion').notNull(),
    observaciones: text('observaciones'),
    compraId: uuid('compra_id'),
    movimientoId: uuid('movimiento_id'),
    fechaPago: date('fecha_pago', { mode: 'string' }),
    pagadoEn: timestamp('pagado_en', { withTimezone: true }),
    creadoPor: uuid('creado_por').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'finance_accounts_pkey', columns: [t.id, t.businessId] }),
    unique('finance_accounts_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'finance_accounts_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    foreignKey({
      name: 'finance_accounts_movimiento_fk',
      columns: [t.businessId, t.movimientoId],
      foreignColumns: [financeMovements.businessId, financeMovements.id],
    }),
    foreignKey({
      name: 'finance_accounts_proveedor_fk',
      columns: [t.businessId, t.proveedorId],
      foreignColumns: [suppliers.businessId, suppliers.id],
    }),
    foreignKey({
      name: 'finance_accounts_compra_fk',
      columns: [t.businessId, t.compraId],
      foreignColumns: [purchases.businessId, purchases.id],
    }),
    check('finance_accounts_monto_positive', sql`${t.monto} > 0`),
    check('finance_accounts_monto_pagado', sql`${t.montoPagado} >= 0 AND ${t.montoPagado} <= ${t.monto}`),
    check('finance_accounts_fechas', sql`${t.fechaVencimiento} >= ${t.fechaEmision}`),
    check(
      'finance_accounts_pago',
      sql`(${t.estado} = 'pagado') = (${t.pagadoEn} IS NOT NULL AND ${t.fechaPago} IS NOT NULL)`,
    ),
    index('finance_accounts_business_due_idx').on(t.businessId, t.tipo, t.fechaVencimiento),
    index('finance_accounts_cliente_idx')
      .on(t.businessId, t.clienteId)
      .where(sql`${t.clienteId} IS NOT NULL`),
    index('finance_accounts_proveedor_idx')
      .on(t.businessId, t.proveedorId)
      .where(sql`${t.proveedorId} IS NOT NULL`),
    // One payable per purchase.
    uniqueIndex('finance_accounts_compra_key')
      .on(t.businessId, t.compraId)
      .where(sql`${t.compraId} IS NOT NULL`),
  ],
);
