import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import type { ImportColumn, ImportRowData } from '@mostrador/shared';
import { businesses } from './businesses.js';
import { users } from './users.js';

/**
 * A staged product import (API-CONTRACT §4.2): one per business and user; a new upload replaces
 * it, and it expires after 24 hours.
 */
export const importBatches = pgTable(
  'import_batches',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    archivo: text('archivo').notNull(),
    hoja: text('hoja').notNull(),
    columnas: jsonb('columnas').$type<ImportColumn[]>().notNull(),
    columnasIgnoradas: jsonb('columnas_ignoradas').$type<string[]>().notNull(),
    columnasOriginales: jsonb('columnas_originales').$type<string[]>().notNull(),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    expiraEn: timestamp('expira_en', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'import_batches_pkey', columns: [t.id, t.businessId] }),
    unique('import_batches_business_id_key').on(t.businessId, t.id),
    unique('import_batches_business_user_key').on(t.businessId, t.userId),
  ],
);

/** The rows of a staged import, as read and validated; `datos` holds cents and thousandths as numbers. */
export const importRows = pgTable(
  'import_rows',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id').notNull(),
    batchId: uuid('batch_id').notNull(),
    fila: integer('fila').notNull(),
    accion: text('accion', { enum: ['nuevo', 'actualizar'] }).notNull(),
    productoId: uuid('producto_id'),
    datos: jsonb('datos').$type<ImportRowData>().notNull(),
    errores: jsonb('errores').$type<string[]>().notNull(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'import_rows_pkey', columns: [t.id, t.businessId] }),
    unique('import_rows_business_id_key').on(t.businessId, t.id),
    foreignKey({
      name: 'import_rows_batch_fk',
      columns: [t.businessId, t.batchId],
      foreignColumns: [importBatches.businessId, importBatches.id],
    }).onDelete('cascade'),
    index('import_rows_batch_fila_idx').on(t.batchId, t.fila),
  ],
);
