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
