import { sql } from 'drizzle-orm';
import {
  check,
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
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';
import { paymentMethods, turnos } from './caja.js';
import { customers } from './customers.js';
import { saleItems, sales } from './sales.js';
import { users } from './users.js';

/**
 * Returns of sales (issue 15, decision 0009): numbered per business, the money going back by one
 * medio (`tipo` is its kind; `cuenta_corriente` lowers what the customer owes), and the turno it
 * left from.
 */
export const devoluciones = pgTable(
  'devoluciones',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    numero: integer('numero').notNull(),
    ventaId: uuid('venta_id').notNull(),
    fecha: timestamp('fecha', { withTimezone: true }).notNull(),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    medioPagoId: uuid('medio_pago_id').notNull(),
    metodoPago: text('metodo_pago').notNull(),
    tipo: text('tipo').notNull(),
    clienteId: uuid('cliente_id'),
    turnoId: uuid('turno_id'),
    motivo: text('motivo'),
    usuarioId: uuid('usuario_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'devoluciones_pkey', columns: [t.id, t.businessId] }),
    unique('devoluciones_business_id_key').on(t.businessId, t.id),
    unique('devoluciones_business_numero_key').on(t.businessId, t.numero),
    foreignKey({
      name: 'devoluciones_venta_fk',
      columns: [t.businessId, t.ventaId],
      foreignColumns: [sales.businessId, sales.id],
    }),
    foreignKey({
      name: 'devoluciones_medio_fk',
      columns: [t.businessId, t.medioPagoId],
      foreignColumns: [paymentMethods.businessId, paymentMethods.id],
    }),
    foreignKey({
      name: 'devoluciones_cliente_fk',
      columns: [t.businessId, t.clienteId],
      foreignColumns: [customers.businessId, customers.id],
    }),
    foreignKey({
      name: 'devoluciones_turno_fk',
      columns: [t.businessId, t.turnoId],
      foreignColumns: [turnos.businessId, turnos.id],
    }),
    check('devoluciones_monto', sql`${t.monto} >= 0`),
    check('devoluciones_cuenta', sql`${t.tipo} <> 'cuenta_corriente' OR ${t.clienteId} IS NOT NULL`),
    index('devoluciones_venta_idx').on(t.businessId, t.ventaId),
    index('devoluciones_fecha_idx').on(t.businessId, t.fecha),
    index('devoluciones_turno_idx')
      .on(t.businessId, t.turnoId)
      .where(sql`${t.turnoId} IS NOT NULL`),
    index('devoluciones_cuenta_idx')
      .on(t.businessId, t.clienteId)
      .where(sql`${t.tipo} = 'cuenta_corriente'`),
  ],
);

/** The lines of a return: quantity, what goes back for it, its share of the line's subtotal and cost. */
export const devolucionItems = pgTable(
  'devolucion_items',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    devolucionId: uuid('devolucion_id').notNull(),
    ventaItemId: uuid('venta_item_id').notNull(),
    cantidad: numeric('cantidad', { precision: 14, scale: 3 }).notNull(),
    monto: numeric('monto', { precision: 14, scale: 2 }).notNull(),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    costo: numeric('costo', { precision: 14, scale: 2 }).notNull(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'devolucion_items_pkey', columns: [t.devolucionId, t.ventaItemId, t.businessId] }),
    foreignKey({
      name: 'devolucion_items_venta_item_fk',
      columns: [t.businessId, t.ventaItemId],
      foreignColumns: [saleItems.businessId, saleItems.id],
    }),
    foreignKey({
      name: 'devolucion_items_devolucion_fk',
      columns: [t.businessId, t.devolucionId],
      foreignColumns: [devoluciones.businessId, devoluciones.id],
    }).onDelete('cascade'),
    check('devolucion_items_cantidad', sql`${t.cantidad} > 0`),
    check('devolucion_items_montos', sql`${t.monto} >= 0 AND ${t.subtotal} >= 0 AND ${t.costo} >= 0`),
    index('devolucion_items_item_idx').on(t.ventaItemId),
  ],
);
