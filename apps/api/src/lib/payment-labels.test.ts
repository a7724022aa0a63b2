import { describe, expect, it } from 'vitest';
import { withPaymentLabels } from './payment-labels.js';

describe('withPaymentLabels', () => {
  it('adds the label right after each metodo_pago, at any depth, keeping the keys in order', () => {
    const out = withPaymentLabels({
      total: 10,
      por_metodo_pago: [
        { metodo_pago: 'tarjeta_debito', total: 5 },
        { metodo_pago: null, total: 5 },
      ],
      venta: { id: 'v1', metodo_pago: 'efectivo', items: [{ nombre: 'Yerba' }] },
    });
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({
        total: 10,
        por_metodo_pago: [
          { metodo_pago: 'tarjeta_debito', metodo_pago_label: 'Tarjeta de Débito', total: 5 },
          { metodo_pago: null, metodo_pago_label: null, total: 5 },
        ],
        venta: { id: 'v1', metodo_pago: 'efectivo', metodo_pago_label: 'Efectivo', items: [{ nombre: 'Yerba' }] },
      }),
    );
  });

  it('copies only what gets a label: the rest is returned as it came, and the input is never changed', () => {
    const items = [{ nombre: 'Yerba', cantidad: 2 }];
    const dia = { fecha: '2026-03-20', total: 10 };
    const input = { por_dia: [dia], items, pagos: [{ metodo_pago: 'efectivo' }], fecha: new Date(0) };
    const out = withPaymentLabels(input) as typeof input;
    expect(out).not.toBe(input);
    expect(out.items).toBe(items);
    expect(out.por_dia[0]).toBe(dia);
    expect(out.fecha).toBe(input.fecha);
    expect(input.pagos[0]).toEqual({ metodo_pago: 'efectivo' });
    const plain = { a: [{ b: 1 }], c: 'x' };
    expect(withPaymentLabels(plain)).toBe(plain);
  });
});
