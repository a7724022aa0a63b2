import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

// Users log in on the real clock (sessions expire in real time); "today" is then fixed.
let clock: Date | null = null;
const ctx = await createTestApp({ now: () => clock ?? new Date() });
const { app } = ctx;

/** A new owner and business, registered on the real clock so the session outlives any test date. */
async function newOwner(nombre: string) {
  const saved = clock;
  clock = null;
  try {
    const u = await registerUser(app, nombre);
    return { u, b: await createBusiness(app, u, `${nombre} SA`) };
  } finally {
    clock = saved;
  }
}

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;

const url = (path: string, b = biz) => `/api/v1/businesses/${b}/finanzas/${path}`;
const get = (path: string, u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (path: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url(path, b), headers: u.auth, payload: payload as object });
const put = (path: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(path, b), headers: u.auth, payload: payload as object });

interface Mov {
  tipo: 'ingreso' | 'egreso';
  cents: number;
  fecha: string;
  voided?: boolean;
}

/** The expectation, computed here from integer cents: never from the code under test. */
const ledger: Mov[] = [];

async function record(m: Mov, u = owner, b = biz) {
  const monto = `${Math.floor(m.cents / 100)}.${String(m.cents % 100).padStart(2, '0')}`;
  const res = await post('movimientos', { tipo: m.tipo, monto, fecha: m.fecha, metodo_pago: 'efectivo' }, u, b);
  expect(res.statusCode, res.body).toBe(201);
  if (m.voided)
    await ctx.sql(`UPDATE finance_movements SET anulado = true, origen = 'venta' WHERE id = $1`, [res.json().id]);
  if (b === biz) ledger.push(m);
  return res.json();
}

const daysIn = (anio: number, mes: number) => new Date(Date.UTC(anio, mes, 0)).getUTCDate();
const ymd = (anio: number, mes: number, dia: number) =>
  `${anio}-${String(mes).padStart(2, '0')}-${String(dia).padStart(2, '0')}`;
const toNumber = (cents: number) => cents / 100;

function expectedMonth(anio: number, mes: number) {
  const prefix = ymd(anio, mes, 1).slice(0, 8);
  const live = ledger.filter((m) => !m.voided && m.fecha.startsWith(prefix));
  const sum = (tipo: Mov['tipo'], fecha?: string) =>
    live.filter((m) => m.tipo === tipo && (!fecha || m.fecha === fecha)).reduce((s, m) => s + m.cents, 0);
  let acc = 0;
  const days = Array.from({ length: daysIn(anio, mes) }, (_, i) => {
    const fecha = ymd(anio, mes, i + 1);
    const ing = sum('ingreso', fecha);
    const egr = sum('egreso', fecha);
    acc += ing - egr;
    return {
      fecha,
      ingresos: toNumber(ing),
      egresos: toNumber(egr),
      saldo_diario: toNumber(ing - egr),
      saldo_acumulado: toNumber(acc),
    };
  });
  const ing = sum('ingreso');
  const egr = sum('egreso');
  return { days, ing, egr };
}

/** A small deterministic generator: the same "random" amounts on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
  clock = new Date('2026-03-20T15:00:00Z');

  const rnd = random(42);
  for (let i = 0; i < 90; i++) {
    const mes = 2 + Math.floor(rnd() * 3); // February to April
    const dia = 1 + Math.floor(rnd() * daysIn(2026, mes));
    await record({
      tipo: rnd() < 0.55 ? 'ingreso' : 'egreso',
      cents: 1 + Math.floor(rnd() * 250_000_00),
      fecha: ymd(2026, mes, dia),
      voided: rnd() < 0.08,
    });
  }
  // Cents that add up badly in floating point, and both ends of March.
  for (const cents of [10, 20, 10, 20, 10]) await record({ tipo: 'ingreso', cents, fecha: '2026-03-01' });
  await record({ tipo: 'ingreso', cents: 123_456_78, fecha: '2026-03-31' });
  await record({ tipo: 'ingreso', cents: 50_000_00, fecha: '2026-03-31', voided: true });
  await record({ tipo: 'egreso', cents: 20_000_00, fecha: '2026-03-02', voided: true });
  await record({ tipo: 'egreso', cents: 99_99, fecha: '2026-03-31' });
  await record({ tipo: 'ingreso', cents: 5_000_00, fecha: '2026-04-01' });
  await record({ tipo: 'egreso', cents: 7_777_77, fecha: '2026-02-28' });
  await record({ tipo: 'ingreso', cents: 1_00, fecha: '2026-01-31' });
  await record({ tipo: 'ingreso', cents: 3_00, fecha: '2025-12-31' });

  // Another business: never in these totals.
  for (const fecha of ['2026-03-01', '2026-03-15', '2026-03-31', '2026-02-10']) {
    await record({ tipo: 'ingreso', cents: 1_000_000_00, fecha }, otherOwner, otherBiz);
  }
});

describe('flujo-caja', () => {
  it.each([
    [2026, 3],
    [2026, 2],
    [2026, 4],
    [2026, 1],
    [2025, 12],
    [2026, 7],
  ])('matches the independently computed daily flow of %i-%i', async (anio, mes) => {
    const res = await get(`flujo-caja?mes=${mes}&anio=${anio}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const exp = expectedMonth(anio, mes);
    expect(body.mes).toBe(mes);
    expect(body.anio).toBe(anio);
    expect(body.flujo_diario).toEqual(exp.days);
    expect(body.total_ingresos).toBe(toNumber(exp.ing));
    expect(body.total_egresos).toBe(toNumber(exp.egr));
    expect(body.saldo_final).toBe(toNumber(exp.ing - exp.egr));
    expect(body.saldo_final).toBe(body.flujo_diario.at(-1).saldo_acumulado);
  });

  it('has one entry per calendar day, leap years included, starting the balance at 0', async () => {
    const lengths: [number, number, number][] = [
      [2026, 2, 28],
      [2028, 2, 29],
      [2026, 4, 30],
      [2026, 12, 31],
    ];
    for (const [anio, mes, n] of lengths) {
      const body = (await get(`flujo-caja?mes=${mes}&anio=${anio}`)).json();
      expect(body.flujo_diario).toHaveLength(n);
      expect(body.flujo_diario[0].fecha).toBe(ymd(anio, mes, 1));
      expect(body.flujo_diario.at(-1).fecha).toBe(ymd(anio, mes, n));
    }
    // Small amounts stay exact: five movements of 0.10 and 0.20 on March 1.
    const march = (await get('flujo-caja?mes=3&anio=2026')).json();
    const expectedFirst = expectedMonth(2026, 3).days[0];
    expect(march.flujo_diario[0]).toEqual(expectedFirst);
  });

  it('defaults to the current month in the business time zone', async () => {
    clock = new Date('2026-04-01T01:00:00Z'); // still March 31 in Buenos Aires
    const res = await get('flujo-caja');
    expect(res.json()).toMatchObject({ mes: 3, anio: 2026 });
    clock = new Date('2026-04-01T03:00:00Z'); // April 1 in Buenos Aires
    expect((await get('flujo-caja')).json()).toMatchObject({ mes: 4, anio: 2026 });
    clock = new Date('2026-03-20T15:00:00Z');
  });

  it('follows the time zone of the business settings', async () => {
    const { u: o, b } = await newOwner('Madrid');
    const s = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${b}/tenant-settings`,
      headers: o.auth,
      payload: { timezone: 'Europe/Madrid' },
    });
    expect(s.statusCode).toBeLessThan(300);
    clock = new Date('2026-03-31T23:30:00Z'); // April 1 in Madrid, March 31 in Buenos Aires
    const m = await post('movimientos', { monto: 10, metodo_pago: 'efectivo' }, o, b);
    expect(m.json().fecha).toBe('2026-04-01');
    expect((await get('flujo-caja', o, b)).json()).toMatchObject({ mes: 4, anio: 2026, total_ingresos: 10 });
    clock = new Date('2026-03-20T15:00:00Z');
  });
});

describe('resumen', () => {
  it('totals the month and the previous one exactly, counting the last day of the month', async () => {
    const res = await get('resumen?mes=3&anio=2026');
    expect(res.statusCode).toBe(200);
    const march = expectedMonth(2026, 3);
    const feb = expectedMonth(2026, 2);
    expect(res.json()).toMatchObject({
      mes: 3,
      anio: 2026,
      total_ingresos: toNumber(march.ing),
      total_egresos: toNumber(march.egr),
      balance: toNumber(march.ing - march.egr),
      mes_anterior: {
        total_ingresos: toNumber(feb.ing),
        total_egresos: toNumber(feb.egr),
        balance: toNumber(feb.ing - feb.egr),
      },
    });
  });

  it('crosses the year boundary for January', async () => {
    const body = (await get('resumen?mes=1&anio=2026')).json();
    const jan = expectedMonth(2026, 1);
    const dec = expectedMonth(2025, 12);
    expect(body).toMatchObject({
      total_ingresos: toNumber(jan.ing),
      mes_anterior: { total_ingresos: toNumber(dec.ing) },
    });
    expect(body.mes_anterior.total_ingresos).toBe(3);
  });

  it('counts a movement recorded late on the last day in that month (business time zone)', async () => {
    const { u: o, b } = await newOwner('Cierre');
    clock = new Date('2026-04-01T01:00:00Z'); // 22:00 of March 31 in Buenos Aires
    const m = await post('movimientos', { monto: '100.01', metodo_pago: 'efectivo' }, o, b);
    expect(m.json().fecha).toBe('2026-03-31');
    const resumen = (await get('resumen', o, b)).json();
    expect(resumen).toMatchObject({ mes: 3, anio: 2026, total_ingresos: 100.01, balance: 100.01 });
    clock = new Date('2026-04-01T03:00:00Z'); // April 1
    const april = (await get('resumen', o, b)).json();
    expect(april).toMatchObject({ mes: 4, total_ingresos: 0, mes_anterior: { total_ingresos: 100.01 } });
    clock = new Date('2026-03-20T15:00:00Z');
  });

  it('adds every unpaid account and counts the overdue ones, leaving out paid accounts and other businesses', async () => {
    const { u: o, b } = await newOwner('Cuentas');
    clock = new Date('2026-03-20T15:00:00Z');
    const mk = async (tipo: string, monto: string, vence: string) => {
      const body =
        tipo === 'por_pagar'
          ? {
              tipo,
              monto,
              fecha_emision: '2026-01-01',
              fecha_vencimiento: vence,
              descripcion: 'x',
              proveedor_nombre: 'Prov',
            }
          : { tipo, monto, fecha_emision: '2026-01-01', fecha_vencimiento: vence, descripcion: 'x' };
      const r = await post('cuentas', body, o, b);
      expect(r.statusCode, r.body).toBe(201);
      return r.json().id as string;
    };
    await mk('por_cobrar', '100.10', '2026-03-19'); // overdue
    await mk('por_cobrar', '200.20', '2026-03-20'); // due today
    await mk('por_pagar', '0.30', '2026-02-01'); // overdue
    await mk('por_pagar', '1000', '2026-06-01');
    const paid = await mk('por_cobrar', '5000', '2026-03-01');
    expect((await put(`cuentas/${paid}/marcar-pagado`, { fecha_pago: '2026-03-05' }, o, b)).statusCode).toBe(200);
    await post(
      'cuentas',
      {
        tipo: 'por_cobrar',
        monto: 777,
        fecha_vencimiento: '2026-03-01',
        fecha_emision: '2026-03-01',
        descripcion: 'ajena',
      },
      otherOwner,
      otherBiz,
    );

    const r = (await get('resumen?mes=3&anio=2026', o, b)).json();
    expect(r).toMatchObject({
      cuentas_pendientes: 1300.6,
      por_cobrar_pendiente: 300.3,
      por_pagar_pendiente: 1000.3,
      cuentas_vencidas: 2,
      // The payment became a movement of March 5.
      total_ingresos: 5000,
      total_egresos: 0,
      balance: 5000,
    });
  });

  it('leaves out voided movements and other businesses in the default month', async () => {
    const r = (await get('resumen')).json();
    const march = expectedMonth(2026, 3);
    expect(r).toMatchObject({
      mes: 3,
      anio: 2026,
      total_ingresos: toNumber(march.ing),
      total_egresos: toNumber(march.egr),
    });
    expect(ledger.some((m) => m.voided && m.fecha.startsWith('2026-03'))).toBe(true);
  });

  it.each([
    ['mes=0', 'mes', 'El mes debe estar entre 1 y 12.'],
    ['mes=13', 'mes', 'El mes debe estar entre 1 y 12.'],
    ['mes=marzo', 'mes', 'El mes debe estar entre 1 y 12.'],
    ['mes=2.5', 'mes', 'El mes debe estar entre 1 y 12.'],
    ['anio=1999', 'anio', 'El año no es válido.'],
    ['anio=2101', 'anio', 'El año no es válido.'],
    ['anio=dos mil', 'anio', 'El año no es válido.'],
  ])('refuses %s with 422 on resumen and flujo-caja', async (q, field, message) => {
    for (const path of ['resumen', 'flujo-caja']) {
      const res = await get(`${path}?${q}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ detail: message, code: 'VALIDATION_ERROR', errors: [{ field, message }] });
    }
  });
});
