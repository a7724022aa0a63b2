import { MERCADOPAGO_MESSAGES as M } from '@mostrador/shared';
import { AppError } from '../../lib/errors.js';
import { MpError, MpUnavailableError } from './mp-client.js';

/** An MP failure as the API answers it: 503 when MP cannot be reached, 409 when it refused. */
export function mpFailure(e: unknown, refused: (detalle: string) => string = M.mpRefused): unknown {
  if (e instanceof MpUnavailableError)
    return new AppError(503, 'UNAVAILABLE', M.unavailable, {}, { 'Retry-After': '5' });
  if (e instanceof MpError) {
    if (e.status === 401) return new AppError(409, 'INVALID_STATE', M.tokenRejected);
    return new AppError(409, 'INVALID_STATE', refused(e.message));
  }
  return e;
}
