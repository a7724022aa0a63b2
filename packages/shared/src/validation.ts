import { z } from 'zod';

/**
 * Spanish messages for every zod issue (API-CONTRACT §1.3 field messages). Installed once as
 * zod's global error map so the server and the web forms say the same thing.
 */
type Issue = z.core.$ZodRawIssue;

export function spanishMessage(iss: Issue): string | undefined {
  const i = iss as Issue & {
    expected?: string;
    minimum?: number | bigint;
    maximum?: number | bigint;
    origin?: string;
    inclusive?: boolean;
    format?: string;
    values?: unknown[];
  };
  switch (i.code) {
    case 'invalid_type':
      if (i.input === undefined || i.input === null) return 'Este campo es obligatorio.';
      if (i.expected === 'number' || i.expected === 'int') return 'Debe ser un número.';
      if (i.expected === 'boolean') return 'Debe ser verdadero o falso.';
      if (i.expected === 'array') return 'Debe ser una lista.';
      if (i.expected === 'object') return 'Debe ser un objeto.';
      return 'Debe ser un texto.';
    case 'too_small':
      if (i.origin === 'string') {
        return Number(i.minimum) <= 1 ? 'Este campo es obligatorio.' : `Debe tener al menos ${i.minimum} caracteres.`;
      }
      if (i.origin === 'array') return `Debe tener al menos ${i.minimum} elemento(s).`;
      if (i.inclusive === false && Number(i.minimum) === 0) return 'Debe ser mayor a 0.';
      return i.inclusive === false ? `Debe ser mayor a ${i.minimum}.` : `Debe ser mayor o igual a ${i.minimum}.`;
    case 'too_big':
      if (i.origin === 'string') return `Debe tener como máximo ${i.maximum} caracteres.`;
      if (i.origin === 'array') return `Admite como máximo ${i.maximum} elementos.`;
      return `Debe ser menor o igual a ${i.maximum}.`;
    case 'invalid_format':
      if (i.format === 'email') return 'El e-mail no es válido.';
      if (i.format === 'uuid') return 'Identificador no válido.';
      if (i.format === 'date') return 'Fecha no válida (formato AAAA-MM-DD).';
      return 'Formato no válido.';
    case 'invalid_value':
      return `Valor no válido. Opciones: ${(i.values ?? []).join(', ')}.`;
    case 'not_multiple_of':
      return 'Admite como máximo 2 decimales.';
    default:
      return undefined;
  }
}

z.config({ customError: spanishMessage });

const blankToNull = (v: unknown) => {
  if (typeof v === 'string') {
    const t = v.trim();
    return t === '' ? null : t;
  }
  return v;
};
const trim = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

/** Required trimmed text of min..max characters. */
export const reqText = (max: number, min = 1) => z.preprocess(trim, z.string().min(min).max(max));

/** Optional trimmed text; an empty string becomes null. */
export const optText = (max: number) => z.preprocess(blankToNull, z.string().max(max).nullable().optional());

export const email = () =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.email().max(254));

export const uuid = () => z.uuid({ error: 'Identificador no válido.' });

/** YYYY-MM-DD, a real calendar date from the year 1 (PostgreSQL has no year 0). */
export const isoDate = () =>
  z.preprocess(
    trim,
    z.string().refine((s) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || s.startsWith('0000')) return false;
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    }, 'Fecha no válida (formato AAAA-MM-DD).'),
  );

/** Booleans in a query string: true | false | 1 | 0. */
export const queryBool = () =>
  z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean());

/** Every error code the API answers with (API-CONTRACT §1.3). */
export const ERROR_CODES = [
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'EMAIL_NOT_CONFIRMED',
  'READ_ONLY',
  'BLOCKED',
  'NOT_MEMBER',
  'MEMBERSHIP_PENDING',
  'FORBIDDEN',
  'PRICE_CHANGE_FORBIDDEN',
  'DISCOUNT_OVER_MAX',
  'WRONG_PIN',
  'AUTHORIZATION_REFUSED',
  'ADMIN_REQUIRED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'INSUFFICIENT_STOCK',
  'UNTRACKED_STOCK',
  'DUPLICATE',
  'IN_USE',
  'ALREADY_PAID',
  'GENERATED_RECORD',
  'INVALID_STATE',
  'TURNO_CLOSED',
  'TURNO_OPEN',
  'CREDIT_LIMIT',
  'OVER_BALANCE',
  'PLAN_LIMIT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'VALIDATION_ERROR',
  'TOKEN_INVALID',
  'INVALID_FILE',
  'BUSINESS_REQUIRED',
  'IDEMPOTENCY_MISMATCH',
  'IDEMPOTENCY_IN_PROGRESS',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
  /** A printer could not print (issue 35): off, unreachable, out of paper, too slow. */
  'PRINTER_FAILED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** A 422 field error as the API returns it. */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * The one error body of every status >= 400: `{detail, code}`, `errors` on a 422, `request_id`
 * on a 500, and a few extras some errors add (the module and action of a FORBIDDEN, for example).
 */
export const apiErrorSchema = z.looseObject({
  detail: z.union([z.string(), z.record(z.string(), z.unknown())]),
  code: z.enum(ERROR_CODES),
  errors: z.array(fieldErrorSchema).optional(),
  request_id: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** An answer that only says what happened ("Contraseña actualizada correctamente."). */
export const messageSchema = z.object({ message: z.string() });
