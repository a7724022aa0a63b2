import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';

/*
 * One answer to "what is owed to the business" in Finanzas (issue 33, decision 0045): the Por
 * cobrar tab lists the pending accounts and the customers who owe on account; the summary's
 * "A cobrar" is the sum of both, each counted once.
 */
const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Cobranzas');
const biz = await createBusiness(app, owner, 'Almacén Cobranzas');
const base = `/api/v1/businesses/${biz}`;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, auth = owner.auth) =>
  app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

const pan = (await call('POST', `${base}/products`, { nombre: 'Pan', precio_venta: 1000, stock_actual: 1000 })).json();
const medios = (await call('GET', `${base}/medios-pago`)).json() as { id: string; tipo: string }[];
const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;

async function sale(cliente: string, pesos: number, tipo: 'cuenta_corriente' | 'efectivo') {
  const r = await call('POST', '/api/v1/ventas/record-sale', {
    negocio_id: biz,
    cliente_id: cliente,
    items: [{ id: pan.id, cantidad: pesos / 1000 }],
    pagos: [{ medio_pago_id: medio(tipo), monto: pesos }],
  });
  expect(r.statusCode).toBe(201);
  return (await call('GET', `${base}/ventas/sales/${r.json().id}`)).json() as { id: string; items: { id: string }[] };
}

describe('Finanzas: what is owed, one answer', () => {
  it('lists the customers who owe beside the pending accounts, and the summary adds both once', async () => {
    const ana = (await call('POST', `${base}/clientes`, { nombre: 'Ana', apellido: 'Paz' })).json();
    const beto = (await call('POST', `${base}/clientes`, { nombre: 'Beto' })).json();
    const ceci = (await call('POST', `${base}/clientes`, { nombre: 'Ceci' })).json();
    // Ana owes 7000 (10000 on account, 3000 paid); Beto 2500.
    await sale(ana.id, 10000, 'cuenta_corriente');
    expect(
      (await call('POST', `${base}/clientes/${ana.id}/cobros`, { monto: 3000, medio_pago_id: medio('efectivo') }))
        .statusCode,
    ).toBe(201);
    await sale(beto.id, 2500, 'cuenta_corriente');
    // Ceci paid cash and returned it to her account: 1000 in her favour, nothing to collect.
    const cash = await sale(ceci.id, 1000, 'efectivo');
    const back = await call('POST', `${base}/ventas/${cash.id}/devoluciones`, {
      items: [{ item_id: cash.items[0]!.id, cantidad: 1 }],
      medio_pago_id: medio('cuenta_corriente'),
    });
    expect(back.statusCode).toBe(201);
    expect((await call('GET', `${base}/clientes/${ceci.id}/cuenta-corriente`)).json().saldo).toBe(-1000);
    // One pending account of 1500 (200 of it paid) and one paid account: only what is left counts.
    const pending = await call('POST', `${base}/finanzas/cuentas`, {
      tipo: 'por_cobrar',
      descripcion: 'Alquiler del depósito',
      monto: 1500,
      fecha_emision: '2026-11-01',
      fecha_vencimiento: '2026-12-30',
    });
    expect(pending.statusCode).toBe(201);
    const paid = await call('POST', `${base}/finanzas/cuentas`, {
      tipo: 'por_cobrar',
      descripcion: 'Seña cobrada',
      monto: 999,
      fecha_emision: '2026-11-01',
      fecha_vencimiento: '2026-11-30',
    });
    expect((await call('PUT', `${base}/finanzas/cuentas/${paid.json().id}/marcar-pagado`, {})).statusCode).toBe(200);

    const list = await call('GET', `${base}/finanzas/cuentas-corrientes`);
    expect(list.statusCode).toBe(200);
    const owed = list.json() as { cliente_id: string; cliente_nombre: string; saldo: number }[];
    expect(owed.map((d) => [d.cliente_nombre, d.saldo])).toEqual([
      ['Ana Paz', 7000],
      ['Beto', 2500],
    ]);

    const accounts = await call('GET', `${base}/finanzas/cuentas-cobrar?estado=pendiente`);
    expect(accounts.headers['x-total-count']).toBe('1');
    const accountsLeft = (accounts.json() as { saldo_pendiente: number }[]).reduce((s, a) => s + a.saldo_pendiente, 0);
    expect(accountsLeft).toBe(1500);

    const summary = (await call('GET', `${base}/finanzas/resumen`)).json();
    // The customers' part is what the list sums (Ceci's credit does not lower it) …
    expect(summary.cuentas_corrientes_clientes).toBe(9500);
    // … and "A cobrar" is the accounts plus the customers, each once: 1500 + 9500.
    expect(summary.por_cobrar_pendiente).toBe(accountsLeft + owed.reduce((s, d) => s + d.saldo, 0));
    expect(summary.por_cobrar_pendiente).toBe(11000);
  });

  it('is for who may see Finanzas, also without the customers module, and keeps other businesses out', async () => {
    const finanzas = await registerUser(app, 'Contadora');
    await addMember(ctx, biz, owner, finanzas, ['puede_ver_finanzas']);
    const ok = await call('GET', `${base}/finanzas/cuentas-corrientes`, undefined, finanzas.auth);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().length).toBe(2);

    const cajera = await registerUser(app, 'Cajera');
    await addMember(ctx, biz, owner, cajera, ['puede_ver_ventas', 'puede_ver_clientes']);
    const refused = await call('GET', `${base}/finanzas/cuentas-corrientes`, undefined, cajera.auth);
    expect(refused.statusCode).toBe(403);

    const other = await registerUser(app, 'Otra');
    const otherBiz = await createBusiness(app, other, 'Otro Almacén');
    const empty = await call(
      'GET',
      `/api/v1/businesses/${otherBiz}/finanzas/cuentas-corrientes`,
      undefined,
      other.auth,
    );
    expect(empty.json()).toEqual([]);
    expect((await call('GET', `${base}/finanzas/cuentas-corrientes`, undefined, other.auth)).statusCode).toBe(403);
  });
  it("gives the customer's dialog the same answer: cuenta corriente plus pending accounts, overdue apart", async () => {
    const dora = (await call('POST', `${base}/clientes`, { nombre: 'Dora' })).json();
    const cuenta = async () => (await call('GET', `${base}/clientes/${dora.id}/cuenta-corriente`)).json();
    expect(await cuenta()).toMatchObject({ saldo: 0, por_cobrar: 0, por_cobrar_vencido: 0, total_adeudado: 0 });
    const account = (monto: number, fecha_vencimiento: string) =>
      call('POST', `${base}/finanzas/cuentas`, {
        tipo: 'por_cobrar',
        cliente_id: dora.id,
        descripcion: 'Trabajo a medida',
        monto,
        fecha_emision: '2026-01-02',
        fecha_vencimiento,
      });
    const overdue = await account(45800, '2026-01-15');
    expect(overdue.statusCode).toBe(201);
    expect((await account(1200.5, '2099-06-30')).statusCode).toBe(201);
    // Paid in part: only what is left counts.
    const part = await call('PUT', `${base}/finanzas/cuentas/${overdue.json().id}/marcar-pagado`, {
      monto: 800,
      fecha_pago: '2026-02-01',
    });
    expect(part.statusCode, part.body).toBe(200);
    await sale(dora.id, 3000, 'cuenta_corriente');
    expect(await cuenta()).toMatchObject({
      saldo: 3000,
      por_cobrar: 46200.5,
      por_cobrar_vencido: 45000,
      cuentas_por_cobrar: 2,
      total_adeudado: 49200.5,
    });
    // Another business's account for a customer id of this one never counts.
    const other = await registerUser(app, 'Vecino');
    const otherBiz = await createBusiness(app, other, 'Almacén Vecino');
    const foreign = await call(
      'POST',
      `/api/v1/businesses/${otherBiz}/finanzas/cuentas`,
      {
        tipo: 'por_cobrar',
        cliente_id: dora.id,
        descripcion: 'Ajeno',
        monto: 10,
        fecha_emision: '2026-01-02',
        fecha_vencimiento: '2026-01-03',
      },
      other.auth,
    );
    expect(foreign.statusCode).toBeGreaterThanOrEqual(400);
    expect((await cuenta()).total_adeudado).toBe(49200.5);
  });
});
