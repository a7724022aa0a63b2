import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { RANK_LIMIT, WALK_THRESHOLD } from './products.queries.js';

/*
 * GET /products?q=…&orden=relevancia (issue 33, decision 0050): the POS search ranks an exact
 * code or barcode first, then the products holding every token typed (numbers and sizes as whole
 * tokens), then the rest, by name within each rank; the same ranking as the catalogue on the
 * device (packages/shared/src/search-rank.ts).
 */
const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let other: TestUser;
let otherBiz: string;

const list = (query: Record<string, string>, u = owner, b = biz) =>
  app.inject({
    method: 'GET',
    url: `/api/v1/businesses/${b}/products?${new URLSearchParams(query).toString()}`,
    headers: u.auth,
  });
const names = async (q: string, extra: Record<string, string> = {}) => {
  const res = await list({ q, orden: 'relevancia', limit: '8', ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { nombre: string }[]).map((p) => p.nombre);
};

// The ferretería: the wrong items sort first by name, and barcodes hold the digits typed.
const CATALOGUE = [
  { nombre: 'Clavo punta paris 1 1/2"', codigo: 'CL112', codigo_barras: '7790000000112' },
  { nombre: 'Clavo punta paris 2 1/2"', codigo: 'CL212', codigo_barras: '7790000000212' },
  { nombre: 'Clavo punta paris 2"', codigo: 'CL2', codigo_barras: '7790000000020' },
  { nombre: 'Tarugo Fischer 10 mm', codigo: 'TF10', codigo_barras: '7791000000108' },
  { nombre: 'Tarugo Fischer 6 mm', codigo: 'TF6', codigo_barras: '7791000000088' },
  { nombre: 'Tarugo Fischer 8 mm', codigo: 'TF8', codigo_barras: '7791000000801' },
  { nombre: 'Látex interior Alba 10 L', codigo: 'LA10', codigo_barras: '7792000000143' },
  { nombre: 'Látex interior Alba 20 L', codigo: 'LA20', codigo_barras: '7792000000204' },
  { nombre: 'Látex interior Alba 4 L', codigo: 'LA4', codigo_barras: '7792000000040' },
];

beforeAll(async () => {
  owner = await registerUser(app, 'Ferre');
  biz = await createBusiness(app, owner, 'Ferretería Ferre');
  other = await registerUser(app, 'Otra');
  otherBiz = await createBusiness(app, other, 'Ferretería Otra');
  for (const p of CATALOGUE) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/products`,
      headers: owner.auth,
      payload: { ...p, precio_venta: 1000 },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  // Another business's 2" nail never shows.
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${otherBiz}/products`,
    headers: other.auth,
    payload: { nombre: 'Clavo 2" ajeno', precio_venta: 1 },
  });
  expect(res.statusCode, res.body).toBe(201);
});

describe('GET /products?orden=relevancia', () => {
  it('clavo 2": the 2" nail first, the 1 1/2" and 2 1/2" after it', async () => {
    expect(await names('clavo 2"')).toEqual([
      'Clavo punta paris 2"',
      'Clavo punta paris 1 1/2"',
      'Clavo punta paris 2 1/2"',
    ]);
  });

  it('Tarugo Fischer 8: 8 mm first, not the 6 mm or 10 mm whose barcodes hold an 8', async () => {
    expect(await names('Tarugo Fischer 8')).toEqual([
      'Tarugo Fischer 8 mm',
      'Tarugo Fischer 10 mm',
      'Tarugo Fischer 6 mm',
    ]);
  });

  it('Látex interior Alba 4: 4 L first, without accents or case', async () => {
    expect((await names('latex INTERIOR alba 4'))[0]).toBe('Látex interior Alba 4 L');
    expect((await names('Látex interior Alba 4'))[0]).toBe('Látex interior Alba 4 L');
  });

  it('ranks the same when no word is long enough for the trigram index', async () => {
    // "8" and "mm" are tested on each row (the list statement), not through the search function.
    expect(await names('8 mm')).toEqual(['Tarugo Fischer 8 mm', 'Tarugo Fischer 10 mm', 'Tarugo Fischer 6 mm']);
    expect(await names('2"')).toEqual(['Clavo punta paris 2"', 'Clavo punta paris 1 1/2"', 'Clavo punta paris 2 1/2"']);
  });

  it('an exact code or barcode goes first', async () => {
    expect((await names('tf6'))[0]).toBe('Tarugo Fischer 6 mm');
    expect(await names('7791000000801')).toEqual(['Tarugo Fischer 8 mm']);
    // A barcode cut short matches no whole token: the products come by name.
    expect(await names('779100000')).toEqual(['Tarugo Fischer 10 mm', 'Tarugo Fischer 6 mm', 'Tarugo Fischer 8 mm']);
  });

  it('keeps the count, the page and the filters; by name without q or by default', async () => {
    const res = await list({ q: 'clavo 2"', orden: 'relevancia', limit: '1' });
    expect(res.headers['x-total-count']).toBe('3');
    expect((res.json() as { nombre: string }[]).map((p) => p.nombre)).toEqual(['Clavo punta paris 2"']);
    const page2 = await list({ q: 'clavo 2"', orden: 'relevancia', limit: '1', offset: '1' });
    expect((page2.json() as { nombre: string }[])[0].nombre).toBe('Clavo punta paris 1 1/2"');
    expect((await names('', { q: '' })).slice(0, 2)).toEqual(['Clavo punta paris 1 1/2"', 'Clavo punta paris 2 1/2"']);
    const byName = await list({ q: 'clavo 2"' });
    expect((byName.json() as { nombre: string }[])[0].nombre).toBe('Clavo punta paris 1 1/2"');
    expect(await names('pintura 4')).toEqual([]);
  });

  it('ranks by name, as the list, a search matching more than RANK_LIMIT products', async () => {
    const big = await createBusiness(app, owner, 'Corralón Grande');
    // Arandela 1 … Arandela 2001, every barcode holding a 7: "7" is a whole token of one name only.
    await ctx.sql(
      `INSERT INTO products (business_id, nombre, codigo_barras, precio_venta)
       SELECT $1, 'Arandela ' || i, '779' || lpad(i::text, 10, '0'), 10 FROM generate_series(1, $2::int) i`,
      [big, RANK_LIMIT + 1],
    );
    const first = async (q: string) => {
      const res = await list({ q, orden: 'relevancia', limit: '3' }, owner, big);
      expect(res.statusCode, res.body).toBe(200);
      return { total: res.headers['x-total-count'], names: (res.json() as { nombre: string }[]).map((p) => p.nombre) };
    };
    // Through the trigram index ("arandela") and row by row ("7").
    for (const q of ['arandela 7', '7']) {
      expect(await first(q), q).toEqual({
        total: String(RANK_LIMIT + 1),
        names: ['Arandela 1', 'Arandela 10', 'Arandela 100'],
      });
    }
    await ctx.sql(`DELETE FROM products WHERE business_id = $1 AND nombre IN ('Arandela 2000', 'Arandela 2001')`, [
      big,
    ]);
    for (const q of ['arandela 7', '7']) {
      expect(await first(q), q).toEqual({
        total: String(RANK_LIMIT - 1),
        names: ['Arandela 7', 'Arandela 1', 'Arandela 10'],
      });
    }
  });

  it('counts every match of a search too broad to sort, walks the name index for its page, and pages past the end', async () => {
    const big = await createBusiness(app, owner, 'Bulonera');
    // Bulón 1 … Bulón 5001 (one past what the search sorts) and a few washers that must not count.
    await ctx.sql(
      `INSERT INTO products (business_id, nombre, precio_venta, activo)
       SELECT $1::uuid, 'Bulón ' || i, 10, i % 2 = 0 FROM generate_series(1, $2::int) i
       UNION ALL SELECT $1, 'Arandela ' || i, 10, true FROM generate_series(1, 3) i`,
      [big, WALK_THRESHOLD + 1],
    );
    const page = async (query: Record<string, string>) => {
      const res = await list(query, owner, big);
      expect(res.statusCode, res.body).toBe(200);
      return { total: res.headers['x-total-count'], names: (res.json() as { nombre: string }[]).map((p) => p.nombre) };
    };
    expect(await page({ q: 'bulon', limit: '3' })).toEqual({
      total: String(WALK_THRESHOLD + 1),
      names: ['Bulón 1', 'Bulón 10', 'Bulón 100'],
    });
    expect(await page({ q: 'BULÓN 500', limit: '2', offset: '1' })).toEqual({
      // 500, 1500, 2500, 3500, 4500, 5000 and 5001, by name.
      total: '7',
      names: ['Bulón 2500', 'Bulón 3500'],
    });
    // The filters apply to the function's rows: the even ones only, still counted exactly.
    expect(await page({ q: 'bulon', activo: 'true', limit: '2' })).toEqual({
      total: String(Math.floor((WALK_THRESHOLD + 1) / 2)),
      names: ['Bulón 10', 'Bulón 100'],
    });
    // Past the last match: no rows, the count still said.
    expect(await page({ q: 'bulon 500', offset: '50' })).toEqual({ total: '7', names: [] });
    expect(await page({ q: 'bulon', offset: String(WALK_THRESHOLD + 1) })).toEqual({
      total: String(WALK_THRESHOLD + 1),
      names: [],
    });
    expect(await page({ q: 'tornillo' })).toEqual({ total: '0', names: [] });
  });

  it('refuses an unknown order and another business', async () => {
    const bad = await list({ q: 'clavo', orden: 'parecido' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toContain('relevancia');
    const stranger = await list({ q: 'clavo 2"', orden: 'relevancia' }, other, biz);
    expect(stranger.statusCode).toBe(403);
  });
});
