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
import type { Impresora, ImpresoraEtiquetas } from '@mostrador/shared';
import { businesses } from './businesses.js';
import { customers } from './customers.js';
import { users } from './users.js';

/** The counter's money (issue 14, decision 0008): medios de pago, cajas, turnos and their closing. */

export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    tipo: text('tipo').notNull(),
    /** Surcharge (positive) or discount (negative) in % on the part paid with this medio. */
    ajustePorcentaje: numeric('ajuste_porcentaje', { precision: 5, scale: 2 }).notNull().default('0'),
    activo: boolean('activo').notNull().default(true),
    orden: integer('orden').notNull().default(0),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'payment_methods_pkey', columns: [t.id, t.businessId] }),
    unique('payment_methods_business_id_key').on(t.businessId, t.id),
    uniqueIndex('payment_methods_nombre_idx').on(t.businessId, sql`lower(${t.nombre})`),
    check(
      'payment_methods_tipo',
      sql`${t.tipo} IN ('efectivo', 'debito', 'credito', 'transferencia', 'qr', 'cuenta_corriente', 'cheque', 'otro')`,
    ),
    check('payment_methods_ajuste', sql`${t.ajustePorcentaje} > -100 AND ${t.ajustePorcentaje} <= 100`),
  ],
);

export const cajas = pgTable(
  'cajas',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    activa: boolean('activa').notNull().default(true),
    /** The ARCA punto de venta its sales are invoiced from (issue 16); null: the setup's default. */
    puntoVenta: integer('punto_venta'),
    /** Its thermal printer (issue 35, migration 0067); null: none. */
    impresora: jsonb('impresora').$type<Impresora>(),
    /** Its ZPL label printer (issue 35, migration 0070); null: none. */
    impresoraEtiquetas: jsonb('impresora_etiquetas').$type<ImpresoraEtiquetas>(),
    /** Its sucursal (issue 38, migration 0076); null: the principal. It sells from the sucursal's depósito. */
    sucursalId: uuid('sucursal_id'),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'cajas_pkey', columns: [t.id, t.businessId] }),
    check('cajas_punto_venta', sql`${t.puntoVenta} BETWEEN 1 AND 99998`),
    unique('cajas_business_id_key').on(t.businessId, t.id),
    uniqueIndex('cajas_nombre_idx').on(t.businessId, sql`lower(${t.nombre})`),
  ],
);

/** A shift on a caja: numbered per business; one open per caja (partial unique index). */
export const turnos = pgTable(
  'turnos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    cajaId: uuid('caja_id').notNull(),
    numero: integer('numero').notNull(),
    estado: text('estado', { enum: ['abierto', 'cerrado'] })
      .notNull()
      .default('abierto'),
    fondoInicial: numeric('fondo_inicial', { precision: 14, scale: 2 }).notNull(),
    abiertoPor: uuid('abierto_por').references(() => users.id, { onDelete: 'set null' }),
    abiertoEn: timestamp('abierto_en', { withTimezone: true }).notNull(),
    cerradoPor: uuid('cerrado_por').references(() => users.id, { onDelete: 'set null' }),
    cerradoEn: timestamp('cerrado_en', { withTimezone: true }),
    observaciones: text('observaciones'),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'turnos_pkey', columns: [t.id, t.businessId] }),
    unique('turnos_business_id_key').on(t.businessId, t.id),
    unique('turnos_business_numero_key').on(t.businessId, t.numero),
    foreignKey({
      name: 'turnos_caja_fk',
      columns: [t.businessId, t.cajaId],
      foreignColumns: [cajas.businessId, cajas.id],
    }),
    check('turnos_estado', sql`${t.estado} IN ('abierto', 'cerrado')`),
    check('turnos_fondo', sql`${t.fondoInicial} >= 0`),
    check('turnos_cerrado', sql`(${t.estado} = 'cerrado') = (${t.cerradoEn} IS NOT NULL)`),
    uniqueIndex('turnos_caja_abierto_idx')
      .on(t.cajaId, t.businessId)
      .where(sql`${t.estado} = 'abierto'`),
    index('turnos_business_abierto_idx').on(t.businessId, t.abiertoEn.desc()),
  ],
);

/** Cash put into (ingreso) or taken out of (retiro) the drawer during a turno. */
export const turnoMovimientos = pgTable(
  'turno_movimientos',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    turnoId: uuid('turno_id').notNull(),
    tipo: text('tipo', { enum: ['ingreso', 'retiro'] }).notNull(),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    motivo: text('motivo').notNull(),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    /** The Idempotency-Key it was recorded with (offline POS, 0038): one movement per key. */
    clave: text('clave'),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'turno_movimientos_pkey', columns: [t.id, t.businessId] }),
    uniqueIndex('turno_movimientos_clave_key')
      .on(t.businessId, t.clave)
      .where(sql`${t.clave} IS NOT NULL`),
    foreignKey({
      name: 'turno_movimientos_turno_fk',
      columns: [t.businessId, t.turnoId],
      foreignColumns: [turnos.businessId, turnos.id],
    }),
    check('turno_movimientos_tipo', sql`${t.tipo} IN ('ingreso', 'retiro')`),
    check('turno_movimientos_monto', sql`${t.monto} > 0`),
    index('turno_movimientos_turno_idx').on(t.businessId, t.turnoId),
  ],
);

/** The closing count: expected and counted amount of each medio. */
export const turnoArqueos = pgTable(
  'turno_arqueos',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    turnoId: uuid('turno_id').notNull(),
    medioPagoId: uuid('medio_pago_id').notNull(),
    esperado: numeric('esperado', { precision: 14, scale: 2 }).notNull(),
    contado: numeric('contado', { precision: 14, scale: 2 }).notNull(),
    diferencia: numeric('diferencia', { precision: 14, scale: 2 }).notNull(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'turno_arqueos_pkey', columns: [t.turnoId, t.medioPagoId, t.businessId] }),
    foreignKey({
      name: 'turno_arqueos_turno_fk',
      columns: [t.businessId, t.turnoId],
      foreignColumns: [turnos.businessId, turnos.id],
    }),
    foreignKey({
      name: 'turno_arqueos_medio_fk',
      columns: [t.businessId, t.medioPagoId],
      foreignColumns: [paymentMethods.businessId, paymentMethods.id],
    }),
    check('turno_arqueos_contado', sql`${t.contado} >= 0`),
    check('turno_arqueos_diferencia', sql`${t.diferencia} = ${t.contado} - ${t.esperado}`),
  ],
);

/** A customer's payment on account (cobro): a numbered receipt, the cash of the business. */
export const cobros = pgTable(
  'cobros',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    clienteId: uuid('cliente_id').notNull(),
    numero: integer('numero').notNull(),
    fecha: timestamp('fecha', { withTimezone: true }).notNull(),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    medioPagoId: uuid('medio_pago_id').notNull(),
    metodoPago: text('metodo_pago').notNull(),
    turnoId: uuid('turno_id'),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    observaciones: text('observaciones'),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'cobros_pkey', columns: [t.id, t.businessId] }),
    unique('cobros_business_id_key').on(t.businessId, t.id),
    unique('cobros_business_numero_key').on(t.businessId, t.numero),
    foreignKey({
      name: 'cobros_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    foreignKey({
      name: 'cobros_medio_fk',
      columns: [t.businessId, t.medioPagoId],
      foreignColumns: [paymentMethods.businessId, paymentMethods.id],
    }),
    foreignKey({
      name: 'cobros_turno_fk',
      columns: [t.businessId, t.turnoId],
      foreignColumns: [turnos.businessId, turnos.id],
    }),
    check('cobros_monto', sql`${t.monto} > 0`),
    index('cobros_cliente_idx').on(t.businessId, t.clienteId, t.fecha),
    index('cobros_turno_idx')
      .on(t.businessId, t.turnoId)
      .where(sql`${t.turnoId} IS NOT NULL`),
  ],
);
