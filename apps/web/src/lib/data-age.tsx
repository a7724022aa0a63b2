import { useSyncExternalStore } from 'react';

/**
 * How old the data of the last report were (X-Data-Age, seconds): the server reads reports from a
 * streaming replica when it has one (docs/decisions/0015) and says how far behind it is.
 */
export const DATA_AGE_HEADER = 'X-Data-Age';
/** Below this the delay is not worth mentioning. */
export const DATA_AGE_NOTICE_S = 5;

let age: number | null = null;
const listeners = new Set<() => void>();

/** Called by the API client for every answer that carries the header. */
export function noteDataAge(headers: Headers): void {
  const raw = headers.get(DATA_AGE_HEADER);
  if (raw === null) return;
  const next = Number(raw);
  if (!Number.isFinite(next) || next === age) return;
  age = next;
  for (const l of listeners) l();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useDataAge(): number | null {
  return useSyncExternalStore(subscribe, () => age);
}

/** "Datos de hace N s" on the report screens when the replica lags; nothing otherwise. */
export function DataAgeNotice() {
  const seconds = useDataAge();
  if (seconds === null || seconds < DATA_AGE_NOTICE_S) return null;
  const text = seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`;
  return (
    <p role="status" className="-mt-4 mb-4 text-xs text-amber-700">
      Datos de hace {text}: los movimientos más recientes pueden no aparecer todavía.
    </p>
  );
}
