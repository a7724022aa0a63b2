import { describe, expect, it } from 'vitest';
import type { CatalogItem } from '../cart';
import { indexEntry, searchIndexed } from './offline-pos';

const item = (nombre: string, codigo_barras: string, codigo: string | null = null): CatalogItem => ({
  id: nombre,
  tipo: 'producto',
  nombre,
  codigo,
  codigo_barras,
  precio: 100_00,
  stock: 10_000,
  unidad: 'unidad',
});

// Stored in no particular order, as the device keeps the catalogue.
const index = [
  item('Tarugo Fischer 6 mm', '7791000000088', 'TF6'),
  item('Látex interior Alba 20 L', '7792000000204'),
  item('Clavo punta paris 2"', '7790000000020'),
  item('Tarugo Fischer 8 mm', '7791000000801', 'TF8'),
  item('Clavo punta paris 1 1/2"', '7790000000112'),
  item('Látex interior Alba 4 L', '7792000000040'),
  item('Tarugo Fischer 10 mm', '7791000000100'),
].map(indexEntry);
const names = (q: string, limit = 8) => searchIndexed(index, q, limit).map((i) => i.nombre);

describe('the catalogue on the device ranks as the server (issue 33)', () => {
  it('puts the product holding every word and size first', () => {
    expect(names('clavo 2"')).toEqual(['Clavo punta paris 2"', 'Clavo punta paris 1 1/2"']);
    expect(names('Tarugo Fischer 8')).toEqual(['Tarugo Fischer 8 mm', 'Tarugo Fischer 6 mm']);
    expect(names('latex interior alba 4', 1)).toEqual(['Látex interior Alba 4 L']);
  });

  it('an exact code first, then by name; nothing for words no product holds', () => {
    expect(names('tf6')).toEqual(['Tarugo Fischer 6 mm']);
    expect(names('tarugo')).toEqual(['Tarugo Fischer 10 mm', 'Tarugo Fischer 6 mm', 'Tarugo Fischer 8 mm']);
    expect(names('pintura')).toEqual([]);
    expect(names('   ')).toEqual([]);
  });
});
