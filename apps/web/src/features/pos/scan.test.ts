import { describe, expect, it } from 'vitest';
import { ean13CheckDigit, type ScaleLayout } from '@mostrador/shared/scale';
import { rankCatalog, type CatalogItem } from './cart';
import { resolveScan, SCAN_MESSAGES } from './scan';

const item = (over: Partial<CatalogItem>): CatalogItem => ({
  id: over.nombre ?? 'x',
  tipo: 'producto',
  nombre: 'x',
  codigo: null,
  codigo_barras: null,
  precio: 100_00,
  stock: 10_000,
  unidad: 'unidad',
  ...over,
});
const queso = item({ nombre: 'Queso cremoso', codigo: '1281', precio: 15_000_00, unidad: 'kg' });
const yerba = item({ nombre: 'Yerba 1 kg', codigo_barras: '7795791241239', precio: 4_500_00 });
const yerbaSuave = item({ nombre: 'Yerba suave', codigo: 'YS', precio: 4_000_00 });
const catalog = [queso, yerba, yerbaSuave];
const peso5: ScaleLayout = { prefijos: ['20'], codigo_digitos: 5, valor: 'peso', decimales: 3 };
const precio5: ScaleLayout = { ...peso5, valor: 'precio', decimales: 0 };
const label = (first12: string) => first12 + ean13CheckDigit(first12);

/** The server's search: name or codes containing the term. */
const terms: string[] = [];
const lookup = async (term: string) => {
  terms.push(term);
  const t = term.toLowerCase();
  return catalog.filter((i) =>
    [i.nombre, i.codigo, i.codigo_barras].some((v) => v !== null && v.toLowerCase().includes(t)),
  );
};

describe('resolveScan', () => {
  it('adds 0,750 kg from the issue scale label (prefix 20, code 01281, grams)', async () => {
    const r = await resolveScan('2001281007502', { balanza: peso5, shown: [], lookup });
    expect(r).toEqual({ item: queso, cantidad: 750 });
    expect(terms.at(-1)).toBe('1281');
  });

  it('adds what a price label buys', async () => {
    const r = await resolveScan(label('200128107500'), { balanza: precio5, shown: [], lookup });
    expect(r).toEqual({ item: queso, cantidad: 500 });
  });

  it('refuses a label with a bad check digit or an unknown code', async () => {
    expect(await resolveScan('2001281007503', { balanza: peso5, shown: [], lookup })).toEqual({
      error: expect.stringContaining('dígito verificador'),
    });
    expect(await resolveScan(label('209999900750'), { balanza: peso5, shown: [], lookup })).toEqual({
      error: expect.stringContaining('código de balanza 99999'),
    });
  });

  it('reads labels only when the business set a layout', async () => {
    expect(await resolveScan('2001281007502', { balanza: null, shown: [], lookup })).toEqual({
      error: expect.stringContaining('No se encontró'),
    });
  });

  it('takes a quantity before the code: 3*code and 3x code', async () => {
    expect(await resolveScan('3*7795791241239', { balanza: peso5, shown: [], lookup })).toEqual({
      item: yerba,
      cantidad: 3000,
    });
    expect(await resolveScan('3x7795791241239', { balanza: null, shown: [yerba], lookup })).toEqual({
      item: yerba,
      cantidad: 3000,
    });
    expect(await resolveScan('1,5*7795791241239', { balanza: null, shown: [], lookup })).toEqual({
      error: expect.stringContaining('cantidad entera'),
    });
  });

  it('chooses the exact code first, then the highlighted row, then the best name match', async () => {
    expect(await resolveScan('ys', { balanza: null, shown: [], lookup })).toEqual({ item: yerbaSuave, cantidad: 1000 });
    expect(await resolveScan('yerba', { balanza: null, shown: [], lookup, chosen: yerbaSuave })).toEqual({
      item: yerbaSuave,
      cantidad: 1000,
    });
    expect(await resolveScan('yerba', { balanza: null, shown: [], lookup })).toEqual({ item: yerba, cantidad: 1000 });
  });
});

describe('a code typed or scanned is added only on an exact match', () => {
  const alfajor = item({ nombre: 'Alfajor triple', codigo_barras: '7790010012345' });
  const galletitas = item({ nombre: 'Galletitas', codigo: '77900100123' });
  const shelf = [alfajor, galletitas];
  const search = async (term: string) =>
    shelf.filter((i) =>
      [i.codigo, i.codigo_barras, i.nombre].some((v) => v?.toLowerCase().includes(term.toLowerCase())),
    );

  it('refuses a partial scan that looks like other products, adding nothing', async () => {
    expect(await resolveScan('77900100', { balanza: null, shown: [], lookup: search })).toEqual({
      error:
        'Ningún producto tiene exactamente el código «77900100»: no se agregó nada. Revisá el código (¿se cortó la lectura?) o elegí el producto de la lista.',
    });
    // Nor from the list on screen, when the one shown first is not the exact code.
    expect(await resolveScan('7790', { balanza: null, shown: shelf, lookup: search })).toEqual({
      error: expect.stringContaining('exactamente el código «7790»'),
    });
    expect(await resolveScan('123', { balanza: null, shown: [], lookup: search })).toEqual({
      error: expect.stringContaining('no se agregó nada'),
    });
  });

  it('adds the exact barcode or numeric code, and a row the cashier chose', async () => {
    expect(await resolveScan('7790010012345', { balanza: null, shown: [], lookup: search })).toEqual({
      item: alfajor,
      cantidad: 1000,
    });
    expect(await resolveScan('2*77900100123', { balanza: null, shown: shelf, lookup: search })).toEqual({
      item: galletitas,
      cantidad: 2000,
    });
    expect(await resolveScan('7790', { balanza: null, shown: shelf, lookup: search, chosen: galletitas })).toEqual({
      item: galletitas,
      cantidad: 1000,
    });
    // Words still add the best match.
    expect(await resolveScan('alfa', { balanza: null, shown: [], lookup: search })).toEqual({
      item: alfajor,
      cantidad: 1000,
    });
  });
});

describe('rankCatalog', () => {
  it('puts an exact code or barcode first, then what holds every word, in the order it came', () => {
    const mate = item({ nombre: 'Mate de calabaza', codigo: 'MATE' });
    const bombilla = item({ nombre: 'Bombilla para mate', codigo: 'B1' });
    const yerbaMate = item({ nombre: 'Yerba mate', codigo_barras: '7790000000000' });
    expect(rankCatalog([bombilla, yerbaMate, mate], 'mate')).toEqual([mate, bombilla, yerbaMate]);
    expect(rankCatalog([bombilla, mate], 'máte')).toEqual([bombilla, mate]);
    expect(rankCatalog([yerbaMate, bombilla], 'mate bomb')).toEqual([bombilla, yerbaMate]);
  });
});

describe('Enter on a search (issue 33)', () => {
  // The ferretería of the issue; the server answers by name (orden=relevancia ranks it; here the
  // worst order, by name only, to show Enter does not depend on it).
  const clavo112 = item({ nombre: 'Clavo punta paris 1 1/2"', codigo_barras: '7790000000112' });
  const clavo2 = item({ nombre: 'Clavo punta paris 2"', codigo_barras: '7790000000020' });
  const tarugo6 = item({ nombre: 'Tarugo Fischer 6 mm', codigo_barras: '7791000000088' });
  const tarugo8 = item({ nombre: 'Tarugo Fischer 8 mm', codigo_barras: '7791000000801' });
  const latex20 = item({ nombre: 'Látex interior Alba 20 L', codigo_barras: '7792000000204' });
  const latex4 = item({ nombre: 'Látex interior Alba 4 L', codigo_barras: '7792000000040' });
  const ferreteria = [clavo112, clavo2, latex20, latex4, tarugo6, tarugo8];
  const byWords = async (term: string) => {
    const words = term
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .split(/\s+/);
    return ferreteria.filter((i) => {
      const text = `${i.nombre} ${i.codigo_barras}`
        .toLowerCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '');
      return words.every((w) => text.includes(w));
    });
  };
  const enter = (typed: string) => resolveScan(typed, { balanza: null, shown: [], lookup: byWords });

  it('adds the product holding every word and size', async () => {
    expect(await enter('clavo 2"')).toEqual({ item: clavo2, cantidad: 1000 });
    expect(await enter('Tarugo Fischer 8')).toEqual({ item: tarugo8, cantidad: 1000 });
    expect(await enter('Látex interior Alba 4')).toEqual({ item: latex4, cantidad: 1000 });
    expect(await enter('2*tarugo 8')).toEqual({ item: tarugo8, cantidad: 2000 });
  });

  it('refuses when no product holds every token, and adds nothing', async () => {
    // Only the 1 1/2" nail and the 6 mm plug (its barcode holds an 8) contain these texts.
    const ferreteriaSin = async (term: string) => (await byWords(term)).filter((i) => i !== clavo2 && i !== tarugo8);
    const noMatch = (typed: string) => resolveScan(typed, { balanza: null, shown: [], lookup: ferreteriaSin });
    expect(await noMatch('clavo 2"')).toEqual({ error: SCAN_MESSAGES.notEveryWord('clavo 2"'), retype: true });
    expect(await noMatch('Tarugo Fischer 8')).toEqual({
      error: SCAN_MESSAGES.notEveryWord('Tarugo Fischer 8'),
      retype: true,
    });
    expect(await enter('pintura 4')).toEqual({ error: SCAN_MESSAGES.notFound('pintura 4') });
  });

  it('still adds what the cashier chose with the arrows', async () => {
    const r = await resolveScan('clavo 2"', {
      balanza: null,
      shown: [clavo112, clavo2],
      chosen: clavo112,
      lookup: byWords,
    });
    expect(r).toEqual({ item: clavo112, cantidad: 1000 });
  });
});
