import { describe, expect, it } from 'vitest';
import { receptorFor } from './sale-comprobantes';

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
