import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { entryString, entryText, isZip, readZip, ZipEntryTooLarge, ZipError, type ZipEntry } from './zip.js';

/*
 * Reading an uploaded .xlsx or .csv, by content (never by name alone), streaming its rows so
 * 50,000 rows never sit in memory at once. The .xlsx path uses ExcelJS's streaming readers
 * (shared strings and worksheet) over entries that zip.ts inflates under a byte cap; formulas
 * are read as their cached result and never evaluated.
 *
 * This code runs in a worker thread (file-reader.worker.ts, driven by spreadsheet.ts), so it
 * imports no values from @mostrador/shared: it throws a FileProblem naming the message, and the
 * main thread turns it into the 422.
 */

const require = createRequire(import.meta.url);
// ExcelJS's own streaming readers, fed by our capped entries instead of its unzipper.
const WorkbookReader = require('exceljs/lib/stream/xlsx/workbook-reader.js') as new (
  input: unknown,
  options: Record<string, string>,
) => ExcelWorkbookReader;
const WorksheetReader = require('exceljs/lib/stream/xlsx/worksheet-reader.js') as new (args: {
  workbook: ExcelWorkbookReader;
  id: number;
  iterator: AsyncIterable<string>;
  options: Record<string, string>;
}) => AsyncIterable<ExcelRow>;

interface ExcelWorkbookReader {
  sharedStrings?: unknown[];
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
}

interface ExcelRow {
  number: number;
  values: unknown[];
}

export type Cell = string | number | boolean | null;

export interface SheetInfo {
  nombre: string;
  path: string;
}

export interface OpenedFile {
  kind: 'xlsx' | 'csv';
  sheets: SheetInfo[];
  /** Rows of a sheet (the first when not named): 1-based spreadsheet row number and cells from column 1. */
  rows(sheet: SheetInfo): AsyncGenerator<{ fila: number; cells: Cell[] }>;
}

/** Why a file is refused: the key of its message in IMPORT_MESSAGES (a 422 INVALID_FILE). */
export type FileProblemKind = 'unreadable' | 'unsupported' | 'empty' | 'tooMuchText' | 'cellTooLong' | 'tooSlow';

export class FileProblem extends Error {
  constructor(public readonly kind: FileProblemKind) {
    super(kind);
  }
}

const unreadable = () => new FileProblem('unreadable');
const unsupported = () => new FileProblem('unsupported');
const tooSlow = () => new FileProblem('tooSlow');
const cellTooLong = () => new FileProblem('cellTooLong');

/**
 * The work one file may cost: its shared strings (all held in memory while the sheet is read)
 * at most SHARED_STRINGS_CAP of XML, and its parsing at most until `deadline` (ms since epoch).
 */
export const SHARED_STRINGS_CAP = 32 * 1024 * 1024;

/** Excel's own limit on the text of one cell. */
export const MAX_CELL_CHARS = 32_767;
/**
 * The longest stretch of XML between two `<` or `>` a sheet or its shared strings may have: the
 * text of one cell (escaped: `&amp;` is five characters) or one tag. The XML parser holds such a
 * stretch whole, so a cell of 200 MB is refused after reading this much of it.
 */
export const MAX_XML_RUN = 8 * MAX_CELL_CHARS;

/** The chunks of `source`, refusing the file once its time is up or a run of text is too long. */
async function* guarded(
  source: AsyncGenerator<string>,
  deadline: number,
  stop: { problem?: FileProblem },
): AsyncGenerator<string> {
  let run = 0;
  try {
    for await (const chunk of source) {
      if (Date.now() > deadline) throw tooSlow();
      run = runAfter(run, chunk);
      yield chunk;
    }
  } catch (e) {
    // Kept, because the XML parser may wrap what it is given.
    if (e instanceof FileProblem) stop.problem = e;
    throw e;
  }
}

/** The length of the open run of text after `chunk`, given the one before it; throws past MAX_XML_RUN. */
export function runAfter(run: number, chunk: string): number {
  const lt = chunk.indexOf('<');
  const gt = chunk.indexOf('>');
  const first = lt === -1 ? gt : gt === -1 ? lt : Math.min(lt, gt);
  if (first === -1) {
    if (run + chunk.length > MAX_XML_RUN) throw cellTooLong();
    return run + chunk.length;
  }
  if (run + first > MAX_XML_RUN) throw cellTooLong();
  // A run inside the chunk is shorter than the chunk: only a chunk longer than the limit can hold one.
  if (chunk.length > MAX_XML_RUN) {
    let from = first + 1;
    for (;;) {
      const l = chunk.indexOf('<', from);
      const g = chunk.indexOf('>', from);
      const at = l === -1 ? g : g === -1 ? l : Math.min(l, g);
      if ((at === -1 ? chunk.length : at) - from > MAX_XML_RUN) throw cellTooLong();
      if (at === -1) break;
      from = at + 1;
    }
  }
  return chunk.length - 1 - Math.max(chunk.lastIndexOf('<'), chunk.lastIndexOf('>'));
}

/* ---------------------------------------------------------------- detection */

const BINARY_MAGIC = [
  [0xd0, 0xcf, 0x11, 0xe0], // .xls, .doc (OLE2)
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF
  [0x1f, 0x8b], // gzip
  [0x52, 0x61, 0x72, 0x21], // RAR
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
  [0x7b, 0x5c, 0x72, 0x74, 0x66], // {\rtf
];

function looksBinary(buf: Buffer): boolean {
  if (BINARY_MAGIC.some((m) => m.every((b, i) => buf[i] === b))) return true;
  const head = buf.subarray(0, 8192);
  return head.includes(0);
}

/** Opens a file by its content: an .xlsx (zip with a workbook), or UTF-8 / Windows-1252 text as CSV. */
export async function openSpreadsheet(buf: Buffer, filename: string, deadline = Infinity): Promise<OpenedFile> {
  const body = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  if (body.toString('utf8').trim() === '') throw new FileProblem('empty');
  if (isZip(buf)) return openXlsx(buf, deadline);
  if (looksBinary(buf)) throw unsupported();
  return openCsv(body, filename, deadline);
}

/* ---------------------------------------------------------------- xlsx */

const XML_CAP = 8 * 1024 * 1024;

const decodeXml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-f]+|#\d+);/gi, (m, e: string) => {
    const k = e.toLowerCase();
    if (k === 'amp') return '&';
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'quot') return '"';
    if (k === 'apos') return "'";
    const code = k.startsWith('#x') ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });

const attr = (tag: string, name: string) => {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? decodeXml(m[2] ?? m[3] ?? '') : null;
};

async function openXlsx(buf: Buffer, deadline: number): Promise<OpenedFile> {
  let entries: Map<string, ZipEntry>;
  try {
    entries = readZip(buf);
  } catch (e) {
    if (e instanceof ZipEntryTooLarge) throw new FileProblem('tooMuchText');
    if (e instanceof ZipError) throw unreadable();
    throw e;
  }
  const workbookEntry = entries.get('xl/workbook.xml');
  const relsEntry = entries.get('xl/_rels/workbook.xml.rels');
  // A zip that is not a workbook (a .docx, an .ods, any archive) is not a supported format.
  if (!workbookEntry) throw unsupported();
  if (!relsEntry) throw unreadable();
  let sheets: SheetInfo[];
  try {
    const [workbookXml, relsXml] = await Promise.all([
      entryString(buf, workbookEntry, XML_CAP),
      entryString(buf, relsEntry, XML_CAP),
    ]);
    const targets = new Map<string, string>();
    for (const m of relsXml.matchAll(/<(?:\w+:)?Relationship\b([^>]*)>/g)) {
      const id = attr(m[1], 'Id');
      const target = attr(m[1], 'Target');
      if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`);
    }
    sheets = [];
    for (const m of workbookXml.matchAll(/<(?:\w+:)?sheet\b([^>]*)>/g)) {
      const nombre = attr(m[1], 'name');
      const rid = attr(m[1], 'r:id') ?? attr(m[1], 'id');
      const path = rid ? targets.get(rid) : undefined;
      if (nombre !== null && path && entries.has(path)) sheets.push({ nombre, path });
    }
  } catch (e) {
    if (e instanceof ZipError) throw unreadable();
    throw e;
  }
  if (sheets.length === 0) throw unreadable();

  let reader: ExcelWorkbookReader | null = null;
  const stop: { problem?: FileProblem } = {};
  const workbook = async () => {
    if (reader) return reader;
    const r = new WorkbookReader(null, {
      sharedStrings: 'cache',
      styles: 'ignore',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    });
    const ss = entries.get('xl/sharedStrings.xml');
    if (ss) {
      if (ss.uncompressedSize > SHARED_STRINGS_CAP) throw new FileProblem('tooMuchText');
      const text = guarded(entryText(buf, ss, SHARED_STRINGS_CAP), deadline, stop);
      for await (const _ of r._parseSharedStrings(Readable.from(text))) void _;
    } else r.sharedStrings = [];
    reader = r;
    return r;
  };

  return {
    kind: 'xlsx',
    sheets,
    async *rows(sheet) {
      try {
        const wb = await workbook();
        const ws = new WorksheetReader({
          workbook: wb,
          id: 1,
          iterator: guarded(entryText(buf, entries.get(sheet.path)!), deadline, stop),
          options: { worksheets: 'emit', hyperlinks: 'ignore', sharedStrings: 'cache', styles: 'ignore' },
        });
        for await (const row of ws) {
          const values = row.values;
          const cells: Cell[] = [];
          for (let c = 1; c < values.length; c++) cells.push(boundedCell(cellValue(values[c])));
          yield { fila: row.number, cells };
        }
      } catch (e) {
        if (e instanceof FileProblem) throw e;
        if (stop.problem) throw stop.problem;
        // The parser may wrap what the entry's inflater threw: the clock tells why it stopped.
        if (Date.now() > deadline) throw tooSlow();
        throw unreadable();
      }
    },
  };
}

/** A text cell longer than Excel allows (rich text or a CSV field can be) refuses the file. */
function boundedCell(c: Cell): Cell {
  if (typeof c === 'string' && c.length > MAX_CELL_CHARS) throw cellTooLong();
  return c;
}

/** A cell as a plain value: formulas give their cached result, rich text its text, errors their code. */
export function cellValue(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
    return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  }
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) return 'result' in o ? cellValue(o.result) : null;
    if (Array.isArray(o.richText)) return (o.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('error' in o) return String(o.error);
    if ('text' in o) return cellValue(o.text);
  }
  return null;
}

/* ---------------------------------------------------------------- csv */

function decodeText(buf: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    // CSV saved by Excel on Windows ("CSV delimitado por comas") is Windows-1252.
    return new TextDecoder('windows-1252').decode(buf);
  }
}

/**
 * `;`, `,` or tab: the one on most of the first lines outside quotes (a title above the headers
 * may have none, and decimal commas are not on every line), then the most frequent.
 */
function detectSeparator(text: string): string {
  const SEPS = [';', ',', '\t'];
  const lines = new Map(SEPS.map((c) => [c, 0]));
  const total = new Map(SEPS.map((c) => [c, 0]));
  let onLine = new Set<string>();
  let quoted = false;
  let n = 0;
  const endLine = () => {
    for (const c of onLine) lines.set(c, lines.get(c)! + 1);
    onLine = new Set();
  };
  for (let i = 0; i < text.length && i < 64 * 1024; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '\n') {
      endLine();
      if (++n >= 20) break;
    } else if (!quoted && total.has(ch)) {
      total.set(ch, total.get(ch)! + 1);
      onLine.add(ch);
    }
  }
  endLine();
  const best = [...SEPS].sort((a, b) => lines.get(b)! - lines.get(a)! || total.get(b)! - total.get(a)!)[0];
  return total.get(best)! > 0 ? best : ',';
}

/** RFC 4180 records: quoted fields with "" escapes and line breaks inside; CRLF or LF. */
export function* parseCsv(text: string, sep: string): Generator<string[]> {
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      i++;
    } else if (ch === sep) {
      record.push(field);
      field = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      record.push(field);
      yield record;
      record = [];
      field = '';
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || record.length) {
    record.push(field);
    yield record;
  }
}

function openCsv(body: Buffer, filename: string, deadline: number): OpenedFile {
  const text = decodeText(body);
  const sep = detectSeparator(text);
  const base = filename.replace(/\.[^.]*$/, '') || 'CSV';
  return {
    kind: 'csv',
    sheets: [{ nombre: base, path: '' }],
    async *rows() {
      let fila = 0;
      for (const record of parseCsv(text, sep)) {
        if (++fila % 256 === 0 && Date.now() > deadline) throw tooSlow();
        yield { fila, cells: record.map((c) => (c === '' ? null : boundedCell(c))) };
      }
    },
  };
}
