/** Numbers, money and dates with the business's locale, currency and time zone (SPEC §9). */
export interface Formatting {
  locale: string;
  currency: string;
  timezone: string;
}

export const DEFAULT_FORMATTING: Formatting = {
  locale: 'es-AR',
  currency: 'ARS',
  timezone: 'America/Argentina/Buenos_Aires',
};

type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules;
const cache = new Map<string, Formatter>();
function cached<T extends Formatter>(key: string, make: () => T): T {
  let f = cache.get(key) as T | undefined;
  if (!f) {
    f = make();
    cache.set(key, f);
  }
  return f;
}

export function formatMoney(value: number | null | undefined, f: Formatting = DEFAULT_FORMATTING): string {
  const nf = cached(
    `m|${f.locale}|${f.currency}`,
    () => new Intl.NumberFormat(f.locale, { style: 'currency', currency: f.currency, minimumFractionDigits: 2 }),
  );
  return nf.format(value ?? 0);
}

export function formatNumber(value: number | null | undefined, f: Formatting = DEFAULT_FORMATTING, maxDecimals = 3) {
  const nf = cached(
    `n|${f.locale}|${maxDecimals}`,
    () => new Intl.NumberFormat(f.locale, { maximumFractionDigits: maxDecimals }),
  );
  return nf.format(value ?? 0);
}

/** A calendar date 'YYYY-MM-DD' (no time zone shift). */
export function formatDate(date: string | null | undefined, f: Formatting = DEFAULT_FORMATTING): string {
  if (!date) return '';
  const d = new Date(`${date.slice(0, 10)}T12:00:00Z`);
  const df = cached(
    `d|${f.locale}`,
    () => new Intl.DateTimeFormat(f.locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }),
  );
  return df.format(d);
}

/** An instant, shown in the business time zone. */
export function formatDateTime(iso: string | null | undefined, f: Formatting = DEFAULT_FORMATTING): string {
  if (!iso) return '';
  const df = cached(
    `dt|${f.locale}|${f.timezone}`,
    () =>
      new Intl.DateTimeFormat(f.locale, {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: f.timezone,
      }),
  );
  return df.format(new Date(iso));
}

/** Today as 'YYYY-MM-DD' in the business time zone. */
export function todayIn(timezone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export const MONTH_NAMES = [
  'Enero',
  'Febrero',
  'Marzo',
  'Abril',
  'Mayo',
  'Junio',
  'Julio',
  'Agosto',
  'Septiembre',
  'Octubre',
  'Noviembre',
  'Diciembre',
];

/** "1 proveedor", "3 proveedores": the word the locale's plural rules choose for `n`. */
export function plural(n: number, one: string, other: string, locale = DEFAULT_FORMATTING.locale): string {
  return cached(`pl|${locale}`, () => new Intl.PluralRules(locale)).select(n) === 'one' ? one : other;
}

/**
 * Short money for a chart's axis: «$ 12 mil», «-$ 250 mil», «$ 1,5 M». Written here because the
 * browsers' compact notation mixes «k» and «K» in es-AR.
 */
export function formatMoneyShort(value: number, f: Formatting = DEFAULT_FORMATTING): string {
  const abs = Math.abs(value);
  const [div, unit] = abs >= 1e6 ? [1e6, ' M'] : abs >= 1e3 ? [1e3, ' mil'] : [1, ''];
  const nf = cached(
    `ms|${f.locale}|${f.currency}`,
    () =>
      new Intl.NumberFormat(f.locale, {
        style: 'currency',
        currency: f.currency,
        minimumFractionDigits: 0,
        maximumFractionDigits: 1,
      }),
  );
  return nf.format(value / div) + unit;
}
