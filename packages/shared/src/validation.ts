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

/** A 422 field error as the API returns it. */
export interface FieldError {
  field: string;
  message: string;
}

export interface ApiErrorBody {
  detail: string | Record<string, unknown>;
  code: string;
  errors?: FieldError[];
  [k: string]: unknown;
}
