import type { ColumnaArchivo } from '@mostrador/shared';
import type { Cell } from './spreadsheet.js';

/*
 * The column step's samples: each column of the file, how it is read and its first non-empty
 * values, so a column is recognised by what it holds. Used by the product import and the
 * supplier's list.
 */

const MUESTRAS = 3;
const cellText = (c: Cell | undefined) => (c === null || c === undefined ? '' : String(c).trim());

/** `fields`: how each column is read (null: ignored), by position as `originales`. */
export function columnSamples(mapping: { originales: string[]; fields: (string | null)[] }) {
  const columnas: ColumnaArchivo[] = mapping.originales.map((columna, i) => ({
    columna,
    campo: mapping.fields[i],
    muestras: [],
  }));
  return {
    columnas,
    /** Takes the samples a data row adds. */
    add(cells: Cell[]) {
      columnas.forEach((c, i) => {
        const t = cellText(cells[i]);
        if (t && c.muestras.length < MUESTRAS) c.muestras.push(t);
      });
    },
  };
}
