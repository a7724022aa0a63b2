import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';

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
