import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duenia');
const biz = await createBusiness(app, owner, 'Almacen Fiado');
const base = `/api/v1/businesses/${biz}`;
const req = (u: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

const arroz = (
  await req(owner, 'POST', `${base}/products`, { nombre: 'Arroz', precio_venta: 1000, stock_actual: 500 })
).json();
const medios = (await req(owner, 'GET', `${base}/medios-pago`)).json() as { id: string; tipo: string }[];
const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
const cc = medio('cuenta_corriente');
const efectivo = medio('efectivo');
const cajero = await registerUser(app, 'CajeroFiado');
await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas', 'puede_ver_clientes']);
const juan = (
  await req(owner, 'POST', `${base}/clientes`, { nombre: 'Juan', apellido: 'Fiado', limite_credito: 10000 })
).json();

const sell = (u: TestUser, cantidad: number, pagos: object[], cliente: string | null = juan.id) =>
  req(u, 'POST', '/api/v1/ventas/record-sale', {
    negocio_id: biz,
    cliente_id: cliente,
    items: [{ id: arroz.id, cantidad }],
    pagos,
  });
const cuenta = async (id = juan.id) => (await req(owner, 'GET', `${base}/clientes/${id}/cuenta-corriente`)).json();
const cobrar = (u: TestUser, monto: number, medioId = efectivo, id = juan.id) =>
  req(u, 'POST', `${base}/clientes/${id}/cobros`, { monto, medio_pago_id: medioId });

describe('cuenta corriente de clientes', () => {
  it('keeps the credit limit in the customers API and creates the medio for every business', () => {
    expect(juan.limite_credito).toBe(10000);
    expect(medios.at(-1)).toMatchObject({ nombre: 'Cuenta corriente', tipo: 'cuenta_corriente' });
  });

  it('sells on account only to a customer, within the limit unless an administrator sells', async () => {
    const anon = await sell(cajero, 1, [{ medio_pago_id: cc, monto: 1000 }], null);
    expect(anon.statusCode).toBe(422);
    expect(anon.json().errors[0].message).toBe('Elegí el cliente: la venta en cuenta corriente queda a su nombre.');

    expect((await sell(cajero, 8, [{ medio_pago_id: cc, monto: 8000 }])).statusCode).toBe(201);
    const over = await sell(cajero, 3, [{ medio_pago_id: cc, monto: 3000 }]);
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ code: 'CREDIT_LIMIT' });
    expect(over.json().detail).toContain('disponible: $');
    // Part cash, part on account, within what is left.
    expect(
      (
        await sell(cajero, 3, [
          { medio_pago_id: efectivo, monto: 1000 },
          { medio_pago_id: cc, monto: 2000 },
        ])
      ).statusCode,
    ).toBe(201);
    // The owner may go over the limit.
    expect((await sell(owner, 1, [{ medio_pago_id: cc, monto: 1000 }])).statusCode).toBe(201);

    const c = await cuenta();
    expect(c).toMatchObject({ saldo: 11000, limite_credito: 10000 });
    expect(c.movimientos.map((m: { tipo: string; debe: number; saldo: number }) => [m.tipo, m.debe, m.saldo])).toEqual([
      ['venta', 8000, 8000],
      ['venta', 2000, 10000],
      ['venta', 1000, 11000],
    ]);
    // The part on account is no income: only the cash part is.
    const income = await ctx.sql<{ s: string }>(
      "SELECT coalesce(sum(monto), 0)::text AS s FROM finance_movements WHERE business_id = $1 AND origen = 'venta' AND NOT anulado",
      [biz],
    );
    expect(income[0].s).toBe('1000.00');
  });

  it('takes payments up to the balance, numbered, as income; refuses more, on account, foreign ids', async () => {
    const more = await cobrar(cajero, 11000.01);
    expect(more.statusCode).toBe(409);
    expect(more.json().detail).toMatch(/El cobro supera lo que debe el cliente \(\$\s11\.000,00\)\./);
    expect((await cobrar(cajero, 10, cc)).statusCode).toBe(422);
    expect((await cobrar(cajero, 0, efectivo)).statusCode).toBe(422);

    const other = await registerUser(app, 'OtraDuenia');
    const otherBiz = await createBusiness(app, other, 'Otro Fiado');
    const stranger = (await req(other, 'POST', `/api/v1/businesses/${otherBiz}/clientes`, { nombre: 'Ajeno' })).json();
    expect((await cobrar(owner, 10, efectivo, stranger.id)).statusCode).toBe(404);
    const otherCash = (await req(other, 'GET', `/api/v1/businesses/${otherBiz}/medios-pago`)).json()[0].id;
    expect((await cobrar(owner, 10, otherCash)).statusCode).toBe(422);
    expect((await req(owner, 'GET', `${base}/clientes/${stranger.id}/cuenta-corriente`)).statusCode).toBe(404);

    const paid = await cobrar(cajero, 3000);
    expect(paid.statusCode).toBe(201);
    expect(paid.json()).toMatchObject({ numero: 1, monto: 3000, saldo_anterior: 11000, saldo: 8000 });
    const mov = await ctx.sql<{ monto: string; origen: string; metodo_pago: string }>(
      'SELECT monto::text, origen, metodo_pago FROM finance_movements WHERE cobro_id = $1',
      [paid.json().id],
    );
    expect(mov).toEqual([{ monto: '3000.00', origen: 'cobro', metodo_pago: 'efectivo' }]);
    expect((await cuenta()).movimientos.at(-1)).toMatchObject({ tipo: 'cobro', numero: 1, haber: 3000, saldo: 8000 });
  });

  it('never overpays an account under concurrent payments', async () => {
    const tries = await Promise.all(Array.from({ length: 6 }, () => cobrar(cajero, 2000)));
    expect(tries.filter((r) => r.statusCode === 201)).toHaveLength(4);
    expect(tries.filter((r) => r.statusCode === 409)).toHaveLength(2);
    expect((await cuenta()).saldo).toBe(0);
    const numbers = await ctx.sql<{ numero: number }>(
      'SELECT numero FROM cobros WHERE business_id = $1 ORDER BY numero',
      [biz],
    );
    expect(numbers.map((n) => n.numero)).toEqual([1, 2, 3, 4, 5]);
    const nothing = await cobrar(cajero, 1);
    expect(nothing.json().detail).toBe('El cliente no debe nada.');
  });

  it('agrees to the cent: sales report, finance summary, cash flow and balances after sales on account, payments and a refund', async () => {
    const o = await registerUser(app, 'Libros');
    const b = await createBusiness(app, o, 'Libros Claros');
    const bb = `/api/v1/businesses/${b}`;
    const r = (method: 'GET' | 'POST', url: string, payload?: object) => req(o, method, `${bb}${url}`, payload);
    const p = (await r('POST', '/products', { nombre: 'Fideos', precio_venta: 1234.57, stock_actual: 100 })).json();
    const ms = (await r('GET', '/medios-pago')).json() as { id: string; tipo: string }[];
    const m = (t: string) => ms.find((x) => x.tipo === t)!.id;
    const ana = (await r('POST', '/clientes', { nombre: 'Ana' })).json();
    const sale = (cantidad: number, pagos: object[]) =>
      req(o, 'POST', '/api/v1/ventas/record-sale', {
        negocio_id: b,
        cliente_id: ana.id,
        items: [{ id: p.id, cantidad }],
        pagos,
      });
    // 2469.14 cash; 3703.71 on account; 4938.28 = 1000 transfer + 3938.28 on account (then voided).
    expect((await sale(2, [{ medio_pago_id: m('efectivo'), monto: 2469.14 }])).statusCode).toBe(201);
    expect((await sale(3, [{ medio_pago_id: m('cuenta_corriente'), monto: 3703.71 }])).statusCode).toBe(201);
    const refunded = await sale(4, [
      { medio_pago_id: m('transferencia'), monto: 1000 },
      { medio_pago_id: m('cuenta_corriente'), monto: 3938.28 },
    ]);
    expect(refunded.statusCode).toBe(201);
    expect(
      (
        await req(o, 'POST', `/api/v1/businesses/${b}/clientes/${ana.id}/cobros`, {
          monto: 1500.5,
          medio_pago_id: m('transferencia'),
        })
      ).statusCode,
    ).toBe(201);
    expect((await r('POST', `/ventas/${refunded.json().id}/anular`, {})).statusCode).toBe(200);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());
    const report = (await r('GET', `/ventas/reporte?fecha_desde=${today}&fecha_hasta=${today}`)).json();
    const summary = (await r('GET', '/finanzas/resumen')).json();
    const flow = (await r('GET', '/finanzas/flujo-caja')).json();
    const account = (await r('GET', `/clientes/${ana.id}/cuenta-corriente`)).json();
    const cents = (n: number) => Math.round(n * 100);
    // Sold (after the refund): 2469.14 + 3703.71 = 6172.85.
    expect(report.total_ingresos).toBe(6172.85);
    // Money in: the cash sale and the cobro (the voided transfer is out).
    expect(summary.total_ingresos).toBe(3969.64);
    expect(flow.total_ingresos).toBe(3969.64);
    // Owed: 3703.71 − 1500.50.
    expect(account.saldo).toBe(2203.21);
    expect(summary.cuentas_corrientes_clientes).toBe(2203.21);
    expect(summary.por_cobrar_pendiente).toBe(2203.21);
    // Sold = cash from sales + cobros + still owed.
    expect(cents(report.total_ingresos)).toBe(cents(2469.14) + cents(1500.5) + cents(account.saldo));
    expect(account.movimientos.map((x: { tipo: string }) => x.tipo)).toEqual(['venta', 'venta', 'cobro', 'anulacion']);
  });

  it('a cobro in cash enters the open turno of the caja', async () => {
    const caja = (await req(owner, 'GET', `${base}/cajas`)).json()[0];
    const turno = (await req(owner, 'POST', `${base}/cajas/${caja.id}/turnos`, { fondo_inicial: 500 })).json();
    expect((await sell(owner, 2, [{ medio_pago_id: cc, monto: 2000 }])).statusCode).toBe(201);
    expect((await cobrar(owner, 1200)).json().turno_id).toBe(turno.id);
    const t = (await req(owner, 'GET', `${base}/turnos/${turno.id}`)).json();
    expect(t.esperado.find((e: { medio_pago_id: string }) => e.medio_pago_id === efectivo).monto).toBe(1700);
    // Nothing to count for sales on account.
    expect(t.esperado.some((e: { medio_pago_id: string }) => e.medio_pago_id === cc)).toBe(false);
    expect(t.por_medio.find((x: { medio_pago_id: string }) => x.medio_pago_id === cc)).toMatchObject({ ventas: 2000 });
  });

  it('a member granted exceder_credito may sell over the limit; the permission shows in /permissions', async () => {
    const over = await sell(cajero, 10, [{ medio_pago_id: cc, monto: 10000 }]);
    expect(over.statusCode).toBe(403);
    const grant = await req(owner, 'PUT', `${base}/usuarios/${cajero.id}/permisos`, { exceder_credito: true });
    expect(grant.statusCode).toBe(200);
    expect(grant.json()).toMatchObject({ exceder_credito: true, cambiar_precios: false });
    const perms = await req(cajero, 'GET', `/api/v1/businesses/${biz}/permissions`);
    expect(perms.json()).toMatchObject({ exceder_credito: true });
    expect((await sell(cajero, 10, [{ medio_pago_id: cc, monto: 10000 }])).statusCode).toBe(201);
    const bad = await req(owner, 'PUT', `${base}/usuarios/${cajero.id}/permisos`, { exceder_credito: 'si' });
    expect(bad.statusCode).toBe(422);
  });
});
