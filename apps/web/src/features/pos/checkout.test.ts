import { describe, expect, it } from 'vitest';
import { formatMoney } from '@/lib/format';
import { checkout, CHECKOUT_MESSAGES } from './checkout';

const money = (cents: number) => formatMoney(cents / 100);
const base = { subtotal: 1690000, descuentoText: '', pagaConText: '', efectivo: true };

describe('pos checkout', () => {
  it('charges the subtotal when nothing is typed, with no change computed', () => {
    expect(checkout(base, money)).toEqual({
      descuento: 0,
      base: 1690000,
      total: 1690000,
      pagaCon: null,
      vuelto: null,
      errors: {},
      shortfall: 0,
    });
  });

  it('adds the medio de pago surcharge or discount to the total, and the change follows it', () => {
    const card = checkout({ ...base, efectivo: false, ajustePorcentaje: 15 }, money);
    expect(card).toMatchObject({ base: 1690000, total: 1943500 });
    const cash = checkout({ ...base, pagaConText: '16.000', ajustePorcentaje: -10 }, money);
    expect(cash).toMatchObject({ total: 1521000, vuelto: 79000, errors: {} });
    const short = checkout({ ...base, pagaConText: '15.000', ajustePorcentaje: -10 }, money);
    expect(short.shortfall).toBe(21000);
  });

  it('reads the discount as amounts are typed in Argentina ("1.500" is fifteen hundred)', () => {
    for (const [text, cents] of [
      ['1.500', 150000],
      ['1500', 150000],
      ['1.500,50', 150050],
      ['$ 1.500', 150000],
      ['0,5', 50],
      ['  ', 0],
    ] as const) {
      const c = checkout({ ...base, descuentoText: text }, money);
      expect(c.errors, text).toEqual({});
      expect(c.descuento, text).toBe(cents);
      expect(c.total, text).toBe(1690000 - cents);
    }
  });

  it('refuses a discount the parser cannot read, or larger than the subtotal, instead of ignoring it', () => {
    for (const text of ['abc', '1,2345', '1.2345', '-100', '12.34.5']) {
      const c = checkout({ ...base, descuentoText: text }, money);
      expect(c.errors.descuento, text).toBe(CHECKOUT_MESSAGES.badAmount);
      expect(c.errors.descuento).toBe('Monto no válido. Usá el formato 1.234,50.');
      expect(c.descuento).toBe(0);
    }
    expect(checkout({ ...base, descuentoText: '16.900' }, money)).toMatchObject({ errors: {}, total: 0 });
    expect(checkout({ ...base, descuentoText: '16.900,01' }, money).errors).toEqual({
      descuento: 'El descuento no puede superar el subtotal.',
    });
  });

  it('computes the change, and refuses cash that does not cover the total', () => {
    expect(checkout({ ...base, pagaConText: '20.000' }, money)).toMatchObject({
      pagaCon: 2000000,
      vuelto: 310000,
      errors: {},
      shortfall: 0,
    });
    expect(checkout({ ...base, pagaConText: '16900' }, money)).toMatchObject({ vuelto: 0, errors: {} });
    const short = checkout({ ...base, descuentoText: '1.500', pagaConText: '15.000' }, money);
    expect(short).toMatchObject({ total: 1540000, vuelto: -40000, shortfall: 40000 });
    expect(short.errors.pagaCon).toBe(`Falta ${money(40000)}: lo que paga no cubre el total.`);
    expect(short.errors.pagaCon).toMatch(/^Falta \$\s400,00: /);
    expect(checkout({ ...base, pagaConText: '15.000,5x' }, money).errors).toEqual({
      pagaCon: CHECKOUT_MESSAGES.badAmount,
    });
  });

  it('ignores "Paga con" when the payment is not cash', () => {
    for (const pagaConText of ['100', 'abc'])
      expect(checkout({ ...base, pagaConText, efectivo: false }, money)).toMatchObject({
        pagaCon: null,
        vuelto: null,
        errors: {},
      });
  });
});

describe('discount in percent and the seller maximum', () => {
  it('reads "10%" as a share of the subtotal, rounded down to the cent', () => {
    for (const [text, cents] of [
      ['10%', 169000],
      ['10 %', 169000],
      ['2,5%', 42250],
      ['0,01%', 169],
      ['100%', 1690000],
    ] as const) {
      const c = checkout({ ...base, descuentoText: text }, money);
      expect(c.errors, text).toEqual({});
      expect(c.descuento, text).toBe(cents);
    }
    expect(checkout({ ...base, subtotal: 999, descuentoText: '10%' }, money).descuento).toBe(99);
    // 10 % of $ 15.487,06 is $ 1.548,706: $ 1.548,70, within a 10 % maximum.
    const c = checkout({ ...base, subtotal: 1548706, descuentoText: '10%', descuentoMaximo: 10 }, money);
    expect(c).toMatchObject({ descuento: 154870, errors: {} });
  });

  it('refuses unreadable percentages and more than the subtotal', () => {
    expect(checkout({ ...base, descuentoText: 'diez%' }, money).errors.descuento).toBe(CHECKOUT_MESSAGES.badPercent);
    expect(checkout({ ...base, descuentoText: '%' }, money).errors.descuento).toBe(CHECKOUT_MESSAGES.badPercent);
    expect(checkout({ ...base, descuentoText: '150%' }, money).errors.descuento).toBe(
      CHECKOUT_MESSAGES.discountTooHigh,
    );
  });

  it('holds the seller to their maximum, exactly at the boundary', () => {
    const max = { ...base, descuentoMaximo: 10 };
    expect(checkout({ ...max, descuentoText: '10%' }, money).errors).toEqual({});
    expect(checkout({ ...max, descuentoText: '1.690' }, money).errors).toEqual({});
    expect(checkout({ ...max, descuentoText: '1.690,01' }, money).errors.descuento).toBe(CHECKOUT_MESSAGES.overMax(10));
    expect(checkout({ ...base, descuentoMaximo: 0, descuentoText: '1' }, money).errors.descuento).toBe(
      CHECKOUT_MESSAGES.overMax(0),
    );
    expect(checkout({ ...base, descuentoMaximo: null, descuentoText: '90%' }, money).errors).toEqual({});
  });
});

describe("the seller's maximum with discounts on the lines", () => {
  it('counts the lines and the sale together against the subtotal before any discount', () => {
    // Lines worth 15.000 before discounts; 1.000 already off them; 10 % allows 1.500 in all.
    const lines = { ...base, subtotal: 1400000, descuentoMaximo: 10, descuentosLineas: 100000 };
    expect(checkout({ ...lines, descuentoText: '500' }, money).errors).toEqual({});
    expect(checkout({ ...lines, descuentoText: '500,01' }, money).errors.descuento).toBe(CHECKOUT_MESSAGES.overMax(10));
    const onlyLines = checkout({ ...lines, descuentosLineas: 200000, subtotal: 1300000 }, money);
    expect(onlyLines.errors.descuento).toBe(CHECKOUT_MESSAGES.overMax(10));
    expect(onlyLines.descuento).toBe(0);
  });
});
