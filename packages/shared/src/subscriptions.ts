import { z } from 'zod';
import { optId, optMoney, withAliases } from './catalog.js';
import { oneOfCi, pageQuery, queryParam } from './customers.js';
import { isoDate, optText } from './validation.js';

/* ---------------------------------------------------------------- constants (API-CONTRACT §8) */

export const SUBSCRIPTION_FREQUENCIES = [
  'semanal',
  'mensual',
  'trimestral',
  'cuatrimestral',
  'semestral',
  'anual',
] as const;
export type SubscriptionFrequency = (typeof SUBSCRIPTION_FREQUENCIES)[number];
export const SUBSCRIPTION_FREQUENCY_LABELS: Record<SubscriptionFrequency, string> = {
  semanal: 'Semanal',
  mensual: 'Mensual',
  trimestral: 'Trimestral',
  cuatrimestral: 'Cuatrimestral',
  semestral: 'Semestral',
  anual: 'Anual',
};

export const SUBSCRIPTION_STATES = ['activa', 'pausada', 'cancelada', 'vencida'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
export const SUBSCRIPTION_STATE_LABELS: Record<SubscriptionState, string> = {
  activa: 'Activa',
  pausada: 'Pausada',
  cancelada: 'Cancelada',
  vencida: 'Vencida',
};

export const SUBSCRIPTION_MESSAGES = {
  notFound: 'Suscripción no encontrada.',
  nameOrService: 'Indicá un servicio o un nombre para la suscripción.',
  priceRequired: 'Indicá el precio de la suscripción.',
  endBeforeStart: 'La fecha de fin no puede ser anterior a la de inicio.',
  badState: `Estado no válido. Opciones: ${SUBSCRIPTION_STATES.join(', ')}.`,
  badDay: 'El día de cobro debe ser un número de 1 a 31.',
  badWeekday: 'El día de cobro semanal debe ser de 0 (domingo) a 6 (sábado), o el nombre del día.',
} as const;

/* ---------------------------------------------------------------- next charge */

function addMonthsClamped(date: string, months: number, day: number): string {
  const [y, m] = date.split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
}

const MONTHS: Record<Exclude<SubscriptionFrequency, 'semanal'>, number> = {
  mensual: 1,
  trimestral: 3,
  cuatrimestral: 4,
  semestral: 6,
  anual: 12,
};

const DAY_MS = 86_400_000;
const addDaysIso = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * With a billing day: the first date on or after both fecha_inicio and today that falls on it —
 * that weekday for weekly subscriptions, that day of the month (the month's last day when it has
 * fewer) in the months fecha_inicio + k × period otherwise.
 */
function nextOnBillingDay(
  s: {
    fecha_inicio: string;
    frecuencia: SubscriptionFrequency;
    dia_cobro?: number | null;
    dia_cobro_semanal?: number | null;
  },
  today: string,
): string | null {
  const from = s.fecha_inicio > today ? s.fecha_inicio : today;
  if (s.frecuencia === 'semanal') {
    if (s.dia_cobro_semanal === null || s.dia_cobro_semanal === undefined) return null;
    const dow = new Date(`${from}T00:00:00Z`).getUTCDay();
    return addDaysIso(from, (s.dia_cobro_semanal - dow + 7) % 7);
  }
  if (s.dia_cobro === null || s.dia_cobro === undefined) return null;
  const step = MONTHS[s.frecuencia];
  const start = `${s.fecha_inicio.slice(0, 8)}01`;
  const [y0, m0] = s.fecha_inicio.split('-').map(Number);
  const [y1, m1] = from.split('-').map(Number);
  let k = Math.max(0, Math.floor(((y1 - y0) * 12 + (m1 - m0)) / step));
  let next = addMonthsClamped(start, k * step, s.dia_cobro);
  while (next < from) next = addMonthsClamped(start, ++k * step, s.dia_cobro);
  return next;
}

/**
 * The next charge: the first date on or after `today` of the series fecha_inicio + k × period,
 * the day clamped to the month's end (31 Jan → 28/29 Feb → 31 Mar), or on the billing day when
 * one is set (dia_cobro, dia_cobro_semanal); null past `fecha_fin`.
 */
export function nextCharge(
  s: {
    fecha_inicio: string;
    fecha_fin: string | null;
    frecuencia: SubscriptionFrequency;
    dia_cobro?: number | null;
    dia_cobro_semanal?: number | null;
  },
  today: string,
): string | null {
  let next: string;
  const onDay = nextOnBillingDay(s, today);
  if (onDay !== null) next = onDay;
  else if (s.fecha_inicio >= today) next = s.fecha_inicio;
  else if (s.frecuencia === 'semanal') {
    const start = Date.parse(`${s.fecha_inicio}T00:00:00Z`);
    const days = Math.round((Date.parse(`${today}T00:00:00Z`) - start) / 86_400_000);
    const k = Math.ceil(days / 7);
    next = new Date(start + k * 7 * 86_400_000).toISOString().slice(0, 10);
  } else {
    const step = MONTHS[s.frecuencia];
    const day = Number(s.fecha_inicio.slice(8, 10));
    const [y0, m0] = s.fecha_inicio.split('-').map(Number);
    const [y1, m1] = today.split('-').map(Number);
    const monthsApart = (y1 - y0) * 12 + (m1 - m0);
    let k = Math.max(0, Math.floor(monthsApart / step));
    next = addMonthsClamped(s.fecha_inicio, k * step, day);
    while (next < today) {
      k++;
      next = addMonthsClamped(s.fecha_inicio, k * step, day);
    }
  }
  if (s.fecha_fin && next > s.fecha_fin) return null;
  return next;
}

/** An `activa` subscription whose end has passed reads as `vencida`. */
export function effectiveState(estado: SubscriptionState, fechaFin: string | null, today: string): SubscriptionState {
  return estado === 'activa' && fechaFin !== null && fechaFin < today ? 'vencida' : estado;
}

/* ---------------------------------------------------------------- schemas */

const optDate = () =>
  z.preprocess(
    (v) => (v === undefined ? undefined : v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
    isoDate().nullable().optional(),
  );

const state = () => oneOfCi(SUBSCRIPTION_STATES, SUBSCRIPTION_MESSAGES.badState);

/** A whole day number (or its text), "" and null meaning none. */
const optDay = (min: number, max: number, message: string) =>
  z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: message })
      .int({ error: message })
      .min(min, { error: message })
      .max(max, { error: message })
      .nullable()
      .optional(),
  );

const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado'];
/** "lunes", "Miércoles" → 1, 3; 7 (ISO Sunday) → 0; numbers 0–6 as they are. */
function weekdayOf(v: unknown): unknown {
  if (v === 7 || v === '7') return 0;
  if (typeof v !== 'string') return v;
  const t = v
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();
  const i = WEEKDAYS.indexOf(t);
  return i >= 0 ? i : v;
}

const subscriptionFields = {
  cliente_id: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z.uuid({
      error: (iss) =>
        iss.input === undefined || iss.input === null ? 'Este campo es obligatorio.' : 'Identificador no válido.',
    }),
  ),
  servicio_id: optId(),
  nombre: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(100).nullable().optional(),
  ),
  descripcion: optText(1000),
  precio: optMoney(),
  frecuencia: oneOfCi(SUBSCRIPTION_FREQUENCIES),
  fecha_inicio: optDate(),
  fecha_fin: optDate(),
  estado: state().optional(),
  dia_cobro: optDay(1, 31, SUBSCRIPTION_MESSAGES.badDay),
  dia_cobro_semanal: z.preprocess(weekdayOf, optDay(0, 6, SUBSCRIPTION_MESSAGES.badWeekday)),
};

interface Shape {
  servicio_id?: string | null;
  nombre?: string | null;
  precio?: number | null;
  fecha_inicio?: string | null;
  fecha_fin?: string | null;
}

/** The cross-field rules of a whole subscription (the create body, or a stored one merged with a PUT). */
export function subscriptionIssues(s: Shape): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (!s.servicio_id && !s.nombre) issues.push({ field: 'nombre', message: SUBSCRIPTION_MESSAGES.nameOrService });
  if (!s.servicio_id && (s.precio === null || s.precio === undefined)) {
    issues.push({ field: 'precio', message: SUBSCRIPTION_MESSAGES.priceRequired });
  }
  if (s.fecha_inicio && s.fecha_fin && s.fecha_fin < s.fecha_inicio) {
    issues.push({ field: 'fecha_fin', message: SUBSCRIPTION_MESSAGES.endBeforeStart });
  }
  return issues;
}

/** `tipo` is the existing client's name for `frecuencia`. */
const aliases = withAliases({ tipo: 'frecuencia' });

export const subscriptionInput = z.preprocess(
  aliases,
  z.object(subscriptionFields).superRefine((s, ctx) => {
    for (const i of subscriptionIssues(s)) ctx.addIssue({ code: 'custom', path: [i.field], message: i.message });
  }),
);
export type SubscriptionInput = z.input<typeof subscriptionFormSchema>;
export type SubscriptionOutput = z.output<typeof subscriptionInput>;

/** The form: the same fields and rules. */
export const subscriptionFormSchema = z.object(subscriptionFields).superRefine((s, ctx) => {
  for (const i of subscriptionIssues(s)) ctx.addIssue({ code: 'custom', path: [i.field], message: i.message });
});

export const subscriptionUpdate = z.preprocess(
  aliases,
  z.object({
    ...subscriptionFields,
    cliente_id: subscriptionFields.cliente_id.optional(),
    frecuencia: subscriptionFields.frecuencia.optional(),
    fecha_inicio: isoDate().optional(),
  }),
);
export type SubscriptionUpdate = z.output<typeof subscriptionUpdate>;

/** PATCH …/estado: the value in the query string or in a JSON body. */
export const subscriptionStateInput = z.object({ estado: state() });

export const subscriptionListQuery = z.object({
  cliente_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  servicio_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  estado: queryParam(state()),
  q: queryParam(z.string().max(200)),
  ...pageQuery(100, 500),
});
export type SubscriptionListQuery = z.output<typeof subscriptionListQuery>;

export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionSchema = z.object({
  id: z.string(),
  cliente_id: z.string(),
  cliente_nombre: z.string(),
  servicio_id: z.string().nullable(),
  servicio_nombre: z.string().nullable(),
  nombre: z.string(),
  descripcion: z.string().nullable(),
  precio: z.number(),
  frecuencia: z.enum(SUBSCRIPTION_FREQUENCIES),
  tipo: z.enum(SUBSCRIPTION_FREQUENCIES),
  fecha_inicio: z.string(),
  fecha_fin: z.string().nullable(),
  dia_cobro: z.number().nullable(),
  dia_cobro_semanal: z.number().nullable(),
  estado: z.enum(SUBSCRIPTION_STATES),
  proximo_cobro: z.string().nullable(),
  fecha_proximo_pago: z.string().nullable(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});
