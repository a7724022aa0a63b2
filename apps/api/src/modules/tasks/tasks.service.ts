import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  parseInstant,
  taskColor,
  TASK_CALENDAR_MAX_DAYS,
  TASK_MESSAGES,
  TASK_PRIORITIES,
  TASK_STATES,
  zonedToInstant,
  type CalendarTask,
  type Task,
  type TaskCalendarQuery,
  type TaskEmployee,
  type TaskInput,
  type TaskListQuery,
  type TaskPage,
  type TaskStats,
  type TaskUpdate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { businesses, businessMembers, tasks, users } from '../../db/schema/index.js';
import { assertCan, hasFullAccess, isUuid, type BusinessContext } from '../../lib/access.js';
import { addDays, daysBetween, todayIn } from '../../lib/dates.js';
import { invalid, notFound } from '../../lib/errors.js';
import { es, searchFunction, searchTerms } from '../products/common.js';

/** Who is asking: the user and their business context (flags, time zone). */
export interface TaskActor {
  userId: string;
  business: BusinessContext;
  now: Date;
}

/**
 * API-CONTRACT §11: creator, admin, full access and members holding tareas/asignar or
 * tareas/editar see every task; anybody else only the tasks assigned to them or created by them.
 */
export function seesAllTasks(b: BusinessContext): boolean {
  return hasFullAccess(b) || b.permisos.puede_asignar_tareas === true || b.permisos.puede_editar_tareas === true;
}

export const canEditTasks = (b: BusinessContext) => hasFullAccess(b) || b.permisos.puede_editar_tareas === true;

function visibility(a: TaskActor): SQL | undefined {
  if (seesAllTasks(a.business)) return undefined;
  return or(eq(tasks.asignadaA, a.userId), eq(tasks.creadaPor, a.userId));
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

type Row = Awaited<ReturnType<ReturnType<typeof selectTasks>['execute']>>[number];

const person = (u: Row['asignado']) =>
  u && u.id ? { id: u.id, nombre: u.nombre, apellido: u.apellido, email: u.email } : null;

export function toTask(r: Row, now: Date): Task {
  const t = r.t;
  return {
    id: t.id,
    titulo: t.titulo,
    descripcion: t.descripcion,
    fecha_inicio: t.fechaInicio?.toISOString() ?? null,
    fecha_fin: t.fechaFin?.toISOString() ?? null,
    estado: t.estado,
    prioridad: t.prioridad,
    vencida: t.fechaFin !== null && t.fechaFin < now && t.estado !== 'completada' && t.estado !== 'cancelada',
    asignada_a_id: t.asignadaA,
    asignada_a: person(r.asignado),
    creada_por_id: t.creadaPor,
    creada_por: person(r.creador),
    creado_en: t.creadoEn.toISOString(),
    actualizado_en: t.actualizadoEn.toISOString(),
  };
}

/** Every word must appear in the title or the description, ignoring case and accents. */
const searchText = sql`f_unaccent(lower(${tasks.titulo} || ' ' || coalesce(${tasks.descripcion}, '')))`;
/** The search function's condition for the indexable words (migration 0055). */
const taskSearch = searchFunction('buscar_tareas', tasks.id);

/** The alias pairs of the contract: `asignada_a` wins over `asignada_a_id`. */
function assigneeOf(body: { asignada_a?: string | null; asignada_a_id?: string | null }): string | null | undefined {
  return body.asignada_a !== undefined ? body.asignada_a : body.asignada_a_id;
}

/** 422 unless the user is an accepted member (locked so a concurrent removal waits for us). */
async function assertAssignable(ex: Executor, businessId: string, userId: string, field: string) {
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
  if (!m) throw invalid(field, TASK_MESSAGES.assigneeNotMember);
}

function assertOrder(inicio: Date | null, fin: Date | null) {
  if (inicio && fin && fin < inicio) throw invalid('fecha_fin', TASK_MESSAGES.endBeforeStart);
}

const instantOf = (v: string | null | undefined, tz: string) => (v ? parseInstant(v, tz) : null);

async function findVisible(ex: Executor, a: TaskActor, id: string, lock = false) {
  if (!isUuid(id)) return undefined;
  const q = selectTasks(ex).where(and(eq(tasks.businessId, a.business.id), eq(tasks.id, id), visibility(a)));
  const [r] = lock ? await q.for('update', { of: tasks }) : await q;
  return r;
}

/* ---------------------------------------------------------------- reads */

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

export async function listTasks(db: Db, a: TaskActor, q: TaskListQuery): Promise<TaskPage> {
  const where: (SQL | undefined)[] = [eq(tasks.businessId, a.business.id), visibility(a)];
  if (q.estado?.length) where.push(inArray(tasks.estado, q.estado));
  if (q.prioridad?.length) where.push(inArray(tasks.prioridad, q.prioridad));
  const who = q.asignada_a ?? q.asignada_a_id;
  if (who === 'ninguno') where.push(isNull(tasks.asignadaA));
  else if (who) where.push(eq(tasks.asignadaA, who));
  where.push(...searchTerms(searchText, q.q ?? q.busqueda, taskSearch));
  if (q.vencida !== undefined) where.push(q.vencida ? overdue(a.now) : sql`NOT ${overdue(a.now)}`);
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
  return {
    tareas: rows.map((r) => toTask(r, a.now)),
    total,
    pagina: q.pagina,
    por_pagina: q.por_pagina,
    total_paginas: Math.ceil(total / q.por_pagina),
  };
}

export async function getTask(db: Db, a: TaskActor, id: string): Promise<Task> {
  const r = await findVisible(db, a, id);
  if (!r) throw notFound(TASK_MESSAGES.notFound);
  return toTask(r, a.now);
}

export async function taskStats(db: Db, a: TaskActor): Promise<TaskStats> {
  const n = (cond: SQL) => sql<number>`(count(*) FILTER (WHERE ${cond}))::int`;
  const [s] = await db
    .select({
      total: sql<number>`count(*)::int`,
      pendientes: n(sql`${tasks.estado} = 'pendiente'`),
      en_progreso: n(sql`${tasks.estado} = 'en_progreso'`),
      pausadas: n(sql`${tasks.estado} = 'pausada'`),
      completadas: n(sql`${tasks.estado} = 'completada'`),
      canceladas: n(sql`${tasks.estado} = 'cancelada'`),
      vencidas: n(overdue(a.now)),
      baja: n(sql`${tasks.prioridad} = 'baja'`),
      media: n(sql`${tasks.prioridad} = 'media'`),
      alta: n(sql`${tasks.prioridad} = 'alta'`),
      urgente: n(sql`${tasks.prioridad} = 'urgente'`),
    })
    .from(tasks)
    .where(and(eq(tasks.businessId, a.business.id), visibility(a)));
  return {
    total: s.total,
    total_tareas: s.total,
    pendientes: s.pendientes,
    en_progreso: s.en_progreso,
    pausadas: s.pausadas,
    completadas: s.completadas,
    canceladas: s.canceladas,
    vencidas: s.vencidas,
    por_prioridad: Object.fromEntries(TASK_PRIORITIES.map((p) => [p, s[p]])) as TaskStats['por_prioridad'],
  };
}

/** Accepted members, creator first, then by name. */
export async function listEmployees(db: Db, businessId: string): Promise<{ empleados: TaskEmployee[] }> {
  const rows = await db
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
  return {
    empleados: rows.map((r) => ({
      ...r,
      nombre_completo: [r.nombre, r.apellido].filter(Boolean).join(' '),
    })),
  };
}

/** The range of a calendar request: `[desde, hasta]` in the business time zone, the current month by default. */
export function calendarRange(q: TaskCalendarQuery, today: string): { desde: string; hasta: string } {
  const monthStart = (d: string) => `${d.slice(0, 7)}-01`;
  const monthEnd = (d: string) => addDays(`${addDays(monthStart(d), 32).slice(0, 7)}-01`, -1);
  let desde = q.desde ?? q.fecha_inicio;
  let hasta = q.hasta ?? q.fecha_fin;
  if (!desde && !hasta) {
    desde = monthStart(today);
    hasta = monthEnd(today);
  } else if (!hasta) hasta = monthEnd(desde!);
  else if (!desde) desde = monthStart(hasta);
  if (desde! > hasta) throw invalid('desde', TASK_MESSAGES.rangeInverted);
  if (daysBetween(desde!, hasta) + 1 > TASK_CALENDAR_MAX_DAYS) throw invalid('hasta', TASK_MESSAGES.rangeTooLong);
  return { desde: desde!, hasta };
}

/**
 * Tasks whose span `[fecha_inicio, fecha_fin]` overlaps the range; a task with one date is a
 * point on that date; tasks without dates are left out.
 */
export async function calendar(db: Db, a: TaskActor, q: TaskCalendarQuery): Promise<CalendarTask[]> {
  const tz = a.business.timezone;
  const { desde, hasta } = calendarRange(q, todayIn(tz, a.now));
  const start = zonedToInstant(desde, tz).toISOString();
  const end = zonedToInstant(addDays(hasta, 1), tz).toISOString();
  const from = sql`coalesce(${tasks.fechaInicio}, ${tasks.fechaFin})`;
  const to = sql`coalesce(${tasks.fechaFin}, ${tasks.fechaInicio})`;
  const rows = await selectTasks(db)
    .where(
      and(
        eq(tasks.businessId, a.business.id),
        visibility(a),
        or(sql`${tasks.fechaInicio} IS NOT NULL`, sql`${tasks.fechaFin} IS NOT NULL`),
        sql`${from} < ${end}::timestamptz`,
        sql`${to} >= ${start}::timestamptz`,
      ),
    )
    .orderBy(asc(from), asc(tasks.creadoEn), asc(tasks.id));
  return rows.map((r) => {
    const t = toTask(r, a.now);
    return { ...t, color: taskColor(t.estado, t.prioridad) };
  });
}

/* ---------------------------------------------------------------- writes */

export async function createTask(db: Db, a: TaskActor, input: TaskInput): Promise<Task> {
  const tz = a.business.timezone;
  const fechaInicio = instantOf(input.fecha_inicio, tz);
  const fechaFin = instantOf(input.fecha_fin, tz);
  assertOrder(fechaInicio, fechaFin);
  const asignadaA = assigneeOf(input) ?? null;
  return db.transaction(async (tx) => {
    if (asignadaA) await assertAssignable(tx, a.business.id, asignadaA, 'asignada_a');
    const [row] = await tx
      .insert(tasks)
      .values({
        businessId: a.business.id,
        titulo: input.titulo,
        descripcion: input.descripcion ?? null,
        fechaInicio,
        fechaFin,
        estado: input.estado ?? 'pendiente',
        prioridad: input.prioridad ?? 'media',
        asignadaA,
        creadaPor: a.userId,
        creadoEn: a.now,
        actualizadoEn: a.now,
      })
      .returning({ id: tasks.id });
    const [r] = await selectTasks(tx).where(and(eq(tasks.businessId, a.business.id), eq(tasks.id, row.id)));
    return toTask(r, a.now);
  });
}

/**
 * A partial update. tareas/editar changes any field; changing the assignee also needs
 * tareas/asignar; the assignee with only tareas/ver may change `estado` alone.
 */
export async function updateTask(db: Db, a: TaskActor, id: string, body: TaskUpdate): Promise<Task> {
  const tz = a.business.timezone;
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as TaskUpdate;
  const editor = canEditTasks(a.business);
  if (!editor && Object.keys(given).some((k) => k !== 'estado')) assertCan(a.business, 'tareas', 'editar');
  return db.transaction(async (tx) => {
    const current = await findVisible(tx, a, id, true);
    if (!current) throw notFound(TASK_MESSAGES.notFound);
    const t = current.t;
    if (!editor && t.asignadaA !== a.userId) assertCan(a.business, 'tareas', 'editar');

    const patch: Partial<typeof tasks.$inferInsert> = {};
    if (given.titulo !== undefined) patch.titulo = given.titulo;
    if (given.descripcion !== undefined) patch.descripcion = given.descripcion;
    if (given.prioridad !== undefined) patch.prioridad = given.prioridad;
    if (given.estado !== undefined) patch.estado = given.estado;
    if (given.fecha_inicio !== undefined) patch.fechaInicio = instantOf(given.fecha_inicio, tz);
    if (given.fecha_fin !== undefined) patch.fechaFin = instantOf(given.fecha_fin, tz);
    assertOrder(
      patch.fechaInicio !== undefined ? patch.fechaInicio : t.fechaInicio,
      patch.fechaFin !== undefined ? patch.fechaFin : t.fechaFin,
    );
    const nextAssignee = assigneeOf(given);
    if (nextAssignee !== undefined && nextAssignee !== t.asignadaA) {
      assertCan(a.business, 'tareas', 'asignar');
      if (nextAssignee) await assertAssignable(tx, a.business.id, nextAssignee, 'asignada_a');
      patch.asignadaA = nextAssignee;
    }
    if (Object.keys(patch).length) {
      await tx
        .update(tasks)
        .set({ ...patch, actualizadoEn: a.now })
        .where(and(eq(tasks.businessId, a.business.id), eq(tasks.id, t.id)));
    }
    const [r] = await selectTasks(tx).where(and(eq(tasks.businessId, a.business.id), eq(tasks.id, t.id)));
    return toTask(r, a.now);
  });
}

export async function deleteTask(db: Db, a: TaskActor, id: string): Promise<void> {
  const r = await findVisible(db, a, id);
  if (!r) throw notFound(TASK_MESSAGES.notFound);
  await db.delete(tasks).where(and(eq(tasks.businessId, a.business.id), eq(tasks.id, r.t.id)));
}

/** A member leaves or is removed: their tasks stay, unassigned (API-CONTRACT §9.2). */
export async function unassignTasksOf(ex: Executor, businessId: string, userId: string): Promise<void> {
  await ex
    .update(tasks)
    .set({ asignadaA: null })
    .where(and(eq(tasks.businessId, businessId), eq(tasks.asignadaA, userId)));
}
