import type { ErrorCode, FieldError } from '@mostrador/shared';

export type { ErrorCode };

/** An expected failure: becomes `{detail, code, ...extra}` with its status. */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: ErrorCode,
    public readonly detail: string | Record<string, unknown>,
    public readonly extra: Record<string, unknown> = {},
    public readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : code);
  }
}

export const MSG_UNAUTHENTICATED = 'Tu sesión no es válida o expiró. Iniciá sesión nuevamente.';

export const unauthenticated = () =>
  new AppError(401, 'UNAUTHENTICATED', MSG_UNAUTHENTICATED, {}, { 'WWW-Authenticate': 'Bearer' });
export const notFound = (detail: string) => new AppError(404, 'NOT_FOUND', detail);
export const conflict = (code: ErrorCode, detail: string) => new AppError(409, code, detail);

/** 422 with one field error; `detail` repeats the message (API-CONTRACT §1.3). */
export function invalid(field: string, message: string, code: ErrorCode = 'VALIDATION_ERROR'): AppError {
  const errors: FieldError[] = [{ field, message }];
  return new AppError(422, code, message, { errors });
}

export const rateLimited = (retryAfterSeconds: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    429,
    'RATE_LIMITED',
    `Demasiados intentos. Intentá de nuevo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
    {},
    { 'Retry-After': String(Math.ceil(retryAfterSeconds)) },
  );
};

/** PostgreSQL unique violation, so a race on a unique key still answers 409. */
export const isUniqueViolation = (e: unknown, constraint?: string) => {
  const err = (e as { cause?: unknown })?.cause ?? e;
  const pgErr = err as { code?: string; constraint?: string };
  return pgErr?.code === '23505' && (!constraint || pgErr.constraint === constraint);
};
