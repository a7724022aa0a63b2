/** The report's periods in the business time zone: today, this week (from Monday), this month. */
export type PeriodId = 'hoy' | 'semana' | 'mes' | 'personalizado';

export const PERIOD_LABELS: Record<PeriodId, string> = {
  hoy: 'Hoy',
  semana: 'Semana',
  mes: 'Mes',
  personalizado: 'Personalizado',
};

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** [desde, hasta] of a period, both included, for `today` (YYYY-MM-DD in the business time zone). */
export function periodRange(id: Exclude<PeriodId, 'personalizado'>, today: string): { desde: string; hasta: string } {
  if (id === 'hoy') return { desde: today, hasta: today };
  if (id === 'semana') {
    const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
    const desde = addDays(today, -weekday);
    return { desde, hasta: addDays(desde, 6) };
  }
  const desde = `${today.slice(0, 8)}01`;
  const hasta = addDays(`${addDays(desde, 32).slice(0, 8)}01`, -1);
  return { desde, hasta };
}
