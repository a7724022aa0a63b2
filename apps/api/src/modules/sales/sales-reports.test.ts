import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { paymentMethodLabel, recordSaleInput, type PaymentMethod, type SalesReport } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { recordSale } from './record-sale.js';
import { enNegocio } from '../../db/tenant.js';

// Friday 20 March 2026, 12:00 in Buenos Aires.
const clock = new Date('2026-03-20T15:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;
const TZ = 'America/Argentina/Buenos_Aires';

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;

const api = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, u: TestUser = owner, payload?: object) =>
  app.inject({ method, url: `/api/v1${url}`, headers: u.auth, ...(payload ? { payload } : {}) });

async function create(path: string, payload: object, b = biz, u = owner) {
  const res = await api('POST', `/businesses/${b}/${path}`, u, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; nombre: string };
}

/** A deterministic pseudo-random sequence, so the data set is the same on every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Catalog {
  id: string;
  tipo: 'producto' | 'servicio';
  nombre: string;
  precio: number; // cents
  costo: number; // cents
}

interface Expected {
  id: string;
  numero: number;
  day: string;
  metodo: PaymentMethod;
  cliente: string | null;
  total: number;
  costo: number;
  descuento: number;
  lines: { item: Catalog; qty: number; subtotal: number; costo: number }[];
  voided: boolean;
}

const expected: Expected[] = [];
let items: Catalog[] = [];
let clientes: { id: string; nombre: string }[] = [];
let otherSaleId = '';

/** Records a sale through the service at `when`, keeping the independently computed figures. */
async function sell(
  when: string,
  lines: { item: Catalog; qty: number; precio?: number }[],
  opts: { metodo: PaymentMethod; cliente?: string | null; descuento?: number },
) {
  const input = recordSaleInput.parse({
    metodo_pago: opts.metodo,
    cliente_id: opts.cliente ?? null,
    descuento: opts.descuento ? opts.descuento / 100 : undefined,
    items: lines.map((l) => ({
      id: l.item.id,
      tipo: l.item.tipo,
      cantidad: l.qty / 1000,
      ...(l.precio !== undefined ? { precio: l.precio / 100 } : {}),
    })),
  });
  const now = new Date(when);
  const r = await enNegocio(biz, () =>
    recordSale(ctx.database, { businessId: biz, userId: owner.id, timezone: TZ, now }, input),
  );
  const computed = lines.map((l) => {
    const precio = l.precio ?? l.item.precio;
    return {
      item: l.item,
      qty: l.qty,
      subtotal: Math.round((l.qty * precio) / 1000),
      costo: Math.round((l.qty * l.item.costo) / 1000),
    };
  });
  const subtotal = computed.reduce((s, l) => s + l.subtotal, 0);
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(now);
  expected.push({
    id: r.body.id,
    numero: r.body.numero,
    day,
    metodo: opts.metodo,
    cliente: opts.cliente ?? null,
    total: subtotal - (opts.descuento ?? 0),
    costo: computed.reduce((s, l) => s + l.costo, 0),
    descuento: opts.descuento ?? 0,
    lines: computed,
    voided: false,
  });
  expect(r.body.total).toBe((subtotal - (opts.descuento ?? 0)) / 100);
  return r.body;
}

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');

  const yerba = await create('products', {
    nombre: 'Yerba mate 1 kg',
    precio_venta: 4000,
    precio_compra: 2800,
    stock_actual: 10000,
  });
  const queso = await create('products', {
    nombre: 'Queso cremoso',
    precio_venta: 9800.5,
    precio_compra: 6500.25,
    stock_actual: 10000,
    unidad: 'kg',
  });
  const sinCosto = await create('products', { nombre: 'Pan casero', precio_venta: 1333.33, stock_actual: 10000 });
  const envio = await create('services', { nombre: 'Envío a domicilio', precio: 1500, costo: 499.99 });
  items = [
    { id: yerba.id, tipo: 'producto', nombre: yerba.nombre, precio: 400000, costo: 280000 },
    { id: queso.id, tipo: 'producto', nombre: queso.nombre, precio: 980050, costo: 650025 },
    { id: sinCosto.id, tipo: 'producto', nombre: sinCosto.nombre, precio: 133333, costo: 0 },
    { id: envio.id, tipo: 'servicio', nombre: envio.nombre, precio: 150000, costo: 49999 },
  ];
  clientes = [
    await create('clientes', { nombre: 'María', apellido: 'González' }),
    await create('clientes', { nombre: '=HYPERLINK("http://x")', apellido: 'Pérez' }),
  ];

  const rand = rng(42);
  const methods: PaymentMethod[] = ['efectivo', 'tarjeta_debito', 'tarjeta_credito', 'transferencia', 'mercado_pago'];
  // February 20 to March 20, a few sales per day at random times (UTC instants).
  for (let d = 0; d <= 28; d++) {
    const day = new Date(Date.UTC(2026, 1, 20 + d));
    const n = Math.floor(rand() * 3);
    for (let k = 0; k < n; k++) {
      const when = new Date(day.getTime() + Math.floor(rand() * 86_400_000));
      if (when > clock) continue;
      const lines = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
        const item = items[Math.floor(rand() * items.length)];
        const qty = item.id === queso.id ? 1 + Math.floor(rand() * 2500) : 1000 * (1 + Math.floor(rand() * 3));
        return { item, qty, ...(rand() < 0.2 ? { precio: 100 + Math.floor(rand() * 500000) } : {}) };
      });
      const sub = lines.reduce((s, l) => s + Math.round((l.qty * (l.precio ?? l.item.precio)) / 1000), 0);
      await sell(when.toISOString(), lines, {
        metodo: methods[Math.floor(rand() * methods.length)],
        cliente: rand() < 0.5 ? null : clientes[Math.floor(rand() * clientes.length)].id,
        descuento: rand() < 0.3 ? Math.floor(rand() * sub) : 0,
      });
    }
  }
  // Boundaries in Buenos Aires (UTC−3): 28 Feb 23:30 local and 1 Mar 00:00 local.
  await sell('2026-03-01T02:30:00Z', [{ item: items[0], qty: 1000 }], { metodo: 'efectivo' });
  await sell('2026-03-01T03:00:00Z', [{ item: items[0], qty: 2000 }], { metodo: 'cheque' });
  // Today and this week (Monday 16 March).
  await sell(
    '2026-03-20T13:00:00Z',
    [
      { item: items[3], qty: 1000 },
      { item: items[1], qty: 1500 },
    ],
    { metodo: 'efectivo', cliente: clientes[0].id },
  );
  await sell('2026-03-16T03:00:00Z', [{ item: items[2], qty: 3000 }], { metodo: 'transferencia' });

  const other = await create(
    'products',
    { nombre: 'Producto ajeno', precio_venta: 777, stock_actual: 100 },
    otherBiz,
    otherOwner,
  );
  const res = await api('POST', `/ventas/record-sale`, otherOwner, {
    metodo_pago: 'efectivo',
    items: [{ id: other.id, tipo: 'producto', cantidad: 3 }],
  });
  expect(res.statusCode, res.body).toBe(201);
  otherSaleId = res.json().id;
});

describe('void (§14.3)', () => {
  it('voids a sale: state, stock back, movement anulado and out of the finance totals; twice → 409', async () => {
    const target = expected.find((e) => e.day === '2026-03-20')!;
    const before = await ctx.sql<{ id: string; s: string }>(
      'SELECT id, stock_actual AS s FROM products WHERE business_id = $1',
      [biz],
    );
    const finBefore = (await api('GET', `/businesses/${biz}/finanzas/resumen?mes=3&anio=2026`)).json();

    const viewer = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_ventas', 'puede_editar_ventas']);
    const refused = await api('POST', `/businesses/${biz}/ventas/${target.id}/anular`, viewer, { motivo: 'x' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', accion: 'eliminar', modulo: 'ventas' });

    const res = await api('POST', `/businesses/${biz}/ventas/${target.id}/anular`, owner, {
      motivo: '  Cliente se arrepintió ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: target.id,
      estado: 'anulada',
      anulada_en: clock.toISOString(),
      anulada_por: { id: owner.id, nombre: 'Ana Prueba' },
      motivo_anulacion: 'Cliente se arrepintió',
    });
    target.voided = true;

    const after = await ctx.sql<{ id: string; s: string }>(
      'SELECT id, stock_actual AS s FROM products WHERE business_id = $1',
      [biz],
    );
    const stock = (rows: { id: string; s: string }[], id: string) => Number(rows.find((r) => r.id === id)!.s);
    for (const l of target.lines.filter((x) => x.item.tipo === 'producto')) {
      expect(stock(after, l.item.id) - stock(before, l.item.id)).toBeCloseTo(l.qty / 1000, 3);
    }
    const movs = (await api('GET', `/businesses/${biz}/products/${items[1].id}/movimientos-stock?limit=1`)).json();
    expect(movs[0]).toMatchObject({
      origen: 'anulacion',
      referencia_id: target.id,
      motivo: `Anulación venta #${target.numero}`,
      cantidad: 1.5,
    });

    const fin = (
      await api('GET', `/businesses/${biz}/finanzas/movimientos?origen=venta&incluir_anulados=true&limit=500`)
    ).json();
    expect(fin.find((m: { venta_id: string }) => m.venta_id === target.id)).toMatchObject({ anulado: true });
    const visible = (await api('GET', `/businesses/${biz}/finanzas/movimientos?origen=venta&limit=500`)).json();
    expect(visible.some((m: { venta_id: string }) => m.venta_id === target.id)).toBe(false);
    const finAfter = (await api('GET', `/businesses/${biz}/finanzas/resumen?mes=3&anio=2026`)).json();
    expect(Math.round(finBefore.total_ingresos * 100) - Math.round(finAfter.total_ingresos * 100)).toBe(target.total);

    const again = await api('POST', `/businesses/${biz}/ventas/${target.id}/anular`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'INVALID_STATE', detail: 'La venta ya está anulada.' });

    const audit = await ctx.sql<{ entidad: string; accion: string }>(
      `SELECT entidad, accion FROM audit_log WHERE business_id = $1 AND accion = 'anular' ORDER BY entidad`,
      [biz],
    );
    expect(audit).toEqual([
      { entidad: 'movimiento', accion: 'anular' },
      { entidad: 'venta', accion: 'anular' },
    ]);

    // Void a second one without a body.
    const second =
      expected.find((e) => e.day === '2026-03-05' && !e.voided) ??
      expected.find((e) => e.day > '2026-03-01' && !e.voided)!;
    const r2 = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/ventas/${second.id}/anular`,
      headers: owner.auth,
    });
    expect(r2.statusCode, r2.body).toBe(200);
    second.voided = true;
  });

  it('answers 404 for unknown, malformed and foreign sales, and never deletes', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nada', otherSaleId]) {
      const v = await api('POST', `/businesses/${biz}/ventas/${id}/anular`);
      expect(v.statusCode, id).toBe(404);
      expect(v.json().detail).toBe('Venta no encontrada.');
      expect((await api('GET', `/businesses/${biz}/ventas/sales/${id}`)).statusCode).toBe(404);
      expect((await api('GET', `/ventas/sales/${id}?negocio_id=${biz}`)).statusCode).toBe(404);
    }
    const id = expected[0].id;
    for (const url of [
      `/businesses/${biz}/ventas/sales/${id}`,
      `/businesses/${biz}/ventas/${id}`,
      `/ventas/sales/${id}?negocio_id=${biz}`,
    ]) {
      const res = await api('DELETE', url);
      expect(res.statusCode, url).toBe(405);
      expect(res.json()).toEqual({ code: 'METHOD_NOT_ALLOWED', detail: 'Las ventas no se eliminan: anulalas.' });
    }
    expect((await api('GET', `/businesses/${biz}/ventas/sales/${id}`)).statusCode).toBe(200);
  });
});

describe('lists (§6.3)', () => {
  it('lists newest first with the wrapper, filters and pages; both mounts', async () => {
    const all = (await api('GET', `/businesses/${biz}/ventas/sales?limit=500`)).json();
    expect(all.total_ventas).toBe(expected.length);
    expect(all.ventas).toHaveLength(expected.length);
    const fechas = all.ventas.map((v: { fecha: string }) => v.fecha);
    expect([...fechas].sort().reverse()).toEqual(fechas);
    expect(all.ventas[0].items.length).toBeGreaterThan(0);

    const march = expected.filter((e) => e.day >= '2026-03-01' && e.day <= '2026-03-10');
    const q = await api(
      'GET',
      `/businesses/${biz}/ventas/sales?fecha_inicio=2026-03-01&fecha_fin=2026-03-10&limit=2&offset=1`,
    );
    expect(q.json().total_ventas).toBe(march.length);
    expect(q.json().ventas).toHaveLength(2);
    const global = await api(
      'GET',
      `/ventas/sales?business_id=${biz}&fecha_desde=2026-03-01&fecha_hasta=2026-03-10&limit=500`,
    );
    expect(
      global
        .json()
        .ventas.map((v: { id: string }) => v.id)
        .sort(),
    ).toEqual(march.map((e) => e.id).sort());

    const anuladas = (await api('GET', `/businesses/${biz}/ventas/sales?estado=anulada`)).json();
    expect(anuladas.ventas.map((v: { id: string }) => v.id).sort()).toEqual(
      expected
        .filter((e) => e.voided)
        .map((e) => e.id)
        .sort(),
    );
    const maria = (await api('GET', `/businesses/${biz}/ventas/sales?cliente_id=${clientes[0].id}&limit=500`)).json();
    expect(maria.total_ventas).toBe(expected.filter((e) => e.cliente === clientes[0].id).length);
    const cheque = (await api('GET', `/businesses/${biz}/ventas/sales?metodo_pago=Cheque`)).json();
    expect(cheque.total_ventas).toBe(expected.filter((e) => e.metodo === 'cheque').length);

    const bad = await api('GET', `/businesses/${biz}/ventas/sales?fecha_desde=2026-03-10&fecha_hasta=2026-03-01`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBe('La fecha desde no puede ser posterior a la fecha hasta.');
    expect((await api('GET', `/businesses/${biz}/ventas/sales?limit=-1`)).statusCode).toBe(422);
    expect((await api('GET', `/businesses/${biz}/ventas/sales?limit=100000`)).statusCode).toBe(200);
  });
});

describe('report (§6.4)', () => {
  const cents = (n: number) => Math.round(n * 100);

  function expectedReport(desde: string, hasta: string) {
    const inRange = expected.filter((e) => e.day >= desde && e.day <= hasta);
    const done = inRange.filter((e) => !e.voided);
    const sum = (xs: Expected[], f: (e: Expected) => number) => xs.reduce((s, e) => s + f(e), 0);
    const total = sum(done, (e) => e.total);
    const costo = sum(done, (e) => e.costo);
    const perItem = new Map<string, { qty: number; total: number; costo: number }>();
    for (const e of done) {
      for (const l of e.lines) {
        const p = perItem.get(l.item.id) ?? { qty: 0, total: 0, costo: 0 };
        p.qty += l.qty;
        p.total += l.subtotal;
        p.costo += l.costo;
        perItem.set(l.item.id, p);
      }
    }
    return { inRange, done, total, costo, descuentos: sum(done, (e) => e.descuento), perItem };
  }

  it('matches independently computed sums to the cent, day by day, by item, method and customer', async () => {
    const res = await api('GET', `/businesses/${biz}/ventas/reporte?fecha_desde=2026-03-01&fecha_hasta=2026-03-31`);
    expect(res.statusCode, res.body).toBe(200);
    const r: SalesReport = res.json();
    const x = expectedReport('2026-03-01', '2026-03-31');
    expect(r.fecha_desde).toBe('2026-03-01');
    expect(r.fecha_hasta).toBe('2026-03-31');
    expect(r.total_ventas).toBe(x.done.length);
    expect(r.ventas_anuladas).toBe(x.inRange.length - x.done.length);
    expect(cents(r.total_ingresos)).toBe(x.total);
    expect(cents(r.costo_estimado)).toBe(x.costo);
    expect(cents(r.ganancias_netas)).toBe(x.total - x.costo);
    expect(cents(r.descuentos)).toBe(x.descuentos);
    expect(cents(r.ticket_promedio)).toBe(Math.round(x.total / x.done.length));

    expect(r.por_dia).toHaveLength(31);
    for (const d of r.por_dia) {
      const day = x.done.filter((e) => e.day === d.fecha);
      expect(d.cantidad_ventas, d.fecha).toBe(day.length);
      expect(cents(d.total), d.fecha).toBe(day.reduce((s, e) => s + e.total, 0));
      expect(cents(d.ganancia), d.fecha).toBe(day.reduce((s, e) => s + e.total - e.costo, 0));
    }
    // The sale at 23:30 of 28 February (local) is not in March; the one at 00:00 of 1 March is.
    expect(r.por_dia[0].cantidad_ventas).toBe(x.done.filter((e) => e.day === '2026-03-01').length);

    expect(r.productos_mas_vendidos).toHaveLength(x.perItem.size);
    for (const p of r.productos_mas_vendidos) {
      const e = x.perItem.get(p.id)!;
      expect(Math.round(p.cantidad * 1000), p.nombre).toBe(e.qty);
      expect(cents(p.total), p.nombre).toBe(e.total);
      expect(cents(p.ganancia), p.nombre).toBe(e.total - e.costo);
    }
    const qtys = r.productos_mas_vendidos.map((p) => p.cantidad);
    expect([...qtys].sort((a, b) => b - a)).toEqual(qtys);

    const methods = new Map<string, number>();
    for (const e of x.done) methods.set(e.metodo, (methods.get(e.metodo) ?? 0) + e.total);
    expect(r.por_metodo_pago.map((m) => [m.metodo_pago, cents(m.total)]).sort()).toEqual([...methods.entries()].sort());
    const totals = r.por_metodo_pago.map((m) => m.total);
    expect([...totals].sort((a, b) => b - a)).toEqual(totals);
    // Each medio carries its label, as every other answer with a metodo_pago (lib/payment-labels.ts).
    for (const m of r.por_metodo_pago)
      expect(m.metodo_pago_label, m.metodo_pago).toBe(paymentMethodLabel(m.metodo_pago));

    const walkIn = x.done.filter((e) => !e.cliente);
    expect(r.por_cliente.find((c) => c.cliente_id === null)).toEqual({
      cliente_id: null,
      cliente_nombre: 'Consumidor final',
      cantidad_ventas: walkIn.length,
      total: walkIn.reduce((s, e) => s + e.total, 0) / 100,
    });
    expect(r.por_cliente.find((c) => c.cliente_id === clientes[0].id)?.cliente_nombre).toBe('María González');
    expect(r.por_cliente.reduce((s, c) => s + cents(c.total), 0)).toBe(x.total);
  });

  it('defaults to the current month, accepts the aliases, and limits the range', async () => {
    const def = (await api('GET', `/businesses/${biz}/ventas/reporte`)).json();
    expect([def.fecha_desde, def.fecha_hasta]).toEqual(['2026-03-01', '2026-03-31']);
    const alias = (
      await api('GET', `/businesses/${biz}/ventas/reporte?fecha_inicio=2026-02-28&fecha_fin=2026-02-28`)
    ).json();
    const x = expectedReport('2026-02-28', '2026-02-28');
    expect(alias.total_ventas).toBe(x.done.length);
    expect(cents(alias.total_ingresos)).toBe(x.total);
    const long = await api('GET', `/businesses/${biz}/ventas/reporte?fecha_desde=2025-01-01&fecha_hasta=2026-01-02`);
    expect(long.statusCode).toBe(422);
    expect(long.json().detail).toBe('El rango máximo es de 366 días.');
    expect(
      (await api('GET', `/businesses/${biz}/ventas/reporte?fecha_desde=2025-01-01&fecha_hasta=2026-01-01`)).statusCode,
    ).toBe(200);
    const back = await api('GET', `/businesses/${biz}/ventas/reporte?fecha_desde=2026-03-02&fecha_hasta=2026-03-01`);
    expect(back.json().detail).toBe('La fecha desde no puede ser posterior a la fecha hasta.');
    expect((await api('GET', `/businesses/${biz}/ventas/reporte?formato=pdf`)).statusCode).toBe(422);
  });

  it('exports the report as .xlsx with the six sheets, numeric amounts and neutralised text', async () => {
    const res = await api(
      'GET',
      `/businesses/${biz}/ventas/reporte?fecha_desde=2026-03-01&fecha_hasta=2026-03-31&formato=xlsx`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="reporte-ventas-2026-03-01-a-2026-03-31.xlsx"',
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'Resumen',
      'Ventas',
      'Productos',
      'Métodos de pago',
      'Clientes',
      'Por día',
    ]);
    const x = expectedReport('2026-03-01', '2026-03-31');
    const resumen = wb.getWorksheet('Resumen')!;
    expect(resumen.getRow(5).values).toEqual([undefined, 'Total de ingresos', x.total / 100]);
    const ventas = wb.getWorksheet('Ventas')!;
    expect(ventas.rowCount).toBe(1 + x.inRange.length);
    expect(typeof ventas.getRow(2).getCell(8).value).toBe('number');
    const names: unknown[] = [];
    wb.getWorksheet('Clientes')!.eachRow((row) => names.push(row.getCell(1).value));
    expect(names).toContain(`'=HYPERLINK("http://x") Pérez`);
    expect(wb.getWorksheet('Por día')!.rowCount).toBe(32);
    const numeros: unknown[] = [];
    ventas.eachRow((row, i) => i > 1 && numeros.push(row.getCell(1).value));
    expect(numeros.sort()).toEqual(x.inRange.map((e) => e.numero).sort());
  });
});

describe('dashboard (§6.5)', () => {
  it('dashboard-stats-v2 with real figures for today, the week and the month', async () => {
    const res = await api('GET', `/ventas/dashboard-stats-v2?negocio_id=${biz}&periodo=semana`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    const done = expected.filter((e) => !e.voided);
    const sum = (from: string) => done.filter((e) => e.day >= from).reduce((t, e) => t + e.total, 0) / 100;
    const profit = (from: string) => done.filter((e) => e.day >= from).reduce((t, e) => t + e.total - e.costo, 0) / 100;
    expect(s.ventas_mes).toBe(sum('2026-03-01'));
    expect(s.ventas_periodo).toBe(sum('2026-03-16'));
    expect(s.cantidad_ventas_periodo).toBe(done.filter((e) => e.day >= '2026-03-16').length);
    expect(s.today).toEqual({
      total_sales: sum('2026-03-20'),
      estimated_profit: profit('2026-03-20'),
      new_customers: expect.any(Number),
    });
    expect(s.week.total_sales).toBe(sum('2026-03-16'));
    expect(s.month).toMatchObject({ total_sales: sum('2026-03-01'), estimated_profit: profit('2026-03-01') });
    expect(s).toMatchObject({
      negocio_id: biz,
      periodo: 'semana',
      facturas_emitidas: 0,
      productos_activos: 3,
      clientes_registrados: 2,
      total_products: 3,
      total_customers: 2,
      low_stock_products: 0,
    });
    expect(s.ventas_recientes).toHaveLength(5);
    expect(s.ventas_recientes[0]).toEqual({
      id: expect.any(String),
      numero: expect.any(Number),
      fecha: expect.any(String),
      total: expect.any(Number),
    });
    expect(s.ventas_recientes.some((v: { id: string }) => expected.find((e) => e.id === v.id)?.voided)).toBe(false);
    expect(s.top_productos.length).toBeGreaterThan(0);
    expect(s.top_productos.length).toBeLessThanOrEqual(5);
    expect(s.top_items[0]).toMatchObject({
      tipo: expect.any(String),
      nombre: expect.any(String),
      precio_venta: expect.any(Number),
    });
    const month = (await api('GET', `/ventas/dashboard-stats-v2?negocio_id=${biz}`)).json();
    expect(month.periodo).toBe('mes');
    expect(month.top_productos).toEqual(month.top_items);
  });

  it('monthly chart, top products chart, recent activity, v1 stats and health check', async () => {
    const chart = (await api('GET', `/ventas/monthly-sales-chart?negocio_id=${biz}`)).json();
    expect(chart.datos).toHaveLength(12);
    expect(chart.datos[0].mes).toBe('2025-04');
    expect(chart.datos[11].mes).toBe('2026-03');
    const done = expected.filter((e) => !e.voided);
    const inMonth = (m: string) => done.filter((e) => e.day.startsWith(m));
    expect(chart.datos[11]).toEqual({
      mes: '2026-03',
      etiqueta: expect.stringMatching(/mar/i),
      ventas: inMonth('2026-03').length,
      total: inMonth('2026-03').reduce((s, e) => s + e.total, 0) / 100,
    });
    expect(chart.datos[10].ventas).toBe(inMonth('2026-02').length);
    expect(chart.datos[0]).toMatchObject({ ventas: 0, total: 0 });
    expect(chart.total_ventas).toBe(done.length);

    const top = (await api('GET', `/ventas/top-products-chart?negocio_id=${biz}&dias=7`)).json();
    expect(top.periodo).toBe('Últimos 7 días');
    expect(top.total_items).toBe(top.datos.length);
    // Out-of-range numbers name their bound (API-CONTRACT §1.3 field messages).
    for (const [url, message] of [
      [`/ventas/top-products-chart?negocio_id=${biz}&dias=0`, 'Debe ser mayor o igual a 1.'],
      [`/ventas/top-products-chart?negocio_id=${biz}&dias=400`, 'Debe ser menor o igual a 365.'],
      [`/ventas/top-products-chart?negocio_id=${biz}&dias=1.5`, 'Debe ser un número entero.'],
      [`/ventas/recent-activity?negocio_id=${biz}&limit=0`, 'Debe ser mayor o igual a 1.'],
      [`/ventas/recent-activity?negocio_id=${biz}&limit=-3`, 'Debe ser mayor o igual a 1.'],
    ]) {
      const res = await api('GET', url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().detail, url).toBe(message);
    }

    const act = (await api('GET', `/ventas/recent-activity?negocio_id=${biz}&limit=50`)).json();
    // Products and customers carry the database clock (they were created "now"); sales the test clock.
    expect(act.total).toBe(Math.min(50, expected.filter((e) => !e.voided).length + 3 + 2));
    const venta = act.actividades.find((a: { tipo: string }) => a.tipo === 'venta');
    expect(venta).toMatchObject({
      titulo: expect.stringMatching(/^Venta #\d+$/),
      icono: 'shopping-cart',
      color: 'green',
    });
    expect(venta.descripcion).toMatch(/^Total: \$\s?[\d.]+,\d\d$/);
    expect(act.actividades.find((a: { tipo: string }) => a.tipo === 'producto')).toMatchObject({
      icono: 'package',
      color: 'blue',
    });
    expect(act.actividades.find((a: { tipo: string }) => a.tipo === 'cliente')).toMatchObject({
      icono: 'users',
      color: 'purple',
    });
    expect((await api('GET', `/ventas/recent-activity?negocio_id=${biz}&limit=3`)).json().total).toBe(3);

    const v1 = (await api('GET', `/ventas/dashboard-stats?negocio_id=${biz}`)).json();
    expect(v1).toEqual({
      totalProducts: 3,
      totalCustomers: 2,
      totalSales: inMonth('2026-03').length,
      monthlyRevenue: inMonth('2026-03').reduce((s, e) => s + e.total, 0) / 100,
      lowStockProducts: 0,
      pendingOrders: 0,
    });

    const health = await api('GET', `/ventas/health-check?negocio_id=${biz}`);
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      database: 'ok',
      negocio_id: biz,
      checks: {
        database: { status: 'ok' },
        membresia: { status: 'ok' },
        productos: { total: 3 },
        ventas: { total: expected.length },
      },
    });
  });
});

describe('isolation', () => {
  it("another business's sales never appear in any list, report, chart or export", async () => {
    const mine = (await api('GET', `/businesses/${biz}/ventas/sales?limit=500`)).json();
    expect(mine.ventas.some((v: { id: string }) => v.id === otherSaleId)).toBe(false);
    const report = (
      await api('GET', `/businesses/${biz}/ventas/reporte?fecha_desde=2026-03-20&fecha_hasta=2026-03-20`)
    ).json();
    expect(report.productos_mas_vendidos.some((p: { nombre: string }) => p.nombre === 'Producto ajeno')).toBe(false);
    const dash = (await api('GET', `/ventas/dashboard-stats-v2?negocio_id=${biz}&periodo=dia`)).json();
    expect(dash.ventas_recientes.some((v: { id: string }) => v.id === otherSaleId)).toBe(false);
    expect(dash.top_productos.some((p: { nombre: string }) => p.nombre === 'Producto ajeno')).toBe(false);

    // The other owner sees only theirs, everywhere.
    const theirs = (await api('GET', `/ventas/sales`, otherOwner)).json();
    expect(theirs.ventas.map((v: { id: string }) => v.id)).toEqual([otherSaleId]);
    const theirReport = (await api('GET', `/businesses/${otherBiz}/ventas/reporte`, otherOwner)).json();
    expect(theirReport).toMatchObject({ total_ventas: 1, total_ingresos: 2331 });
    const theirChart = (await api('GET', `/ventas/monthly-sales-chart`, otherOwner)).json();
    expect(theirChart).toMatchObject({ total_ventas: 1, total_ingresos: 2331 });
    const theirDash = (await api('GET', `/ventas/dashboard-stats-v2`, otherOwner)).json();
    expect(theirDash).toMatchObject({ ventas_mes: 2331, productos_activos: 1, clientes_registrados: 0 });
    const xlsx = await api('GET', `/businesses/${otherBiz}/ventas/reporte?formato=xlsx`, otherOwner);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Ventas')!.rowCount).toBe(2);

    // Reaching into the other business: 403 at its mount, 404 for its sale ids here.
    expect((await api('GET', `/businesses/${otherBiz}/ventas/sales`)).statusCode).toBe(403);
    expect((await api('GET', `/businesses/${otherBiz}/ventas/reporte?formato=xlsx`)).statusCode).toBe(403);
    expect((await api('GET', `/ventas/monthly-sales-chart?negocio_id=${otherBiz}`)).statusCode).toBe(403);
    expect((await api('GET', `/ventas/sales/${otherSaleId}?negocio_id=${biz}`)).statusCode).toBe(404);
  });
});
