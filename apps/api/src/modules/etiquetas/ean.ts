import { ean13CheckDigit, isValidEan13 } from '@mostrador/shared';

/*
 * EAN-13 and EAN-8 as bars (issue 35): the module pattern a label draws, 1 = a dark module.
 * EAN-13: start guard 101, six left digits in sets L/G chosen by the first digit, centre guard
 * 01010, six right digits in set R, end guard 101 (95 modules). EAN-8: four L and four R digits
 * between the same guards (67 modules). A UPC-A (12 digits) is the EAN-13 with a leading 0.
 */

const L = [
  '0001101',
  '0011001',
  '0010011',
  '0111101',
  '0100011',
  '0110001',
  '0101111',
  '0111011',
  '0110111',
  '0001011',
];
/** Set G is set R read backwards; set R is set L with every module inverted. */
const R = L.map((c) => [...c].map((b) => (b === '1' ? '0' : '1')).join(''));
const G = R.map((c) => [...c].reverse().join(''));
const PARIDAD = ['LLLLLL', 'LLGLGG', 'LLGGLG', 'LLGGGL', 'LGLLGG', 'LGGLLG', 'LGGGLL', 'LGLGLG', 'LGLGGL', 'LGGLGL'];

const isValidEan8 = (c: string) => {
  if (!/^\d{8}$/.test(c)) return false;
  const sum = [...c.slice(0, 7)].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === Number(c[7]);
};

/** The code as it prints in bars, or null when it is no valid EAN-13, UPC-A or EAN-8. */
export function barras(codigo: string | null): { codigo: string; modulos: string; tipo: 'ean13' | 'ean8' } | null {
  if (!codigo) return null;
  const c =
    /^\d{12}$/.test(codigo) && ean13CheckDigit(`0${codigo.slice(0, 11)}`) === Number(codigo[11])
      ? `0${codigo}`
      : codigo;
  if (isValidEan13(c)) {
    const par = PARIDAD[Number(c[0])];
    const izq = [...c.slice(1, 7)].map((d, i) => (par[i] === 'L' ? L : G)[Number(d)]).join('');
    const der = [...c.slice(7)].map((d) => R[Number(d)]).join('');
    return { codigo: c, modulos: `101${izq}01010${der}101`, tipo: 'ean13' };
  }
  if (isValidEan8(c)) {
    const izq = [...c.slice(0, 4)].map((d) => L[Number(d)]).join('');
    const der = [...c.slice(4)].map((d) => R[Number(d)]).join('');
    return { codigo: c, modulos: `101${izq}01010${der}101`, tipo: 'ean8' };
  }
  return null;
}
