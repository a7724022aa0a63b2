import type { Product, ProductConListas } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { MONEY_FMT, type ExportColumn } from '../products/common.js';
import { activeListas, preciosEnListas } from './precios.service.js';

/* The products list and export show each active price list's price (issue 17). */

/** The page of products with `precios_listas` when the business has active lists (unchanged otherwise). */
export async function conPreciosDeListas(
  ex: Executor,
  businessId: string,
  rows: Product[],
): Promise<ProductConListas[]> {
  if (!rows.length) return rows;
  const { reglas, nombres, activas } = await activeListas(ex, businessId);
  if (!activas.length) return rows;
  const precios = await preciosEnListas(ex, businessId, rows, reglas, nombres);
  return rows.map((p) => ({ ...p, precios_listas: precios.get(p.id) ?? [] }));
}

/**
 * One column per active list, headed "Lista <nombre>" (no import synonym, so re-importing the
 * file leaves the lists alone), and the pages' products with their list prices.
 */
export async function exportColumnsDeListas(ex: Executor, businessId: string) {
  const { reglas, nombres, activas } = await activeListas(ex, businessId);
  const columns: ExportColumn<Product>[] = activas.map((l) => ({
    header: `Lista ${l.nombre}`,
    numFmt: MONEY_FMT,
    value: (p: Product) => (p as ProductConListas).precios_listas?.find((x) => x.lista_id === l.id)?.precio ?? null,
  }));
  return {
    columns,
    withPrices: async (rows: Product[]): Promise<Product[]> => {
      if (!activas.length || !rows.length) return rows;
      const precios = await preciosEnListas(ex, businessId, rows, reglas, nombres);
      return rows.map((p) => ({ ...p, precios_listas: precios.get(p.id) ?? [] }));
    },
  };
}
