import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api';

/**
 * Puts the server's 422 field messages on the form fields; returns the message to show for the
 * whole form (the detail), so a failed save always explains itself.
 */
export function applyServerErrors<T extends FieldValues>(e: unknown, setError: UseFormSetError<T>, fallback: string) {
  if (e instanceof ApiError) {
    for (const fe of e.errors) if (fe.field) setError(fe.field as Path<T>, { type: 'server', message: fe.message });
    if (typeof e.detail === 'string') return e.detail;
  }
  return e instanceof Error && e.message ? e.message : fallback;
}

/**
 * A form's text values from a row (or, for a new one, nothing): each field as a string, with its
 * default (else '') where the row has none.
 */
export function textValues<K extends string>(
  keys: readonly K[],
  row: object | undefined,
  defaults: Partial<Record<K, string>> = {},
): Record<K, string> {
  const src = (row ?? {}) as Record<string, unknown>;
  return Object.fromEntries(keys.map((k) => [k, src[k] == null ? (defaults[k] ?? '') : String(src[k])])) as Record<
    K,
    string
  >;
}
