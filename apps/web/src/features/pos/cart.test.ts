import { describe, expect, it } from 'vitest';
import {
  addItem,
  exactMatch,
  newKey,
  overStock,
  removeLine,
  setPrice,
  setQuantity,
  totals,
  type CatalogItem,
} from './cart';

const yerba: CatalogItem = {
  id: 'p1',
  tipo: 'producto',
  nombre: 'Yerba',
  codigo: 'YER001',
  codigo_barras: '7790387000019',
  precio: 400000,
  stock: 2000,
  unidad: 'unidad',
};
const queso: CatalogItem = {
  ...yerba,
  id: 'p2',
  nombre: 'Queso',
  codigo: 'QUE001',
  codigo_barras: null,
  precio: 980050,
  unidad: 'kg',
};
const envio: CatalogItem = {
  ...yerba,
  id: 's1',
  tipo: 'servicio',
  nombre: 'Envío',
  codigo: null,
  codigo_barras: null,
  precio: 150000,
  stock: null,
};

describe('pos cart', () => {
  it('adds, merges, edits and removes lines with exact totals', () => {
    let lines = addItem([], yerba);
    lines = addItem(lines, yerba);
    lines = addItem(lines, queso, 333);
    lines = addItem(lines, envio);
    expect(lines.map((l) => [l.item.id, l.cantidad])).toEqual([
      ['p1', 2000],
      ['p2', 333],
      ['s1', 1000],
    ]);
    // 2 × 4000 + round(0.333 × 9800.50 = 3263.5665 → 3263.57) + 1500
    expect(totals(lines)).toEqual({ subtotal: 1276357, descuento: 0, total: 1276357, unidades: 3333 });
    lines = setQuantity(lines, 'producto:p1', 3000);
    expect(overStock(lines[0])).toBe(true);
    lines = setPrice(lines, 'servicio:s1', 0);
    lines = removeLine(lines, 'producto:p2');
    expect(totals(lines, 50000)).toEqual({ subtotal: 1200000, descuento: 50000, total: 1150000, unidades: 4000 });
    expect(totals(lines, 99999999).total).toBe(0);
  });

  it('finds the item a scanner typed, by barcode or code', () => {
    expect(exactMatch([queso, yerba], '7790387000019')).toBe(yerba);
    expect(exactMatch([queso, yerba], ' que001 ')).toBe(queso);
    expect(exactMatch([queso, yerba], '77903')).toBeNull();
  });

  it('makes idempotency keys', () => {
    expect(newKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
