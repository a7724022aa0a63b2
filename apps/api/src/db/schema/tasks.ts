import { sql } from 'drizzle-orm';
import {
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';
import { users } from './users.js';

/**
 * Tasks of a business (API-CONTRACT §11). The assignee and the creator are users: the service
 * checks that an assignee is an accepted member, and removing a member unassigns their tasks in
 * the same transaction. `vencida` is computed when read (it depends on the clock).
 */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    titulo: text('titulo').notNull(),
    descripcion: text('descripcion'),
    fechaInicio: timestamp('fecha_inicio', { withTimezone: true }),
    fechaFin: timestamp('fecha_fin', { withTimezone: true }),
    estado: text('estado', { enum: ['pendiente', 'en_progreso', 'pausada', 'completada', 'cancelada'] })
      .notNull()
      .default('pendiente'),
    prioridad: text('prioridad', { enum: ['baja', 'media', 'alta', 'urgente'] })
      .notNull()
      .default('media'),
    asignadaA: uuid('asignada_a').references(() => users.id, { onDelete: 'set null' }),
    creadaPor: uuid('creada_por').references(() => users.id, { onDelete: 'set null' }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'tasks_pkey', columns: [t.id, t.businessId] }),
    unique('tasks_business_id_key').on(t.businessId, t.id),
    check('tasks_fechas', sql`${t.fechaFin} IS NULL OR ${t.fechaInicio} IS NULL OR ${t.fechaFin} >= ${t.fechaInicio}`),
    index('tasks_business_creado_idx').on(t.businessId, t.creadoEn.desc(), t.id),
    index('tasks_asignada_idx')
      .on(t.businessId, t.asignadaA)
      .where(sql`${t.asignadaA} IS NOT NULL`),
    index('tasks_creada_por_idx').on(t.businessId, t.creadaPor),
    // The calendar: tasks whose span [coalesce(inicio, fin), coalesce(fin, inicio)] meets a range.
    index('tasks_calendario_idx')
      .on(t.businessId, sql`coalesce(${t.fechaInicio}, ${t.fechaFin})`)
      .where(sql`${t.fechaInicio} IS NOT NULL OR ${t.fechaFin} IS NOT NULL`),
    index('tasks_busqueda_idx').using(
      'gin',
      sql`f_unaccent(lower(${t.titulo} || ' ' || coalesce(${t.descripcion}, ''))) gin_trgm_ops`,
    ),
  ],
);
