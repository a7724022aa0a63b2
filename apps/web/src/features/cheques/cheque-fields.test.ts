import { describe, expect, it } from 'vitest';
import { EMPTY_CHEQUE, readCheque } from './cheque-fields';

const lleno = {
  ...EMPTY_CHEQUE,
  banco: 'Banco Nación',
  numero: '10203040',
  fecha_pago: '2026-12-27',
  librador_nombre: 'Constructora Sur SA',
  librador_cuit: '30712345671',
};

describe('readCheque', () => {
  it('asks for each missing field in Spanish', () => {
    const r = readCheque(EMPTY_CHEQUE);
    expect(r).toEqual({
      ok: false,
      errors: {
        banco: 'Indicá el banco.',
        numero: 'Indicá el número del cheque.',
        fecha_pago: 'Indicá la fecha de pago.',
        librador_nombre: 'Indicá quién libra el cheque.',
        librador_cuit: 'Indicá el CUIT del librador.',
      },
    });
  });

  it('checks the CUIT, the number and the dates with the API’s rules', () => {
    const r = readCheque({ ...lleno, librador_cuit: '30-71234567-2', numero: '12A' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.librador_cuit).toBe('CUIT no válido: revisá el dígito verificador.');
    expect(r.errors.numero).toBe('El número del cheque lleva solo dígitos (hasta 12).');
    // The dates are compared once every field reads well.
    expect(readCheque({ ...lleno, fecha_emision: '2027-01-10' })).toEqual({
      ok: false,
      errors: { fecha_pago: 'La fecha de pago no puede ser anterior a la de emisión.' },
    });
  });

  it('sends what the API takes; an own cheque has no librador', () => {
    expect(readCheque(lleno)).toEqual({ ok: true, value: { ...lleno, fecha_emision: null } });
    const propio = readCheque({ ...EMPTY_CHEQUE, banco: 'Galicia', numero: '1', fecha_pago: '2026-12-01' }, true);
    expect(propio).toMatchObject({ ok: true, value: { librador_nombre: null, librador_cuit: null } });
  });
});
