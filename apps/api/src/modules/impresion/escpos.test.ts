import { describe, expect, it } from 'vitest';
import { aEscpos, partir } from './documento.js';
import { PC850_ALTO, pc850, trabajo } from './escpos.js';
import { decodificar, textoDe } from './fake/decodificar.js';

describe('ESC/POS', () => {
  it("writes Spanish in PC850 as the code page's published table places it", () => {
    expect(PC850_ALTO).toHaveLength(128);
    const bytes = (s: string) => pc850(s).map((b) => b.toString(16));
    // CP850: á A0, é 82, í A1, ó A2, ú A3, ñ A4, Ñ A5, º A7, ª A6, ¿ A8, ¡ AD, ü 81, Ü 9A,
    // Á B5, É 90, Í D6, Ó E0, Ú E9, « AE, » AF.
    expect(bytes('áéíóúñÑºª¿¡üÜ')).toEqual([
      'a0',
      '82',
      'a1',
      'a2',
      'a3',
      'a4',
      'a5',
      'a7',
      'a6',
      'a8',
      'ad',
      '81',
      '9a',
    ]);
    expect(bytes('ÁÉÍÓÚ«»')).toEqual(['b5', '90', 'd6', 'e0', 'e9', 'ae', 'af']);
    // What it lacks becomes ASCII: the no-break space Intl puts after "$", the minus sign, the euro.
    expect(pc850('$\u00a01.234,50 \u2212 10 €')).toEqual([...Buffer.from('$ 1.234,50 - 10 EUR')]);
  });

  it('never lets text carry a printer command', () => {
    const job = trabajo().iniciar().linea('Yerba\x1b\x70\x00\x19\xfa\x1dV\x00 Única').bytes();
    const t = decodificar(job);
    expect(t.cajon).toBe(0);
    expect(t.cortes).toBe(0);
    // ESC, NUL, 0x19 and GS dropped; the printable rest ("p", "ú", "V") stays as text.
    expect(t.renglones).toEqual(['YerbapúV Única']);
  });

  it('encodes the QR, the drawer pulse and the cut as ESC/POS defines them', () => {
    const job = trabajo().iniciar().cajon().qr('https://www.afip.gob.ar/fe/qr/?p=e30=').cortar().bytes();
    const hex = Buffer.from(job).toString('hex');
    expect(hex.startsWith('1b401b7402')).toBe(true); // ESC @, ESC t 2
    expect(hex).toContain('1b700019fa'); // ESC p 0 25 250
    expect(hex).toContain('1d286b0400314132' + '00'); // GS ( k: model 2
    expect(hex).toContain('1d286b0300314506'.slice(0, 12)); // module size
    expect(hex).toContain('1d286b03003145' + '31'); // error correction M
    const data = Buffer.from('https://www.afip.gob.ar/fe/qr/?p=e30=');
    const len = data.length + 3;
    expect(hex).toContain(`1d286b${len.toString(16).padStart(2, '0')}00315030${data.toString('hex')}`);
    expect(hex).toContain('1d286b0300315130'); // print the symbol
    expect(hex.endsWith('1d564203')).toBe(true); // GS V 66 3
    expect(decodificar(job)).toMatchObject({ qr: ['https://www.afip.gob.ar/fe/qr/?p=e30='], cajon: 1, cortes: 1 });
  });

  it('fits every row to the roll: 32 columns on 58 mm, 48 on 80 mm, half at double size', () => {
    const doc = {
      titulo: 'Prueba',
      lineas: [
        { tipo: 'texto' as const, texto: 'Galletitas de agua sin sal marca Criollitas paquete familiar 300 g' },
        { tipo: 'par' as const, izq: 'TOTAL', der: '$ 12.345.678,90', grande: true },
        { tipo: 'separador' as const },
      ],
    };
    for (const [ancho, cols] of [
      [58, 32],
      [80, 48],
    ] as const) {
      const t = decodificar(aEscpos(doc, ancho));
      for (const r of t.renglones) expect(r.length).toBeLessThanOrEqual(t.grandes.includes(r) ? cols / 2 : cols);
      expect(textoDe(t).replace(/\s+/g, ' ')).toContain(
        'Galletitas de agua sin sal marca Criollitas paquete familiar 300 g',
      );
      expect(t.renglones).toContain('-'.repeat(cols));
    }
    expect(partir('supercalifragilisticoespialidoso', 10)).toEqual(['supercalif', 'ragilistic', 'oespialido', 'so']);
  });
});
