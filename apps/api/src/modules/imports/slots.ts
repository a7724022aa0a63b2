import { IMPORT_MESSAGES } from '@mostrador/shared';
import { AppError } from '../../lib/errors.js';

/**
 * At most `concurrent` spreadsheets are parsed at once in this process; up to `queued` more wait
 * for a turn in arrival order, and any beyond that are refused at once with 429.
 */
export function spreadsheetSlots(concurrent: number, queued: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= concurrent) {
      if (waiting.length >= queued) {
        throw new AppError(429, 'RATE_LIMITED', IMPORT_MESSAGES.busy, {}, { 'Retry-After': '5' });
      }
      // A released slot passes straight to the first waiter, so `running` stays counted for it.
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
