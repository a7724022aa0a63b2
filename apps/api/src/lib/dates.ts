/** Calendar dates in a business's time zone ("today", month boundaries, day counts). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let f = dayFormats.get(timeZone);
  if (!f) {
    // en-CA formats as YYYY-MM-DD. Building a formatter costs far more than using one: keep it.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, f);
  }
  return f.format(now);
}
const dayFormats = new Map<string, Intl.DateTimeFormat>();

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function formatDateEs(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('es-AR', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);
}

/** A calendar date `YYYY-MM-DD` as Argentines write it, `dd/mm/aaaa` ('' for none). */
export const esDate = (d: string | null) => (d ? `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}` : '');
