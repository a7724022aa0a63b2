import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LEYENDA_RG_5003 } from '@mostrador/shared/factura-impresa';
import { DEFAULT_FORMATTING } from '@/lib/format';
import { configBody, type ConfigFormValues } from './config-form';
import { InvoiceDocument } from './invoice-document';
import { sampleComprobante } from './test-fixtures';

afterEach(cleanup);

describe('InvoiceDocument', () => {
  it('prints a Factura B with its box, issuer, CAE, the IVA contained and the QR', async () => {
    render(<InvoiceDocument comprobante={sampleComprobante()} formatting={DEFAULT_FORMATTING} format="a4" />);
    const doc = screen.getByTestId('invoice-document');
    expect(doc.textContent).toContain('FACTURA');
    expect(doc.textContent).toContain('Cód. 006');
    expect(doc.textContent).toContain('N.º 0001-00000023');
    expect(doc.textContent).toContain('CUIT: 20-12345678-6');
    expect(doc.textContent).toContain('Ingresos Brutos: 901-123456-7');
    expect(doc.textContent).toContain('Inicio de actividades: 01/01/2020');
    expect(doc.textContent).toContain('IVA contenido');
    expect(doc.textContent).toContain('CAE N.º: 74123456789012');
    expect(doc.textContent).not.toContain('Importe neto gravado');
    expect(doc.textContent).toContain('SIN VALIDEZ FISCAL');
    const qr = await waitFor(() => screen.getByRole('img', { name: 'Código QR de ARCA' }));
    expect(qr.getAttribute('data-url')).toBe('https://www.afip.gob.ar/fe/qr/?p=e30=');
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
  });

  it('a Factura A discriminates IVA and names the receptor by CUIT', () => {
    render(
      <InvoiceDocument
        comprobante={sampleComprobante({
          tipo: 'factura_a',
          letra: 'A',
          codigo: 1,
          discrimina_iva: true,
          entorno: 'produccion',
          receptor: {
            nombre: 'Distribuidora El Trébol SA',
            condicion_iva: 'responsable_inscripto',
            condicion_iva_label: 'Responsable inscripto',
            doc_tipo: 'CUIT',
            doc_nro: '30500010912',
            domicilio: 'Av. Corrientes 1234',
          },
        })}
        formatting={DEFAULT_FORMATTING}
        format="80mm"
      />,
    );
    const doc = screen.getByTestId('invoice-document');
    expect(doc.textContent).toContain('Cód. 001');
    expect(doc.textContent).toContain('Importe neto gravado');
    expect(doc.textContent).toContain('IVA 21 %');
    expect(doc.textContent).toContain('CUIT 30-50001091-2');
    expect(doc.textContent).not.toContain('IVA contenido');
    expect(doc.textContent).not.toContain('SIN VALIDEZ FISCAL');
  });

  it('a Factura A to a monotributista prints the RG 5003 legend and the bonificación of the sale', () => {
    render(
      <InvoiceDocument
        comprobante={sampleComprobante({
          tipo: 'factura_a',
          letra: 'A',
          codigo: 1,
          discrimina_iva: true,
          receptor: {
            nombre: 'Juan Pérez',
            condicion_iva: 'monotributista',
            condicion_iva_label: 'Monotributista',
            doc_tipo: 'CUIT',
            doc_nro: '20123456786',
            domicilio: null,
          },
          lineas: [{ nombre: 'Pintura', cantidad: 2, precio_unitario: 605, descuento: 0, subtotal: 1210, iva: '21' }],
          importes: { total: 1089, neto: 900, iva: 189, tributos: 0, exento: 0, no_gravado: 0 },
          alicuotas: [{ id: 5, iva: '21', base_imponible: 900, importe: 189 }],
          leyendas: [LEYENDA_RG_5003],
          discriminado: {
            lineas: [{ precio_unitario: 500, descuento: 0, subtotal: 1000 }],
            subtotal: 1000,
            bonificacion: 100,
          },
        })}
        formatting={DEFAULT_FORMATTING}
        format="a4"
      />,
    );
    expect(screen.getByTestId('invoice-leyenda').textContent).toBe(LEYENDA_RG_5003);
    const totales = screen.getByTestId('invoice-totales');
    const rows = [...totales.querySelectorAll('div')].map((d) => [
      d.querySelector('dt')?.textContent,
      d.querySelector('dd')?.textContent?.replace(/\s/g, ' '),
    ]);
    expect(rows).toEqual([
      ['Subtotal', '$ 1.000,00'],
      ['Bonificación', '-$ 100,00'],
      ['Importe neto gravado', '$ 900,00'],
      ['IVA 21 %', '$ 189,00'],
      ['Importe total', '$ 1.089,00'],
    ]);
  });

  it('a rejected comprobante says it is not valid and has no QR', () => {
    render(
      <InvoiceDocument
        comprobante={sampleComprobante({ estado: 'rechazado', cae: null, numero: null })}
        formatting={DEFAULT_FORMATTING}
        format="80mm"
      />,
    );
    expect(screen.getByTestId('invoice-cae').textContent).toContain('RECHAZADO POR ARCA');
    expect(screen.queryByTestId('arca-qr')).toBeNull();
  });

  it('a comprobante issued under a CAEA prints as valid, with the CAEA and its vigencia instead of a CAE', () => {
    render(
      <InvoiceDocument
        comprobante={sampleComprobante({ emision: 'caea', caea_informe: 'pendiente', cae: '31234567890123' })}
        formatting={DEFAULT_FORMATTING}
        format="80mm"
      />,
    );
    const pie = screen.getByTestId('invoice-cae').textContent;
    expect(pie).toContain('Comprobante autorizado');
    expect(pie).toContain('CAEA N.º: 31234567890123');
    expect(pie).toContain('Vto. de CAEA');
    expect(pie).not.toContain('NO VÁLIDO');
  });
});

describe('configBody', () => {
  const values: ConfigFormValues = {
    cuit: '30-71234567-1',
    razon_social: 'Almacén Rosa SRL',
    condicion_iva: 'responsable_inscripto',
    inicio_actividades: '',
    iibb: '',
    domicilio_fiscal: '',
    punto_venta: '2',
    puntos_venta: '1, 2;3  5',
    entorno: 'homologacion',
    facturar: 'siempre',
    caea_punto_venta: '',
    caea_tras_minutos: '30',
  };
  it('an empty CAEA punto de venta clears it; a number sets it with its minutes', () => {
    expect(configBody(values)).toMatchObject({ caea_punto_venta: null, caea_tras_minutos: '30' });
    expect(configBody({ ...values, caea_punto_venta: ' 9 ', caea_tras_minutos: '' })).toMatchObject({
      caea_punto_venta: ' 9 ',
      caea_tras_minutos: undefined,
    });
  });

  it('splits the puntos de venta and leaves an empty date as null', () => {
    expect(configBody(values)).toMatchObject({
      inicio_actividades: null,
      punto_venta: '2',
      puntos_venta: ['1', '2', '3', '5'],
    });
    expect(configBody({ ...values, puntos_venta: ' ' }).puntos_venta).toBeUndefined();
  });
});
