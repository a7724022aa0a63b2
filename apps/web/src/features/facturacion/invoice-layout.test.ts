import { describe, expect, it } from 'vitest';
import type { Comprobante } from '@mostrador/shared/facturacion';
import { formatCuit, invoiceLayout } from './invoice-layout';
import { qrPath } from './arca-qr';

function sampleComprobante(over: Partial<Comprobante> = {}): Comprobante {
  return {
    id: 'c1',
    tipo: 'factura_b',
    tipo_label: 'Factura B',
    letra: 'B',
    codigo: 6,
    punto_venta: 1,
    numero: 23,
    estado: 'autorizado',
    cae: '74123456789012',
    cae_vencimiento: '2026-12-06',
    total: 1210,
    error_codigo: null,
    error_mensaje: null,
    venta_id: 'v1',
    venta_numero: 7,
    devolucion_id: null,
    asociado: null,
    fecha: '2026-11-26',
    entorno: 'homologacion',
    emisor: {
      cuit: '20-12345678-6',
      razon_social: 'Almacén Don Pepe',
      condicion_iva: 'responsable_inscripto',
      condicion_iva_label: 'Responsable inscripto',
      domicilio_fiscal: 'Av. Siempreviva 742',
      iibb: '901-123456-7',
      inicio_actividades: '2020-01-01',
    },
    receptor: {
      nombre: 'Consumidor final',
      condicion_iva: 'consumidor_final',
      condicion_iva_label: 'Consumidor final',
      doc_tipo: 'sin_documento',
      doc_nro: null,
      domicilio: null,
    },
    lineas: [
      { nombre: 'Yerba', cantidad: 2, precio_unitario: 500, descuento: 0, subtotal: 1000, iva: '21' },
      { nombre: 'Pan', cantidad: 1, precio_unitario: 210, descuento: 0, subtotal: 210, iva: '21' },
    ],
    importes: { total: 1210, neto: 1000, iva: 210, tributos: 0, exento: 0, no_gravado: 0 },
    alicuotas: [{ id: 5, iva: '21', base_imponible: 1000, importe: 210 }],
    discrimina_iva: false,
    qr_url: 'https://www.afip.gob.ar/fe/qr/?p=e30=',
    intentos: 1,
    proximo_intento: null,
    creado_en: '2026-11-26T12:00:00Z',
    ...over,
  };
}

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
