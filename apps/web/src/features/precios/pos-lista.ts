import type { PrecioEnLista } from '@mostrador/shared';
import type { CartLine, CatalogItem } from '../pos/cart';

/*
 * The price list at the counter (issue 17). The server prices each line from the sale's list
 * (record-sale); the POS shows the same price: each item carries its Minorista price and its price
 * in every list (from the products list), and a line not priced by hand follows the list.
 */

/** An item's list prices in cents and thousandths, as the products list sends them. */
export interface ItemLista {
  lista_id: string;
  precio: number;
  cantidad_minima: number | null;
}

export const itemListas = (listas: PrecioEnLista[] | undefined): ItemLista[] | undefined =>
  listas?.map((l) => ({
    lista_id: l.lista_id,
    precio: Math.round(l.precio * 100),
    cantidad_minima: l.cantidad_minima === null ? null : Math.round(l.cantidad_minima * 1000),
  }));

/** The unit price (cents) of `cantidad` thousandths of the item in list `listaId` (null: Minorista). */
export function precioEnLista(item: CatalogItem, listaId: string | null, cantidad: number): number {
  const minorista = item.precio_minorista ?? item.precio;
  if (listaId === null || item.tipo !== 'producto') return minorista;
  const l = item.listas?.find((x) => x.lista_id === listaId);
  if (!l || (l.cantidad_minima !== null && cantidad < l.cantidad_minima)) return minorista;
  return l.precio;
}

/** Lines repriced for the list: a price typed by hand stays; the others follow the list. */
export function aplicarLista(lines: CartLine[], listaId: string | null): CartLine[] {
  let changed = false;
  const next = lines.map((l) => {
    const precio = precioEnLista(l.item, listaId, l.cantidad);
    if (precio === l.item.precio) return l;
    changed = true;
    const item = { ...l.item, precio_minorista: l.item.precio_minorista ?? l.item.precio, precio };
    return { ...l, item, precio: l.precio === l.item.precio ? precio : l.precio };
  });
  return changed ? next : lines;
}
