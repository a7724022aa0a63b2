import { readFileSync } from 'node:fs';

/**
 * For end-to-end tests only: when MOSTRADOR_CLOCK_FILE names a file holding a number of
 * milliseconds, the server's clock runs that far ahead, so a journey can move a business past its
 * trial without waiting. Without the variable the real clock is used.
 */
export function clockFromFile(file: string | undefined): (() => Date) | undefined {
  if (!file) return undefined;
  let cached = { at: 0, offset: 0 };
  return () => {
    const t = Date.now();
    if (t - cached.at > 100) {
      let offset: number;
      try {
        offset = Number(readFileSync(file, 'utf8').trim()) || 0;
      } catch {
        offset = 0; // no file: the real clock
      }
      cached = { at: t, offset };
    }
    return new Date(t + cached.offset);
  };
}
