import { describe, expect, it } from 'vitest';
import { formatCuit, invoiceLayout } from './invoice-layout';
import { qrPath } from './arca-qr';
import { sampleComprobante } from './test-fixtures';

describe('invoiceLayout', () => {
  it('a factura B shows final prices, only the total and the IVA contained (Ley 27.743)', () => {
    const l = invoiceLayout(sampleComprobante());
    expect(l.titulo).toBe('FACTURA');
    expect(l.letra).toBe('B');
    expect(l.codigo).toBe('Cód. 006');
    expect(l.numero).toBe('0001-00000023');
    expect(l.discrimina).toBe(false);
    expect(l.lineas[0]).toMatchObject({ precio: 500, subtotal: 1000, alicuota: null });
    expect(l.totales).toEqual([{ label: 'Importe total', value: 1210, strong: true }]);
    expect(l.ivaContenido).toBe(210);
    expect(l.valido).toBe(true);
  });

  it('a factura A discriminates: net prices, the rate per line, neto and IVA per rate', () => {
    const l = invoiceLayout(
      sampleComprobante({
        tipo: 'factura_a',
        letra: 'A',
        codigo: 1,
        discrimina_iva: true,
        lineas: [
          { nombre: 'Yerba', cantidad: 2, precio_unitario: 605, descuento: 0, subtotal: 1210, iva: '21' },
          { nombre: 'Libro', cantidad: 1, precio_unitario: 221, descuento: 0, subtotal: 221, iva: '10.5' },
          { nombre: 'Leche', cantidad: 1, precio_unitario: 100, descuento: 0, subtotal: 100, iva: 'exento' },
        ],
        importes: { total: 1531, neto: 1200, iva: 231, tributos: 0, exento: 100, no_gravado: 0 },
        alicuotas: [
          { id: 4, iva: '10.5', base_imponible: 200, importe: 21 },
          { id: 5, iva: '21', base_imponible: 1000, importe: 210 },
        ],
      }),
    );
    expect(l.codigo).toBe('Cód. 001');
    expect(l.discrimina).toBe(true);
    expect(l.lineas.map((x) => [x.precio, x.subtotal, x.alicuota])).toEqual([
      [500, 1000, '21 %'],
      [200, 200, '10,5 %'],
      [100, 100, 'Exento'],
    ]);
    expect(l.totales.map((t) => [t.label, t.value])).toEqual([
      ['Importe neto gravado', 1200],
      ['IVA 10,5 %', 21],
      ['IVA 21 %', 210],
      ['Importe exento', 100],
      ['Importe total', 1531],
    ]);
    expect(l.ivaContenido).toBeNull();
  });

  it('a factura C shows no IVA at all', () => {
    const l = invoiceLayout(sampleComprobante({ tipo: 'factura_c', letra: 'C', codigo: 11 }));
    expect(l.codigo).toBe('Cód. 011');
    expect(l.ivaContenido).toBeNull();
    expect(l.totales).toHaveLength(1);
  });

  it('a nota de crédito says so and names the invoice it cancels', () => {
    const l = invoiceLayout(
      sampleComprobante({
        tipo: 'nota_credito_b',
        codigo: 8,
        numero: 4,
        asociado: { id: 'c0', tipo: 'factura_b', punto_venta: 1, numero: 23 },
      }),
    );
    expect(l.titulo).toBe('NOTA DE CRÉDITO');
    expect(l.codigo).toBe('Cód. 008');
    expect(l.asociado).toBe('Factura B 0001-00000023');
  });

  it('only an authorised comprobante with its CAE is valid', () => {
    expect(invoiceLayout(sampleComprobante({ estado: 'pendiente', cae: null, numero: null })).valido).toBe(false);
    expect(invoiceLayout(sampleComprobante({ estado: 'rechazado', cae: null })).valido).toBe(false);
  });
});

describe('formatCuit and qrPath', () => {
  it('prints a CUIT with its dashes', () => {
    expect(formatCuit('20123456786')).toBe('20-12345678-6');
    expect(formatCuit('20-12345678-6')).toBe('20-12345678-6');
    expect(formatCuit(null)).toBe('');
  });
  it('draws one square per dark module, inside a 2-module margin', () => {
    expect(
      qrPath([
        [true, false],
        [false, true],
      ]),
    ).toBe('M2 2h1v1h-1zM3 3h1v1h-1z');
  });
});
