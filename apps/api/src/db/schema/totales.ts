import { bigint, date, integer, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';

/**
 * Totals the reports read instead of adding up a month of rows on every request (issue 20,
 * decision 0027). Written only by the triggers of migration 0049, deferred to the commit of the
 * transaction that writes the rows they add up; `totales_rehacer(business_id)` computes them again.
 * Days and months are the business's calendar. A customer or item id of all zeros means none.
 */
const business = () =>
  uuid('business_id')
    .notNull()
    .references(() => businesses.id, { onDelete: 'cascade' });
const sum = (name: string) => numeric(name).notNull().default('0');
const count = (name: string) => integer(name).notNull().default(0);

/** Per day: completed sales and their money, voided sales, and returns on that day. */
export const totalesVentasDia = pgTable(
  'totales_ventas_dia',
  {
    businessId: business(),
    dia: date('dia', { mode: 'string' }).notNull(),
    ventas: count('ventas'),
    total: sum('total'),
    costo: sum('costo'),
    descuento: sum('descuento'),
    anuladas: count('anuladas'),
    devuelto: sum('devuelto'),
    costoDevuelto: sum('costo_devuelto'),
  },
  (t) => [primaryKey({ name: 'totales_ventas_dia_pkey', columns: [t.businessId, t.dia] })],
);

/**
 * Per day and medio (its contract code and the configured medio, migration 0063; the zero id for
 * payments without one): sales paid with it, their money net of returns; `filas` > 0 when any.
 */
export const totalesMediosDia = pgTable(
  'totales_medios_dia',
  {
    businessId: business(),
    dia: date('dia', { mode: 'string' }).notNull(),
    metodoPago: text('metodo_pago').notNull(),
    medioPagoId: uuid('medio_pago_id').notNull().default('00000000-0000-0000-0000-000000000000'),
    ventas: count('ventas'),
    /** Each sale once per code (on the first of its medios of that code). */
    ventasMetodo: count('ventas_metodo'),
    total: sum('total'),
    filas: count('filas'),
  },
  (t) => [primaryKey({ name: 'totales_medios_dia_pkey', columns: [t.businessId, t.dia, t.metodoPago, t.medioPagoId] })],
);

/** Per month and customer: completed sales and their money net of returns. */
export const totalesClientesMes = pgTable(
  'totales_clientes_mes',
  {
    businessId: business(),
    mes: date('mes', { mode: 'string' }).notNull(),
    clienteId: uuid('cliente_id').notNull(),
    ventas: count('ventas'),
    total: sum('total'),
    filas: count('filas'),
  },
  (t) => [primaryKey({ name: 'totales_clientes_mes_pkey', columns: [t.businessId, t.mes, t.clienteId] })],
);

/** Per month and product or service: quantity, money and cost sold, net of returns; its current name. */
export const totalesItemsMes = pgTable(
  'totales_items_mes',
  {
    businessId: business(),
    mes: date('mes', { mode: 'string' }).notNull(),
    tipo: text('tipo').notNull(),
    itemId: uuid('item_id').notNull(),
    nombre: text('nombre').notNull(),
    cantidad: sum('cantidad'),
    total: sum('total'),
    costo: sum('costo'),
  },
  (t) => [primaryKey({ name: 'totales_items_mes_pkey', columns: [t.businessId, t.mes, t.tipo, t.itemId] })],
);

/** Per day: the cash flow's income (net of money given back for returns) and expenses. */
export const totalesFlujoDia = pgTable(
  'totales_flujo_dia',
  {
    businessId: business(),
    fecha: date('fecha', { mode: 'string' }).notNull(),
    ingresos: sum('ingresos'),
    egresos: sum('egresos'),
  },
  (t) => [primaryKey({ name: 'totales_flujo_dia_pkey', columns: [t.businessId, t.fecha] })],
);

/**
 * Per business: a number that grows with every change to its totals or to what the report names
 * from them (customers, products, services), at the commit that makes it (migration 0050). A
 * report kept by the API is reused only while this number is the one it was read at (decision 0029).
 */
export const totalesVersion = pgTable(
  'totales_version',
  {
    businessId: business(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'totales_version_pkey', columns: [t.businessId] })],
);
