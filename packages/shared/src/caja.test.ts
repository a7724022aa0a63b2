import { describe, expect, it } from 'vitest';
import { percentOf, settlePayments, type PaymentMedio } from './caja.js';

const cash: PaymentMedio = { id: 'e', nombre: 'Efectivo', tipo: 'efectivo', ajuste_porcentaje: 0 };
const card: PaymentMedio = { id: 'c', nombre: 'Crédito', tipo: 'credito', ajuste_porcentaje: 15 };

describe('settlePayments', () => {
  it('rounds a percentage half away from zero, exactly in cents', () => {
    expect(percentOf(5, 10)).toBe(1); // 0.5 → 1
    expect(percentOf(5, -10)).toBe(-1);
    expect(percentOf(4, 10)).toBe(0);
    expect(percentOf(99_999_999_999_999, 100)).toBe(99_999_999_999_999);
  });

  it('gives change only from cash, from the last cash part', () => {
    const r = settlePayments(10_000, [
      { medio: cash, monto: 5_000 },
      { medio: { ...card, ajuste_porcentaje: 0 }, monto: 3_000 },
      { medio: cash, monto: 4_000 },
    ]);
    expect(r.ok && r.parts.map((p) => [p.monto, p.vuelto])).toEqual([
      [5_000, 0],
      [3_000, 0],
      [2_000, 2_000],
    ]);
    expect(r.ok && r.vuelto).toBe(2_000);
  });

  it('gives the change of a discounted cash payment after its discount', () => {
    const contado: PaymentMedio = { ...cash, ajuste_porcentaje: -10 };
    const r = settlePayments(100_000, [{ medio: contado, monto: 100_000 }]);
    expect(r).toMatchObject({ ok: true, ajuste: -10_000, total: 90_000, vuelto: 10_000 });
    expect(settlePayments(100_000, [{ medio: contado, monto: 89_999 }])).toMatchObject({ ok: false, error: 'short' });
  });

  it('adds each medio adjustment to its part and refuses short or non-cash excess', () => {
    const r = settlePayments(10_000, [{ medio: card, monto: 10_000 }]);
    expect(r).toMatchObject({ ok: true, ajuste: 1_500, total: 11_500 });
    expect(settlePayments(10_000, [{ medio: card, monto: 9_999 }])).toEqual({ ok: false, error: 'short', falta: 1 });
    expect(settlePayments(10_000, [{ medio: card, monto: 10_001 }])).toEqual({ ok: false, error: 'over' });
  });
});
