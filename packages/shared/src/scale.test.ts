import { describe, expect, it } from 'vitest';
import {
  ean13CheckDigit,
  isValidEan13,
  readScaleLabel,
  SCALE_PRESETS,
  sameScaleCode,
  scaleLayoutSchema,
  splitQuantity,
  type ScaleLayout,
} from './scale.js';

const preset = (id: string) => SCALE_PRESETS.find((p) => p.id === id)!.layout;
/** Builds a label with its check digit, as a scale prints it. */
const label = (first12: string) => first12 + ean13CheckDigit(first12);

describe('EAN-13 check digit', () => {
  it('matches real barcodes', () => {
    expect(isValidEan13('7795791241239')).toBe(true);
    expect(isValidEan13('7795791241238')).toBe(false);
    expect(ean13CheckDigit('200128100750')).toBe(2);
  });
});

describe('readScaleLabel', () => {
  it('reads the issue example: prefix 20, code 01281, 750 g', () => {
    const layout: ScaleLayout = { prefijos: ['20'], codigo_digitos: 5, valor: 'peso', decimales: 3 };
    expect(readScaleLabel('2001281007502', layout)).toEqual({ codigo: '01281', valor: 'peso', cantidad: 750 });
  });

  it('reads every preset', () => {
    expect(readScaleLabel(label('210128112345'), preset('peso-5'))).toEqual({
      codigo: '01281',
      valor: 'peso',
      cantidad: 12_345,
    });
    expect(readScaleLabel(label('200128115400'), preset('precio-5'))).toEqual({
      codigo: '01281',
      valor: 'precio',
      importe: 1_540_000,
    });
    expect(readScaleLabel(label('230042001500'), preset('peso-4'))).toEqual({
      codigo: '0042',
      valor: 'peso',
      cantidad: 1500,
    });
    expect(readScaleLabel(label('200042012345'), preset('precio-4'))).toEqual({
      codigo: '0042',
      valor: 'precio',
      importe: 1_234_500,
    });
    expect(readScaleLabel(label('200042012345'), preset('precio-4-centavos'))).toEqual({
      codigo: '0042',
      valor: 'precio',
      importe: 12_345,
    });
  });

  it('refuses a bad check digit with a Spanish message', () => {
    const r = readScaleLabel('2001281007503', preset('peso-5'));
    expect(r).toEqual({ error: expect.stringContaining('dígito verificador') });
  });

  it('refuses a label without weight', () => {
    expect(readScaleLabel(label('200128100000'), preset('peso-5'))).toEqual({
      error: expect.stringContaining('no trae peso'),
    });
  });

  it('leaves other codes alone', () => {
    const layout: ScaleLayout = { prefijos: ['20'], codigo_digitos: 5, valor: 'peso', decimales: 3 };
    expect(readScaleLabel('7795791241239', layout)).toBeNull();
    expect(readScaleLabel(label('210128100750'), layout)).toBeNull();
    expect(readScaleLabel('20012810075', layout)).toBeNull();
    expect(readScaleLabel('queso', layout)).toBeNull();
  });
});

describe('scaleLayoutSchema', () => {
  it('accepts the presets and refuses bad layouts', () => {
    for (const p of SCALE_PRESETS) expect(scaleLayoutSchema.safeParse(p.layout).success).toBe(true);
    expect(
      scaleLayoutSchema.safeParse({ prefijos: ['19'], codigo_digitos: 5, valor: 'peso', decimales: 3 }).success,
    ).toBe(false);
    expect(scaleLayoutSchema.safeParse({ prefijos: [], codigo_digitos: 5, valor: 'peso', decimales: 3 }).success).toBe(
      false,
    );
    expect(
      scaleLayoutSchema.safeParse({ prefijos: ['20'], codigo_digitos: 7, valor: 'peso', decimales: 3 }).success,
    ).toBe(false);
    expect(
      scaleLayoutSchema.safeParse({ prefijos: ['20'], codigo_digitos: 5, valor: 'precio', decimales: 3 }).success,
    ).toBe(false);
  });
});

describe('sameScaleCode', () => {
  it('matches as typed or as a number', () => {
    expect(sameScaleCode('01281', '01281')).toBe(true);
    expect(sameScaleCode('01281', '1281')).toBe(true);
    expect(sameScaleCode('01281', '12810')).toBe(false);
    expect(sameScaleCode('01281', 'QUESO')).toBe(false);
    expect(sameScaleCode('01281', null)).toBe(false);
  });
});

describe('splitQuantity', () => {
  it('takes a quantity before * or x', () => {
    expect(splitQuantity('3*7795791241239')).toEqual({ cantidadTexto: '3', termino: '7795791241239' });
    expect(splitQuantity('3x7795791241239')).toEqual({ cantidadTexto: '3', termino: '7795791241239' });
    expect(splitQuantity('3 X 7795791241239')).toEqual({ cantidadTexto: '3', termino: '7795791241239' });
    expect(splitQuantity('1,5*queso cremoso')).toEqual({ cantidadTexto: '1,5', termino: 'queso cremoso' });
  });

  it('leaves searches alone', () => {
    expect(splitQuantity('7795791241239')).toEqual({ cantidadTexto: null, termino: '7795791241239' });
    expect(splitQuantity('2x1 promo')).toEqual({ cantidadTexto: null, termino: '2x1 promo' });
    expect(splitQuantity('yerba')).toEqual({ cantidadTexto: null, termino: 'yerba' });
    expect(splitQuantity('3*')).toEqual({ cantidadTexto: null, termino: '3*' });
  });
});
