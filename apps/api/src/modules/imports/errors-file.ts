import { IMPORT_MESSAGES, type ImportField, type ImportRowData } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import type { ExportColumn } from '../products/common.js';
import { errorRowsPage } from './imports.queries.js';
import { currentBatch, splitDatos } from './imports.service.js';
import type { Cell } from './spreadsheet.js';

/*
 * GET /import/errores: the staged rows that cannot be imported, as an .xlsx with the file's own
 * columns and one more, "Errores", to fix them and import the file again.
 */

interface ErrorRow {
  datos: ImportRowData;
  parseErrors: Partial<Record<ImportField, string>>;
  cells: Cell[] | null;
  errores: string[];
}

const PAGE = 1000;

const valueOf = (field: ImportField, datos: ImportRowData): Cell => {
  const v = datos[field];
  if (typeof v === 'boolean') return v ? 'sí' : 'no';
  return v ?? null;
};

/** The columns of the download and its rows, page by page; 404 when the caller has nothing staged. */
export async function stagedErrors(db: Db, businessId: string, userId: string, now: Date) {
  const b = await currentBatch(db, businessId, userId, now);
  if (!b) throw notFound(IMPORT_MESSAGES.nothingStaged);
  // The field of each original column (mapped headers were recorded in the file's order).
  const fields: (ImportField | null)[] = [];
  let next = 0;
  for (const header of b.columnasOriginales) {
    const mapped = b.columnas[next];
    if (header && mapped && mapped.columna === header) {
      fields.push(mapped.campo);
      next++;
    } else fields.push(null);
  }
  const columns: ExportColumn<ErrorRow>[] = fields.map((field, i) => ({
    header: b.columnasOriginales[i] || `Columna ${i + 1}`,
    // An edited or well-read value comes from the row's data; anything else as the file had it.
    value: (r) => (field && !r.parseErrors[field] ? valueOf(field, r.datos) : (r.cells?.[i] ?? null)),
  }));
  columns.push({ header: 'Errores', value: (r) => r.errores.join(' '), width: 60 });

  async function* pages() {
    let lastFila = 0;
    for (;;) {
      const rows = await errorRowsPage(businessId, b!.id, lastFila, PAGE, db);
      if (rows.length) yield rows.map((r) => ({ ...splitDatos(r.datos), errores: r.errores }));
      if (rows.length < PAGE) return;
      lastFila = rows[rows.length - 1].fila;
    }
  }
  return { columns, pages: pages() };
}
