import { describe, expect, it } from 'vitest';
import type { SalesReport } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { createBusiness, PASSWORD, registerUser, type TestUser } from '../../test/fixtures.js';
import { reportParts } from './reports.service.js';

/**
 * The totals the sales report and the cash flow read (migration 0049, decision 0027): kept by
 * triggers in the transaction of every write. Each scenario writes through the HTTP routes and
 * then checks (1) the totals kept as the writes happened equal the totals computed again from
 * the rows (`totales_rehacer`), and (2) a report read from the totals equals the same report read
 * from the rows.
 */
let clock = new Date('2026-03-20T15:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;
const owner: TestUser = await registerUser(app, 'totales');

/** Moves the clock and signs in again (a session does not outlive its hours). */
async function at(iso: string) {
  clock = new Date(iso);
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: `username=${encodeURIComponent(owner.email)}&password=${encodeURIComponent(PASSWORD)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(login.statusCode).toBe(200);
  owner.auth = { authorization: `Bearer ${login.json().access_token}` };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: object) =>
  app.inject({ method, url: `/api/v1${url}`, headers: owner.auth, ...(payload ? { payload } : {}) });
async function ok<T = Record<string, unknown>>(method: Method, url: string, payload?: object): Promise<T> {
  const res = await call(method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return (res.body ? res.json() : null) as T;
}

const TABLES = {
  totales_ventas_dia: 'dia',
  totales_medios_dia: 'dia, metodo_pago, medio_pago_id',
  totales_clientes_mes: 'mes, cliente_id',
  totales_items_mes: 'mes, tipo, item_id',
  totales_flujo_dia: 'fecha',
} as const;

/** A business's totals, numbers without trailing zeros, rows that add nothing left out. */
async function totalsOf(biz: string) {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(TABLES)) {
    const rows = await ctx.sql<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE business_id = $1 ORDER BY ${key}`,
      [biz],
    );
    out[table] = rows
      .map((r) => {
        const o: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(r)) {
          if (k === 'business_id') continue;
          o[k] =
            v instanceof Date
              ? v.toISOString().slice(0, 10)
              : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)
                ? Number(v)
                : v;
        }
        return o;
      })
      .filter((o) =>
        [
          'ventas',
          'total',
          'costo',
          'descuento',
          'anuladas',
          'devuelto',
          'costo_devuelto',
          'filas',
          'cantidad',
          'ingresos',
          'egresos',
        ]
          .filter((k) => k in o)
          .some((k) => Number(o[k]) !== 0),
      );
  }
  return out;
}

/** The totals kept write by write equal the totals computed from scratch. */
async function expectConsistent(biz: string) {
  const live = await totalsOf(biz);
  await ctx.sql('SELECT totales_rehacer($1)', [biz]);
  expect(live).toEqual(await totalsOf(biz));
  return live;
}

const report = (biz: string, desde: string, hasta: string) =>
  ok<SalesReport>('GET', `/businesses/${biz}/ventas/reporte?fecha_desde=${desde}&fecha_hasta=${hasta}`);

/** What must not depend on how the range is read: everything but the days listed. */
const comparable = (r: SalesReport) => {
  const { fecha_desde: _d, fecha_hasta: _h, por_dia: _p, ...rest } = r;
  return rest;
};

async function shop(nombre: string) {
  const biz = await createBusiness(app, owner, nombre);
  const b = `/businesses/${biz}`;
  const yerba = await ok<{ id: string }>('POST', `${b}/products`, {
    nombre: 'Yerba',
    precio_venta: 1000,
    precio_compra: 600,
    stock_actual: 500,
  });
  const queso = await ok<{ id: string }>('POST', `${b}/products`, {
    nombre: 'Queso por kilo',
    precio_venta: 8999.99,
    precio_compra: 5000,
    stock_actual: 500,
    unidad: 'kg',
  });
  const flete = await ok<{ id: string }>('POST', `${b}/services`, { nombre: 'Flete', precio: 2500 });
  const ana = await ok<{ id: string }>('POST', `${b}/clientes`, {
    nombre: 'Ana',
    apellido: 'Zapata',
    limite_credito: 50000,
  });
  const beto = await ok<{ id: string }>('POST', `${b}/clientes`, { nombre: 'Beto', apellido: 'Alvarez' });
  const medios = await ok<{ id: string; tipo: string }[]>('GET', `${b}/medios-pago`);
  const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
  // A second card: a sale paid with both counts once for "tarjeta de crédito".
  const visa = (await ok<{ id: string }>('POST', `${b}/medios-pago`, { nombre: 'Visa', tipo: 'credito' })).id;
  const sell = (body: object) =>
    ok<{ id: string; numero: number }>('POST', '/ventas/record-sale', { negocio_id: biz, ...body });
  const sale = (id: string) => ok<{ items: { id: string; nombre: string }[] }>('GET', `${b}/ventas/sales/${id}`);
  return { biz, b, yerba, queso, flete, ana, beto, medio, visa, sell, sale };
}

describe('totales de ventas y flujo de caja', () => {
  it('are kept by every kind of write and read the same as from the rows, whole months or not', async () => {
    await at('2026-03-20T15:00:00Z');
    const s = await shop('Totales Completo');
    const one = await s.sell({
      metodo_pago: 'efectivo',
      cliente_id: s.ana.id,
      items: [
        { id: s.yerba.id, cantidad: 2 },
        { id: s.queso.id, cantidad: 0.375 },
        { id: s.flete.id, tipo: 'servicio', cantidad: 1 },
      ],
    });
    // Split between two cards (one medio kind) and cash with change.
    const two = await s.sell({
      items: [{ id: s.yerba.id, cantidad: 3 }],
      pagos: [
        { medio_pago_id: s.medio('credito'), monto: 1000 },
        { medio_pago_id: s.visa, monto: 1500 },
        { medio_pago_id: s.medio('efectivo'), monto: 500 },
      ],
    });
    await s.sell({
      cliente_id: s.ana.id,
      pagos: [{ medio_pago_id: s.medio('cuenta_corriente'), monto: 2000 }],
      items: [{ id: s.yerba.id, cantidad: 2 }],
    });
    const voided = await s.sell({
      metodo_pago: 'transferencia',
      cliente_id: s.beto.id,
      items: [{ id: s.queso.id, cantidad: 1 }],
    });
    await expectConsistent(s.biz);

    // The split sale, before and after its void.
    let march = await report(s.biz, '2026-03-01', '2026-03-31');
    expect(march.por_metodo_pago.find((m) => m.metodo_pago === 'tarjeta_credito')).toMatchObject({
      cantidad_ventas: 1,
      total: 2500,
    });
    expect(march.total_ventas).toBe(4);
    await at('2026-03-21T13:00:00Z');
    await ok('POST', `${s.b}/ventas/${voided.id}/anular`, { motivo: 'Error de carga' });
    await ok('POST', `${s.b}/ventas/${two.id}/anular`, {});
    march = await report(s.biz, '2026-03-01', '2026-03-31');
    expect(march).toMatchObject({ total_ventas: 2, ventas_anuladas: 2 });
    expect(march.por_metodo_pago.map((m) => m.metodo_pago)).toEqual(['efectivo', 'otro']);
    expect(march.por_cliente).toEqual([
      expect.objectContaining({ cliente_id: s.ana.id, cantidad_ventas: 2, total: 2000 + 3375 + 2500 + 2000 }),
    ]);
    await expectConsistent(s.biz);

    // A sale taken offline on 31 March reaches the server on 2 April; a return of part of the first
    // sale on 2 April, by transfer; a cobro on account; movements written, changed and deleted.
    await at('2026-04-02T14:00:00Z');
    await s.sell({
      metodo_pago: 'mercado_pago',
      cliente_id: s.beto.id,
      items: [{ id: s.queso.id, cantidad: 2 }],
      offline: { creada_en: '2026-03-31T22:30:00-03:00', dispositivo: 'Caja 2' },
    });
    // Renamed: the report names items as they are called now, however the range is read.
    await ok('PUT', `${s.b}/products/${s.yerba.id}`, { nombre: 'Yerba mate 1 kg' });
    const lines = (await s.sale(one.id)).items;
    await ok('POST', `${s.b}/ventas/${one.id}/devoluciones`, {
      items: [{ item_id: lines.find((l) => l.nombre === 'Yerba')!.id, cantidad: 1 }],
      medio_pago_id: s.medio('transferencia'),
      motivo: 'Vencida',
    });
    await ok('POST', `${s.b}/clientes/${s.ana.id}/cobros`, { monto: 1234.56, medio_pago_id: s.medio('efectivo') });
    const gasto = await ok<{ id: string }>('POST', `${s.b}/finanzas/movimientos`, {
      tipo: 'egreso',
      monto: 300.1,
      metodo_pago: 'efectivo',
      fecha: '2026-04-01',
      descripcion: 'Artículos de limpieza',
    });
    const mal = await ok<{ id: string }>('POST', `${s.b}/finanzas/movimientos`, {
      tipo: 'ingreso',
      monto: 99,
      metodo_pago: 'efectivo',
      fecha: '2026-04-02',
    });
    await ok('PUT', `${s.b}/finanzas/movimientos/${gasto.id}`, { monto: 310.2, fecha: '2026-03-30' });
    await ok('DELETE', `${s.b}/finanzas/movimientos/${mal.id}`);
    // A payable paid in two parts: each part is a movement.
    const cuenta = await ok<{ id: string }>('POST', `${s.b}/finanzas/cuentas`, {
      tipo: 'por_pagar',
      descripcion: 'Lácteos de marzo',
      proveedor_nombre: 'La Serenísima',
      monto: 1000,
      fecha_vencimiento: '2026-04-30',
    });
    await ok('PUT', `${s.b}/finanzas/cuentas/${cuenta.id}/marcar-pagado`, { monto: 400 });
    await ok('PUT', `${s.b}/finanzas/cuentas/${cuenta.id}/marcar-pagado`, {});
    // A sale refused (more than the stock) leaves nothing behind.
    const before = await totalsOf(s.biz);
    const refused = await call('POST', '/ventas/record-sale', {
      negocio_id: s.biz,
      metodo_pago: 'efectivo',
      items: [
        { id: s.queso.id, cantidad: 1 },
        { id: s.yerba.id, cantidad: 10000 },
      ],
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(await totalsOf(s.biz)).toEqual(before);
    const totals = await expectConsistent(s.biz);

    // The cash flow reads the daily totals: the same figures as the movements listed.
    const flujo = await ok<{
      flujo_diario: { fecha: string; ingresos: number; egresos: number }[];
      total_egresos: number;
    }>('GET', `${s.b}/finanzas/flujo-caja?mes=3&anio=2026`);
    expect(flujo.flujo_diario.find((d) => d.fecha === '2026-03-30')).toMatchObject({ ingresos: 0, egresos: 310.2 });
    expect(flujo.total_egresos).toBe(310.2);
    expect(totals.totales_flujo_dia).toContainEqual({ fecha: '2026-04-02', ingresos: 234.56, egresos: 1000 });

    // Whole months (from the totals) against the same days read from the rows, and a mix.
    const months = await report(s.biz, '2026-03-01', '2026-04-30');
    const rows = await report(s.biz, '2026-03-02', '2026-04-29');
    const mixed = await report(s.biz, '2026-02-28', '2026-04-29');
    expect(reportParts('2026-03-01', '2026-04-30')).toEqual({
      months: { from: '2026-03-01', to: '2026-05-01' },
      edges: [],
    });
    expect(reportParts('2026-03-02', '2026-04-29')).toEqual({
      months: null,
      edges: [{ desde: '2026-03-02', hasta: '2026-04-29' }],
    });
    expect(reportParts('2026-02-28', '2026-04-29')).toEqual({
      months: { from: '2026-03-01', to: '2026-04-01' },
      edges: [
        { desde: '2026-02-28', hasta: '2026-02-28' },
        { desde: '2026-04-01', hasta: '2026-04-29' },
      ],
    });
    expect(comparable(rows)).toEqual(comparable(months));
    // One whole month (its rows as they are) against its days read from the rows.
    expect(comparable(await report(s.biz, '2026-03-02', '2026-03-31'))).toEqual(
      comparable(await report(s.biz, '2026-03-01', '2026-03-31')),
    );
    expect(comparable(mixed)).toEqual(comparable(months));
    expect(months).toMatchObject({ total_ventas: 3, ventas_anuladas: 2, devoluciones: 1000 });
    expect(months.productos_mas_vendidos.map((p) => [p.nombre, p.cantidad])).toEqual([
      ['Yerba mate 1 kg', 3],
      ['Queso por kilo', 2.375],
      ['Flete', 1],
    ]);
    // The offline sale counts on its own day, the return on its own.
    const days = new Map(months.por_dia.map((d) => [d.fecha, d]));
    expect(days.get('2026-03-31')).toMatchObject({ cantidad_ventas: 1, total: 17999.98 });
    expect(days.get('2026-04-02')).toMatchObject({ cantidad_ventas: 0, total: -1000 });
  });

  it('moves days and months with the business calendar', async () => {
    const s = await shop('Totales Zona');
    // 31 March 21:00 in Buenos Aires is 1 April 02:00 in Madrid.
    await at('2026-04-01T00:00:00Z');
    await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 1 }] });
    expect((await report(s.biz, '2026-03-01', '2026-03-31')).total_ventas).toBe(1);
    const settings = await ok<{ id: string }>('GET', `${s.b}/tenant-settings`);
    await ok('PUT', `${s.b}/tenant-settings/${settings.id}`, { timezone: 'Europe/Madrid' });
    expect((await report(s.biz, '2026-03-01', '2026-03-31')).total_ventas).toBe(0);
    const april = await report(s.biz, '2026-04-01', '2026-04-30');
    expect(april.total_ventas).toBe(1);
    expect(april.productos_mas_vendidos).toHaveLength(1);
    await expectConsistent(s.biz);
    await ok('PUT', `${s.b}/tenant-settings/${settings.id}`, { timezone: 'America/Argentina/Buenos_Aires' });
    expect((await report(s.biz, '2026-03-01', '2026-03-31')).total_ventas).toBe(1);
    await expectConsistent(s.biz);
  });

  it('stays exact with sales, voids, returns and movements of one business at once, and goes with the business', async () => {
    await at('2026-05-10T15:00:00Z');
    const s = await shop('Totales Concurrentes');
    const first = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        s.sell({
          metodo_pago: i % 2 ? 'efectivo' : 'transferencia',
          cliente_id: i % 3 ? s.ana.id : null,
          items: [
            { id: s.yerba.id, cantidad: 1 + (i % 3) },
            { id: s.queso.id, cantidad: 0.25 },
          ],
        }),
      ),
    );
    const lineOf = async (id: string) => (await s.sale(id)).items.find((l) => l.nombre === 'Yerba')!.id;
    const returnLines = await Promise.all(first.slice(6).map((v) => lineOf(v.id)));
    await Promise.all([
      ...first.slice(0, 6).map((v) => ok('POST', `${s.b}/ventas/${v.id}/anular`, {})),
      ...first.slice(6).map((v, i) =>
        ok('POST', `${s.b}/ventas/${v.id}/devoluciones`, {
          items: [{ item_id: returnLines[i], cantidad: 1 }],
          medio_pago_id: s.medio('efectivo'),
        }),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        s.sell({ metodo_pago: 'tarjeta_debito', items: [{ id: s.queso.id, cantidad: 1 + i }] }),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        ok('POST', `${s.b}/finanzas/movimientos`, { tipo: 'egreso', monto: 10 + i, metodo_pago: 'efectivo' }),
      ),
    ]);
    await expectConsistent(s.biz);
    const may = await report(s.biz, '2026-05-01', '2026-05-31');
    expect(may).toMatchObject({ total_ventas: 12, ventas_anuladas: 6, devoluciones: 6000 });
    expect(comparable(await report(s.biz, '2026-05-02', '2026-05-30'))).toEqual(comparable(may));

    await ok('DELETE', `/businesses/${s.biz}`);
    for (const table of Object.keys(TABLES)) {
      expect(await ctx.sql(`SELECT 1 FROM ${table} WHERE business_id = $1`, [s.biz])).toEqual([]);
    }
  });
});
