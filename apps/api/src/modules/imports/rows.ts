import {
  fieldOfHeader,
  foldHeader,
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  IMPORT_MESSAGES,
  missingImportFields,
  type ImportColumn,
  type ImportField,
  type ImportRowData,
  IVA_RATES,
  ivaRateOf,
  type IvaRate,
} from '@mostrador/shared';
import { fileError, type Cell } from './spreadsheet.js';

/*
 * From spreadsheet cells to validated product data (API-CONTRACT §4.2): header recognition,
 * Argentine number formats, and the row rules with their Spanish messages.
 */

export interface Mapping {
  /** Field per column index (0-based); null = ignored. */
  fields: (ImportField | null)[];
  columnas: ImportColumn[];
  ignoradas: string[];
  originales: string[];
}

const IDENTIFYING: readonly ImportField[] = ['codigo', 'codigo_barras'];

/**
 * The field of each header cell. `override` (the wizard's column step) maps a header text to a
 * field or to null (ignore it); other headers are recognised by their synonyms. "Descripción"
 * names the product when no column does. `strict` throws on a wrong override; otherwise a wrong
 * override is ignored (while looking for the header row).
 */
function fieldsOf(originales: string[], override: Record<string, string | null> | undefined, strict: boolean) {
  const fields: (ImportField | null)[] = [];
  const taken = new Set<ImportField>();
  const bySynonym = new Set<number>();
  const overrideFolded = new Map<string, string | null>();
  for (const [k, v] of Object.entries(override ?? {})) overrideFolded.set(foldHeader(k), v);
  originales.forEach((header, i) => {
    let field: ImportField | null = null;
    const folded = foldHeader(header);
    if (header && overrideFolded.has(folded)) {
      const v = overrideFolded.get(folded);
      if (v !== null && v !== undefined && v !== '') {
        const known = (IMPORT_FIELDS as readonly string[]).includes(v);
        if (strict && !known) throw fileError(IMPORT_MESSAGES.badMapping);
        if (strict && taken.has(v as ImportField))
          throw fileError(IMPORT_MESSAGES.duplicateMapping(IMPORT_FIELD_LABELS[v as ImportField]));
        if (known && !taken.has(v as ImportField)) field = v as ImportField;
      }
    } else if (header) {
      const f = fieldOfHeader(header);
      if (f && !taken.has(f)) {
        field = f;
        bySynonym.add(i);
      }
    }
    if (field) taken.add(field);
    fields.push(field);
  });
  const desc = fields.indexOf('descripcion');
  if (!taken.has('nombre') && desc >= 0 && bySynonym.has(desc)) {
    fields[desc] = 'nombre';
    taken.delete('descripcion');
    taken.add('nombre');
  }
  return { fields, taken };
}

const headerTexts = (cells: Cell[]) => cells.map((c) => (c === null ? '' : String(c).trim()));

/**
 * How well a row reads as the header row (for finding it below a title block): the number of
 * known columns it names when it names the product or a code plus one more column, else 0.
 */
export function headerScore(cells: Cell[], override?: Record<string, string | null>): number {
  const { taken } = fieldsOf(headerTexts(cells), override, false);
  const names = taken.has('nombre') || IDENTIFYING.some((f) => taken.has(f));
  return names && taken.size >= 2 ? taken.size : 0;
}

/** The number of known columns a row names, whatever they are (to choose the row a bad file is reported on). */
export function knownColumns(cells: Cell[], override?: Record<string, string | null>): number {
  return fieldsOf(headerTexts(cells), override, false).taken.size;
}

/** Reads the header row, or refuses it naming the columns it lacks (with the headers, for the wizard). */
export function mapHeaders(
  cells: Cell[],
  override?: Record<string, string | null>,
  /** A supplier's list only updates products: no column is required (its own caller checks its key). */
  updateOnly = false,
): Mapping {
  const originales = headerTexts(cells);
  const { fields, taken } = fieldsOf(originales, override, true);
  const columnas: ImportColumn[] = [];
  const ignoradas: string[] = [];
  originales.forEach((header, i) => {
    const field = fields[i];
    if (field) columnas.push({ columna: header, campo: field });
    else if (header) ignoradas.push(header);
  });
  const missing = updateOnly ? [] : missingImportFields([...taken]);
  // The headers go with the error, so the wizard can offer to map the missing columns by hand.
  if (missing.length) {
    throw fileError(IMPORT_MESSAGES.missingColumns(missing.map((f) => IMPORT_FIELD_LABELS[f])), {
      columnas: columnas,
      columnas_ignoradas: ignoradas,
      columnas_originales: originales,
    });
  }
  return { fields, columnas, ignoradas, originales };
}

/* ---------------------------------------------------------------- values */

type Num = { ok: true; value: number } | { ok: false; message: string };

/**
 * A number from a numeric cell or from text such as `1234.56`, `1.234,56`, `$ 1.234` or `1,5`
 * (`$` and spaces ignored). A single `.` followed by exactly three digits is a thousands
 * separator, as written in Argentina (`1.234` is 1234), unless the integer part is 0.
 */
export function parseNumber(v: Cell): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean' || v === null) return null;
  let s = v.replace(/[$\s\u00a0]/g, '');
  if (s === '') return null;
  let sign = 1;
  if (s.startsWith('-')) {
    sign = -1;
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  if (!/^[\d.,]+$/.test(s)) return null;
  const dots = (s.match(/\./g) ?? []).length;
  const commas = (s.match(/,/g) ?? []).length;
  let normal: string;
  if (dots && commas) {
    const dec = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
    const thousands = dec === '.' ? ',' : '.';
    if ((s.match(new RegExp(`\\${dec}`, 'g')) ?? []).length > 1) return null;
    normal = s.split(thousands).join('').replace(dec, '.');
    if (!/^\d+(\.\d+)?$/.test(normal)) return null;
  } else if (commas) {
    normal = commas === 1 ? s.replace(',', '.') : /^\d{1,3}(,\d{3})+$/.test(s) ? s.replace(/,/g, '') : '';
  } else if (dots > 1) {
    normal = /^\d{1,3}(\.\d{3})+$/.test(s) ? s.replace(/\./g, '') : '';
  } else if (dots === 1 && /^[1-9]\d{0,2}\.\d{3}$/.test(s)) {
    normal = s.replace('.', '');
  } else normal = s;
  if (!/^\d+(\.\d+)?$/.test(normal)) return null;
  return sign * Number(normal);
}

function decimalNumber(v: Cell, decimals: number, label: string): Num {
  const n = parseNumber(v);
  if (n === null) return { ok: false, message: `${label}: debe ser un número.` };
  if (n < 0) return { ok: false, message: `${label}: debe ser mayor o igual a 0.` };
  const scale = 10 ** decimals;
  const scaled = Math.round(n * scale);
  // Excel stores 0.1 + 0.2 as 0.30000000000000004: tolerate float noise, not real extra decimals.
  if (Math.abs(n * scale - scaled) > 1e-6) {
    return { ok: false, message: `${label}: admite como máximo ${decimals} decimales.` };
  }
  if (scaled > 99_999_999_999_999) return { ok: false, message: `${label}: el valor es demasiado grande.` };
  return { ok: true, value: scaled / scale };
}

const TRUE = new Set(['si', 'sí', 's', 'true', 'verdadero', '1', 'x', 'activo', 'yes', 'y']);
const FALSE = new Set(['no', 'n', 'false', 'falso', '0', 'inactivo']);

function parseBool(v: Cell): boolean | null | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : undefined;
  if (v === null) return null;
  const s = v.trim().toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return undefined;
}

const text = (v: Cell): string | null => {
  if (v === null) return null;
  const s = (typeof v === 'number' ? String(v) : String(v)).trim();
  return s === '' ? null : s;
};

const LIMITS: Partial<Record<ImportField, number>> = {
  nombre: 150,
  descripcion: 1000,
  codigo: 50,
  codigo_barras: 50,
  unidad: 20,
  categoria_nombre: 100,
};

/** A field that was present in the file but could not be read: kept so an edit can clear it. */
export type ParseErrors = Partial<Record<ImportField, string>>;

export interface ParsedRow {
  datos: ImportRowData;
  parseErrors: ParseErrors;
}

export const emptyData = (): ImportRowData => ({
  nombre: null,
  descripcion: null,
  codigo: null,
  codigo_barras: null,
  precio_compra: null,
  precio_venta: null,
  stock_actual: null,
  stock_minimo: null,
  unidad: null,
  categoria_nombre: null,
  activo: null,
  iva: null,
});

/** The cells of a row read through the mapping; each unreadable value is reported on its field. */
export function parseRow(cells: Cell[], mapping: Mapping): ParsedRow {
  const datos = emptyData();
  const parseErrors: ParseErrors = {};
  mapping.fields.forEach((field, i) => {
    if (!field) return;
    const v = cells[i] ?? null;
    const label = IMPORT_FIELD_LABELS[field];
    switch (field) {
      case 'precio_venta':
      case 'precio_compra':
      case 'stock_actual':
      case 'stock_minimo': {
        if (text(v) === null) return;
        const r = decimalNumber(v, field.startsWith('precio') ? 2 : 3, label);
        if (r.ok) datos[field] = r.value;
        else parseErrors[field] = r.message;
        return;
      }
      case 'iva': {
        if (text(v) === null) return;
        // A cell formatted as a percentage holds 0.21 for 21 %.
        const given = typeof v === 'number' && v > 0 && v < 1 ? Math.round(v * 1000) / 10 : v;
        const rate = ivaRateOf(given);
        if (typeof rate === 'string' && (IVA_RATES as readonly string[]).includes(rate)) datos.iva = rate as IvaRate;
        else parseErrors.iva = `${label}: valor no válido (21, 10,5, 27, 5, 2,5, 0, exento o no gravado).`;
        return;
      }
      case 'activo': {
        const b = parseBool(v);
        if (b === undefined) parseErrors.activo = `${label}: valor no válido (usá sí o no).`;
        else datos.activo = b;
        return;
      }
      default: {
        const s = text(v);
        if (s !== null && s.length > (LIMITS[field] ?? 1000)) {
          parseErrors[field] = `${label}: debe tener como máximo ${LIMITS[field]} caracteres.`;
        } else datos[field] = s;
      }
    }
  });
  return { datos, parseErrors };
}

/**
 * The errors of a row as data (after an edit, or as read): a new product needs a name and a sale
 * price; an update changes only what is present, so nothing is required.
 */
export function rowErrors(datos: ImportRowData, parseErrors: ParseErrors, isNew: boolean): string[] {
  const errors: string[] = [];
  for (const f of IMPORT_FIELDS) {
    if (parseErrors[f]) errors.push(parseErrors[f]!);
  }
  if (isNew && !datos.nombre && !parseErrors.nombre) errors.push('Nombre: este campo es obligatorio.');
  if (isNew && datos.precio_venta === null && !parseErrors.precio_venta) {
    errors.push('Precio de venta: este campo es obligatorio.');
  }
  for (const [f, max] of Object.entries(LIMITS) as [ImportField, number][]) {
    const v = datos[f];
    if (typeof v === 'string' && v.length > max && !parseErrors[f]) {
      errors.push(`${IMPORT_FIELD_LABELS[f]}: debe tener como máximo ${max} caracteres.`);
    }
  }
  return errors;
}
