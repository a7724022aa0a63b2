import { describe, expect, it } from 'vitest';
import { receptorFor, servicioFor } from './sale-comprobantes';

const f = { condicion: 'responsable_inscripto', docTipo: 'CUIT' as const, docNro: '', nombre: '', domicilio: '' };

describe('receptorFor', () => {
  it("sends no receptor for the sale's own customer, and a consumidor final without document", () => {
    expect(receptorFor('cliente', f)).toEqual({ receptor: undefined });
    expect(receptorFor('consumidor_final', f)).toEqual({
      receptor: { condicion_iva: 'consumidor_final', doc_tipo: 'sin_documento' },
    });
  });

  it('checks the CUIT and the DNI with the shared messages', () => {
    expect(receptorFor('documento', f)).toEqual({ errors: { doc_nro: 'Este campo es obligatorio.' } });
    expect(receptorFor('documento', { ...f, docNro: '20-12345678-7' })).toEqual({
      errors: { doc_nro: 'CUIT no válido: revisá el dígito verificador.' },
    });
    expect(receptorFor('documento', { ...f, docTipo: 'DNI', docNro: '123' })).toEqual({
      errors: { doc_nro: 'El DNI debe tener 7 u 8 dígitos.' },
    });
  });

  it('passes a valid CUIT with the name and address found', () => {
    expect(
      receptorFor('documento', { ...f, docNro: '20123456786', nombre: 'PEREZ JUAN', domicilio: 'San Martín 55' }),
    ).toEqual({
      receptor: {
        condicion_iva: 'responsable_inscripto',
        doc_tipo: 'CUIT',
        doc_nro: '20123456786',
        nombre: 'PEREZ JUAN',
        domicilio: 'San Martín 55',
      },
    });
  });
});

describe('servicioFor', () => {
  const hoy = '2026-11-27';
  it('sends the service’s period and the payment’s due date as chosen', () => {
    expect(servicioFor({ desde: '2026-11-01', hasta: '2026-11-30', vencimiento: '2026-12-10' }, hoy)).toEqual({
      servicio: { servicio_desde: '2026-11-01', servicio_hasta: '2026-11-30', vencimiento_pago: '2026-12-10' },
    });
    // An emptied date is left to the API's default.
    expect(servicioFor({ desde: '', hasta: '', vencimiento: '' }, hoy)).toEqual({ servicio: {} });
  });

  it('refuses a period that ends before it starts and a payment due before today, with the shared messages', () => {
    expect(servicioFor({ desde: '2026-11-10', hasta: '2026-11-01', vencimiento: '2026-11-26' }, hoy)).toEqual({
      errors: {
        servicio_hasta: 'El fin del período del servicio no puede ser anterior a su inicio.',
        vencimiento_pago: 'El vencimiento del pago no puede ser anterior a la fecha de la factura.',
      },
    });
  });
});

describe('receptorFor: every document ARCA takes', () => {
  it('a CUIL is checked like a CUIT; a passport goes by its digits', () => {
    expect(
      receptorFor('documento', { ...f, condicion: 'consumidor_final', docTipo: 'CUIL', docNro: '20123456780' }),
    ).toEqual({
      errors: { doc_nro: 'CUIT no válido: revisá el dígito verificador.' },
    });
    expect(
      receptorFor('documento', { ...f, condicion: 'consumidor_final', docTipo: 'Pasaporte', docNro: 'AB-12' }),
    ).toEqual({ errors: { doc_nro: 'El número de documento debe tener solo dígitos (hasta 11).' } });
    expect(
      receptorFor('documento', { ...f, condicion: 'consumidor_final', docTipo: 'Pasaporte', docNro: '987654' }),
    ).toMatchObject({ receptor: { doc_tipo: 'Pasaporte', doc_nro: '987654' } });
  });
});
