import { sql } from 'drizzle-orm';
import {
  check,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { DOCUMENT_TYPES } from '@mostrador/shared';
import { businesses } from './businesses.js';
import { xid8 } from './xid8.js';

/** Customers (API-CONTRACT §3). Referenced by sales, subscriptions, movements and receivables. */
export const customers = pgTable(
  'customers',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    apellido: text('apellido'),
    email: text('email'),
    telefono: text('telefono'),
    direccion: text('direccion'),
    documentoTipo: text('documento_tipo', { enum: DOCUMENT_TYPES }),
    documentoNumero: text('documento_numero'),
    condicionIva: text('condicion_iva', {
      enum: ['consumidor_final', 'responsable_inscripto', 'monotributista', 'exento', 'no_alcanzado'],
    })
      .notNull()
      .default('consumidor_final'),
    notas: text('notas'),
    /** The most the customer may owe on account; null: no limit. */
    limiteCredito: numeric('limite_credito', { precision: 14, scale: 2 }),
    cambioXid: xid8('cambio_xid').notNull().default('0'),
    /** The customer's default price list (issue 17); null: Minorista. FK customers_lista_precios_fk in 0040. */
    listaPreciosId: uuid('lista_precios_id'),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'customers_pkey', columns: [t.id, t.businessId] }),
    unique('customers_business_id_key').on(t.businessId, t.id),
    check('customers_limite_credito', sql`${t.limiteCredito} >= 0`),
    uniqueIndex('customers_document_key')
      .on(t.businessId, t.documentoTipo, t.documentoNumero)
      .where(sql`${t.documentoNumero} IS NOT NULL`),
    index('customers_cambio_idx').on(t.businessId, t.cambioXid),
    index('customers_name_idx').on(t.businessId, t.apellido, t.nombre),
    index('customers_search_idx').using(
      'gin',
      sql`f_unaccent(lower(coalesce(${t.nombre}, '') || ' ' || coalesce(${t.apellido}, '') || ' ' || coalesce(${t.email}, '') || ' ' || coalesce(${t.documentoNumero}, ''))) gin_trgm_ops`,
    ),
  ],
);
