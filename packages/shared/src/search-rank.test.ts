import { describe, expect, it } from 'vitest';
import { numberPattern, rankBySearch, searchRank, searchTokens, type Searchable } from './search-rank.js';

const p = (nombre: string, codigo: string | null = null, codigo_barras: string | null = null): Searchable => ({
  nombre,
  codigo,
  codigo_barras,
});
const names = (items: Searchable[]) => items.map((i) => i.nombre);

// The catalogue of the ferretería, by name as the server lists it.
const clavos = [
  p('Clavo punta paris 1 1/2"', 'CL112', '7790000000112'),
  p('Clavo punta paris 2 1/2"', 'CL212', '7790000000212'),
  p('Clavo punta paris 2"', 'CL2', '7790000000020'),
];
const tarugos = [
  p('Tarugo Fischer 10 mm', 'TF10', '7791000000100'),
  p('Tarugo Fischer 6 mm', 'TF6', '7791000000088'),
  p('Tarugo Fischer 8 mm', 'TF8', '7791000000801'),
];
const latex = [
  p('Látex interior Alba 20 L', 'LA20', '7792000000204'),
  p('Látex interior Alba 4 L', 'LA4', '7792000000040'),
  p('Látex interior Alba 10 L', 'LA10', '7792000000104'),
];

describe('searchTokens', () => {
  it('splits words, numbers and sizes, folded', () => {
    expect(searchTokens('Clavo 2"').map((t) => t.text)).toEqual(['clavo', '2"']);
    expect(searchTokens('Tarugo Fischer 8mm').map(({ text, numeric }) => ({ text, numeric }))).toEqual([
      { text: 'tarugo', numeric: false },
      { text: 'fischer', numeric: false },
      { text: '8', numeric: true },
      { text: 'mm', numeric: false },
    ]);
    expect(searchTokens('Látex 1 1/2” agua 2,25').map((t) => t.text)).toEqual(['latex', '1', '1/2"', 'agua', '2,25']);
    expect(searchTokens('  - % ')).toEqual([]);
  });
});

describe('numberPattern', () => {
  const holds = (token: string, text: string) => new RegExp(numberPattern(token)).test(text);
  it('matches whole numbers and sizes only', () => {
    expect(holds('2"', 'clavo punta paris 2"')).toBe(true);
    expect(holds('2"', 'clavo punta paris 1 1/2"')).toBe(false);
    expect(holds('2"', 'clavo punta paris 2 1/2"')).toBe(false);
    expect(holds('2', 'clavo punta paris 2"')).toBe(true);
    expect(holds('8', 'tarugo fischer 6 mm tf6 7791000000088')).toBe(false);
    expect(holds('8', 'tarugo fischer 8 mm')).toBe(true);
    expect(holds('8', 'tarugo fischer 8mm')).toBe(true);
    expect(holds('4', 'latex interior alba 14 l')).toBe(false);
    expect(holds('4', 'latex interior alba 4l')).toBe(true);
    expect(holds('4', 'latex interior alba 4.5 l')).toBe(false);
    expect(holds('2,25', 'agua 2.25 l')).toBe(true);
    expect(holds('1/2"', 'clavo 1 1/2"')).toBe(true);
  });
});

describe('rankBySearch (issue 33)', () => {
  it('clavo 2" puts the 2" nail first, not 1 1/2" nor 2 1/2"', () => {
    const ranked = rankBySearch(clavos, 'clavo 2"');
    expect(ranked[0].nombre).toBe('Clavo punta paris 2"');
    expect(searchRank(ranked[0], 'clavo 2"')).toBe(1);
    expect(ranked.slice(1).map((i) => searchRank(i, 'clavo 2"'))).toEqual([2, 2]);
  });

  it('Tarugo Fischer 8 lists 8 mm first; the 6 mm whose barcode holds an 8 is not a match', () => {
    const ranked = rankBySearch(tarugos, 'Tarugo Fischer 8');
    expect(names(ranked)).toEqual(['Tarugo Fischer 8 mm', 'Tarugo Fischer 10 mm', 'Tarugo Fischer 6 mm']);
    expect(searchRank(tarugos[1], 'Tarugo Fischer 8')).toBe(2);
  });

  it('Látex interior Alba 4 lists 4 L first', () => {
    const ranked = rankBySearch(latex, 'Látex interior Alba 4');
    expect(ranked[0].nombre).toBe('Látex interior Alba 4 L');
    expect(ranked.slice(1).every((i) => searchRank(i, 'latex interior alba 4') === 2)).toBe(true);
  });

  it('an exact code or barcode goes before every name', () => {
    const all = [...clavos, ...tarugos];
    expect(rankBySearch(all, 'tf6')[0].nombre).toBe('Tarugo Fischer 6 mm');
    expect(searchRank(tarugos[2], '7791000000801')).toBe(0);
    // A barcode cut short is not a whole token: no product holds it.
    expect(searchRank(tarugos[2], '77910000008')).toBe(2);
  });

  it('words match anywhere, without accents or case; the order within a rank is kept', () => {
    expect(names(rankBySearch(latex, 'LATEX alb'))).toEqual(names(latex));
    expect(rankBySearch(latex, 'latex 20')[0].nombre).toBe('Látex interior Alba 20 L');
    expect(searchRank(latex[0], 'pintura 20')).toBe(2);
    expect(searchRank(latex[0], '')).toBe(2);
  });
});
