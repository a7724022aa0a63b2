import { describe, expect, it } from 'vitest';
import { LEYENDA_RG_5003 } from '@mostrador/shared/factura-impresa';
import { importesDe, type Comprobante } from '@mostrador/shared/facturacion';
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

  it('a factura A with a sale discount adds up: lines net, bonificación, neto gravado, IVA per rate and total', () => {
    const lineas: Comprobante['lineas'] = [
      { nombre: 'Tornillos', cantidad: 3, precio_unitario: 121, descuento: 0, subtotal: 363, iva: '21' },
      { nombre: 'Pintura', cantidad: 1.5, precio_unitario: 3333.33, descuento: 0, subtotal: 5000, iva: '21' },
      { nombre: 'Libro', cantidad: 1, precio_unitario: 110.5, descuento: 10, subtotal: 100.5, iva: '10.5' },
      { nombre: 'Leche', cantidad: 2, precio_unitario: 50, descuento: 0, subtotal: 100, iva: 'exento' },
    ];
    // What ARCA receives for a total of 5.463,50 after a sale discount of $100.
    const imp = importesDe(
      lineas.map((l) => ({ subtotal: Math.round(l.subtotal * 100), iva: l.iva })),
      546350,
      'A',
    );
    const pesos = (c: number) => c / 100;
    const c = sampleComprobante({
      tipo: 'factura_a',
      letra: 'A',
      codigo: 1,
      discrimina_iva: true,
      lineas,
      importes: {
        total: pesos(imp.total),
        neto: pesos(imp.neto),
        iva: pesos(imp.iva),
        tributos: 0,
        exento: pesos(imp.exento),
        no_gravado: 0,
      },
      alicuotas: imp.alicuotas.map((a) => ({
        ...a,
        base_imponible: pesos(a.base_imponible),
        importe: pesos(a.importe),
      })),
    });
    const l = invoiceLayout(c);
    const cents = (n: number) => Math.round(n * 100);
    const row = (label: string) => cents(l.totales.find((t) => t.label === label)!.value);
    const lines = l.lineas.reduce((t, x) => t + cents(x.subtotal), 0);
    expect(l.totales.map((t) => t.label)).toEqual([
      'Subtotal',
      'Bonificación',
      'Importe neto gravado',
      'IVA 21 %',
      'IVA 10,5 %',
      'Importe exento',
      'Importe total',
    ]);
    expect(row('Subtotal')).toBe(lines);
    expect(row('Bonificación')).toBeLessThan(0);
    // Subtotal − bonificación = neto gravado + exento, each as sent to ARCA.
    expect(row('Subtotal') + row('Bonificación')).toBe(imp.neto + imp.exento);
    expect(row('Importe neto gravado')).toBe(imp.neto);
    expect(row('IVA 21 %') + row('IVA 10,5 %')).toBe(imp.iva);
    expect(row('Importe neto gravado') + row('IVA 21 %') + row('IVA 10,5 %') + row('Importe exento')).toBe(
      row('Importe total'),
    );
    expect(row('Importe total')).toBe(546350);
    // Lines net of IVA: 3 × 100 = 300; the exento line as it is.
    expect(l.lineas[0]).toMatchObject({ precio: 100, subtotal: 300, descuento: 0 });
    expect(l.lineas[3]).toMatchObject({ precio: 50, subtotal: 100, alicuota: 'Exento' });
    // The API's own figures win when it answers them.
    const api = invoiceLayout({
      ...c,
      discriminado: {
        lineas: l.lineas.map((x) => ({ precio_unitario: x.precio, descuento: x.descuento, subtotal: x.subtotal })),
        subtotal: 1,
        bonificacion: 0.5,
      },
    });
    expect(api.totales.slice(0, 2)).toEqual([
      { label: 'Subtotal', value: 1 },
      { label: 'Bonificación', value: -0.5 },
    ]);
  });

  it('an A to a monotributista carries the RG 5003 legend the API answers', () => {
    expect(invoiceLayout(sampleComprobante({ leyendas: [LEYENDA_RG_5003] })).leyendas).toEqual([LEYENDA_RG_5003]);
    expect(invoiceLayout(sampleComprobante()).leyendas).toEqual([]);
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
