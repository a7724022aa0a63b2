import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { saleMedioNombre, type Sale, type SalesReport } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

/*
 * Reports, lists and Excel name each medio de pago as the business configured it (issue 33,
 * decision 0050): cuenta corriente is not "Otro", "Crédito 3 cuotas +15%" is not folded into
 * "Tarjeta de Crédito", a split payment names each of its medios. `por_metodo_pago` keeps the
 * contract's codes (API-CONTRACT §6.4); `por_medio_pago` is added beside it.
 */
const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let b: string;
let medio: (nombre: string) => string;
let cuotas: string;
let fiado: Sale;
let split: Sale;

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, payload?: object, u = owner) =>
  app.inject({ method, url: `/api/v1${url}`, headers: u.auth, ...(payload ? { payload } : {}) });
async function ok<T>(method: Method, url: string, payload?: object): Promise<T> {
  const res = await call(method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as T;
}
const MARCH = 'fecha_desde=2026-03-01&fecha_hasta=2026-03-31';
const report = () => ok<SalesReport>('GET', `${b}/ventas/reporte?${MARCH}`);
const medios = (r: SalesReport) => r.por_medio_pago.map((m) => [m.nombre, m.cantidad_ventas, m.total]);

beforeAll(async () => {
  owner = await registerUser(app, 'Medios');
  biz = await createBusiness(app, owner, 'Ferretería Medios');
  b = `/businesses/${biz}`;
  const taladro = await ok<{ id: string }>('POST', `${b}/products`, {
    nombre: 'Taladro',
    precio_venta: 1000,
    stock_actual: 100,
  });
  const ana = await ok<{ id: string }>('POST', `${b}/clientes`, {
    nombre: 'Ana',
    apellido: 'Zapata',
    limite_credito: 100000,
  });
  cuotas = (
    await ok<{ id: string }>('POST', `${b}/medios-pago`, {
      nombre: 'Crédito 3 cuotas',
      tipo: 'credito',
      ajuste_porcentaje: 15,
    })
  ).id;
  const all = await ok<{ id: string; nombre: string }[]>('GET', `${b}/medios-pago`);
  medio = (nombre: string) => all.find((m) => m.nombre === nombre)!.id;
  const sell = (body: object) => ok<Sale>('POST', '/ventas/record-sale', { negocio_id: biz, ...body });
  const one = [{ id: taladro.id, cantidad: 1 }];
  fiado = await sell({
    cliente_id: ana.id,
    items: one,
    pagos: [{ medio_pago_id: medio('Cuenta corriente'), monto: 1000 }],
  });
  await sell({ items: one, pagos: [{ medio_pago_id: cuotas, monto: 1000 }] });
  await sell({ items: one, pagos: [{ medio_pago_id: medio('Tarjeta de Crédito'), monto: 1000 }] });
  await sell({ items: [{ id: taladro.id, cantidad: 2 }], metodo_pago: 'otro' });
  split = await sell({
    cliente_id: ana.id,
    items: one,
    pagos: [
      { medio_pago_id: medio('Efectivo'), monto: 400 },
      { medio_pago_id: medio('Cuenta corriente'), monto: 600 },
    ],
  });
  // A sale paid with the two credit medios counts once for its code, once for each medio.
  await sell({
    items: one,
    pagos: [
      { medio_pago_id: medio('Tarjeta de Crédito'), monto: 500 },
      { medio_pago_id: cuotas, monto: 500 },
    ],
  });
});

describe('the sales report per medio de pago', () => {
  it('names cuenta corriente, the card in cuotas and each part of a split payment', async () => {
    const r = await report();
    expect(medios(r)).toEqual([
      ['Otro', 1, 2000],
      ['Crédito 3 cuotas', 2, 1725],
      ['Cuenta corriente', 2, 1600],
      ['Tarjeta de Crédito', 2, 1500],
      ['Efectivo', 1, 400],
    ]);
    expect(r.por_medio_pago.find((m) => m.nombre === 'Cuenta corriente')).toEqual({
      medio_pago_id: medio('Cuenta corriente'),
      nombre: 'Cuenta corriente',
      tipo: 'cuenta_corriente',
      metodo_pago: 'otro',
      cantidad_ventas: 2,
      total: 1600,
    });
    // The contract's list by code is as before: a sale with two cards counts once.
    expect(r.por_metodo_pago).toEqual([
      { metodo_pago: 'otro', metodo_pago_label: 'Otro', cantidad_ventas: 3, total: 3600 },
      { metodo_pago: 'tarjeta_credito', metodo_pago_label: 'Tarjeta de Crédito', cantidad_ventas: 3, total: 3225 },
      { metodo_pago: 'efectivo', metodo_pago_label: 'Efectivo', cantidad_ventas: 1, total: 400 },
    ]);
    const sum = (xs: { total: number }[]) => xs.reduce((s, m) => s + Math.round(m.total * 100), 0);
    expect(sum(r.por_medio_pago)).toBe(Math.round(r.total_ingresos * 100));
    expect(sum(r.por_metodo_pago)).toBe(Math.round(r.total_ingresos * 100));
  });

  it('names a renamed medio as it is called now, and is the same counted again from the rows', async () => {
    await ok('PUT', `${b}/medios-pago/${cuotas}`, { nombre: 'Visa 3 cuotas' });
    const before = await report();
    expect(before.por_medio_pago.map((m) => m.nombre)).toContain('Visa 3 cuotas');
    await ctx.sql('SELECT totales_rehacer($1)', [biz]);
    // The report's cache keeps the answer for an unchanged version: compare the rows instead.
    const rows = await ctx.sql<{ medio_pago_id: string; ventas: number; ventas_metodo: number; total: string }>(
      `SELECT medio_pago_id, sum(ventas)::int AS ventas, sum(ventas_metodo)::int AS ventas_metodo, sum(total)::text AS total
         FROM totales_medios_dia WHERE business_id = $1 GROUP BY 1 ORDER BY 1`,
      [biz],
    );
    const byId = new Map(rows.map((r) => [r.medio_pago_id, r]));
    for (const m of before.por_medio_pago) {
      const row = byId.get(m.medio_pago_id ?? '00000000-0000-0000-0000-000000000000')!;
      expect([row.ventas, Number(row.total)], m.nombre).toEqual([m.cantidad_ventas, m.total]);
    }
    expect(rows.reduce((s, r) => s + r.ventas_metodo, 0)).toBe(7);
    await ok('PUT', `${b}/medios-pago/${cuotas}`, { nombre: 'Crédito 3 cuotas' });
  });

  it('keeps another business and members without access out', async () => {
    const other = await registerUser(app, 'otrodueno');
    const otherBiz = await createBusiness(app, other, 'Otra ferretería');
    const r = await call('GET', `/businesses/${otherBiz}/ventas/reporte?${MARCH}`, undefined, other);
    expect(r.statusCode).toBe(200);
    expect(r.json().por_medio_pago).toEqual([]);
    expect((await call('GET', `${b}/ventas/reporte?${MARCH}`, undefined, other)).statusCode).toBe(403);
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_productos']);
    expect((await call('GET', `${b}/ventas/reporte?${MARCH}`, undefined, cajero)).statusCode).toBe(403);
  });
});

describe('the sales list and the Excel', () => {
  it('the list carries each payment with its medio name', async () => {
    const list = await ok<{ ventas: Sale[] }>('GET', `${b}/ventas/sales?${MARCH}&limit=50`);
    const byId = new Map(list.ventas.map((s) => [s.id, s]));
    expect(saleMedioNombre(byId.get(fiado.id)!)).toBe('Cuenta corriente');
    expect(saleMedioNombre(byId.get(split.id)!)).toBe('Efectivo + Cuenta corriente');
    // The contract's code and label stay.
    expect(byId.get(fiado.id)).toMatchObject({ metodo_pago: 'otro', metodo_pago_label: 'Otro' });
  });

  it('the spreadsheet names medios in its sales and its medios sheets', async () => {
    const res = await call('GET', `${b}/ventas/reporte?${MARCH}&formato=xlsx`);
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Métodos de pago')!;
    const rows = sheet.getSheetValues().slice(2) as unknown[][];
    expect(rows.map((r) => r.slice(1, 4))).toEqual([
      ['Otro', 1, 2000],
      ['Crédito 3 cuotas', 2, 1725],
      ['Cuenta corriente', 2, 1600],
      ['Tarjeta de Crédito', 2, 1500],
      ['Efectivo', 1, 400],
    ]);
    const ventas = wb.getWorksheet('Ventas')!;
    const header = (ventas.getRow(1).values as unknown[]).indexOf('Método de pago');
    const medioOf = new Map<number, unknown>();
    ventas.eachRow((row, n) => {
      if (n > 1) medioOf.set(Number(row.getCell(1).value), row.getCell(header).value);
    });
    expect(medioOf.get(fiado.numero)).toBe('Cuenta corriente');
    expect(medioOf.get(split.numero)).toBe('Efectivo + Cuenta corriente');
    expect([...medioOf.values()]).toContain('Crédito 3 cuotas');
    expect([...medioOf.values()]).toContain('Tarjeta de Crédito + Crédito 3 cuotas');
  });
});
