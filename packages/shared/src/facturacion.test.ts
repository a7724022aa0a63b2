import { describe, expect, it } from 'vitest';
import {
  CONDICION_IVA_RECEPTOR_ARCA,
  CONDICIONES_ARCA_POR_LETRA,
  CONDICIONES_IVA_EMISOR,
  CONDICIONES_IVA_RECEPTOR,
  CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS,
  facturacionConfigInput,
  importesCuadran,
  importesDe,
  ivaRateOf,
  letraPara,
  necesitaDocumento,
  qrUrl,
  receptorInput,
  type Letra,
} from './facturacion.js';

describe('letraPara', () => {
  const expected: Record<string, Letra> = {
    'responsable_inscripto/responsable_inscripto': 'A',
    'responsable_inscripto/monotributista': 'A',
    'responsable_inscripto/consumidor_final': 'B',
    'responsable_inscripto/exento': 'B',
    'responsable_inscripto/no_alcanzado': 'B',
  };
  for (const e of CONDICIONES_IVA_EMISOR) {
    for (const r of CONDICIONES_IVA_RECEPTOR) {
      const want = e === 'responsable_inscripto' ? expected[`${e}/${r}`] : 'C';
      it(`${e} → ${r}: ${want}`, () => {
        const letra = letraPara(e, r);
        expect(letra).toBe(want);
        // The receptor's ARCA condition is one ARCA accepts for that letter.
        expect(CONDICIONES_ARCA_POR_LETRA[letra]).toContain(CONDICION_IVA_RECEPTOR_ARCA[r]);
      });
    }
  }
});

describe('importesDe', () => {
  it('splits a mixed-rate sale with line and sale discounts exactly', () => {
    // 121.00 at 21 %, 110.50 at 10.5 % less 10.00 line discount, 50.00 exento, 20.00 no gravado;
    // the sale has 7.77 off: total = 121 + 100.50 + 50 + 20 − 7.77 = 283.73.
    const lineas = [
      { subtotal: 12100, iva: '21' as const },
      { subtotal: 10050, iva: '10.5' as const },
      { subtotal: 5000, iva: 'exento' as const },
      { subtotal: 2000, iva: 'no_gravado' as const },
    ];
    const i = importesDe(lineas, 28373, 'A');
    expect(importesCuadran(i)).toBe(true);
    expect(i.total).toBe(28373);
    expect(i.alicuotas.map((a) => a.id)).toEqual([5, 4]);
    for (const a of i.alicuotas) {
      const rate = a.iva === '21' ? 0.21 : 0.105;
      expect(Math.abs(a.base_imponible * rate - a.importe)).toBeLessThanOrEqual(1);
    }
    expect(i.iva).toBe(i.alicuotas.reduce((s, a) => s + a.importe, 0));
    expect(i.neto).toBe(i.alicuotas.reduce((s, a) => s + a.base_imponible, 0));
    expect(i.exento + i.no_gravado).toBeGreaterThan(6800);
    expect(i.tributos).toBe(0);
  });

  it('keeps the identity on thousands of awkward totals', () => {
    const rates = ['21', '10.5', '27', '5', '2.5', '0', 'exento', 'no_gravado'] as const;
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < 2000; k++) {
      const lineas = Array.from({ length: 1 + rnd(6) }, () => ({ subtotal: 1 + rnd(100000), iva: rates[rnd(8)] }));
      const sum = lineas.reduce((s, l) => s + l.subtotal, 0);
      const total = Math.max(1, sum - rnd(Math.max(1, Math.floor(sum / 3))));
      for (const letra of ['A', 'B', 'C'] as const) {
        const i = importesDe(lineas, total, letra);
        expect(importesCuadran(i)).toBe(true);
        expect(i.iva).toBe(i.alicuotas.reduce((s, a) => s + a.importe, 0));
      }
    }
  });

  it('letter C discriminates nothing', () => {
    const i = importesDe([{ subtotal: 12100, iva: '21' }], 12100, 'C');
    expect(i).toEqual({ total: 12100, neto: 12100, iva: 0, tributos: 0, exento: 0, no_gravado: 0, alicuotas: [] });
  });

  it('a single 21 % line of 121.00 is 100.00 + 21.00', () => {
    const i = importesDe([{ subtotal: 12100, iva: '21' }], 12100, 'B');
    expect(i.alicuotas).toEqual([{ id: 5, iva: '21', base_imponible: 10000, importe: 2100 }]);
  });
});

describe('qrUrl', () => {
  it("matches ARCA's published example byte for byte", () => {
    const url = qrUrl({
      fecha: '2020-10-13',
      cuit: 30000000007,
      ptoVta: 10,
      tipoCmp: 1,
      nroCmp: 94,
      importe: 12100,
      moneda: 'DOL',
      ctz: 65,
      tipoDocRec: 80,
      nroDocRec: 20000000001,
      tipoCodAut: 'E',
      codAut: 70417054367476,
    });
    expect(url).toBe(
      'https://www.afip.gob.ar/fe/qr/?p=eyJ2ZXIiOjEsImZlY2hhIjoiMjAyMC0xMC0xMyIsImN1aXQiOjMwMDAwMDAwMDA3LCJwdG9WdGEiOjEwLCJ0aXBvQ21wIjoxLCJucm9DbXAiOjk0LCJpbXBvcnRlIjoxMjEwMCwibW9uZWRhIjoiRE9MIiwiY3R6Ijo2NSwidGlwb0RvY1JlYyI6ODAsIm5yb0RvY1JlYyI6MjAwMDAwMDAwMDEsInRpcG9Db2RBdXQiOiJFIiwiY29kQXV0Ijo3MDQxNzA1NDM2NzQ3Nn0=',
    );
  });
});

describe('consumidor final without document', () => {
  it('needs a document from the threshold on', () => {
    expect(necesitaDocumento(CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS - 1)).toBe(false);
    expect(necesitaDocumento(CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS)).toBe(true);
  });
});

describe('schemas', () => {
  it('rejects a CUIT with a bad check digit', () => {
    const base = { razon_social: 'X', condicion_iva: 'monotributo', punto_venta: 1 };
    expect(facturacionConfigInput.safeParse({ ...base, cuit: '20-12345678-0' }).success).toBe(false);
    const ok = facturacionConfigInput.parse({ ...base, cuit: '20123456786', puntos_venta: [3, 1] });
    expect(ok.cuit).toBe('20-12345678-6');
    expect(ok.puntos_venta).toEqual([1, 3]);
    expect(ok.entorno).toBe('homologacion');
  });
  it('normalises the receptor', () => {
    expect(
      receptorInput.parse({ condicion_iva: 'consumidor_final', doc_tipo: 'DNI', doc_nro: '12.345.678' }).doc_nro,
    ).toBe('12345678');
    expect(
      receptorInput.safeParse({ condicion_iva: 'responsable_inscripto', doc_tipo: 'CUIT', doc_nro: '1' }).success,
    ).toBe(false);
  });
  it('reads IVA rates as people write them', () => {
    expect(ivaRateOf('10,5 %')).toBe('10.5');
    expect(ivaRateOf(21)).toBe('21');
    expect(ivaRateOf('Exento')).toBe('exento');
    expect(ivaRateOf('No gravado')).toBe('no_gravado');
    expect(ivaRateOf('IVA 27%')).toBe('27');
  });
});
