import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duenio');
const biz = await createBusiness(app, owner, 'Almacen Caja');
const base = `/api/v1/businesses/${biz}`;

const req = (u: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

const yerba = (
  await req(owner, 'POST', `${base}/products`, { nombre: 'Yerba 1 kg', precio_venta: 4000, stock_actual: 100 })
).json();
const medios = (await req(owner, 'GET', `${base}/medios-pago`)).json() as {
  id: string;
  nombre: string;
  tipo: string;
}[];
const medio = (nombre: string) => medios.find((m) => m.nombre === nombre)!.id;
const efectivo = medio('Efectivo');
const debito = medio('Tarjeta de Débito');
const transferencia = medio('Transferencia');
const caja1 = (await req(owner, 'GET', `${base}/cajas`)).json()[0];

const sell = (u: TestUser, body: object, cantidad = 1) =>
  req(u, 'POST', '/api/v1/ventas/record-sale', {
    negocio_id: biz,
    items: [{ id: yerba.id, tipo: 'producto', cantidad }],
    ...body,
  });
const esperadoDe = (t: { esperado: { medio_pago_id: string; monto: number }[] }, id: string) =>
  t.esperado.find((e) => e.medio_pago_id === id)?.monto;

describe('medios de pago', () => {
  it('creates the seven medios of before, Cuenta corriente and Caja 1 with every business', async () => {
    expect(medios.map((m) => [m.nombre, m.tipo])).toEqual([
      ['Efectivo', 'efectivo'],
      ['Tarjeta de Débito', 'debito'],
      ['Tarjeta de Crédito', 'credito'],
      ['Transferencia', 'transferencia'],
      ['Mercado Pago', 'qr'],
      ['Cheque', 'cheque'],
      ['Otro', 'otro'],
      ['Cuenta corriente', 'cuenta_corriente'],
    ]);
    expect(caja1).toMatchObject({ nombre: 'Caja 1', activa: true, turno_abierto: null });
  });

  it('creates, edits and deletes a medio; a used one is deactivated instead; admin only; Spanish errors', async () => {
    const bad = await req(owner, 'POST', `${base}/medios-pago`, {
      nombre: '',
      tipo: 'bitcoin',
      ajuste_porcentaje: -100,
    });
    expect(bad.statusCode).toBe(422);
    const fields = bad.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['nombre', 'tipo', 'ajuste_porcentaje']));

    const c3 = await req(owner, 'POST', `${base}/medios-pago`, {
      nombre: 'Crédito 3 cuotas',
      tipo: 'credito',
      ajuste_porcentaje: 15,
    });
    expect(c3.statusCode).toBe(201);
    expect(c3.json()).toMatchObject({
      nombre: 'Crédito 3 cuotas',
      tipo: 'credito',
      ajuste_porcentaje: 15,
      activo: true,
      orden: 9,
    });
    const dup = await req(owner, 'POST', `${base}/medios-pago`, { nombre: 'crédito 3 CUOTAS', tipo: 'credito' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe('Ya existe un medio de pago con ese nombre.');

    const edited = await req(owner, 'PUT', `${base}/medios-pago/${c3.json().id}`, { ajuste_porcentaje: '12,5' });
    expect(edited.json()).toMatchObject({ ajuste_porcentaje: 12.5 });

    const cajero = await registerUser(app, 'CajeroMedios');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas']);
    expect((await req(cajero, 'GET', `${base}/medios-pago`)).statusCode).toBe(200);
    expect((await req(cajero, 'POST', `${base}/medios-pago`, { nombre: 'Vale', tipo: 'otro' })).statusCode).toBe(403);
    expect((await req(cajero, 'DELETE', `${base}/medios-pago/${c3.json().id}`)).statusCode).toBe(403);

    const used = await sell(owner, { pagos: [{ medio_pago_id: c3.json().id, monto: 4000 }] });
    expect(used.statusCode).toBe(201);
    const del = await req(owner, 'DELETE', `${base}/medios-pago/${c3.json().id}`);
    expect(del.json()).toMatchObject({ desactivado: true, medio: { activo: false } });
    const inactive = await sell(owner, { pagos: [{ medio_pago_id: c3.json().id, monto: 4000 }] });
    expect(inactive.statusCode).toBe(422);
    expect(inactive.json().errors[0]).toMatchObject({
      field: 'pagos.0.medio_pago_id',
      message: 'El medio de pago «Crédito 3 cuotas» está inactivo.',
    });

    const vale = (await req(owner, 'POST', `${base}/medios-pago`, { nombre: 'Vale', tipo: 'otro' })).json();
    expect((await req(owner, 'DELETE', `${base}/medios-pago/${vale.id}`)).json()).toMatchObject({ desactivado: false });
    expect((await req(owner, 'GET', `${base}/medios-pago`)).json().some((m: { id: string }) => m.id === vale.id)).toBe(
      false,
    );
  });
});

describe('turnos de caja', () => {
  it('opens, sells in cash, card and split, moves cash, and closes with the counted difference', async () => {
    const open = await req(owner, 'POST', `${base}/cajas/${caja1.id}/turnos`, { fondo_inicial: 10000 });
    expect(open.statusCode).toBe(201);
    const turno = open.json();
    expect(turno).toMatchObject({ estado: 'abierto', numero: 1, fondo_inicial: 10000, caja_nombre: 'Caja 1' });
    expect(esperadoDe(turno, efectivo)).toBe(10000);

    const again = await req(owner, 'POST', `${base}/cajas/${caja1.id}/turnos`, { fondo_inicial: 0 });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toContain('ya tiene un turno abierto');

    // Cash with change: 5000 handed over for 4000.
    const cash = await sell(owner, { turno_id: turno.id, pagos: [{ medio_pago_id: efectivo, monto: 5000 }] });
    expect(cash.statusCode).toBe(201);
    const cashSale = (await req(owner, 'GET', `${base}/ventas/sales/${cash.json().id}`)).json();
    expect(cashSale.pagos).toEqual([
      expect.objectContaining({ medio_pago_id: efectivo, monto: 4000, total: 4000, recibido: 5000, vuelto: 1000 }),
    ]);
    expect(cashSale.turno_id).toBe(turno.id);

    // The legacy call (metodo_pago only) lands in the seller's open turno.
    const card = await sell(owner, { metodo_pago: 'tarjeta_debito' });
    expect(card.statusCode).toBe(201);
    expect((await req(owner, 'GET', `${base}/ventas/sales/${card.json().id}`)).json()).toMatchObject({
      turno_id: turno.id,
      metodo_pago: 'tarjeta_debito',
      pagos: [{ medio_pago_id: debito, total: 4000 }],
    });

    // Split: 8000 owed, 3000 by transfer and 6000 cash handed (1000 change).
    const split = await sell(
      owner,
      {
        turno_id: turno.id,
        pagos: [
          { medio_pago_id: transferencia, monto: 3000 },
          { medio_pago_id: efectivo, monto: 6000 },
        ],
      },
      2,
    );
    expect(split.statusCode).toBe(201);
    expect(split.json().total).toBe(8000);
    const splitSale = (await req(owner, 'GET', `${base}/ventas/sales/${split.json().id}`)).json();
    expect(splitSale.metodo_pago).toBe('efectivo');
    expect(splitSale.pagos.map((p: { total: number; vuelto: number }) => [p.total, p.vuelto])).toEqual([
      [3000, 0],
      [5000, 1000],
    ]);
    const moves = await ctx.sql<{ monto: string; metodo_pago: string }>(
      'SELECT monto::text, metodo_pago FROM finance_movements WHERE venta_id = $1 ORDER BY monto',
      [split.json().id],
    );
    expect(moves).toEqual([
      { monto: '3000.00', metodo_pago: 'transferencia' },
      { monto: '5000.00', metodo_pago: 'efectivo' },
    ]);

    const retiro = await req(owner, 'POST', `${base}/turnos/${turno.id}/movimientos`, {
      tipo: 'retiro',
      monto: 2500,
      motivo: 'Pago al repartidor',
    });
    expect(retiro.statusCode).toBe(201);
    await req(owner, 'POST', `${base}/turnos/${turno.id}/movimientos`, {
      tipo: 'ingreso',
      monto: 500,
      motivo: 'Cambio',
    });
    const badMove = await req(owner, 'POST', `${base}/turnos/${turno.id}/movimientos`, { tipo: 'robo', monto: 0 });
    expect(badMove.statusCode).toBe(422);

    const now = (await req(owner, 'GET', `${base}/turnos/${turno.id}`)).json();
    // 10000 + 4000 + 5000 − 2500 + 500 = 17000 in the drawer.
    expect(esperadoDe(now, efectivo)).toBe(17000);
    expect(esperadoDe(now, debito)).toBe(4000);
    expect(esperadoDe(now, transferencia)).toBe(3000);
    expect(now).toMatchObject({ ventas_cantidad: 3, ventas_total: 16000, ingresos: 500, retiros: 2500 });

    const missing = await req(owner, 'POST', `${base}/turnos/${turno.id}/cerrar`, {
      contado: [{ medio_pago_id: efectivo, monto: 16900 }],
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0].message).toBe('Indicá cuánto contaste de Tarjeta de Débito.');

    const closed = await req(owner, 'POST', `${base}/turnos/${turno.id}/cerrar`, {
      contado: [
        { medio_pago_id: efectivo, monto: 16900 },
        { medio_pago_id: debito, monto: 4000 },
        { medio_pago_id: transferencia, monto: 3000 },
      ],
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().estado).toBe('cerrado');
    expect(closed.json().diferencias).toEqual(
      expect.arrayContaining([
        { medio_pago_id: efectivo, esperado: 17000, contado: 16900, diferencia: -100 },
        { medio_pago_id: debito, esperado: 4000, contado: 4000, diferencia: 0 },
      ]),
    );
    expect(closed.json().diferencia).toBe(-100);

    // Closed: no more cash movements, no more sales in it, no second close.
    const late = await req(owner, 'POST', `${base}/turnos/${turno.id}/movimientos`, {
      tipo: 'retiro',
      monto: 1,
      motivo: 'x',
    });
    expect(late.statusCode).toBe(409);
    const lateSale = await sell(owner, { turno_id: turno.id, metodo_pago: 'efectivo' });
    expect(lateSale.statusCode).toBe(409);
    expect(lateSale.json().detail).toBe('El turno está cerrado: abrí un turno nuevo para seguir.');
    expect((await req(owner, 'POST', `${base}/turnos/${turno.id}/cerrar`, { contado: [] })).statusCode).toBe(409);

    const list = await req(owner, 'GET', `${base}/turnos?estado=cerrado`);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()[0]).toMatchObject({ numero: 1, ventas_cantidad: 3, diferencia: -100 });
    const xlsx = await app.inject({ method: 'GET', url: `${base}/turnos/exportar`, headers: owner.auth });
    expect(xlsx.statusCode).toBe(200);
    const sheet = await readXlsx(xlsx.rawPayload);
    expect(sheet[0]).toContain('Diferencia');
    expect(sheet[1]).toEqual(expect.arrayContaining([1, 'Caja 1', 'Cerrado', 16000, -100]));
    const closing = await readXlsx(
      (await app.inject({ method: 'GET', url: `${base}/turnos/${turno.id}/exportar`, headers: owner.auth })).rawPayload,
    );
    expect(closing[0]).toEqual([
      'Medio de pago',
      'Fondo inicial',
      'Ventas',
      'Cobros',
      'Ingresos',
      'Retiros',
      'Devoluciones',
      'Esperado',
      'Contado',
      'Diferencia',
    ]);
    // Across: 10000 + 9000 + 500 − 2500 = 17000; down: the totals of the caja.
    expect(closing).toContainEqual(['Efectivo', 10000, 9000, 0, 500, -2500, 0, 17000, 16900, -100]);
    expect(closing).toContainEqual(['Total en caja', 10000, 16000, 0, 500, -2500, 0, 24000, 23900, -100]);
  });

  it('applies surcharges and discounts per part and refuses parts that do not cover the total', async () => {
    const c6 = (
      await req(owner, 'POST', `${base}/medios-pago`, {
        nombre: 'Crédito 6 cuotas',
        tipo: 'credito',
        ajuste_porcentaje: 20,
      })
    ).json();
    const contado = (
      await req(owner, 'POST', `${base}/medios-pago`, {
        nombre: 'Contado −10 %',
        tipo: 'efectivo',
        ajuste_porcentaje: -10,
      })
    ).json();
    const short = await sell(owner, { pagos: [{ medio_pago_id: transferencia, monto: 3999.99 }] });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors[0]).toMatchObject({
      field: 'pagos',
      message: 'Los pagos no cubren el total: faltan $ 0,01.',
    });
    const over = await sell(owner, { pagos: [{ medio_pago_id: transferencia, monto: 5000 }] });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors[0].message).toBe('Solo el efectivo puede superar el total (la diferencia es el vuelto).');
    const foreign = await sell(owner, {
      pagos: [{ medio_pago_id: '00000000-0000-4000-8000-000000000000', monto: 4000 }],
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors[0].field).toBe('pagos.0.medio_pago_id');

    // 8000 owed: 5000.01 on 6 cuotas (+20 % → 1000.00 surcharge, rounded) and 2999.99 cash (−10 % → −300.00).
    const sale = await sell(
      owner,
      {
        pagos: [
          { medio_pago_id: c6.id, monto: 5000.01 },
          { medio_pago_id: contado.id, monto: 2999.99 },
        ],
      },
      2,
    );
    expect(sale.statusCode).toBe(201);
    expect(sale.json().total).toBe(8700);
    const detail = (await req(owner, 'GET', `${base}/ventas/sales/${sale.json().id}`)).json();
    expect(detail).toMatchObject({
      subtotal: 8000,
      descuento: 0,
      ajuste: 700,
      total: 8700,
      metodo_pago: 'tarjeta_credito',
    });
    expect(
      detail.pagos.map((p: { monto: number; ajuste: number; total: number }) => [p.monto, p.ajuste, p.total]),
    ).toEqual([
      [5000.01, 1000, 6000.01],
      [2999.99, -300, 2699.99],
    ]);
    const income = await ctx.sql<{ s: string }>(
      'SELECT sum(monto)::text AS s FROM finance_movements WHERE venta_id = $1 AND NOT anulado',
      [sale.json().id],
    );
    expect(income[0].s).toBe('8700.00');

    // A void reverses every part.
    await req(owner, 'POST', `${base}/ventas/${sale.json().id}/anular`, {});
    const after = await ctx.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM finance_movements WHERE venta_id = $1 AND NOT anulado',
      [sale.json().id],
    );
    expect(after[0].n).toBe(0);
  });

  it('keeps another business out: its cajas, turnos and medios are not found', async () => {
    const other = await registerUser(app, 'Otro');
    const otherBiz = await createBusiness(app, other, 'Otro Almacen');
    const otherCaja = (await req(other, 'GET', `/api/v1/businesses/${otherBiz}/cajas`)).json()[0];
    const otherTurno = (
      await req(other, 'POST', `/api/v1/businesses/${otherBiz}/cajas/${otherCaja.id}/turnos`, { fondo_inicial: 0 })
    ).json();
    expect((await req(owner, 'POST', `${base}/cajas/${otherCaja.id}/turnos`, { fondo_inicial: 0 })).statusCode).toBe(
      404,
    );
    expect((await req(owner, 'GET', `${base}/turnos/${otherTurno.id}`)).statusCode).toBe(404);
    expect(
      (
        await req(owner, 'POST', `${base}/turnos/${otherTurno.id}/movimientos`, {
          tipo: 'ingreso',
          monto: 1,
          motivo: 'x',
        })
      ).statusCode,
    ).toBe(404);
    const cross = await sell(owner, { turno_id: otherTurno.id, metodo_pago: 'efectivo' });
    expect(cross.statusCode).toBe(422);
    expect(cross.json().errors[0].field).toBe('turno_id');
    expect((await req(owner, 'GET', `/api/v1/businesses/${otherBiz}/turnos`)).statusCode).toBe(403);
  });

  it('a cashier without ventas/editar cannot open or close; concurrent opens give one turno', async () => {
    const viewer = await registerUser(app, 'Mirador');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_ventas']);
    const caja2 = (await req(owner, 'POST', `${base}/cajas`, { nombre: 'Caja 2' })).json();
    expect((await req(viewer, 'POST', `${base}/cajas/${caja2.id}/turnos`, { fondo_inicial: 0 })).statusCode).toBe(403);
    const tries = await Promise.all(
      Array.from({ length: 5 }, () => req(owner, 'POST', `${base}/cajas/${caja2.id}/turnos`, { fondo_inicial: 100 })),
    );
    expect(tries.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const numbers = await ctx.sql<{ numero: number }>(
      'SELECT numero FROM turnos WHERE business_id = $1 ORDER BY numero',
      [biz],
    );
    expect(numbers.map((n) => n.numero)).toEqual(numbers.map((_, i) => i + 1));
  });
});
