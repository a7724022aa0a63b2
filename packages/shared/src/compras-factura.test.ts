import { describe, expect, it } from 'vitest';
import { comprobanteNumero, facturaInput, facturaIssues, ivaCreditCents, ivaOf } from './compras-factura.js';

const mixed = {
  tipo: 'A',
  punto_venta: 3,
  numero: 1234,
  fecha: '2026-11-10',
  iva: [
    { alicuota: '21', neto: '1000.00', iva: '210.00' },
    { alicuota: '10.5', neto: '333.33', iva: '35.00' },
  ],
  percepcion_iva: '40.00',
  percepcion_iibb: '26.67',
  otros_impuestos: '5',
  total: '1650.00',
};

describe('supplier invoice', () => {
  it('IVA per rate rounds half-up to the cent', () => {
    expect(ivaOf(100000, '21')).toBe(21000);
    expect(ivaOf(33333, '10.5')).toBe(3500); // 3499.965
    expect(ivaOf(1, '27')).toBe(0);
    expect(ivaOf(2, '27')).toBe(1); // 0.54
    expect(ivaOf(5000, '0')).toBe(0);
  });

  it('a mixed 21 % + 10,5 % invoice with percepciones adds up to its total', () => {
    const r = facturaInput.safeParse(mixed);
    expect(r.success).toBe(true);
    expect(r.data?.total).toBe(165000);
    expect(r.data?.no_gravado).toBe(0);
    expect(r.data && ivaCreditCents(r.data)).toBe(24500);
  });

  it('names the difference when the pieces do not add up', () => {
    const r = facturaInput.safeParse({ ...mixed, total: '1650.01' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['total']);
    expect(r.error?.issues[0].message).toContain('$ 0,01');
  });

  it('rejects a rate whose IVA is more than one cent off', () => {
    const issues = facturaIssues({
      tipo: 'A',
      iva: [{ alicuota: '21', neto: 100000, iva: 21002 }],
      no_gravado: 0,
      exento: 0,
      percepcion_iva: 0,
      percepcion_iibb: 0,
      otros_impuestos: 0,
      total: 121002,
    });
    expect(issues).toEqual([{ field: 'iva.0.iva', message: expect.stringContaining('$ 210,00') }]);
    // One cent off is the supplier's rounding: accepted.
    expect(
      facturaIssues({
        tipo: 'A',
        iva: [{ alicuota: '21', neto: 100000, iva: 21001 }],
        no_gravado: 0,
        exento: 0,
        percepcion_iva: 0,
        percepcion_iibb: 0,
        otros_impuestos: 0,
        total: 121001,
      }),
    ).toEqual([]);
  });

  it('only a factura A discriminates IVA; B and C go in no gravado with no credit', () => {
    const b = facturaInput.safeParse({ ...mixed, tipo: 'b' });
    expect(b.success).toBe(false);
    expect(b.error?.issues.map((i) => i.path.join('.'))).toContain('iva');
    const c = facturaInput.parse({
      tipo: 'C',
      punto_venta: '1',
      numero: '7',
      fecha: '2026-11-01',
      no_gravado: 500,
      total: 500,
    });
    expect(c.tipo).toBe('C');
    expect(ivaCreditCents(c)).toBe(0);
  });

  it('rejects a repeated rate and a bad punto de venta', () => {
    const r = facturaInput.safeParse({
      ...mixed,
      punto_venta: 0,
      iva: [mixed.iva[0], mixed.iva[0]],
    });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toContain('punto_venta');
  });

  it('prints the number as AFIP does', () => {
    expect(comprobanteNumero(3, 1234)).toBe('0003-00001234');
  });
});
