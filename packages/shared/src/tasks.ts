import { z } from 'zod';
import { isoDate, optText, queryBool, reqText } from './validation.js';
import { oneOfCi, queryInt, queryParam } from './customers.js';

/* ---------------------------------------------------------------- constants (API-CONTRACT §11) */

export const TASK_STATES = ['pendiente', 'en_progreso', 'pausada', 'completada', 'cancelada'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const TASK_STATE_LABELS: Record<TaskState, string> = {
  pendiente: 'Pendiente',
  en_progreso: 'En progreso',
  pausada: 'Pausada',
  completada: 'Completada',
  cancelada: 'Cancelada',
};
/** Finished tasks are never overdue. */
export const TASK_CLOSED_STATES: readonly TaskState[] = ['completada', 'cancelada'];

export const TASK_PRIORITIES = ['baja', 'media', 'alta', 'urgente'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
export const TASK_PRIORITY_LABELS: Record<TaskPriority, string> = {
  baja: 'Baja',
  media: 'Media',
  alta: 'Alta',
  urgente: 'Urgente',
};

export const TASK_PAGE_DEFAULT = 20;
export const TASK_PAGE_MAX = 100;
/** The longest calendar range, in days. */
export const TASK_CALENDAR_MAX_DAYS = 366;

export const TASK_COLORS = {
  completada: '#10b981',
  en_progreso: '#3b82f6',
  urgente: '#ef4444',
  alta: '#f59e0b',
  otro: '#6b7280',
} as const;

/** Calendar colour: a state colour first (completed, in progress), then the priority's. */
export function taskColor(estado: TaskState, prioridad: TaskPriority): string {
  if (estado === 'completada') return TASK_COLORS.completada;
  if (estado === 'en_progreso') return TASK_COLORS.en_progreso;
  if (prioridad === 'urgente') return TASK_COLORS.urgente;
  if (prioridad === 'alta') return TASK_COLORS.alta;
  return TASK_COLORS.otro;
}

export const TASK_MESSAGES = {
  notFound: 'Tarea no encontrada.',
  assigneeNotMember: 'El usuario asignado no pertenece a este negocio.',
  endBeforeStart: 'La fecha de fin no puede ser anterior a la de inicio.',
  rangeInverted: 'La fecha desde no puede ser posterior a la fecha hasta.',
  rangeTooLong: `El rango no puede superar los ${TASK_CALENDAR_MAX_DAYS} días.`,
  badInstant: 'Fecha no válida (formato AAAA-MM-DD o AAAA-MM-DDTHH:MM).',
  onlyEstado: 'Solo podés cambiar el estado de las tareas asignadas a ti.',
} as const;

/* ---------------------------------------------------------------- dates in a time zone */

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;
const OFFSET_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

const wallFormatters = new Map<string, Intl.DateTimeFormat>();
function wallFormatter(timeZone: string) {
  let f = wallFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallFormatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `timeZone` at instant `t` (ms), as fields. */
function wallParts(timeZone: string, t: number) {
  const parts: Record<string, number> = {};
  for (const p of wallFormatter(timeZone).formatToParts(new Date(t))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour === 24 ? 0 : parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

/** Wall time minus UTC at instant `t`, in ms (e.g. -3 h in Buenos Aires). */
function offsetAt(timeZone: string, t: number): number {
  const w = wallParts(timeZone, t);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(t / 1000) * 1000;
}

function validCalendarDate(y: number, m: number, d: number): boolean {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** A date or a local date-time without offset that names a real calendar moment. */
function isLocalInput(s: string): boolean {
  const d = DATE_RE.exec(s);
  if (d) return validCalendarDate(+d[1], +d[2], +d[3]);
  const l = LOCAL_RE.exec(s);
  if (!l) return false;
  return validCalendarDate(+l[1], +l[2], +l[3]) && +l[4] < 24 && +l[5] < 60 && +(l[6] ?? 0) < 60;
}

/** Accepted instant inputs: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.sss]]`, or ISO 8601 with an offset. */
export function isInstantInput(s: string): boolean {
  if (isLocalInput(s)) return true;
  return OFFSET_RE.test(s) && !Number.isNaN(Date.parse(s)) && isLocalInput(s.slice(0, 10));
}

/**
 * The instant of a wall-clock time in `timeZone` (`YYYY-MM-DD` means 00:00). Around a DST jump
 * the nearest valid instant is taken.
 */
export function zonedToInstant(local: string, timeZone: string): Date {
  const m = LOCAL_RE.exec(local) ?? DATE_RE.exec(local);
  if (!m) throw new Error(`fecha no válida: ${local}`);
  const ms = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), ms);
  let t = wall - offsetAt(timeZone, wall);
  const second = offsetAt(timeZone, t);
  if (wall - second !== t) t = wall - second;
  return new Date(t);
}

/** An instant input (API-CONTRACT §1.2): with an offset as given, otherwise read in `timeZone`. */
export function parseInstant(value: string, timeZone: string): Date {
  return OFFSET_RE.test(value) ? new Date(value) : zonedToInstant(value, timeZone);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar date `YYYY-MM-DD` of an instant in `timeZone`. */
export function instantDate(iso: string | Date, timeZone: string): string {
  const w = wallParts(timeZone, new Date(iso).getTime());
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** `YYYY-MM-DDTHH:MM` of an instant in `timeZone`, as a datetime-local input takes it. */
export function instantToLocalInput(iso: string | Date, timeZone: string): string {
  const w = wallParts(timeZone, new Date(iso).getTime());
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/* ---------------------------------------------------------------- inputs */

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

/** `en progreso`, `En-Progreso` and `en_progreso` name the same value. */
const normalizeChoice = (v: unknown) =>
  typeof v === 'string'
    ? v
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_')
    : v;

/** One of fixed values (forgiving case and separators); `""` counts as absent. */
const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (blank(v) ? undefined : normalizeChoice(v)),
    z.enum(values, { error: () => `Valor no válido. Opciones: ${values.join(', ')}.` }).optional(),
  );

/**
 * The assignee: a user id or null (none); `""` means none. A whole user object (a client
 * echoing a task back) gives its `id`.
 */
const assignee = () =>
  z.preprocess(
    (v) => {
      if (v && typeof v === 'object' && 'id' in v) return (v as { id: unknown }).id;
      return typeof v === 'string' && v.trim() === '' ? null : trimmed(v);
    },
    z.uuid({ error: 'Identificador no válido.' }).nullable().optional(),
  );

/** A task date: a date or a timestamp (a date means 00:00 in the business time zone); `""` clears it. */
const instant = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : trimmed(v)),
    z
      .string({ error: TASK_MESSAGES.badInstant })
      .refine(isInstantInput, TASK_MESSAGES.badInstant)
      .nullable()
      .optional(),
  );

const taskFields = {
  descripcion: optText(2000),
  asignada_a: assignee(),
  asignada_a_id: assignee(),
  fecha_inicio: instant(),
  fecha_fin: instant(),
  prioridad: choice(TASK_PRIORITIES),
  estado: choice(TASK_STATES),
};

/** POST body. `asignada_a_id` is an alias of `asignada_a`. */
export const taskInput = z.object({ titulo: reqText(200), ...taskFields });
export type TaskInput = z.output<typeof taskInput>;

/** PUT body: any field; `null` clears an optional one. */
export const taskUpdate = z.object({ titulo: reqText(200).optional(), ...taskFields });
export type TaskUpdate = z.output<typeof taskUpdate>;

/** The fields a PUT recognises (anything else is ignored). */
export const TASK_FIELDS = ['titulo', ...Object.keys(taskFields)] as const;

/** The web form: datetime-local values, checked in order before they are sent. */
export const taskForm = z
  .object({
    titulo: reqText(200),
    descripcion: z.string().max(2000),
    asignada_a: z.string(),
    fecha_inicio: z.string(),
    fecha_fin: z.string(),
    prioridad: z.enum(TASK_PRIORITIES),
    estado: z.enum(TASK_STATES),
  })
  .refine((f) => !f.fecha_inicio || !f.fecha_fin || f.fecha_fin >= f.fecha_inicio, {
    path: ['fecha_fin'],
    message: TASK_MESSAGES.endBeforeStart,
  });
export type TaskFormValues = z.infer<typeof taskForm>;

/* ---------------------------------------------------------------- queries */

const q = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** A comma-separated list of fixed values (`estado=pendiente,en_progreso`). */
const choiceList = <const T extends readonly [string, ...string[]]>(values: T) =>
  q(
    z
      .string()
      .transform((s) => s.split(',').map(normalizeChoice).filter(Boolean) as string[])
      .pipe(z.array(z.enum(values, { error: () => `Valor no válido. Opciones: ${values.join(', ')}.` }))),
  );

/** A user id, or `ninguno` for unassigned tasks. */
const assigneeFilter = () =>
  q(
    z.union([z.literal('ninguno'), z.uuid({ error: 'Identificador no válido.' })], {
      error: 'Identificador no válido.',
    }),
  );

/** Columns the task list sorts by (`orden`, with `direccion` asc|desc); newest first otherwise. */
export const TASK_SORTS = ['titulo', 'prioridad', 'estado', 'fecha_fin', 'creado_en'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export const taskListQuery = z.object({
  estado: choiceList(TASK_STATES),
  prioridad: choiceList(TASK_PRIORITIES),
  asignada_a: assigneeFilter(),
  asignada_a_id: assigneeFilter(),
  q: q(z.string().max(200)),
  busqueda: q(z.string().max(200)),
  vencida: q(queryBool()),
  pagina: q(queryInt().pipe(z.number().min(1))).transform((n) => n ?? 1),
  por_pagina: q(queryInt().pipe(z.number().min(1))).transform((n) => Math.min(n ?? TASK_PAGE_DEFAULT, TASK_PAGE_MAX)),
  orden: queryParam(oneOfCi(TASK_SORTS)),
  direccion: queryParam(oneOfCi(['asc', 'desc'] as const)),
});
export type TaskListQuery = z.output<typeof taskListQuery>;

/** `desde`/`hasta` (aliases `fecha_inicio`/`fecha_fin`); the current month by default. */
export const taskCalendarQuery = z.object({
  desde: q(isoDate()),
  hasta: q(isoDate()),
  fecha_inicio: q(isoDate()),
  fecha_fin: q(isoDate()),
});
export type TaskCalendarQuery = z.output<typeof taskCalendarQuery>;

/* ---------------------------------------------------------------- responses */

export type TaskUser = z.infer<typeof taskUserSchema>;

export const taskUserSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  apellido: z.string().nullable(),
  email: z.string(),
});

export type Task = z.infer<typeof taskSchema>;

export const taskSchema = z.object({
  id: z.string(),
  titulo: z.string(),
  descripcion: z.string().nullable(),
  fecha_inicio: z.string().nullable(),
  fecha_fin: z.string().nullable(),
  estado: z.enum(TASK_STATES),
  prioridad: z.enum(TASK_PRIORITIES),
  vencida: z.boolean(),
  asignada_a_id: z.string().nullable(),
  asignada_a: taskUserSchema.nullable(),
  creada_por_id: z.string().nullable(),
  creada_por: taskUserSchema.nullable(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

export type CalendarTask = z.infer<typeof calendarTaskSchema>;

export const calendarTaskSchema = taskSchema.extend({
  color: z.string(),
});

export type TaskPage = z.infer<typeof taskPageSchema>;

export const taskPageSchema = z.object({
  tareas: z.array(taskSchema),
  total: z.number(),
  pagina: z.number(),
  por_pagina: z.number(),
  total_paginas: z.number(),
});

export type TaskStats = z.infer<typeof taskStatsSchema>;

export const taskStatsSchema = z.object({
  total: z.number(),
  total_tareas: z.number(),
  pendientes: z.number(),
  en_progreso: z.number(),
  pausadas: z.number(),
  completadas: z.number(),
  canceladas: z.number(),
  vencidas: z.number(),
  por_prioridad: z.record(z.enum(TASK_PRIORITIES), z.number()),
});

export type TaskEmployee = z.infer<typeof taskEmployeeSchema>;

export const taskEmployeeSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  apellido: z.string().nullable(),
  email: z.string(),
  rol: z.enum(['admin', 'empleado']),
  nombre_completo: z.string(),
});

export const userDisplayName = (u: { nombre: string; apellido?: string | null; email?: string } | null) =>
  u ? [u.nombre, u.apellido].filter(Boolean).join(' ') || (u.email ?? '') : '';

export const taskEmployeesSchema = z.object({ empleados: z.array(taskEmployeeSchema) });
