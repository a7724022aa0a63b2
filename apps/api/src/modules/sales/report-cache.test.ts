import { describe, expect, it } from 'vitest';
import type { SalesReport } from '@mostrador/shared';
import { createTestApp, siblingApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import type { App } from '../../app.js';
import { reportCache } from './report-cache.js';
import { readReport, reportJson } from './reports.service.js';
import { enNegocio } from '../../db/tenant.js';

/**
 * A sales report answered again is kept by the API instance while the business's totals keep
 * their version (migration 0050, decision 0029). After every kind of change the next answer is
 * the report read afresh from the database, in this instance and in another one.
 */
// 30 June, 22:00 in Buenos Aires: already 1 July in Madrid.
const clock = new Date('2026-07-01T01:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;
const other = await siblingApp(ctx, { now: () => clock });
const owner: TestUser = await registerUser(app, 'cache');
const biz = await createBusiness(app, owner, 'Reporte Guardado');
const b = `/businesses/${biz}`;
const JUNE = `${b}/ventas/reporte?fecha_desde=2026-06-01&fecha_hasta=2026-06-30`;

async function ok<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  const res = await app.inject({ method, url: `/api/v1${url}`, headers: owner.auth, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return (res.body ? res.json() : null) as T;
}

/** The report as an instance answers it, checked against the report read afresh (no cache). */
async function june(on: App = app, user: TestUser = owner, costos = true): Promise<SalesReport> {
  const res = await on.inject({ method: 'GET', url: `/api/v1${JUNE}`, headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  const fresh = reportJson(
    await enNegocio(biz, () =>
      readReport(ctx.database.db, biz, 'America/Argentina/Buenos_Aires', '2026-06-01', '2026-06-30', costos),
    ),
  );
  expect(res.json()).toEqual(JSON.parse(fresh));
  return res.json();
}

const version = async () =>
  Number(
    (await ctx.sql<{ version: string }>('SELECT version FROM totales_version WHERE business_id = $1', [biz]))[0]
      ?.version ?? 0,
  );

describe('sales report kept while its totals do not change', () => {
  it('answers the same report again, and the fresh one after every kind of change, in any instance', async () => {
    const yerba = await ok<{ id: string }>('POST', `${b}/products`, {
      nombre: 'Yerba',
      precio_venta: 1000,
      precio_compra: 600,
      stock_actual: 100,
    });
    const ana = await ok<{ id: string }>('POST', `${b}/clientes`, { nombre: 'Ana', apellido: 'Zapata' });
    const sell = (cantidad: number, cliente_id: string | null = ana.id) =>
      ok<{ id: string }>('POST', '/ventas/record-sale', {
        negocio_id: biz,
        metodo_pago: 'efectivo',
        cliente_id,
        items: [{ id: yerba.id, cantidad }],
      });

    expect((await june()).total_ventas).toBe(0);
    const first = await sell(2);
    expect(await june()).toMatchObject({ total_ventas: 1, total_ingresos: 2000 });
    // Asked again with nothing changed: the same version, the same answer, in both instances.
    const v = await version();
    expect(await june()).toEqual(await june(other));
    expect(await version()).toBe(v);

    // Each change makes the totals' version grow at its commit, and the next answer is fresh.
    const changes: [string, () => Promise<unknown>, (r: SalesReport) => void][] = [
      ['a sale', () => sell(3, null), (r) => expect(r.total_ventas).toBe(2)],
      [
        'a void',
        () => ok('POST', `${b}/ventas/${first.id}/anular`, { motivo: 'Error' }),
        (r) => expect(r).toMatchObject({ total_ventas: 1, ventas_anuladas: 1 }),
      ],
      [
        'a product renamed',
        () => ok('PUT', `${b}/products/${yerba.id}`, { nombre: 'Yerba mate 1 kg' }),
        (r) => expect(r.productos_mas_vendidos[0].nombre).toBe('Yerba mate 1 kg'),
      ],
      [
        'a sale to a customer',
        () => sell(1),
        (r) => expect(r.por_cliente.map((c) => c.cliente_nombre)).toContain('Ana Zapata'),
      ],
      [
        "a customer's surname",
        () => ok('PUT', `${b}/clientes/${ana.id}`, { nombre: 'Ana', apellido: 'Zapata Ruiz' }),
        (r) => expect(r.por_cliente.map((c) => c.cliente_nombre)).toContain('Ana Zapata Ruiz'),
      ],
      [
        'an expense (the cash flow’s totals)',
        () =>
          ok('POST', `${b}/finanzas/movimientos`, {
            tipo: 'egreso',
            monto: 10,
            metodo_pago: 'efectivo',
            fecha: '2026-06-30',
          }),
        (r) => expect(r.total_ventas).toBe(2),
      ],
    ];
    for (const [what, change, check] of changes) {
      const before = await version();
      await june();
      await june(other);
      await change();
      expect(await version(), what).toBeGreaterThan(before);
      check(await june());
      check(await june(other));
    }

    // A new calendar: the sales of 30 June 22:00 in Buenos Aires are of 1 July in Madrid.
    const settings = await ok<{ id: string }>('GET', `${b}/tenant-settings`);
    expect((await june()).total_ventas).toBe(2);
    await ok('PUT', `${b}/tenant-settings/${settings.id}`, { timezone: 'Europe/Madrid' });
    const res = await app.inject({ method: 'GET', url: `/api/v1${JUNE}`, headers: owner.auth });
    expect(res.json().total_ventas).toBe(0);
    await ok('PUT', `${b}/tenant-settings/${settings.id}`, { timezone: 'America/Argentina/Buenos_Aires' });
    expect((await june()).total_ventas).toBe(2);
  });

  it('keeps what a member without ver_costos sees apart from what the owner sees', async () => {
    const reader = await registerUser(app, 'Lectora');
    await addMember(ctx, biz, owner, reader, ['puede_ver_ventas']);
    const mine = await june();
    const theirs = await june(app, reader, false);
    expect(mine.ganancias_netas).toBeDefined();
    expect(theirs.ganancias_netas).toBeUndefined();
    expect(JSON.stringify(theirs)).not.toContain('ganancia');
    // The owner's kept answer is still the owner's.
    expect((await june()).ganancias_netas).toBe(mine.ganancias_netas);
  });
});

describe('reportCache', () => {
  it('gives a report back only at its version, and lets the least recently used go past its size', () => {
    const cache = reportCache(10);
    cache.set('a', '1', 'aaaa');
    expect(cache.get('a', '1')).toBe('aaaa');
    expect(cache.get('a', '2')).toBeNull();
    cache.set('b', '1', 'bbbb');
    // "a" was used last: "b" goes when "c" does not fit.
    expect(cache.get('a', '1')).toBe('aaaa');
    cache.set('c', '1', 'cccc');
    expect([cache.get('a', '1'), cache.get('b', '1'), cache.get('c', '1')]).toEqual(['aaaa', null, 'cccc']);
    // Too big for the cache at all: not kept, and nothing else is lost for it.
    cache.set('d', '1', 'x'.repeat(11));
    expect([cache.get('d', '1'), cache.get('a', '1')]).toEqual([null, 'aaaa']);
  });
});
