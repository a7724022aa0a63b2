import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';

/**
 * Suppliers (API-CONTRACT §12). Referenced by purchases and by payables (finance_accounts), whose
 * composite keys refuse deleting a supplier still in use. The CUIT is stored as XX-XXXXXXXX-X.
 */
export const suppliers = pgTable(
  'suppliers',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    cuit: text('cuit'),
    email: text('email'),
    telefono: text('telefono'),
    direccion: text('direccion'),
    ciudad: text('ciudad'),
    provincia: text('provincia'),
    pais: text('pais'),
    contacto: text('contacto'),
    condicionesPago: text('condiciones_pago'),
    estado: text('estado', { enum: ['activo', 'inactivo'] })
      .notNull()
      .default('activo'),
    notas: text('notas'),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'suppliers_pkey', columns: [t.id, t.businessId] }),
    unique('suppliers_business_id_key').on(t.businessId, t.id),
    uniqueIndex('suppliers_cuit_key')
      .on(t.businessId, t.cuit)
      .where(sql`${t.cuit} IS NOT NULL`),
    index('suppliers_nombre_idx').on(t.businessId, sql`${t.nombre} COLLATE "es-AR-x-icu"`, t.id),
    index('suppliers_search_idx').using(
      'gin',
      sql`f_unaccent(lower(${t.nombre} || ' ' || coalesce(${t.cuit}, '') || ' ' || coalesce(${t.email}, '') || ' ' || coalesce(${t.contacto}, ''))) gin_trgm_ops`,
    ),
  ],
);
