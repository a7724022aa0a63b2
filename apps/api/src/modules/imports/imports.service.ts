import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  IMPORT_PREVIEW_ROWS,
  IMPORT_STAGING_HOURS,
  type ImportColumn,
  type ImportConfirmInput,
  type ImportEmptyStock,
  type ImportConfirmResult,
  type ImportRowData,
  type ImportRowError,
  type ImportSheetsResult,
  type ImportSummary,
  type ImportUploadResult,
  type StagedRow,
  type StagedRowsQuery,
  type StagedRowUpdate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { AppError, conflict, isUniqueViolation, notFound } from '../../lib/errors.js';
import { auditRowsSql } from '../posting/audit.js';
import { stockMovementsInsertSql } from '../posting/stock.js';
import {
  batchOf,
  categoryRows,
  deleteBatch,
  deleteUserBatch,
  firstStagedBefore,
  insertBatch,
  insertCategories,
  insertProducts,
  insertStagedRows,
  lockBatchId,
  lockProducts,
  lockStagedRow,
  productIdByKey,
  productKeys,
  stagedCount,
  stagedPage,
  stagedRows,
  stagedSummary,
  updateProducts,
  updateStagedRow,
  type ImportRowRecord,
} from './imports.queries.js';
import { columnSamples } from './muestras.js';
import { headerScore, knownColumns, mapHeaders, parseRow, rowErrors, type Mapping, type ParseErrors } from './rows.js';
import {
  fileError,
  nonEmpty,
  type Cell,
  type OpenedFile,
  type SheetInfo,
  type SpreadsheetReader,
} from './spreadsheet.js';

/*
 * Product import (API-CONTRACT §4.2): the staged flow (upload → summary → review and edit →
 * confirm or cancel) and the one-shot import share one row checker and one writer. Rows stream
 * from the file and are written in batches of BATCH rows with set-based statements, so 10,000
 * rows take a few seconds and 50,000 rows never sit in memory at once.
 */

const BATCH = 1000;
const MAX_REPORTED_ERRORS = 1000;
/** Unreadable cells stay with the staged row (under this key of `datos`) until an edit replaces them. */
const PARSE_KEY = '_errores_lectura';
/** A row refused when read keeps its cells (under this key of `datos`) for the errors download. */
export const CELLS_KEY = '_celdas';

export interface UploadedFile {
  buffer: Buffer;
  filename: string;
  /** When reading the file must have ended (ms since epoch); set once it has a parsing slot. */
  deadline?: number;
  /** The thread that reads it, lent with the parsing slot. */
  reader?: SpreadsheetReader;
}

/* ---------------------------------------------------------------- reading */

export async function open(file: UploadedFile) {
  if (!file.reader) throw new Error('Un archivo se lee con el lector que le da su turno (parse).');
  return file.reader.open(file.buffer, file.filename, file.deadline ?? Infinity);
}

export function sheetOf(f: OpenedFile, hoja?: string): SheetInfo {
  if (!hoja) return f.sheets[0];
  const s =
    f.sheets.find((x) => x.nombre === hoja) ?? f.sheets.find((x) => x.nombre.toLowerCase() === hoja.toLowerCase());
  if (!s) throw fileError(IMPORT_MESSAGES.noSheet(hoja));
  return s;
}

/** How many non-empty rows may sit above the header row (a distributor's title block). */
const HEADER_SCAN = 20;

/**
 * No header row in the first rows: the one naming the most known columns (else the most texts)
 * is reported as the headers, for the wizard to map by hand.
 */
function noHeaderRow(head: Cell[][], override?: Record<string, string | null>): never {
  let best = head[0];
  let most = -1;
  for (const cells of head) {
    const texts = cells.filter((c) => typeof c === 'string' && c.trim() !== '').length;
    const n = knownColumns(cells, override) * 1000 + texts;
    if (n > most) [best, most] = [cells, n];
  }
  mapHeaders(best, override);
  throw fileError(IMPORT_MESSAGES.missingColumns([]));
}

/**
 * The data rows of a sheet: the header row is the first of the first HEADER_SCAN non-empty rows
 * that names the product or a code plus another column (rows above it are a title block and
 * ignored), empty rows are skipped, and more than 50,000 data rows is a file error.
 */
export async function* dataRows(
  f: OpenedFile,
  sheet: SheetInfo,
  override?: Record<string, string | null>,
  updateOnly = false,
  /** The header row chosen by the user (1-based row of the sheet); absent: found as above. */
  headerRow?: number,
) {
  let mapping: Mapping | null = null;
  let count = 0;
  const head: Cell[][] = [];
  for await (const { fila, cells } of f.rows(sheet)) {
    if (headerRow !== undefined && !mapping) {
      if (fila < headerRow) continue;
      if (fila > headerRow || !nonEmpty(cells)) throw fileError(IMPORT_MESSAGES.emptyHeaderRow(headerRow));
      mapping = mapHeaders(cells, override, updateOnly);
      yield { kind: 'header' as const, mapping, fila };
      continue;
    }
    if (!nonEmpty(cells)) continue;
    if (!mapping) {
      if (headerScore(cells, override) === 0) {
        head.push(cells);
        if (head.length >= HEADER_SCAN) noHeaderRow(head, override);
        continue;
      }
      mapping = mapHeaders(cells, override, updateOnly);
      yield { kind: 'header' as const, mapping, fila };
      continue;
    }
    if (++count > IMPORT_MAX_ROWS) throw fileError(IMPORT_MESSAGES.tooManyRows);
    yield { kind: 'row' as const, fila, cells, ...parseRow(cells, mapping) };
  }
  if (!mapping && head.length) noHeaderRow(head, override);
  if (!mapping && headerRow !== undefined) throw fileError(IMPORT_MESSAGES.emptyHeaderRow(headerRow));
  if (count === 0) throw fileError(IMPORT_MESSAGES.empty);
}

/** POST /import/hojas-excel: the sheets and their non-empty data rows; stages nothing. */
export async function listSheets(file: UploadedFile): Promise<ImportSheetsResult> {
  const f = await open(file);
  const hojas: { nombre: string; filas: number }[] = [];
  for (const sheet of f.sheets) {
    let filas = -1;
    for await (const { cells } of f.rows(sheet)) if (nonEmpty(cells)) filas++;
    hojas.push({ nombre: sheet.nombre, filas: Math.max(0, filas) });
  }
  return { hojas, sheet_names: hojas.map((h) => h.nombre) };
}

/* ---------------------------------------------------------------- checking rows */

const lower = (s: string) => s.toLocaleLowerCase('es');

/**
 * The state a row is checked against: the business's codes, barcodes and categories, and the
 * codes already seen in the file (the first occurrence wins).
 */
class RowChecker {
  codes = new Map<string, string>();
  barcodes = new Map<string, string>();
  categories = new Map<string, string>();
  seenCodes = new Map<string, number>();
  seenBarcodes = new Map<string, number>();
  seenProducts = new Map<string, number>();

  constructor(private readonly opts: { createCategories: boolean } = { createCategories: true }) {}

  async load(ex: Executor, businessId: string) {
    const rows = await productKeys(businessId, ex);
    for (const r of rows) {
      if (r.codigo) this.codes.set(lower(r.codigo), r.id);
      if (r.codigo_barras) this.barcodes.set(r.codigo_barras, r.id);
    }
    const cats = await categoryRows(businessId, null, ex);
    for (const c of cats) this.categories.set(lower(c.nombre), c.id);
  }

  /** The product a row updates: the one with its code, else the one with its barcode. */
  match(datos: ImportRowData): string | null {
    const byCode = datos.codigo ? this.codes.get(lower(datos.codigo)) : undefined;
    if (byCode) return byCode;
    return (datos.codigo_barras && this.barcodes.get(datos.codigo_barras)) || null;
  }

  check(fila: number, datos: ImportRowData, parseErrors: ParseErrors) {
    const productoId = this.match(datos);
    const errores = rowErrors(datos, parseErrors, !productoId);
    let repeated = false;
    if (datos.codigo) {
      const prev = this.seenCodes.get(lower(datos.codigo));
      if (prev !== undefined) errores.push(`Código repetido en el archivo (fila ${prev}).`);
      else this.seenCodes.set(lower(datos.codigo), fila);
      repeated = prev !== undefined;
    }
    if (datos.codigo_barras) {
      const prev = this.seenBarcodes.get(datos.codigo_barras);
      if (prev !== undefined) errores.push(`Código de barras repetido en el archivo (fila ${prev}).`);
      else this.seenBarcodes.set(datos.codigo_barras, fila);
      repeated ||= prev !== undefined;
      const owner = this.barcodes.get(datos.codigo_barras);
      if (owner && owner !== productoId) {
        errores.push(`Ya existe un producto con el código de barras ${datos.codigo_barras}.`);
      }
    }
    if (productoId) {
      // One row by its code and another by its barcode may name the same product.
      const prev = this.seenProducts.get(productoId);
      if (prev === undefined) this.seenProducts.set(productoId, fila);
      else if (!repeated) errores.push(`El producto ya está en la fila ${prev} del archivo.`);
    }
    if (!this.opts.createCategories && datos.categoria_nombre && !this.categories.has(lower(datos.categoria_nombre))) {
      errores.push(`Categoría inexistente: ${datos.categoria_nombre}.`);
    }
    return { accion: productoId ? ('actualizar' as const) : ('nuevo' as const), productoId, errores };
  }

  isNewCategory(nombre: string | null) {
    return Boolean(nombre && !this.categories.has(lower(nombre)));
  }
}

/* ---------------------------------------------------------------- writing products */

interface Pending {
  fila: number;
  datos: ImportRowData;
  productoId: string | null;
}

const PRODUCT_FIELDS = [
  'nombre',
  'descripcion',
  'codigo_barras',
  'precio_compra',
  'precio_venta',
  'stock_minimo',
  'unidad',
  'activo',
  'iva',
] as const;

/**
 * Applies checked rows inside the caller's transaction, BATCH at a time: unknown categories are
 * created, new products inserted, existing ones updated only in the columns the row fills; every
 * stock change gets its movement `importacion` and every product its audit row.
 */
class ProductWriter {
  creados = 0;
  actualizados = 0;
  categoriasCreadas = 0;
  private pending: Pending[] = [];

  constructor(
    private readonly tx: Executor,
    private readonly businessId: string,
    private readonly userId: string,
    private readonly checker: RowChecker,
    /** New products with no stock given: 0, or not tracking stock. */
    private readonly stockVacio: ImportEmptyStock = 'cero',
  ) {}

  async add(p: Pending) {
    this.pending.push(p);
    if (this.pending.length >= BATCH) await this.flush();
  }

  async flush() {
    const batch = this.pending;
    this.pending = [];
    if (!batch.length) return;
    await this.createCategories(batch);
    const categoryId = (n: string | null) => (n ? (this.checker.categories.get(lower(n)) ?? null) : null);
    await this.insert(
      batch.filter((p) => !p.productoId),
      categoryId,
    );
    await this.update(
      batch.filter((p) => p.productoId),
      categoryId,
    );
  }

  private async createCategories(batch: Pending[]) {
    const wanted = new Map<string, string>();
    for (const p of batch) {
      const n = p.datos.categoria_nombre;
      if (n && !this.checker.categories.has(lower(n)) && !wanted.has(lower(n))) wanted.set(lower(n), n);
    }
    if (!wanted.size) return;
    const names = [...wanted.values()];
    const rows = await insertCategories(this.businessId, names, this.tx);
    this.categoriasCreadas += rows.length;
    for (const r of rows) {
      this.checker.categories.set(lower(r.nombre), r.id);
      await audit(this.tx, {
        businessId: this.businessId,
        userId: this.userId,
        entidad: 'categoria',
        entidadId: r.id,
        accion: 'crear',
        despues: { nombre: r.nombre, descripcion: null, activo: true },
      });
    }
    // Created meanwhile by someone else: use theirs.
    const missing = names.filter((n) => !this.checker.categories.has(lower(n)));
    if (missing.length) {
      const found = await categoryRows(this.businessId, missing.map(lower), this.tx);
      for (const c of found) this.checker.categories.set(lower(c.nombre), c.id);
    }
  }

  private async insert(rows: Pending[], categoryId: (n: string | null) => string | null) {
    if (!rows.length) return;
    const values = rows.map((p) => ({
      id: randomUUID(),
      nombre: p.datos.nombre,
      descripcion: p.datos.descripcion,
      codigo: p.datos.codigo,
      codigo_barras: p.datos.codigo_barras,
      precio_compra: p.datos.precio_compra,
      precio_venta: p.datos.precio_venta,
      stock_actual: p.datos.stock_actual ?? 0,
      stock_minimo: p.datos.stock_minimo ?? 0,
      controla_stock: p.datos.stock_actual !== null || this.stockVacio === 'cero',
      unidad: p.datos.unidad ?? 'unidad',
      categoria_id: categoryId(p.datos.categoria_nombre),
      activo: p.datos.activo ?? true,
      iva: p.datos.iva ?? '21',
    }));
    await insertProducts(this.businessId, values, this.tx);
    const moves = values.filter((v) => v.stock_actual > 0).map((v) => ({ id: v.id, q: v.stock_actual }));
    await this.movements(moves.map((m) => ({ id: m.id, cantidad: m.q, resultante: m.q })));
    await this.audits(values.map(({ id, ...despues }) => ({ id, antes: null, despues })));
    this.creados += rows.length;
  }

  private async update(rows: Pending[], categoryId: (n: string | null) => string | null) {
    if (!rows.length) return;
    const ids = rows.map((p) => p.productoId!);
    const current = await lockProducts(this.businessId, ids, this.tx);
    const byId = new Map(current.map((r) => [r.id, r]));
    const updates: Record<string, unknown>[] = [];
    const moves: { id: string; cantidad: number; resultante: number }[] = [];
    const audits: { id: string; antes: Record<string, unknown>; despues: Record<string, unknown> }[] = [];
    for (const p of rows) {
      const r = byId.get(p.productoId!);
      if (!r) continue; // deleted since it was checked: nothing to update
      const before: Record<string, unknown> = {
        nombre: r.nombre,
        descripcion: r.descripcion,
        codigo_barras: r.codigoBarras,
        precio_compra: r.precioCompra === null ? null : Number(r.precioCompra),
        precio_venta: Number(r.precioVenta),
        stock_minimo: Number(r.stockMinimo),
        unidad: r.unidad,
        activo: r.activo,
        categoria_id: r.categoriaId,
        stock_actual: Number(r.stockActual),
        iva: r.iva,
      };
      const after: Record<string, unknown> = { ...before };
      for (const f of PRODUCT_FIELDS) if (p.datos[f] !== null && p.datos[f] !== undefined) after[f] = p.datos[f];
      if (p.datos.categoria_nombre) after.categoria_id = categoryId(p.datos.categoria_nombre);
      if (p.datos.stock_actual !== null) after.stock_actual = p.datos.stock_actual;
      const antes: Record<string, unknown> = {};
      const despues: Record<string, unknown> = {};
      for (const k of Object.keys(after)) {
        if (after[k] !== before[k]) {
          antes[k] = before[k];
          despues[k] = after[k];
        }
      }
      if (!Object.keys(despues).length) continue;
      updates.push({ id: r.id, ...after });
      audits.push({ id: r.id, antes, despues });
      if ('stock_actual' in despues) {
        const delta = Math.round(((after.stock_actual as number) - (before.stock_actual as number)) * 1000) / 1000;
        moves.push({ id: r.id, cantidad: delta, resultante: after.stock_actual as number });
      }
    }
    this.actualizados += rows.length;
    if (!updates.length) return;
    await updateProducts(this.businessId, updates, this.tx);
    await this.movements(moves);
    await this.audits(audits);
  }

  private async movements(moves: { id: string; cantidad: number; resultante: number }[]) {
    if (!moves.length) return;
    await this.tx.execute(
      stockMovementsInsertSql(
        this.businessId,
        this.userId,
        {
          productoId: sql`x.id`,
          origen: sql`'importacion'`,
          cantidad: sql`x.cantidad`,
          stockResultante: sql`x.resultante`,
          motivo: sql`'Importación'`,
          referenciaId: sql`NULL::uuid`,
        },
        sql`FROM jsonb_to_recordset(${JSON.stringify(moves)}::jsonb) AS x(id uuid, cantidad numeric, resultante numeric)`,
      ),
    );
  }

  private async audits(rows: { id: string; antes: unknown; despues: unknown }[]) {
    if (!rows.length) return;
    await this.tx.execute(
      auditRowsSql(this.businessId, this.userId, {
        entidad: 'producto',
        accion: 'importar',
        entidadId: sql`x.id`,
        antes: sql`x.antes`,
        despues: sql`x.despues`,
        from: sql`FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id uuid, antes jsonb, despues jsonb)`,
      }),
    );
  }
}

/** Imports wait for each other per business, so two never race on the same codes. */
const lockImports = (tx: Executor, businessId: string) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`importacion:${businessId}`}))`);

const raced = () => conflict('DUPLICATE', 'Los productos cambiaron durante la importación. Intentá nuevamente.');

/* ---------------------------------------------------------------- one-shot import */

/** POST /products/importar-excel: the first sheet (or the CSV), every valid row in one transaction. */
export async function importFile(db: Db, businessId: string, userId: string, file: UploadedFile) {
  const f = await open(file);
  const sheet = f.sheets[0];
  try {
    return await db.transaction(async (tx) => {
      await lockImports(tx, businessId);
      await precioOrigen(tx, { origen: 'importacion', userId });
      const checker = new RowChecker();
      await checker.load(tx, businessId);
      const writer = new ProductWriter(tx, businessId, userId, checker);
      const errores: ImportRowError[] = [];
      let conErrores = 0;
      for await (const r of dataRows(f, sheet)) {
        if (r.kind === 'header') continue;
        const c = checker.check(r.fila, r.datos, r.parseErrors);
        if (c.errores.length) {
          conErrores++;
          if (errores.length < MAX_REPORTED_ERRORS) errores.push({ fila: r.fila, mensaje: c.errores.join(' ') });
          continue;
        }
        await writer.add({ fila: r.fila, datos: r.datos, productoId: c.productoId });
      }
      await writer.flush();
      await audit(tx, {
        businessId,
        userId,
        entidad: 'importacion',
        accion: 'importar',
        despues: {
          archivo: file.filename,
          hoja: sheet.nombre,
          creados: writer.creados,
          actualizados: writer.actualizados,
          categorias_creadas: writer.categoriasCreadas,
          filas_con_errores: conErrores,
        },
      });
      return {
        creados: writer.creados,
        actualizados: writer.actualizados,
        categorias_creadas: writer.categoriasCreadas,
        errores,
      };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw raced();
    throw e;
  }
}

/* ---------------------------------------------------------------- staged import */

type RowRecord = ImportRowRecord;

type StoredDatos = ImportRowData & { [PARSE_KEY]?: ParseErrors; [CELLS_KEY]?: Cell[] };

export function splitDatos(stored: StoredDatos) {
  const { [PARSE_KEY]: parseErrors, [CELLS_KEY]: cells, ...datos } = stored;
  return { datos: datos as ImportRowData, parseErrors: parseErrors ?? {}, cells: cells ?? null };
}

/** What a staged row stores: its data, what could not be read, and its cells when it was refused. */
const storedDatos = (datos: ImportRowData, parseErrors: ParseErrors, cells: Cell[] | null) => ({
  ...datos,
  ...(Object.keys(parseErrors).length ? { [PARSE_KEY]: parseErrors } : {}),
  ...(cells ? { [CELLS_KEY]: cells } : {}),
});

export function toStagedRow(
  r: Pick<RowRecord, 'id' | 'fila' | 'accion' | 'productoId' | 'datos' | 'errores'>,
): StagedRow {
  const { datos } = splitDatos(r.datos);
  return {
    id: r.id,
    fila: r.fila,
    accion: r.accion,
    producto_id: r.productoId,
    datos,
    errores: r.errores,
    nombre: datos.nombre,
    codigo: datos.codigo,
    precio_venta: datos.precio_venta,
    stock_actual: datos.stock_actual,
  };
}

/** The caller's staging, if it has not expired (an expired one is removed on the way). */
export async function currentBatch(ex: Executor, businessId: string, userId: string, now: Date, lock = false) {
  const b = await batchOf(businessId, userId, lock, ex);
  if (!b) return null;
  if (b.expiraEn <= now) {
    await deleteBatch(businessId, b.id, ex);
    return null;
  }
  return b;
}

type UploadOptions = { hoja?: string; mapeo?: Record<string, string | null> };

/**
 * POST /import/upload: parses and checks every row and stages it, replacing the caller's previous
 * staging. When columns are missing, the 422 carries each column's first values too, so the
 * wizard's column step shows what each one holds.
 */
export async function upload(
  db: Db,
  businessId: string,
  userId: string,
  file: UploadedFile,
  opts: UploadOptions,
  now: Date,
): Promise<ImportUploadResult> {
  try {
    return await stage(db, businessId, userId, file, opts, now);
  } catch (e) {
    if (!(e instanceof AppError) || !Array.isArray(e.extra.columnas_originales)) throw e;
    const columnas = await samplesOf(file, opts.hoja, e.extra).catch(() => null);
    if (!columnas) throw e;
    throw new AppError(e.status, e.code, e.detail, { ...e.extra, columnas_archivo: columnas }, e.headers);
  }
}

/** The first values of each column the 422 names: the rows under its header row, read again. */
async function samplesOf(file: UploadedFile, hoja: string | undefined, extra: Record<string, unknown>) {
  const originales = extra.columnas_originales as string[];
  const known = new Map(((extra.columnas ?? []) as ImportColumn[]).map((c) => [c.columna, c.campo]));
  const muestras = columnSamples({ originales, fields: originales.map((h) => known.get(h) ?? null) });
  const f = await open(file);
  let header = false;
  let n = 0;
  for await (const { cells } of f.rows(sheetOf(f, hoja))) {
    if (!nonEmpty(cells)) continue;
    if (header) {
      muestras.add(cells);
      if (++n >= SAMPLE_ROWS) break;
    } else header = cells.map((c) => (c === null ? '' : String(c).trim())).join('\u0000') === originales.join('\u0000');
  }
  return header ? muestras.columnas : null;
}
const SAMPLE_ROWS = 50;

async function stage(
  db: Db,
  businessId: string,
  userId: string,
  file: UploadedFile,
  opts: UploadOptions,
  now: Date,
): Promise<ImportUploadResult> {
  const f = await open(file);
  const sheet = sheetOf(f, opts.hoja);
  const expira = new Date(now.getTime() + IMPORT_STAGING_HOURS * 3600_000);
  return db.transaction(async (tx) => {
    await deleteUserBatch(businessId, userId, tx);
    const checker = new RowChecker();
    await checker.load(tx, businessId);
    const batchId = randomUUID();
    let mapping: Mapping | null = null;
    let muestras: ReturnType<typeof columnSamples> | null = null;
    const preview: StagedRow[] = [];
    const nuevasCategorias = new Map<string, string>();
    const counts = { total: 0, validos: 0, con_errores: 0, nuevos: 0, nuevos_sin_stock: 0, actualizaciones: 0 };
    let buffer: Record<string, unknown>[] = [];
    const flush = async () => {
      if (!buffer.length) return;
      await insertStagedRows(businessId, batchId, buffer, tx);
      buffer = [];
    };
    for await (const r of dataRows(f, sheet, opts.mapeo)) {
      if (r.kind === 'header') {
        mapping = r.mapping;
        muestras = columnSamples(mapping);
        await insertBatch(
          businessId,
          {
            id: batchId,
            userId,
            archivo: file.filename,
            hoja: sheet.nombre,
            columnas: mapping.columnas,
            columnasIgnoradas: mapping.ignoradas,
            columnasOriginales: mapping.originales,
            expiraEn: expira,
          },
          tx,
        );
        continue;
      }
      muestras!.add(r.cells);
      const c = checker.check(r.fila, r.datos, r.parseErrors);
      counts.total++;
      if (c.errores.length) counts.con_errores++;
      else {
        counts.validos++;
        if (c.accion === 'nuevo') {
          counts.nuevos++;
          if (r.datos.stock_actual === null) counts.nuevos_sin_stock++;
        } else counts.actualizaciones++;
        const cat = r.datos.categoria_nombre;
        if (cat && checker.isNewCategory(cat) && !nuevasCategorias.has(lower(cat)))
          nuevasCategorias.set(lower(cat), cat);
      }
      const row = {
        id: randomUUID(),
        fila: r.fila,
        accion: c.accion,
        producto_id: c.productoId,
        datos: storedDatos(r.datos, r.parseErrors, c.errores.length ? r.cells : null),
        errores: c.errores,
      };
      if (preview.length < IMPORT_PREVIEW_ROWS) {
        preview.push(toStagedRow({ ...row, productoId: row.producto_id }));
      }
      buffer.push(row);
      if (buffer.length >= BATCH) await flush();
    }
    await flush();
    const summary: ImportSummary = {
      ...counts,
      archivo: file.filename,
      hoja: sheet.nombre,
      categorias_nuevas: [...nuevasCategorias.values()].slice(0, 200),
      expira_en: expira.toISOString(),
    };
    return {
      ...summary,
      columnas: mapping!.columnas,
      columnas_ignoradas: mapping!.ignoradas,
      columnas_originales: mapping!.originales,
      columnas_archivo: muestras!.columnas,
      errores_generales: [],
      total_filas: counts.total,
      filas_validas: counts.validos,
      filas_con_errores: counts.con_errores,
      productos_temporales: preview,
    };
  });
}

const EMPTY_SUMMARY: ImportSummary = {
  total: 0,
  validos: 0,
  con_errores: 0,
  nuevos: 0,
  nuevos_sin_stock: 0,
  actualizaciones: 0,
  archivo: null,
  hoja: null,
  categorias_nuevas: [],
  expira_en: null,
};

/** GET /import/resumen: zeros and `archivo: null` when nothing is staged. */
export async function summary(db: Db, businessId: string, userId: string, now: Date) {
  const b = await currentBatch(db, businessId, userId, now);
  if (!b) return { ...EMPTY_SUMMARY, columnas: [], columnas_ignoradas: [], columnas_originales: [] };
  const { counts, cats } = await stagedSummary(businessId, b.id, db);
  return {
    total: counts.total,
    validos: counts.validos,
    con_errores: counts.total - counts.validos,
    nuevos: counts.nuevos,
    nuevos_sin_stock: counts.nuevosSinStock,
    actualizaciones: counts.actualizaciones,
    archivo: b.archivo,
    hoja: b.hoja,
    categorias_nuevas: cats.map((c) => c.nombre),
    expira_en: b.expiraEn.toISOString(),
    columnas: b.columnas,
    columnas_ignoradas: b.columnasIgnoradas,
    columnas_originales: b.columnasOriginales,
  };
}

/** GET /import/productos-temporales: staged rows by `fila`. */
export async function listStaged(db: Db, businessId: string, userId: string, q: StagedRowsQuery, now: Date) {
  const b = await currentBatch(db, businessId, userId, now);
  if (!b) return { rows: [], total: 0 };
  const { rows, total } = await stagedRows(businessId, b.id, q, db);
  return { rows: rows.map(toStagedRow), total };
}

const rowNotFound = () => notFound(IMPORT_MESSAGES.rowNotFound);

/** PUT /import/productos-temporales/{tid}: edits `datos` and checks the row again. */
export async function updateStaged(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  patch: StagedRowUpdate,
  now: Date,
): Promise<StagedRow> {
  return db.transaction(async (tx) => {
    const b = await currentBatch(tx, businessId, userId, now);
    if (!b) throw rowNotFound();
    const row = await lockStagedRow(businessId, b.id, id, tx);
    if (!row) throw rowNotFound();
    const { datos, parseErrors, cells } = splitDatos(row.datos);
    const next: ImportRowData = { ...datos };
    const errs: ParseErrors = { ...parseErrors };
    for (const [k, v] of Object.entries(patch) as [keyof ImportRowData, unknown][]) {
      if (v === undefined) continue;
      delete errs[k];
      if (k === 'precio_venta' || k === 'precio_compra') next[k] = v === null ? null : (v as number) / 100;
      else if (k === 'stock_actual' || k === 'stock_minimo') next[k] = v === null ? null : (v as number) / 1000;
      else (next as unknown as Record<string, unknown>)[k] = v;
    }
    // Checked against the products and the other staged rows as they are now.
    const checker = new RowChecker();
    if (next.codigo) {
      const p = await productIdByKey(businessId, { codigo: next.codigo }, tx);
      if (p) checker.codes.set(lower(next.codigo), p);
      const prev = await firstStagedBefore(
        businessId,
        b.id,
        row.fila,
        sql`lower(datos->>'codigo') = lower(${next.codigo})`,
        tx,
      );
      if (prev) checker.seenCodes.set(lower(next.codigo), prev);
    }
    if (next.codigo_barras) {
      const p = await productIdByKey(businessId, { codigoBarras: next.codigo_barras }, tx);
      if (p) checker.barcodes.set(next.codigo_barras, p);
      const prev = await firstStagedBefore(
        businessId,
        b.id,
        row.fila,
        sql`datos->>'codigo_barras' = ${next.codigo_barras}`,
        tx,
      );
      if (prev) checker.seenBarcodes.set(next.codigo_barras, prev);
    }
    const target = checker.match(next);
    if (target) {
      const prev = await firstStagedBefore(businessId, b.id, row.fila, sql`producto_id = ${target}`, tx);
      if (prev) checker.seenProducts.set(target, prev);
    }
    const c = checker.check(row.fila, next, errs);
    const stored = storedDatos(next, errs, cells);
    const updated = await updateStagedRow(
      businessId,
      id,
      { datos: stored, errores: c.errores, accion: c.accion, productoId: c.productoId },
      tx,
    );
    return toStagedRow(updated);
  });
}

/** POST /import/confirmar: applies the staged rows in one transaction, checking each again, then clears the staging. */
export async function confirm(
  db: Db,
  businessId: string,
  userId: string,
  input: ImportConfirmInput,
  now: Date,
): Promise<ImportConfirmResult> {
  try {
    return await db.transaction(async (tx) => {
      const b = await currentBatch(tx, businessId, userId, now, true);
      if (!b) throw conflict('INVALID_STATE', IMPORT_MESSAGES.nothingStaged);
      await lockImports(tx, businessId);
      await precioOrigen(tx, { origen: 'importacion', userId });
      const checker = new RowChecker({ createCategories: input.crear_categorias_nuevas });
      await checker.load(tx, businessId);
      const writer = new ProductWriter(tx, businessId, userId, checker, input.stock_vacio);
      const errores: ImportRowError[] = [];
      let omitidos = 0;
      const only = input.productos_ids ? new Set(input.productos_ids) : null;
      let lastFila = 0;
      for (;;) {
        const page = await stagedPage(businessId, b.id, lastFila, BATCH, tx);
        if (!page.length) break;
        lastFila = page[page.length - 1].fila;
        for (const row of page) {
          if (only && !only.has(row.id)) continue;
          const { datos, parseErrors } = splitDatos(row.datos);
          const c = checker.check(row.fila, datos, parseErrors);
          if (c.errores.length) {
            omitidos++;
            if (errores.length < MAX_REPORTED_ERRORS) errores.push({ fila: row.fila, mensaje: c.errores.join(' ') });
            continue;
          }
          if (c.productoId && !input.sobrescribir_existentes) {
            omitidos++;
            continue;
          }
          await writer.add({ fila: row.fila, datos, productoId: c.productoId });
        }
      }
      await writer.flush();
      await audit(tx, {
        businessId,
        userId,
        entidad: 'importacion',
        entidadId: b.id,
        accion: 'importar',
        despues: {
          archivo: b.archivo,
          hoja: b.hoja,
          creados: writer.creados,
          actualizados: writer.actualizados,
          categorias_creadas: writer.categoriasCreadas,
          omitidos,
        },
      });
      await deleteBatch(businessId, b.id, tx);
      return {
        creados: writer.creados,
        actualizados: writer.actualizados,
        omitidos,
        categorias_creadas: writer.categoriasCreadas,
        errores,
        productos_creados: writer.creados,
        productos_actualizados: writer.actualizados,
      };
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (isUniqueViolation(e)) throw raced();
    throw e;
  }
}

/** DELETE /import/cancelar: discards the caller's staging. */
export async function cancel(db: Db, businessId: string, userId: string) {
  return db.transaction(async (tx) => {
    const batchId = await lockBatchId(businessId, userId, tx);
    if (!batchId) return { message: IMPORT_MESSAGES.cancelled, filas_descartadas: 0 };
    const n = await stagedCount(businessId, batchId, tx);
    await deleteBatch(businessId, batchId, tx);
    return { message: IMPORT_MESSAGES.cancelled, filas_descartadas: n };
  });
}
