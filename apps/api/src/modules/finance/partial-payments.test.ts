import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Pagos');
const biz = await createBusiness(app, owner, 'Ferreteria Pagos');
const base = `/api/v1/businesses/${biz}`;
const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url: `${base}${url}`, headers: owner.auth, ...(payload ? { payload } : {}) });

const proveedor = (await req('POST', '/proveedores', { nombre: 'Bulonera Sur' })).json();
const tornillo = (await req('POST', '/products', { nombre: 'Tornillo', precio_venta: 10, stock_actual: 0 })).json();
const compra = (
  await req('POST', '/compras', {
    proveedor_id: proveedor.id,
    fecha: '2026-03-10',
    condicion_pago: 'cuenta_corriente',
    fecha_vencimiento: '2026-04-10',
    items: [{ producto_id: tornillo.id, cantidad: 1000, precio_unitario: 10.01 }],
  })
).json();
const pay = (body: object) => req('PUT', `/finanzas/cuentas/${compra.cuenta_id}/marcar-pagado`, body);
const deuda = async () => (await req('GET', `/proveedores/${proveedor.id}`)).json().deuda;

describe('payables paid in parts', () => {
  it('pays a part: a movement for the part, the account still pending with what is left, the supplier owed less', async () => {
    expect(await deuda()).toBe(10010);
    const r = await pay({ monto: 3000.5, metodo_pago: 'transferencia' });
    expect(r.statusCode).toBe(200);
    expect(r.json().message).toBe('Pago parcial registrado');
    expect(r.json().cuenta).toMatchObject({
      estado: 'pendiente',
      monto: 10010,
      monto_pagado: 3000.5,
      saldo_pendiente: 7009.5,
    });
    expect(r.json().movimiento).toMatchObject({ tipo: 'egreso', monto: 3000.5, metodo_pago: 'transferencia' });
    expect(await deuda()).toBe(7009.5);
    const resumen = (await req('GET', '/finanzas/resumen?mes=3&anio=2026')).json();
    expect(resumen.por_pagar_pendiente).toBe(7009.5);
    expect(resumen.total_egresos).toBe(3000.5);
  });

  it('refuses more than what is left, and a purchase already paid in part cannot be cancelled or the account deleted', async () => {
    const over = await pay({ monto: 7009.51 });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors[0]).toMatchObject({ field: 'monto' });
    expect(over.json().errors[0].message).toMatch(/El pago supera lo que falta pagar de la cuenta \(\$\s7\.009,50\)\./);
    const cancel = await req('PUT', `/compras/${compra.id}`, { estado: 'cancelada' });
    expect(cancel.statusCode).toBe(409);
    const lower = await req('PUT', `/finanzas/cuentas/${compra.cuenta_id}`, { monto: 1000 });
    expect(lower.statusCode).toBeGreaterThanOrEqual(409);
  });

  it('concurrent parts never pay more than the account, and the last part pays it', async () => {
    const tries = await Promise.all(Array.from({ length: 5 }, () => pay({ monto: 2000 })));
    expect(tries.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const payables = (await req('GET', '/finanzas/cuentas-pagar')).json() as { id: string }[];
    const left = payables.find((a) => a.id === compra.cuenta_id);
    expect(left).toMatchObject({ monto_pagado: 9000.5, saldo_pendiente: 1009.5, estado: 'pendiente' });
    const last = await pay({});
    expect(last.json()).toMatchObject({
      message: 'Cuenta marcada como pagada',
      cuenta: { estado: 'pagado', saldo_pendiente: 0 },
    });
    expect(last.json().movimiento.monto).toBe(1009.5);
    const moves = await ctx.sql<{ s: string; n: number }>(
      'SELECT sum(monto)::text AS s, count(*)::int AS n FROM finance_movements WHERE cuenta_id = $1 AND NOT anulado',
      [compra.cuenta_id],
    );
    expect(moves[0]).toEqual({ s: '10010.00', n: 5 });
    expect(await deuda()).toBe(0);
    expect((await pay({ monto: 1 })).statusCode).toBe(409);
  });
});

describe("the supplier's account", () => {
  const account = (id = proveedor.id) => req('GET', `/proveedores/${id}/cuenta-corriente`);

  it('lists the payable and every part paid, oldest first, with a running balance that ends at what is owed', async () => {
    const hand = await req('POST', '/finanzas/cuentas', {
      tipo: 'por_pagar',
      proveedor_id: proveedor.id,
      monto: 2500.25,
      fecha_emision: '2026-03-12',
      fecha_vencimiento: '2026-04-12',
      descripcion: 'Flete de bulones',
    });
    expect(hand.statusCode, hand.body).toBe(201);
    expect((await req('PUT', `/finanzas/cuentas/${hand.json().id}/marcar-pagado`, { monto: 500 })).statusCode).toBe(
      200,
    );

    const res = await account();
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({ proveedor_id: proveedor.id, proveedor_nombre: 'Bulonera Sur', saldo: 2000.25 });
    const moves = c.movimientos as { tipo: string; fecha: string; debe: number; haber: number; saldo: number }[];
    expect(moves[0]).toMatchObject({ tipo: 'deuda', fecha: '2026-03-10', debe: 10010, haber: 0, saldo: 10010 });
    expect(moves.filter((m) => m.tipo === 'pago').map((m) => m.haber)).toEqual([3000.5, 2000, 2000, 2000, 1009.5, 500]);
    expect(moves.filter((m) => m.tipo === 'deuda').map((m) => m.debe)).toEqual([10010, 2500.25]);
    expect(moves[moves.length - 1].saldo).toBe(2000.25);
    expect(moves.find((m) => m.tipo === 'deuda' && m.debe === 2500.25)).toMatchObject({ fecha: '2026-03-12' });
    expect(c.saldo).toBe(await deuda());
  });

  it('exports the same lines to .xlsx', async () => {
    const res = await req('GET', `/proveedores/${proveedor.id}/cuenta-corriente/exportar`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['Fecha', 'Concepto', 'Descripción', 'Debe', 'Haber', 'Saldo']);
    expect(rows).toHaveLength(1 + 8);
    expect(rows[1].slice(0, 2)).toEqual([new Date(Date.UTC(2026, 2, 10)), 'Compra a pagar']);
    expect(rows[8][5]).toBe(2000.25);
  });

  it("answers 404 for another business's supplier and 403 to a member who cannot see suppliers", async () => {
    const other = await registerUser(app, 'Otra');
    const otherBiz = await createBusiness(app, other, 'Otra Ferretería');
    const foreign = (
      await app.inject({
        method: 'POST',
        url: `/api/v1/businesses/${otherBiz}/proveedores`,
        headers: other.auth,
        payload: { nombre: 'Ajeno' },
      })
    ).json();
    expect((await account(foreign.id)).statusCode).toBe(404);
    expect((await account('no-es-un-id')).statusCode).toBe(404);
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas']);
    const denied = await app.inject({
      method: 'GET',
      url: `${base}/proveedores/${proveedor.id}/cuenta-corriente`,
      headers: cajero.auth,
    });
    expect(denied.statusCode).toBe(403);
  });
});
