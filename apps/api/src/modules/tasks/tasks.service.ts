import {
  parseInstant,
  taskColor,
  TASK_CALENDAR_MAX_DAYS,
  TASK_MESSAGES,
  TASK_PRIORITIES,
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
import { assertCan, hasFullAccess, type BusinessContext } from '../../lib/access.js';
import { addDays, daysBetween, todayIn } from '../../lib/dates.js';
import { invalid, notFound } from '../../lib/errors.js';
import {
  calendarRows,
  deleteTaskRow,
  findTaskRow,
  findVisibleRow,
  insertTask,
  isAcceptedMember,
  listEmployeeRows,
  listTaskRows,
  taskStatsRow,
  unassignTasks,
  updateTaskRow,
  type TaskColumns,
  type TaskRow as Row,
} from './tasks.queries.js';

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

/** Whose tasks the actor sees: only theirs (their id), or all (undefined). */
const onlyOf = (a: TaskActor) => (seesAllTasks(a.business) ? undefined : a.userId);

/** 422 unless the user is an accepted member (locked so a concurrent removal waits for us). */
async function assertAssignable(ex: Executor, businessId: string, userId: string, field: string) {
  if (!(await isAcceptedMember(businessId, userId, ex))) throw invalid(field, TASK_MESSAGES.assigneeNotMember);
}

const findVisible = (ex: Executor, a: TaskActor, id: string, lock = false) =>
  findVisibleRow(a.business.id, onlyOf(a), id, lock, ex);

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

/** The alias pairs of the contract: `asignada_a` wins over `asignada_a_id`. */
function assigneeOf(body: { asignada_a?: string | null; asignada_a_id?: string | null }): string | null | undefined {
  return body.asignada_a !== undefined ? body.asignada_a : body.asignada_a_id;
}

function assertOrder(inicio: Date | null, fin: Date | null) {
  if (inicio && fin && fin < inicio) throw invalid('fecha_fin', TASK_MESSAGES.endBeforeStart);
}

const instantOf = (v: string | null | undefined, tz: string) => (v ? parseInstant(v, tz) : null);

/* ---------------------------------------------------------------- reads */

export async function listTasks(db: Db, a: TaskActor, q: TaskListQuery): Promise<TaskPage> {
  const { rows, total } = await listTaskRows(a.business.id, onlyOf(a), q, a.now, db);
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
  const s = await taskStatsRow(a.business.id, onlyOf(a), a.now, db);
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
  const rows = await listEmployeeRows(businessId, db);
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
  const rows = await calendarRows(a.business.id, onlyOf(a), start, end, db);
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
    const row = await insertTask(
      a.business.id,
      {
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
      },
      tx,
    );
    const r = (await findTaskRow(a.business.id, row.id, tx))!;
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

    const patch: TaskColumns = {};
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
      await updateTaskRow(a.business.id, t.id, { ...patch, actualizadoEn: a.now }, tx);
    }
    const r = (await findTaskRow(a.business.id, t.id, tx))!;
    return toTask(r, a.now);
  });
}

export async function deleteTask(db: Db, a: TaskActor, id: string): Promise<void> {
  const r = await findVisible(db, a, id);
  if (!r) throw notFound(TASK_MESSAGES.notFound);
  await deleteTaskRow(a.business.id, r.t.id, db);
}

/** A member leaves or is removed: their tasks stay, unassigned (API-CONTRACT §9.2). */
export async function unassignTasksOf(ex: Executor, businessId: string, userId: string): Promise<void> {
  await unassignTasks(businessId, userId, ex);
}
