import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { TASK_PRIORITIES, TASK_STATES, type TaskListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { businesses, businessMembers, tasks, users } from '../../db/schema/index.js';
import { isUuid } from '../../lib/access.js';
import { es, searchFunction, searchTerms } from '../products/common.js';

/*
 * The tasks' statements (decision 0044): every function takes the business first, then whose
 * tasks the caller sees (`onlyOf`: a user id when they see only theirs, undefined for all).
 */

export type TaskColumns = Partial<Omit<typeof tasks.$inferInsert, 'id' | 'businessId'>>;

/** The tasks assigned to or created by `onlyOf`; every task when it is undefined. */
function visibility(onlyOf: string | undefined): SQL | undefined {
  if (onlyOf === undefined) return undefined;
  return or(eq(tasks.asignadaA, onlyOf), eq(tasks.creadaPor, onlyOf));
}

const assignee = alias(users, 'asignado');
const creator = alias(users, 'creador');

/** Past its end and not finished, against the injected clock. */
const overdue = (now: Date) =>
  sql<boolean>`(${tasks.fechaFin} IS NOT NULL AND ${tasks.fechaFin} < ${now.toISOString()}::timestamptz AND ${tasks.estado} NOT IN ('completada', 'cancelada'))`;

function selectTasks(ex: Executor) {
  return ex
    .select({
      t: tasks,
      asignado: { id: assignee.id, nombre: assignee.nombre, apellido: assignee.apellido, email: assignee.email },
      creador: { id: creator.id, nombre: creator.nombre, apellido: creator.apellido, email: creator.email },
    })
    .from(tasks)
    .leftJoin(assignee, eq(assignee.id, tasks.asignadaA))
    .leftJoin(creator, eq(creator.id, tasks.creadaPor))
    .$dynamic();
}

export type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTasks>['execute']>>[number];

/** Every word must appear in the title or the description, ignoring case and accents. */
const searchText = sql`f_unaccent(lower(${tasks.titulo} || ' ' || coalesce(${tasks.descripcion}, '')))`;
/** The search function's condition for the indexable words (migration 0055). */
const taskSearch = searchFunction('buscar_tareas', tasks.id);

/** A list's rank of a text column by the order of its choices (priority, state). */
const rank = (col: SQL | unknown, values: readonly string[]) =>
  sql`array_position(ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[], ${col})`;

/** Newest first unless `orden` asks for a column (ties newest first; no end date goes last). */
function orderOf(q: TaskListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const newest = [desc(tasks.creadoEn), desc(tasks.id)];
  switch (q.orden) {
    case 'titulo':
      return [dir(es(tasks.titulo)), ...newest];
    case 'prioridad':
      return [dir(rank(tasks.prioridad, TASK_PRIORITIES)), ...newest];
    case 'estado':
      return [dir(rank(tasks.estado, TASK_STATES)), ...newest];
    case 'fecha_fin':
      return [sql`${tasks.fechaFin} IS NULL`, dir(tasks.fechaFin), ...newest];
    case 'creado_en':
      return [dir(tasks.creadoEn), dir(tasks.id)];
    default:
      return newest;
  }
}

/** Whether the user is an accepted member, the membership locked FOR SHARE (a removal waits). */
export async function isAcceptedMember(businessId: string, userId: string, ex: Executor) {
  const [m] = await ex
    .select({ id: businessMembers.id })
    .from(businessMembers)
    .where(
      and(
        eq(businessMembers.businessId, businessId),
        eq(businessMembers.userId, userId),
        eq(businessMembers.estado, 'aceptado'),
      ),
    )
    .for('share');
  return !!m;
}

/** A task the caller sees, locked for an update when asked. */
export async function findVisibleRow(
  businessId: string,
  onlyOf: string | undefined,
  id: string,
  lock: boolean,
  ex: Executor,
) {
  if (!isUuid(id)) return undefined;
  const q = selectTasks(ex).where(and(eq(tasks.businessId, businessId), eq(tasks.id, id), visibility(onlyOf)));
  const [r] = lock ? await q.for('update', { of: tasks }) : await q;
  return r;
}

export async function findTaskRow(businessId: string, id: string, ex: Executor) {
  const [r] = await selectTasks(ex).where(and(eq(tasks.businessId, businessId), eq(tasks.id, id)));
  return r as TaskRow | undefined;
}

/** A page of the tasks the caller sees, filtered, and the count of the whole list. */
export async function listTaskRows(
  businessId: string,
  onlyOf: string | undefined,
  q: TaskListQuery,
  now: Date,
  db: Executor,
) {
  const where: (SQL | undefined)[] = [eq(tasks.businessId, businessId), visibility(onlyOf)];
  if (q.estado?.length) where.push(inArray(tasks.estado, q.estado));
  if (q.prioridad?.length) where.push(inArray(tasks.prioridad, q.prioridad));
  const who = q.asignada_a ?? q.asignada_a_id;
  if (who === 'ninguno') where.push(isNull(tasks.asignadaA));
  else if (who) where.push(eq(tasks.asignadaA, who));
  where.push(...searchTerms(searchText, q.q ?? q.busqueda, taskSearch));
  if (q.vencida !== undefined) where.push(q.vencida ? overdue(now) : sql`NOT ${overdue(now)}`);
  const cond = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    selectTasks(db)
      .where(cond)
      .orderBy(...orderOf(q))
      .limit(q.por_pagina)
      .offset((q.pagina - 1) * q.por_pagina),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(tasks)
      .where(cond),
  ]);
  return { rows, total };
}

/** The counts by state and priority of the tasks the caller sees. */
export async function taskStatsRow(businessId: string, onlyOf: string | undefined, now: Date, db: Executor) {
  const n = (cond: SQL) => sql<number>`(count(*) FILTER (WHERE ${cond}))::int`;
  const [s] = await db
    .select({
      total: sql<number>`count(*)::int`,
      pendientes: n(sql`${tasks.estado} = 'pendiente'`),
      en_progreso: n(sql`${tasks.estado} = 'en_progreso'`),
      pausadas: n(sql`${tasks.estado} = 'pausada'`),
      completadas: n(sql`${tasks.estado} = 'completada'`),
      canceladas: n(sql`${tasks.estado} = 'cancelada'`),
      vencidas: n(overdue(now)),
      baja: n(sql`${tasks.prioridad} = 'baja'`),
      media: n(sql`${tasks.prioridad} = 'media'`),
      alta: n(sql`${tasks.prioridad} = 'alta'`),
      urgente: n(sql`${tasks.prioridad} = 'urgente'`),
    })
    .from(tasks)
    .where(and(eq(tasks.businessId, businessId), visibility(onlyOf)));
  return s;
}

/** Accepted members, creator first, then by name. */
export function listEmployeeRows(businessId: string, db: Executor) {
  return db
    .select({
      id: users.id,
      nombre: users.nombre,
      apellido: users.apellido,
      email: users.email,
      rol: businessMembers.rol,
    })
    .from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.userId))
    .innerJoin(businesses, eq(businesses.id, businessMembers.businessId))
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.estado, 'aceptado')))
    .orderBy(
      desc(sql`${businesses.creadaPor} = ${businessMembers.userId}`),
      asc(sql`${users.nombre} COLLATE "es-AR-x-icu"`),
      asc(sql`${users.apellido} COLLATE "es-AR-x-icu"`),
      asc(users.id),
    );
}

/** The tasks the caller sees whose span overlaps [start, end). */
export function calendarRows(businessId: string, onlyOf: string | undefined, start: string, end: string, db: Executor) {
  const from = sql`coalesce(${tasks.fechaInicio}, ${tasks.fechaFin})`;
  const to = sql`coalesce(${tasks.fechaFin}, ${tasks.fechaInicio})`;
  return selectTasks(db)
    .where(
      and(
        eq(tasks.businessId, businessId),
        visibility(onlyOf),
        or(sql`${tasks.fechaInicio} IS NOT NULL`, sql`${tasks.fechaFin} IS NOT NULL`),
        sql`${from} < ${end}::timestamptz`,
        sql`${to} >= ${start}::timestamptz`,
      ),
    )
    .orderBy(asc(from), asc(tasks.creadoEn), asc(tasks.id));
}

export async function insertTask(businessId: string, values: TaskColumns & { titulo: string }, ex: Executor) {
  const [row] = await ex
    .insert(tasks)
    .values({ businessId, ...values })
    .returning({ id: tasks.id });
  return row;
}

export async function updateTaskRow(businessId: string, id: string, cols: TaskColumns, ex: Executor) {
  await ex
    .update(tasks)
    .set(cols)
    .where(and(eq(tasks.businessId, businessId), eq(tasks.id, id)));
}

export async function deleteTaskRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(tasks).where(and(eq(tasks.businessId, businessId), eq(tasks.id, id)));
}

/** A member leaves or is removed: their tasks stay, unassigned. */
export async function unassignTasks(businessId: string, userId: string, ex: Executor) {
  await ex
    .update(tasks)
    .set({ asignadaA: null })
    .where(and(eq(tasks.businessId, businessId), eq(tasks.asignadaA, userId)));
}
