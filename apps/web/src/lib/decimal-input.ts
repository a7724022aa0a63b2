import { zodResolver } from '@hookform/resolvers/zod';
import { get, set, type FieldErrors, type FieldValues, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { INVALID_AMOUNT, moneyInputText, parseDecimal } from './decimal';

/*
 * Number inputs of the forms, typed the Argentine way ("1.234,50", "1,5", and "0.25" from a
 * keypad): one reader for every amount, quantity and percentage outside the point of sale. The
 * shared zod schemas of the API stay as they are (they take numbers or "1234.50" strings): the
 * web reads the text here and hands them the canonical string, or puts a clear message on the
 * field instead of a silently different number.
 */

export type DecimalKind = 'money' | 'quantity' | 'signedQuantity' | 'percent' | 'integer';

interface KindRules {
  /** Decimals allowed (0: a whole number). */
  decimals: 0 | 2 | 3;
  negative: boolean;
  invalid: string;
}

const RULES: Record<DecimalKind, KindRules> = {
  money: { decimals: 2, negative: false, invalid: INVALID_AMOUNT },
  quantity: { decimals: 3, negative: false, invalid: 'Cantidad no válida. Usá el formato 1,5 (hasta 3 decimales).' },
  signedQuantity: {
    decimals: 3,
    negative: true,
    invalid: 'Cantidad no válida. Usá el formato 1,5 (hasta 3 decimales).',
  },
  percent: { decimals: 2, negative: true, invalid: 'Porcentaje no válido. Usá el formato 12,5 (hasta 2 decimales).' },
  integer: { decimals: 0, negative: false, invalid: 'Debe ser un número entero, sin decimales.' },
};

export const NEGATIVE_MESSAGE = 'No puede ser negativo.';

export type DecimalReading =
  /** `value` is the number (null when the field is empty); `text` the same as "1234.50" ('' when empty). */
  { ok: true; value: number | null; text: string } | { ok: false; message: string };

/** Whole units of 10^-decimals → "1234.50" (exact: built from the digits, not from a float). */
function canonical(units: number, decimals: number, negative: boolean): string {
  if (units === 0) return '0';
  const scale = 10 ** decimals;
  const whole = Math.floor(units / scale);
  const frac = decimals ? `.${String(units % scale).padStart(decimals, '0')}` : '';
  return `${negative ? '-' : ''}${whole}${frac}`;
}

/**
 * What a number input says, as parseDecimal reads it (amounts: a dot before groups of three
 * digits is thousands; quantities: a lone dot is the decimal mark), plus a leading minus where
 * the kind allows it. Whole numbers take digits, optionally grouped by dots ("1.440").
 */
export function readDecimal(input: string, kind: DecimalKind): DecimalReading {
  const rules = RULES[kind];
  let t = input.trim();
  if (!t) return { ok: true, value: null, text: '' };
  const negative = /^[-−]/.test(t);
  if (negative) t = t.slice(1).trim();
  let units: number | null;
  if (rules.decimals === 0) {
    const digits = t.replace(/\s/g, '');
    units = /^\d+$/.test(digits) || /^\d{1,3}(\.\d{3})+$/.test(digits) ? Number(digits.replace(/\./g, '')) : null;
  } else {
    // parseDecimal also drops a currency sign and spaces ("-$ 1.500").
    units = t ? parseDecimal(t, rules.decimals) : null;
  }
  if (units === null || !Number.isSafeInteger(units)) return { ok: false, message: rules.invalid };
  if (negative && units !== 0 && !rules.negative) return { ok: false, message: NEGATIVE_MESSAGE };
  const text = canonical(units, rules.decimals, negative);
  return { ok: true, value: Number(text), text };
}

/** A stored number as an input shows it: decimal comma, no grouping ("1234,50", "1,5", "-12,5"). */
export function decimalText(value: number | null | undefined, kind: DecimalKind = 'quantity'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  if (kind === 'money' && value >= 0) return moneyInputText(Math.round(value * 100));
  return String(value).replace('.', ',');
}

/** Which form fields hold numbers as typed; a nested object applies to each item of an array field. */
export type DecimalFields = { [name: string]: DecimalKind | DecimalFields };

function convert(values: unknown, fields: DecimalFields, path: string, errors: Record<string, string>): unknown {
  if (Array.isArray(values)) return values.map((v, i) => convert(v, fields, `${path}.${i}`, errors));
  if (!values || typeof values !== 'object') return values;
  const out: Record<string, unknown> = { ...(values as Record<string, unknown>) };
  for (const [name, kind] of Object.entries(fields)) {
    const at = path ? `${path}.${name}` : name;
    if (typeof kind === 'object') {
      out[name] = convert(out[name], kind, at, errors);
      continue;
    }
    const v = out[name];
    if (typeof v !== 'string') continue;
    const r = readDecimal(v, kind);
    if (r.ok) out[name] = r.text;
    else errors[at] = r.message;
  }
  return out;
}

/**
 * The form's zod resolver with its number fields read the es-AR way first: the schema (shared
 * with the API) sees "1234.50"; a text that is not a number gets the kind's message on its field
 * (and blocks the submit) together with the schema's other errors.
 */
export function decimalResolver<V extends FieldValues, O = V>(
  schema: z.ZodType,
  fields: DecimalFields,
): Resolver<V, unknown, O> {
  const inner = zodResolver(schema as z.ZodType<O, FieldValues>) as unknown as Resolver<FieldValues, unknown, O>;
  return async (values, context, options) => {
    const own: Record<string, string> = {};
    const read = convert(values, fields, '', own) as FieldValues;
    const result = await inner(read, context, options as Parameters<typeof inner>[2]);
    if (Object.keys(own).length === 0) return result as Awaited<ReturnType<Resolver<V, unknown, O>>>;
    const errors = { ...result.errors } as FieldErrors<V>;
    for (const [at, message] of Object.entries(own)) {
      const field = get(options.fields, at) as { ref?: unknown } | undefined;
      set(errors, at, { type: 'decimal', message, ref: field?.ref });
    }
    return { values: {}, errors };
  };
}
