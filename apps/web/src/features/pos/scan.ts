import { readScaleLabel, sameScaleCode, splitQuantity, type ScaleLayout } from '@mostrador/shared/scale';
import { searchRank } from '@mostrador/shared/search-rank';
import { checkQuantity, exactMatch, rankCatalog, type CatalogItem } from './cart';

/** What Enter takes as a code: digits only (a barcode, or a product's numeric code). */
const NUMERIC_CODE = /^\d+$/;

export const SCAN_MESSAGES = {
  notFound: (t: string) => `No se encontró ningún producto o servicio con «${t}».`,
  notExact: (t: string) =>
    `Ningún producto tiene exactamente el código «${t}»: no se agregó nada. Revisá el código (¿se cortó la lectura?) o elegí el producto de la lista.`,
  notEveryWord: (t: string) =>
    `Ningún producto tiene todo lo que escribiste («${t}»): no se agregó nada. Elegí uno de la lista con las flechas o corregí la búsqueda.`,
} as const;

/** `retype`: put the text back in the box, so the cashier picks from the list or corrects it. */
export type ScanResult = { item: CatalogItem; cantidad: number } | { error: string; retype?: boolean };

/**
 * What Enter in the POS search adds: a scale label (its weight, or the quantity its price buys), a
 * quantity typed before a code ("3*7795791241239"), or one unit of the exact code, the highlighted
 * result or the best match when it holds every word typed (numbers and sizes as whole tokens).
 * `lookup` asks the server; `shown`/`chosen` are what the list shows.
 */
export async function resolveScan(
  typed: string,
  opts: {
    balanza: ScaleLayout | null;
    shown: CatalogItem[];
    chosen?: CatalogItem;
    lookup: (term: string) => Promise<CatalogItem[]>;
  },
): Promise<ScanResult> {
  const { cantidadTexto, termino } = splitQuantity(typed);
  const label = opts.balanza ? readScaleLabel(termino, opts.balanza) : null;
  if (label && 'error' in label) return label;
  if (label) {
    const found = await opts.lookup(label.codigo.replace(/^0+(?=\d)/, ''));
    const item = found.find((i) => i.tipo === 'producto' && sameScaleCode(label.codigo, i.codigo));
    if (!item)
      return { error: `Ningún producto tiene el código de balanza ${label.codigo}: revisá el código del producto.` };
    if (label.valor === 'peso') return { item, cantidad: label.cantidad };
    if (item.precio <= 0)
      return { error: `«${item.nombre}» no tiene precio: no se puede saber cuánto lleva la etiqueta.` };
    return { item, cantidad: Math.max(1, Math.round((label.importe * 1000) / item.precio)) };
  }
  let item = opts.chosen ?? exactMatch(opts.shown, termino);
  if (!item) {
    const fresh = await opts.lookup(termino);
    item = exactMatch(fresh, termino);
    // Digits are a code (typed or a scan cut short): only the exact one is added, never a look-alike.
    if (!item && NUMERIC_CODE.test(termino) && fresh.length) return { error: SCAN_MESSAGES.notExact(termino) };
    if (!item && fresh.length) {
      // The best match is added only when it holds every word and size typed (issue 33).
      const best = rankCatalog(fresh, termino)[0];
      if (searchRank(best, termino) === 2) return { error: SCAN_MESSAGES.notEveryWord(termino), retype: true };
      item = best;
    }
  }
  if (!item) return { error: SCAN_MESSAGES.notFound(termino) };
  if (cantidadTexto === null) return { item, cantidad: 1000 };
  const q = checkQuantity(cantidadTexto, item);
  return q.error === null ? { item, cantidad: q.cantidad } : { error: q.error };
}
