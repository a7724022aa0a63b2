import { describe, expect, it } from 'vitest';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import { movementForm, purchaseForm, serviceInput } from '@mostrador/shared';
import { decimalResolver, decimalText, NEGATIVE_MESSAGE, readDecimal, type DecimalKind } from './decimal-input';

const MONEY = 'Monto no válido. Usá el formato 1.234,50.';
const QTY = 'Cantidad no válida. Usá el formato 1,5 (hasta 3 decimales).';
const PCT = 'Porcentaje no válido. Usá el formato 12,5 (hasta 2 decimales).';
const INT = 'Debe ser un número entero, sin decimales.';

const ok = (input: string, kind: DecimalKind) => {
  const r = readDecimal(input, kind);
  if (!r.ok) throw new Error(`${input}: ${r.message}`);
  return r;
};
const refused = (input: string, kind: DecimalKind) => {
  const r = readDecimal(input, kind);
  return r.ok ? `accepted as ${r.text}` : r.message;
};

describe('readDecimal', () => {
  it('reads amounts as typed in Argentina, and keypad dots', () => {
    const cases: [string, number, string][] = [
      ['1234,56', 1234.56, '1234.56'],
      ['1.234,56', 1234.56, '1234.56'],
      ['$ 1.234,50', 1234.5, '1234.50'],
      ['800,50', 800.5, '800.50'],
      ['12.345', 12345, '12345.00'],
      ['1.500', 1500, '1500.00'],
      ['1.234.567', 1234567, '1234567.00'],
      ['1500.50', 1500.5, '1500.50'],
      ['0.25', 0.25, '0.25'],
      ['0,5', 0.5, '0.50'],
      [' 12 ', 12, '12.00'],
      ['0', 0, '0'],
    ];
    for (const [input, value, text] of cases) expect(ok(input, 'money'), input).toEqual({ ok: true, value, text });
  });

  it('leaves an empty field empty (the schema says whether it is required)', () => {
    expect(readDecimal('', 'money')).toEqual({ ok: true, value: null, text: '' });
    expect(readDecimal('   ', 'quantity')).toEqual({ ok: true, value: null, text: '' });
  });

  it('refuses what is not an amount with a message, never a different number', () => {
    for (const input of [
      'abc',
      '12,345',
      '1,234',
      '1.2345',
      '12.34.5',
      '1,2,3',
      '1e3',
      '12a',
      '1.234,567',
      '--5',
      '+5',
    ])
      expect(refused(input, 'money'), input).toBe(MONEY);
    expect(refused('99999999999999999999', 'money')).toBe(MONEY);
  });

  it('refuses negative amounts', () => {
    expect(refused('-5', 'money')).toBe(NEGATIVE_MESSAGE);
    expect(refused('-1.234,50', 'money')).toBe(NEGATIVE_MESSAGE);
    expect(ok('-0', 'money').text).toBe('0');
  });

  it('reads quantities with up to 3 decimals; a lone dot is the decimal mark', () => {
    expect(ok('1,5', 'quantity')).toMatchObject({ value: 1.5, text: '1.500' });
    expect(ok('2.250', 'quantity')).toMatchObject({ value: 2.25, text: '2.250' });
    expect(ok('0.25', 'quantity')).toMatchObject({ value: 0.25, text: '0.250' });
    expect(ok('1.234,5', 'quantity')).toMatchObject({ value: 1234.5, text: '1234.500' });
    expect(ok('24', 'quantity')).toMatchObject({ value: 24, text: '24.000' });
    expect(refused('1,2345', 'quantity')).toBe(QTY);
    expect(refused('uno', 'quantity')).toBe(QTY);
    expect(refused('-4', 'quantity')).toBe(NEGATIVE_MESSAGE);
  });

  it('keeps a leading minus where negatives are allowed: stock adjustments and percentages', () => {
    expect(ok('-4', 'signedQuantity')).toMatchObject({ value: -4, text: '-4.000' });
    expect(ok('-1,5', 'signedQuantity')).toMatchObject({ value: -1.5, text: '-1.500' });
    expect(ok('− 2', 'signedQuantity')).toMatchObject({ value: -2, text: '-2.000' });
    expect(refused('-', 'signedQuantity')).toBe(QTY);
    expect(ok('-12,5', 'percent')).toMatchObject({ value: -12.5, text: '-12.50' });
    expect(ok('10', 'percent')).toMatchObject({ value: 10, text: '10.00' });
    expect(ok('7.5', 'percent')).toMatchObject({ value: 7.5, text: '7.50' });
    expect(refused('12,345', 'percent')).toBe(PCT);
    expect(refused('diez', 'percent')).toBe(PCT);
  });

  it('reads whole numbers and refuses decimals', () => {
    expect(ok('90', 'integer')).toMatchObject({ value: 90, text: '90' });
    expect(ok('1.440', 'integer')).toMatchObject({ value: 1440, text: '1440' });
    for (const input of ['1,5', '1.5', '90,0', '12.34', 'x']) expect(refused(input, 'integer'), input).toBe(INT);
    expect(refused('-3', 'integer')).toBe(NEGATIVE_MESSAGE);
  });
});

describe('decimalText', () => {
  it('shows stored numbers with a decimal comma and no grouping', () => {
    expect(decimalText(1234.56, 'money')).toBe('1234,56');
    expect(decimalText(1500.5, 'money')).toBe('1500,50');
    expect(decimalText(1200, 'money')).toBe('1200');
    expect(decimalText(1.5)).toBe('1,5');
    expect(decimalText(-12.5, 'percent')).toBe('-12,5');
    expect(decimalText(null, 'money')).toBe('');
    expect(decimalText(undefined)).toBe('');
  });

  it('round-trips through readDecimal', () => {
    for (const [n, kind] of [
      [1234.56, 'money'],
      [1500, 'money'],
      [0.05, 'money'],
      [2.25, 'quantity'],
      [1234.5, 'quantity'],
      [-3.125, 'signedQuantity'],
      [-12.5, 'percent'],
    ] as [number, DecimalKind][])
      expect(ok(decimalText(n, kind), kind).value, `${n}`).toBe(n);
  });
});

const opts = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<FieldValues>;

describe('decimalResolver', () => {
  const movement = {
    tipo: 'ingreso',
    monto: '',
    fecha: '2026-03-10',
    metodo_pago: 'efectivo',
    categoria_id: '',
    cliente_id: '',
    descripcion: '',
    observaciones: '',
  };
  const resolver = decimalResolver(movementForm, { monto: 'money' });

  it('hands the shared schema the amount as typed in Argentina', async () => {
    const r = await resolver({ ...movement, monto: '1234,56' }, undefined, opts);
    expect(r.errors).toEqual({});
    expect((r.values as { monto: number }).monto).toBe(123456);
  });

  it('puts a clear message on the field and no values when the text is not an amount', async () => {
    const r = await resolver({ ...movement, monto: '12,345', fecha: '' }, undefined, opts);
    expect(r.values).toEqual({});
    expect(r.errors.monto?.message).toBe(MONEY);
    // The schema's other errors still show.
    expect(r.errors.fecha?.message).toBeTruthy();
  });

  it("keeps the schema's own messages for empty and out-of-range amounts", async () => {
    expect((await resolver(movement, undefined, opts)).errors.monto?.message).toBe('Este campo es obligatorio.');
    expect((await resolver({ ...movement, monto: '0' }, undefined, opts)).errors.monto?.message).toBe(
      'Debe ser mayor a 0.',
    );
  });

  it('reads each line of an array field', async () => {
    const lines = decimalResolver(purchaseForm, { items: { cantidad: 'quantity', precio_unitario: 'money' } });
    const purchase = {
      proveedor_id: '',
      fecha: '2026-03-10',
      condicion_pago: 'contado',
      metodo_pago: 'efectivo',
      items: [
        { producto_id: '7d3f2f3e-8a4c-4f7e-9c56-0a1b2c3d4e5f', cantidad: '1,5', precio_unitario: '2.750,50' },
        { producto_id: '8d3f2f3e-8a4c-4f7e-9c56-0a1b2c3d4e5f', cantidad: '2', precio_unitario: '900' },
      ],
    };
    const r = await lines(purchase, undefined, opts);
    expect(r.errors).toEqual({});
    expect((r.values as { items: unknown[] }).items).toEqual([
      { producto_id: purchase.items[0].producto_id, cantidad: 1500, precio_unitario: 275050 },
      { producto_id: purchase.items[1].producto_id, cantidad: 2000, precio_unitario: 90000 },
    ]);
    const bad = await lines(
      { ...purchase, items: [purchase.items[0], { ...purchase.items[1], cantidad: '2,5555' }] },
      undefined,
      opts,
    );
    expect((bad.errors.items as unknown as { cantidad?: { message: string } }[])[1].cantidad?.message).toBe(QTY);
  });

  it('refuses decimals in whole-number fields', async () => {
    const service = decimalResolver(serviceInput, { precio: 'money', costo: 'money', duracion_minutos: 'integer' });
    const values = { nombre: 'Corte', precio: '5.000', costo: '', duracion_minutos: '45', categoria_id: '' };
    const r = await service(values, undefined, opts);
    expect(r.errors).toEqual({});
    expect(r.values).toMatchObject({ precio: 500000, costo: null, duracion_minutos: 45 });
    const bad = await service({ ...values, duracion_minutos: '1,5' }, undefined, opts);
    expect(bad.errors.duracion_minutos?.message).toBe(INT);
  });
});
