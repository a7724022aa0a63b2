import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { SEARCH_FUNCTIONS } from '../../db/roles.js';
import { neutralizeCell, parseMilli } from '@mostrador/shared';
import { isUuid } from '../../lib/access.js';
import { notFound } from '../../lib/errors.js';
import { safeCents } from '../../lib/money.js';

/*
 * Helpers shared by the catalogue and customer modules: path ids, exact numbers from
 * PostgreSQL, accent-insensitive search terms, reference checks and spreadsheet exports.
 */

/** A path id that is not a UUID names no object: 404 with the entity's message. */
export function pathId(value: string, message: string): string {
  if (!isUuid(value)) throw notFound(message);
  return value;
}

/** The fields of a PUT body that were given (zod may keep absent optional keys as undefined). */
export function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** numeric(14,2) from PostgreSQL ("1234.50") → integer cents (422 beyond what a number carries exactly). */
export const toCents = (v: string | number): number => safeCents(v);

/** numeric(14,3) from PostgreSQL ("12.500") → integer thousandths. */
export function toMilli(v: string | number): number {
  const m = parseMilli(String(v));
  if (m === null) throw new Error(`cantidad no válida: ${v}`);
  return m;
}

/** A numeric string as a JSON number (exact for 2 or 3 decimals), null stays null. */
export const num = (v: string | null): number | null => (v === null ? null : Number(v));

/** The PostgreSQL error code of a failed query (drizzle wraps it in `cause`). */
export function pgCode(e: unknown): string | undefined {
  const err = ((e as { cause?: unknown })?.cause ?? e) as { code?: string };
  return err?.code;
}

/** A row still referenced by a foreign key (sales, purchases, movements, …). */
export const isFkViolation = (e: unknown) => pgCode(e) === '23503';

/** The words of a search (at most 8). */
export const searchWords = (q: string | undefined) => (q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8);

/** A word a trigram index can serve: it holds a run of three letters or digits. */
export const indexableWord = (w: string) => /[\p{L}\p{N}]{3}/u.test(w);

type SearchFunction = (typeof SEARCH_FUNCTIONS)[number];

/** A search's word as a LIKE pattern's middle: user-typed % and _ match literally. */
export const likeEscaped = (w: string) => w.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The table's search function (migration 0055, decision 0031) as a condition on its `id`: the
 * function runs the trigram-indexed part of the search as the owner, for the business of the
 * transaction's setting only, since under row-level security a LIKE of the query itself can no
 * longer use the index. The ids come once (an InitPlan) and the primary key finds the rows.
 */
export const searchFunction =
  (name: SearchFunction, id: SQL | AnyColumn) =>
  (words: string[]): SQL =>
    sql`${id} = ANY (ARRAY(SELECT ${sql.raw(name)}(ARRAY[${sql.join(
      words.map((w) => sql`${w}`),
      sql`, `,
    )}]::text[])))`;

/**
 * Accent- and case-insensitive search (API-CONTRACT §1.7): every word of `q` must appear in
 * `haystack` (an already folded expression). Words a trigram index can serve are LIKE patterns
 * (the pattern folds to a constant at planning, so a pg_trgm index applies); shorter ones are a
 * plain substring test, kept out of the index condition. User-typed % and _ match literally.
 * With `indexed` (a table's `searchFunction`, whose expression is `haystack`), the indexable words
 * go to it instead, as one condition: the index serves them under row-level security too.
 */
export function searchTerms(haystack: SQL, q: string | undefined, indexed?: (words: string[]) => SQL): SQL[] {
  const words = searchWords(q);
  const viaFunction = indexed ? words.filter(indexableWord).map(likeEscaped) : [];
  const terms = words.flatMap((w) => {
    if (!indexableWord(w)) return [sql`strpos(${haystack}, f_unaccent(lower(${w}))) > 0`];
    return indexed ? [] : [sql`${haystack} LIKE '%' || f_unaccent(lower(${likeEscaped(w)})) || '%'`];
  });
  return indexed && viaFunction.length ? [indexed(viaFunction), ...terms] : terms;
}

/** Collation of names: Á and ñ sort where a Spanish reader expects them. */
export const es = (col: SQL | unknown) => sql`${col} COLLATE "es-AR-x-icu"`;

export interface ExportColumn<T> {
  header: string;
  width?: number;
  /**
   * Money and quantities as numbers, dates as Date (see excelDate, excelDateTime) with DATE_FMT
   * or DATETIME_FMT; text is neutralised against formula injection.
   */
  value: (row: T) => string | number | boolean | Date | null;
  numFmt?: string;
}

export const MONEY_FMT = '#,##0.00';
/** Excel shows these with the reader's separators; the cell holds a date serial, not text. */
export const DATE_FMT = 'dd/mm/yyyy';
export const DATETIME_FMT = 'dd/mm/yyyy hh:mm';

const wallClock = new Map<string, Intl.DateTimeFormat>();

/**
 * A date for a spreadsheet cell: a calendar date (`2026-11-27`) as that day, an instant
 * (`2026-11-27T02:30:00Z`) as its day in the business time zone. Excel dates have no zone: the
 * Date's UTC fields are what the cell shows. null stays null.
 */
export function excelDate(value: string | null | undefined, timezone?: string): Date | null {
  if (!value) return null;
  const at = excelDateTime(value.includes('T') && timezone ? value : null, timezone ?? 'UTC');
  if (at) return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

/** An instant as the date and time a clock in the business time zone showed, for a cell. */
export function excelDateTime(iso: string | null | undefined, timezone: string): Date | null {
  if (!iso) return null;
  let f = wallClock.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    wallClock.set(timezone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(iso)).map((x) => [x.type, Number(x.value)]));
  return new Date(Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!));
}

/**
 * Streams an .xlsx of the rows that `pages` yields (API-CONTRACT §14.2): a header row in
 * Spanish, numeric cells for amounts, and text cells starting with = + - @ tab or CR prefixed
 * with an apostrophe so a spreadsheet never runs them.
 */
export async function sendXlsx<T>(
  reply: FastifyReply,
  opts: { filename: string; sheet: string; columns: ExportColumn<T>[]; pages: AsyncIterable<T[]> },
) {
  const stream = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(opts.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = opts.columns.map((c, i) => ({
    header: c.header,
    key: String(i),
    width: c.width ?? 18,
    style: c.numFmt ? { numFmt: c.numFmt } : {},
  }));
  ws.getRow(1).font = { bold: true };
  const write = async () => {
    try {
      for await (const page of opts.pages) {
        for (const r of page) {
          ws.addRow(
            opts.columns.map((c) => {
              const v = c.value(r);
              return typeof v === 'string' ? neutralizeCell(v) : v;
            }),
          ).commit();
        }
      }
      ws.commit();
      await wb.commit();
    } catch (e) {
      stream.destroy(e as Error);
    }
  };
  void write();
  return reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', `attachment; filename="${opts.filename}"`)
    .send(stream);
}

/** Pages of a list function, so an export never holds every row at once. */
/** A list already read, as the one page of an export. */
export async function* onePage<T>(rows: T[]) {
  yield rows;
}

export async function* paged<T>(fetch: (limit: number, offset: number) => Promise<T[]>, size = 2000) {
  for (let offset = 0; ; offset += size) {
    const rows = await fetch(size, offset);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}
