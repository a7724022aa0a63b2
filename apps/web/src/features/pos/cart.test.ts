import { describe, expect, it } from 'vitest';
import {
  addItem,
  checkQuantity,
  exactMatch,
  isCountable,
  LINE_DISCOUNT_MESSAGES,
  lineDiscount,
  lineDiscounts,
  lineSubtotal,
  newKey,
  overStock,
  QUANTITY_MESSAGES,
  removeLine,
  setLineDiscount,
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
    // An internal code (GS1 prefix 04) read by a scanner in UPC-A mode: its 12 digits.
    const interno = { ...queso, codigo_barras: '0400000000015' };
    expect(exactMatch([yerba, interno], '400000000015')).toBe(interno);
    expect(exactMatch([yerba, interno], '0400000000015')).toBe(interno);
  });

  it('makes idempotency keys', () => {
    expect(newKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('tells items counted in whole units from those sold by weight, volume or length', () => {
    expect(isCountable(yerba)).toBe(true);
    expect(isCountable(envio)).toBe(true);
    expect(isCountable({ ...envio, unidad: 'kg' })).toBe(true); // a service is always counted
    for (const unidad of [
      'unidad',
      'Unidad',
      ' UNIDADES ',
      'Unid.',
      'u',
      'caja',
      'Cajas',
      'paquete',
      'pack',
      'par',
      '',
    ])
      expect(isCountable({ tipo: 'producto', unidad }), unidad).toBe(true);
    for (const unidad of ['kg', 'g', 'litro', 'ml', 'metro', 'docena', 'rollo de 50 m'])
      expect(isCountable({ tipo: 'producto', unidad }), unidad).toBe(false);
  });

  it('takes only whole quantities from 1 for countable items, up to 3 decimals for the rest', () => {
    expect(checkQuantity('3', yerba)).toEqual({ cantidad: 3000, error: null });
    expect(checkQuantity('1.000', yerba)).toEqual({ cantidad: 1000, error: null });
    for (const text of ['0,5', '1,5', '0.5', '0', '', 'abc', '-1', '2,001'])
      expect(checkQuantity(text, yerba), text).toEqual({ cantidad: null, error: QUANTITY_MESSAGES.wholeOnly });
    expect(checkQuantity('0,5', envio).error).toBe(QUANTITY_MESSAGES.wholeOnly);

    expect(checkQuantity('0,5', queso)).toEqual({ cantidad: 500, error: null });
    expect(checkQuantity('0.25', queso)).toEqual({ cantidad: 250, error: null });
    expect(checkQuantity('2.250', queso)).toEqual({ cantidad: 2250, error: null });
    expect(checkQuantity('1,234', queso)).toEqual({ cantidad: 1234, error: null });
    for (const text of ['0', '0,000', '1,2345', 'abc', ''])
      expect(checkQuantity(text, queso), text).toEqual({ cantidad: null, error: QUANTITY_MESSAGES.invalid });
  });
});

describe('a discount on one line', () => {
  it('takes an amount or a % of that line (rounded down), and the totals follow', () => {
    let lines = addItem(addItem([], yerba, 3000), queso, 1000);
    lines = setLineDiscount(lines, 'producto:p1', '1.000,50');
    expect(lineDiscount(lines[0])).toEqual({ cents: 100050, error: null });
    expect(lineSubtotal(lines[0])).toBe(1200000 - 100050);
    lines = setLineDiscount(lines, 'producto:p2', '15%');
    // 15 % of 9.800,50 = 1.470,075 → 1.470,07.
    expect(lineDiscount(lines[1]).cents).toBe(147007);
    expect(lineDiscounts(lines)).toBe(100050 + 147007);
    expect(totals(lines).subtotal).toBe(1200000 - 100050 + 980050 - 147007);
  });

  it('refuses what it cannot read or what exceeds the line, and then takes nothing off', () => {
    const lines = addItem([], yerba);
    const bad = setLineDiscount(lines, 'producto:p1', 'diez');
    expect(lineDiscount(bad[0])).toEqual({ cents: 0, error: LINE_DISCOUNT_MESSAGES.invalid });
    const over = setLineDiscount(lines, 'producto:p1', '4000,01');
    expect(lineDiscount(over[0])).toEqual({ cents: 0, error: LINE_DISCOUNT_MESSAGES.tooHigh });
    expect(lineSubtotal(over[0])).toBe(400000);
    expect(lineDiscount(setLineDiscount(lines, 'producto:p1', '  ')[0])).toEqual({ cents: 0, error: null });
  });
});
