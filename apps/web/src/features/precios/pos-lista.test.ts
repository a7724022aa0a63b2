import { describe, expect, it } from 'vitest';
import { addItem, setPrice, type CatalogItem } from '../pos/cart';
import { aplicarLista, precioEnLista } from './pos-lista';

const martillo: CatalogItem = {
  id: 'm',
  tipo: 'producto',
  nombre: 'Martillo',
  codigo: null,
  codigo_barras: null,
  precio: 100_000,
  stock: 10_000,
  unidad: 'unidad',
  listas: [
    { lista_id: 'may', precio: 90_000, cantidad_minima: null },
    { lista_id: 'obra', precio: 85_000, cantidad_minima: 6_000 },
  ],
};

describe('the price list at the counter', () => {
  it('prices an item from the list, from its minimum quantity', () => {
    expect(precioEnLista(martillo, null, 1000)).toBe(100_000);
    expect(precioEnLista(martillo, 'may', 1000)).toBe(90_000);
    expect(precioEnLista(martillo, 'obra', 5_000)).toBe(100_000);
    expect(precioEnLista(martillo, 'obra', 6_000)).toBe(85_000);
    expect(precioEnLista(martillo, 'otra', 1000)).toBe(100_000);
  });

  it('reprices the lines when the list changes and back, keeping a price typed by hand', () => {
    const lines = addItem([], martillo);
    const may = aplicarLista(lines, 'may');
    expect(may[0]).toMatchObject({ precio: 90_000, item: { precio: 90_000, precio_minorista: 100_000 } });
    expect(aplicarLista(may, 'may')).toBe(may);
    expect(aplicarLista(may, null)[0]).toMatchObject({ precio: 100_000, item: { precio: 100_000 } });
    const typed = setPrice(may, may[0].key, 70_000);
    expect(aplicarLista(typed, null)[0]).toMatchObject({ precio: 70_000, item: { precio: 100_000 } });
  });
});
