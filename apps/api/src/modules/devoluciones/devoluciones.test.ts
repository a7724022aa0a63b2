import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Devuelve');

type Method = 'GET' | 'POST' | 'DELETE';
const call = (u: TestUser, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { ...u.auth, ...headers }, ...(payload ? { payload } : {}) });

/** A business of `owner` with two products, its medios and a customer. */
async function shop(nombre: string) {
  const id = await createBusiness(app, owner, nombre);
  const base = `/api/v1/businesses/${id}`;
  const r = (method: Method, url: string, payload?: object, u = owner) => call(u, method, `${base}${url}`, payload);
  const yerba = (await r('POST', '/products', { nombre: 'Yerba', precio_venta: 1000, stock_actual: 100 })).json();
  const azucar = (await r('POST', '/products', { nombre: 'Azúcar', precio_venta: 333.33, stock_actual: 50 })).json();
  const medios = (await r('GET', '/medios-pago')).json() as { id: string; tipo: string }[];
  const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
  const juan = (await r('POST', '/clientes', { nombre: 'Juan', apellido: 'Cliente' })).json();
  const sell = async (body: object, u = owner) => {
    const res = await call(u, 'POST', '/api/v1/ventas/record-sale', { negocio_id: id, ...body });
    expect(res.statusCode).toBe(201);
    return (await r('GET', `/ventas/sales/${res.json().id}`)).json();
  };
  const devolver = (ventaId: string, body: object, u = owner, headers: Record<string, string> = {}) =>
    call(u, 'POST', `${base}/ventas/${ventaId}/devoluciones`, body, headers);
  const stock = async (p: { id: string }) => (await r('GET', `/products/${p.id}`)).json().stock_actual as number;
  const openTurno = async (fondo = 0) => {
    const caja = (await r('GET', '/cajas')).json()[0];
    const t = await r('POST', `/cajas/${caja.id}/turnos`, { fondo_inicial: fondo });
    expect(t.statusCode).toBe(201);
    return t.json() as { id: string };
  };
  const turno = async (tid: string) => (await r('GET', `/turnos/${tid}`)).json();
  const expected = async (tid: string, m = medio('efectivo')) =>
    (await turno(tid)).esperado.find((e: { medio_pago_id: string }) => e.medio_pago_id === m)?.monto as number;
  return { id, base, r, yerba, azucar, medio, juan, sell, devolver, stock, openTurno, turno, expected };
}

const line = (sale: { items: { id: string; nombre: string }[] }, nombre: string) =>
  sale.items.find((i) => i.nombre === nombre)!.id;

describe('devoluciones', () => {
  it('returns part of a sale, then the rest: exact shares of the discounted total, stock back, numbered', async () => {
    const s = await shop('Devoluciones Parciales');
    // 3 × 1000 + 2 × 333.33 = 3666.66, less 100 → 3566.66.
    const sale = await s.sell({
      metodo_pago: 'efectivo',
      descuento: 100,
      items: [
        { id: s.yerba.id, cantidad: 3 },
        { id: s.azucar.id, cantidad: 2 },
      ],
    });
    expect(sale.total).toBe(3566.66);
    const yerba = line(sale, 'Yerba');
    const azucar = line(sale, 'Azúcar');
    const efectivo = s.medio('efectivo');

    const first = await s.devolver(sale.id, {
      items: [{ item_id: yerba, cantidad: 1 }],
      medio_pago_id: efectivo,
      motivo: 'Paquete roto',
    });
    expect(first.statusCode).toBe(201);
    // Yerba's share of 3566.66 is 2918.18; a third of it, rounded half up.
    expect(first.json()).toMatchObject({
      numero: 1,
      venta_id: sale.id,
      venta_numero: sale.numero,
      monto: 972.73,
      medio_pago_id: efectivo,
      medio_nombre: 'Efectivo',
      motivo: 'Paquete roto',
      items: [{ item_id: yerba, nombre: 'Yerba', cantidad: 1, precio_unitario: 1000, monto: 972.73 }],
    });
    expect(await s.stock(s.yerba)).toBe(98);

    // The last of each line takes what is left of its share: all returns add up to the total.
    const rest = await s.devolver(sale.id, {
      items: [
        { item_id: yerba, cantidad: 2 },
        { item_id: azucar, cantidad: 2 },
      ],
      medio_pago_id: efectivo,
    });
    expect(rest.statusCode).toBe(201);
    expect(rest.json()).toMatchObject({ numero: 2, monto: 2593.93 });
    expect(rest.json().items.map((i: { monto: number }) => i.monto)).toEqual([1945.45, 648.48]);
    expect(Math.round(972.73 * 100) + Math.round(2593.93 * 100)).toBe(356666);
    expect(await s.stock(s.yerba)).toBe(100);
    expect(await s.stock(s.azucar)).toBe(50);

    const detail = (await s.r('GET', `/ventas/sales/${sale.id}`)).json();
    expect(detail.total_devuelto).toBe(3566.66);
    expect(detail.items.map((i: { cantidad_devuelta: number; monto_devuelto: number }) => i.cantidad_devuelta)).toEqual(
      [3, 2],
    );
    const list = (await s.r('GET', `/ventas/${sale.id}/devoluciones`)).json();
    expect(list.map((d: { numero: number }) => d.numero)).toEqual([1, 2]);
    const one = await s.r('GET', `/devoluciones/${first.json().id}`);
    expect(one.json()).toEqual(first.json());

    // Nothing is left to return.
    const more = await s.devolver(sale.id, { items: [{ item_id: azucar, cantidad: 0.001 }], medio_pago_id: efectivo });
    expect(more.statusCode).toBe(422);
    expect(more.json().errors[0]).toEqual({
      field: 'items.0.cantidad',
      message: 'No podés devolver más de lo vendido de «Azúcar»: quedan 0 por devolver.',
    });
    const moves = (await s.r('GET', `/products/${s.yerba.id}/movimientos-stock`)).json();
    expect(moves[0]).toMatchObject({
      origen: 'devolucion',
      cantidad: 2,
      motivo: `Devolución #2 · venta #${sale.numero}`,
    });
  });

  it('refuses more than was sold and wrong lines, storing nothing', async () => {
    const s = await shop('Devoluciones Rechazadas');
    const sale = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 2 }] });
    const other = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.azucar.id, cantidad: 1 }] });
    const efectivo = s.medio('efectivo');
    const yerba = line(sale, 'Yerba');

    const over = await s.devolver(sale.id, { items: [{ item_id: yerba, cantidad: 3 }], medio_pago_id: efectivo });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors[0].message).toBe(
      'No podés devolver más de lo vendido de «Yerba»: quedan 2 por devolver.',
    );
    const foreignLine = await s.devolver(sale.id, {
      items: [{ item_id: line(other, 'Azúcar'), cantidad: 1 }],
      medio_pago_id: efectivo,
    });
    expect(foreignLine.json().errors[0]).toEqual({
      field: 'items.0.item_id',
      message: 'Ese ítem no es de esta venta.',
    });
    const twice = await s.devolver(sale.id, {
      items: [
        { item_id: yerba, cantidad: 1 },
        { item_id: yerba, cantidad: 1 },
      ],
      medio_pago_id: efectivo,
    });
    expect(twice.json().errors[0].message).toBe('Ese ítem está repetido en la devolución.');
    const empty = await s.devolver(sale.id, { items: [], medio_pago_id: efectivo });
    expect(empty.json().errors[0].message).toBe('Elegí al menos un ítem para devolver.');
    const zero = await s.devolver(sale.id, { items: [{ item_id: yerba, cantidad: 0 }], medio_pago_id: efectivo });
    expect(zero.statusCode).toBe(422);
    const anon = await s.devolver(sale.id, {
      items: [{ item_id: yerba, cantidad: 1 }],
      medio_pago_id: s.medio('cuenta_corriente'),
    });
    expect(anon.statusCode).toBe(422);
    expect(anon.json().errors[0].message).toBe('La venta no tiene cliente: elegí otro medio para devolver el dinero.');

    const stored = await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM devoluciones WHERE business_id = $1', [
      s.id,
    ]);
    expect(stored[0].n).toBe(0);
    expect(await s.stock(s.yerba)).toBe(98);
    const movs = await ctx.sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM finance_movements WHERE business_id = $1 AND origen = 'devolucion'",
      [s.id],
    );
    expect(movs[0].n).toBe(0);
  });

  it('never returns more than was sold under concurrent returns', async () => {
    const s = await shop('Devoluciones Concurrentes');
    const sale = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 5 }] });
    const yerba = line(sale, 'Yerba');
    const tries = await Promise.all(
      Array.from({ length: 8 }, () =>
        s.devolver(sale.id, { items: [{ item_id: yerba, cantidad: 1 }], medio_pago_id: s.medio('efectivo') }),
      ),
    );
    expect(tries.filter((t) => t.statusCode === 201)).toHaveLength(5);
    expect(tries.filter((t) => t.statusCode === 422)).toHaveLength(3);
    expect(await s.stock(s.yerba)).toBe(100);
    const numbers = await ctx.sql<{ numero: number; monto: string }>(
      'SELECT numero, monto::text FROM devoluciones WHERE business_id = $1 ORDER BY numero',
      [s.id],
    );
    expect(numbers.map((n) => n.numero)).toEqual([1, 2, 3, 4, 5]);
    expect(numbers.every((n) => n.monto === '1000.00')).toBe(true);
  });

  it('takes cash out of the open turno; another medio leaves its own; the closing shows the refunds', async () => {
    const s = await shop('Devoluciones Caja');
    const t = await s.openTurno(5000);
    const efectivo = s.medio('efectivo');
    const transferencia = s.medio('transferencia');
    const sale = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 4 }] });
    const paidByTransfer = await s.sell({ metodo_pago: 'transferencia', items: [{ id: s.azucar.id, cantidad: 3 }] });
    expect(await s.expected(t.id)).toBe(9000);

    const cash = await s.devolver(sale.id, {
      items: [{ item_id: line(sale, 'Yerba'), cantidad: 1 }],
      medio_pago_id: efectivo,
    });
    expect(cash.json()).toMatchObject({ monto: 1000, turno_id: t.id });
    expect(await s.expected(t.id)).toBe(8000);

    const bank = await s.devolver(paidByTransfer.id, {
      items: [{ item_id: line(paidByTransfer, 'Azúcar'), cantidad: 1 }],
      medio_pago_id: transferencia,
    });
    expect(bank.json()).toMatchObject({ monto: 333.33, turno_id: t.id });
    expect(await s.expected(t.id)).toBe(8000);
    expect(await s.expected(t.id, transferencia)).toBe(666.66);
    const open = await s.turno(t.id);
    expect(open.devoluciones).toBe(1333.33);
    expect(open.por_medio.find((m: { medio_pago_id: string }) => m.medio_pago_id === efectivo)).toMatchObject({
      ventas: 4000,
      devoluciones: 1000,
    });
    const mov = await ctx.sql<{ tipo: string; monto: string; metodo_pago: string; origen: string }>(
      'SELECT tipo, monto::text, metodo_pago, origen FROM finance_movements WHERE devolucion_id = $1',
      [bank.json().id],
    );
    expect(mov).toEqual([{ tipo: 'egreso', monto: '333.33', metodo_pago: 'transferencia', origen: 'devolucion' }]);

    const closed = await s.r('POST', `/turnos/${t.id}/cerrar`, {
      contado: [
        { medio_pago_id: efectivo, monto: 8000 },
        { medio_pago_id: transferencia, monto: 666.66 },
      ],
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().diferencias.every((d: { diferencia: number }) => d.diferencia === 0)).toBe(true);
    const sheet = await readXlsx((await call(owner, 'GET', `${s.base}/turnos/${t.id}/exportar`)).rawPayload);
    // Fondo + ventas − devoluciones = esperado, across; the refunds of every medio in the totals.
    expect(sheet).toContainEqual(['Efectivo', 5000, 4000, 0, 0, 0, -1000, 8000, 8000, 0]);
    expect(sheet.find((r) => r[0] === 'Total en caja')?.[6]).toBe(-1333.33);

    // A turno named in the request must be open.
    const late = await s.devolver(sale.id, {
      items: [{ item_id: line(sale, 'Yerba'), cantidad: 1 }],
      medio_pago_id: efectivo,
      turno_id: t.id,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('TURNO_CLOSED');
  });

  it("returns to the customer's account: what they owe drops; the account shows it", async () => {
    const s = await shop('Devoluciones Cuenta');
    const cc = s.medio('cuenta_corriente');
    const sale = await s.sell({
      cliente_id: s.juan.id,
      pagos: [{ medio_pago_id: cc, monto: 3000 }],
      items: [{ id: s.yerba.id, cantidad: 3 }],
    });
    const back = await s.devolver(sale.id, {
      items: [{ item_id: line(sale, 'Yerba'), cantidad: 1 }],
      medio_pago_id: cc,
    });
    expect(back.statusCode).toBe(201);
    expect(back.json()).toMatchObject({ monto: 1000, cliente_id: s.juan.id, cliente_nombre: 'Juan Cliente' });
    const cuenta = (await s.r('GET', `/clientes/${s.juan.id}/cuenta-corriente`)).json();
    expect(cuenta.saldo).toBe(2000);
    expect(cuenta.movimientos.at(-1)).toMatchObject({ tipo: 'devolucion', numero: 1, haber: 1000, saldo: 2000 });
    // No money moved: no finance movement.
    const movs = await ctx.sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM finance_movements WHERE business_id = $1 AND origen = 'devolucion'",
      [s.id],
    );
    expect(movs[0].n).toBe(0);
    // A cobro may take at most what is owed now.
    const cobro = await s.r('POST', `/clientes/${s.juan.id}/cobros`, {
      monto: 2000.01,
      medio_pago_id: s.medio('efectivo'),
    });
    expect(cobro.statusCode).toBe(409);

    // A cash sale returned to the account (another medio of that kind): what they owe drops too,
    // and that medio, used only by the return, is deactivated instead of deleted.
    const libreta = (await s.r('POST', '/medios-pago', { nombre: 'Libreta', tipo: 'cuenta_corriente' })).json();
    const cashSale = await s.sell({
      cliente_id: s.juan.id,
      metodo_pago: 'efectivo',
      items: [{ id: s.yerba.id, cantidad: 1 }],
    });
    const credit = await s.devolver(cashSale.id, {
      items: [{ item_id: line(cashSale, 'Yerba'), cantidad: 1 }],
      medio_pago_id: libreta.id,
    });
    expect(credit.json()).toMatchObject({ numero: 2, monto: 1000, medio_tipo: 'cuenta_corriente' });
    expect((await s.r('GET', `/clientes/${s.juan.id}/cuenta-corriente`)).json().saldo).toBe(1000);
    const del = await s.r('DELETE', `/medios-pago/${libreta.id}`);
    expect(del.json()).toMatchObject({ desactivado: true });
  });

  it('keeps other businesses out, guards by permission, and cannot return a voided sale nor void a returned one', async () => {
    const s = await shop('Devoluciones Permisos');
    const efectivo = s.medio('efectivo');
    const sale = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 2 }] });
    const yerba = line(sale, 'Yerba');
    const done = await s.devolver(sale.id, { items: [{ item_id: yerba, cantidad: 1 }], medio_pago_id: efectivo });
    expect(done.statusCode).toBe(201);

    const stranger = await registerUser(app, 'Ajena');
    const otherBiz = await createBusiness(app, stranger, 'Otro Negocio');
    const ob = `/api/v1/businesses/${otherBiz}`;
    // Another business's sale and return from this business's path: not found.
    const otherSale = await call(stranger, 'POST', '/api/v1/ventas/record-sale', {
      negocio_id: otherBiz,
      metodo_pago: 'efectivo',
      items: [
        {
          id: (
            await call(stranger, 'POST', `${ob}/products`, { nombre: 'X', precio_venta: 10, stock_actual: 5 })
          ).json().id,
          cantidad: 1,
        },
      ],
    });
    expect(
      (await s.devolver(otherSale.json().id, { items: [{ item_id: yerba, cantidad: 1 }], medio_pago_id: efectivo }))
        .statusCode,
    ).toBe(404);
    expect((await s.r('GET', `/ventas/${otherSale.json().id}/devoluciones`)).statusCode).toBe(404);
    expect((await call(stranger, 'GET', `${ob}/devoluciones/${done.json().id}`)).statusCode).toBe(404);
    expect((await call(stranger, 'GET', `${ob}/ventas/${sale.id}/devoluciones`)).statusCode).toBe(404);
    const otherCash = (await call(stranger, 'GET', `${ob}/medios-pago`)).json()[0].id;
    const foreignMedio = await s.devolver(sale.id, {
      items: [{ item_id: yerba, cantidad: 1 }],
      medio_pago_id: otherCash,
    });
    expect(foreignMedio.statusCode).toBe(422);
    expect(foreignMedio.json().errors[0].field).toBe('medio_pago_id');
    // Not a member of this business.
    expect(
      (
        await call(stranger, 'POST', `${s.base}/ventas/${sale.id}/devoluciones`, {
          items: [{ item_id: yerba, cantidad: 1 }],
          medio_pago_id: efectivo,
        })
      ).statusCode,
    ).toBe(403);

    // A seller who may not void may not return either; seeing sales is enough to read returns.
    const cajero = await registerUser(app, 'CajeroDev');
    await addMember(ctx, s.id, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas']);
    const refused = await s.devolver(
      sale.id,
      { items: [{ item_id: yerba, cantidad: 1 }], medio_pago_id: efectivo },
      cajero,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/permiso/i);
    expect((await s.r('GET', `/ventas/${sale.id}/devoluciones`, undefined, cajero)).statusCode).toBe(200);
    expect((await s.r('GET', `/devoluciones/${done.json().id}`, undefined, cajero)).statusCode).toBe(200);

    // A sale with returns is not voided; a voided sale is not returned.
    const voidReturned = await s.r('POST', `/ventas/${sale.id}/anular`, {});
    expect(voidReturned.statusCode).toBe(409);
    expect(voidReturned.json().detail).toBe('La venta tiene devoluciones: devolvé lo que queda en lugar de anularla.');
    const other = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.azucar.id, cantidad: 1 }] });
    expect((await s.r('POST', `/ventas/${other.id}/anular`, {})).statusCode).toBe(200);
    const voided = await s.devolver(other.id, {
      items: [{ item_id: line(other, 'Azúcar'), cantidad: 1 }],
      medio_pago_id: efectivo,
    });
    expect(voided.statusCode).toBe(409);
    expect(voided.json().detail).toBe('La venta está anulada: no se puede devolver.');
  });

  it('answers a retry with the same Idempotency-Key once, and refuses the key with another body', async () => {
    const s = await shop('Devoluciones Idempotentes');
    const sale = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 3 }] });
    const body = { items: [{ item_id: line(sale, 'Yerba'), cantidad: 1 }], medio_pago_id: s.medio('efectivo') };
    const key = { 'idempotency-key': 'dev-1' };
    const [a, b] = await Promise.all([s.devolver(sale.id, body, owner, key), s.devolver(sale.id, body, owner, key)]);
    const again = await s.devolver(sale.id, body, owner, key);
    expect([a.statusCode, b.statusCode, again.statusCode]).toEqual([201, 201, 201]);
    expect(b.json()).toEqual(a.json());
    expect(again.json()).toEqual(a.json());
    expect(await s.stock(s.yerba)).toBe(98);
    const mismatch = await s.devolver(sale.id, { ...body, motivo: 'otra' }, owner, key);
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().code).toBe('IDEMPOTENCY_MISMATCH');
    // The same key as a sale's is another key.
    const sold = await call(
      owner,
      'POST',
      '/api/v1/ventas/record-sale',
      { negocio_id: s.id, metodo_pago: 'efectivo', items: [{ id: s.azucar.id, cantidad: 1 }] },
      key,
    );
    expect(sold.statusCode).toBe(201);
    const n = await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM devoluciones WHERE business_id = $1', [
      s.id,
    ]);
    expect(n[0].n).toBe(1);
  });

  it('voiding a sale of a closed turno (or of none) takes the cash out of the open turno; the closed one stays', async () => {
    const s = await shop('Anulaciones Turno');
    const efectivo = s.medio('efectivo');
    const before = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 1 }] });
    expect(before.turno_id).toBeNull();
    const t1 = await s.openTurno(1000);
    const sale = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 2 }] });
    expect(sale.turno_id).toBe(t1.id);
    expect(
      (await s.r('POST', `/turnos/${t1.id}/cerrar`, { contado: [{ medio_pago_id: efectivo, monto: 3000 }] }))
        .statusCode,
    ).toBe(200);
    const closedBefore = await s.turno(t1.id);
    const t2 = await s.openTurno(5000);

    expect((await s.r('POST', `/ventas/${sale.id}/anular`, {})).statusCode).toBe(200);
    expect(await s.expected(t2.id)).toBe(3000);
    expect((await s.r('POST', `/ventas/${before.id}/anular`, {})).statusCode).toBe(200);
    expect(await s.expected(t2.id)).toBe(2000);
    expect((await s.turno(t2.id)).devoluciones).toBe(3000);
    // The closed turno's closing did not change.
    expect(await s.turno(t1.id)).toEqual(closedBefore);

    // A sale voided in its own open turno simply leaves it.
    const inT2 = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.azucar.id, cantidad: 3 }] });
    expect(await s.expected(t2.id)).toBe(2999.99);
    expect((await s.r('POST', `/ventas/${inT2.id}/anular`, {})).statusCode).toBe(200);
    expect(await s.expected(t2.id)).toBe(2000);
    expect((await s.turno(t2.id)).devoluciones).toBe(3000);

    // A return of the closed turno's sale, too, comes out of the open turno.
    const old = await s.sell({ metodo_pago: 'efectivo', items: [{ id: s.yerba.id, cantidad: 1 }] });
    expect(
      (await s.r('POST', `/turnos/${t2.id}/cerrar`, { contado: [{ medio_pago_id: efectivo, monto: 3000 }] }))
        .statusCode,
    ).toBe(200);
    const t3 = await s.openTurno(2000);
    const r = await s.devolver(old.id, {
      items: [{ item_id: line(old, 'Yerba'), cantidad: 1 }],
      medio_pago_id: efectivo,
    });
    expect(r.json().turno_id).toBe(t3.id);
    expect(await s.expected(t3.id)).toBe(1000);
  });

  it('agrees to the cent after a sale on account and partial returns: sales report, summary, cash flow, balance', async () => {
    const s = await shop('Devoluciones Libros');
    const cc = s.medio('cuenta_corriente');
    const efectivo = s.medio('efectivo');
    // On account: 3 × 333.33 = 999.99; cash: 2 × 1000 with 10 off = 1990.
    const onAccount = await s.sell({
      cliente_id: s.juan.id,
      pagos: [{ medio_pago_id: cc, monto: 999.99 }],
      items: [{ id: s.azucar.id, cantidad: 3 }],
    });
    const cash = await s.sell({
      cliente_id: s.juan.id,
      metodo_pago: 'efectivo',
      descuento: 10,
      items: [{ id: s.yerba.id, cantidad: 2 }],
    });
    expect(cash.total).toBe(1990);
    const toAccount = await s.devolver(onAccount.id, {
      items: [{ item_id: line(onAccount, 'Azúcar'), cantidad: 1 }],
      medio_pago_id: cc,
    });
    expect(toAccount.json().monto).toBe(333.33);
    const toCash = await s.devolver(cash.id, {
      items: [{ item_id: line(cash, 'Yerba'), cantidad: 1 }],
      medio_pago_id: efectivo,
    });
    expect(toCash.json().monto).toBe(995);
    expect(
      (await s.r('POST', `/clientes/${s.juan.id}/cobros`, { monto: 200.5, medio_pago_id: efectivo })).statusCode,
    ).toBe(201);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());
    const report = (await s.r('GET', `/ventas/reporte?fecha_desde=${today}&fecha_hasta=${today}`)).json();
    const summary = (await s.r('GET', '/finanzas/resumen')).json();
    const flow = (await s.r('GET', '/finanzas/flujo-caja')).json();
    const account = (await s.r('GET', `/clientes/${s.juan.id}/cuenta-corriente`)).json();
    const cents = (n: number) => Math.round(n * 100);
    // Sold net: 999.99 + 1990 − 333.33 − 995 = 1661.66.
    expect(report.total_ingresos).toBe(1661.66);
    expect(report.devoluciones).toBe(1328.33);
    expect(report.total_ventas).toBe(2);
    expect(report.por_metodo_pago).toEqual([
      expect.objectContaining({ metodo_pago: 'efectivo', cantidad_ventas: 1, total: 995 }),
      expect.objectContaining({ metodo_pago: 'otro', cantidad_ventas: 1, total: 666.66 }),
    ]);
    expect(
      report.productos_mas_vendidos.map((p: { nombre: string; cantidad: number }) => [p.nombre, p.cantidad]),
    ).toEqual([
      ['Azúcar', 2],
      ['Yerba', 1],
    ]);
    expect(report.por_cliente).toEqual([
      { cliente_id: s.juan.id, cliente_nombre: 'Juan Cliente', cantidad_ventas: 2, total: 1661.66 },
    ]);
    // Money in: the cash sale less its refund, and the cobro.
    expect(summary.total_ingresos).toBe(1195.5);
    expect(summary.total_egresos).toBe(0);
    expect(flow.total_ingresos).toBe(1195.5);
    // Owed: 999.99 − 333.33 − 200.50.
    expect(account.saldo).toBe(466.16);
    expect(summary.cuentas_corrientes_clientes).toBe(466.16);
    // Sold = money in + still owed.
    expect(cents(report.total_ingresos)).toBe(cents(summary.total_ingresos) + cents(account.saldo));
    const dash = (await call(owner, 'GET', `/api/v1/ventas/dashboard-stats-v2?negocio_id=${s.id}&periodo=dia`)).json();
    expect(dash.today.total_sales).toBe(1661.66);
  });
});
