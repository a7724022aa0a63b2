import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { crearOrden, mpShop, mpTestApp, ordenPagada, type MpShop } from '../../test/mercadopago.js';

/*
 * A sale paid through Mercado Pago (decision 0052): record-sale binds an approved order of its
 * amount, once, with the sale; it refuses anything else without a trace. A return or a void of
 * such a sale gives the money back through MP (total or partial, once), and the arqueo expects
 * MP's money in its own line, never in the drawer, exactly to the cent.
 */
const { ctx, fake, owner } = await mpTestApp();
const { app } = ctx;
const s = await mpShop(ctx, fake, owner, 'Almacén Ventas MP', 1500);
const other = await mpShop(ctx, fake, owner, 'Otro negocio', 1500);

type Pago = { medio_pago_id: string; monto: number | string; mercadopago_orden_id?: string };
const vender = (shop: MpShop, pagos: Pago[] | null, extra: object = {}, cantidad = 1, key?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/ventas/record-sale',
    headers: { ...owner.auth, ...(key ? { 'idempotency-key': key } : {}) },
    payload: {
      negocio_id: shop.id,
      items: [{ id: shop.producto, tipo: 'producto', cantidad }],
      ...(pagos ? { pagos } : {}),
      ...extra,
    },
  });
const get = (url: string) => app.inject({ method: 'GET', url, headers: owner.auth });
const orden = async (shop: MpShop, id: string) => (await get(`${shop.base}/mercadopago/ordenes/${id}`)).json();
const stock = async (shop: MpShop) => (await get(`${shop.base}/products/${shop.producto}`)).json().stock_actual;
const ventas = async (shop: MpShop) =>
  (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [shop.id]))[0].n;

/** The sale is refused with this status and message, and leaves nothing: no sale, the stock as it was. */
async function refused(shop: MpShop, pagos: Pago[], status: number, detail: string, extra: object = {}) {
  const [n, st] = [await ventas(shop), await stock(shop)];
  const r = await vender(shop, pagos, extra);
  expect(r.statusCode, r.body).toBe(status);
  expect(r.json().detail).toBe(detail);
  expect(await ventas(shop)).toBe(n);
  expect(await stock(shop)).toBe(st);
  return r;
}

describe('record-sale with a Mercado Pago order', () => {
  it('an approved QR order of the amount pays the sale, bound to it', async () => {
    const o = await ordenPagada(ctx, fake, owner, s, 1500);
    const r = await vender(s, [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: o.id }]);
    expect(r.statusCode, r.body).toBe(201);
    const sale = (await get(`${s.base}/ventas/sales/${r.json().id}`)).json();
    expect(sale).toMatchObject({ total: 1500, metodo_pago: 'mercado_pago' });
    expect(sale.pagos).toEqual([
      expect.objectContaining({
        medio_pago_id: s.medioMp,
        nombre: 'Mercado Pago',
        total: 1500,
        mercadopago_orden_id: o.id,
      }),
    ]);
    expect(await orden(s, o.id)).toMatchObject({ estado: 'aprobada', venta_id: r.json().id });
    // Used once: never again, in this sale or another.
    await refused(
      s,
      [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: o.id }],
      409,
      'Esa orden de Mercado Pago ya se usó en otra venta.',
    );
  });

  it('refuses a pending, rejected, cancelled or late-approved order, naming its state', async () => {
    const pendiente = (await crearOrden(ctx, owner, s, { monto: 1500 })).json();
    await refused(
      s,
      [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: pendiente.id }],
      409,
      'La orden de Mercado Pago no está pagada (esperando el pago).',
    );
    const rechazada = (await crearOrden(ctx, owner, s, { monto: 1500, tipo: 'point' })).json();
    fake.rechazar(rechazada.mp_orden_id);
    await fake.idle();
    await refused(
      s,
      [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: rechazada.id }],
      409,
      'La orden de Mercado Pago no está pagada (rechazada).',
    );
    // The Point payment was rejected: the customer pays cash instead.
    const cash = await vender(s, [{ medio_pago_id: s.efectivo, monto: 2000 }]);
    expect(cash.statusCode).toBe(201);
    expect(cash.json().total).toBe(1500);

    const tarde = (await crearOrden(ctx, owner, s, { monto: 1500 })).json();
    await app.inject({
      method: 'POST',
      url: `${s.base}/mercadopago/ordenes/${tarde.id}/cancelar`,
      headers: owner.auth,
    });
    fake.pagar(tarde.mp_orden_id, { tarde: true });
    await fake.idle();
    expect(await orden(s, tarde.id)).toMatchObject({ estado: 'cancelada', aprobada_tarde: true, reembolsado: 1500 });
    await refused(
      s,
      [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: tarde.id }],
      409,
      'La orden de Mercado Pago no está pagada (cancelada).',
    );
  });

  it('refuses an order of another amount, of another business, unknown, or named twice', async () => {
    const o = await ordenPagada(ctx, fake, owner, s, 1400);
    await refused(
      s,
      [
        { medio_pago_id: s.efectivo, monto: 100 },
        { medio_pago_id: s.medioMp, monto: 1400.01, mercadopago_orden_id: o.id },
      ],
      409,
      'La orden de Mercado Pago es por $ 1.400,00 y el pago por $ 1.400,01: tienen que coincidir.',
    );
    const ajena = await ordenPagada(ctx, fake, owner, other, 1500);
    const r = await refused(
      s,
      [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: ajena.id }],
      409,
      'No encontramos esa orden de Mercado Pago en este negocio.',
    );
    expect(r.json().errors).toEqual([
      { field: 'pagos.0.mercadopago_orden_id', message: 'No encontramos esa orden de Mercado Pago en este negocio.' },
    ]);
    await refused(
      s,
      [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: randomUUID() }],
      409,
      'No encontramos esa orden de Mercado Pago en este negocio.',
    );
    expect((await orden(other, ajena.id)).venta_id).toBeNull();
    const half = await ordenPagada(ctx, fake, owner, s, 750);
    await refused(
      s,
      [
        { medio_pago_id: s.medioMp, monto: 750, mercadopago_orden_id: half.id },
        { medio_pago_id: s.medioMp, monto: 750, mercadopago_orden_id: half.id },
      ],
      409,
      'La misma orden de Mercado Pago está dos veces en los pagos.',
    );
  });

  it('the MP medio needs its order (but a sale taken offline keeps it); an order needs the MP medio', async () => {
    await refused(
      s,
      [{ medio_pago_id: s.medioMp, monto: 1500 }],
      422,
      'Los cobros con Mercado Pago se hacen desde el punto de venta: el pago necesita su orden aprobada (o elegí otro medio).',
    );
    const offline = await vender(s, [{ medio_pago_id: s.medioMp, monto: 1500 }], {
      offline: { dispositivo: 'caja-1', creada_en: new Date().toISOString() },
    });
    expect(offline.statusCode, offline.body).toBe(201);
    const o = await ordenPagada(ctx, fake, owner, s, 1500);
    await refused(
      s,
      [{ medio_pago_id: s.efectivo, monto: 1500, mercadopago_orden_id: o.id }],
      422,
      'Una orden de Mercado Pago se registra con el medio «Mercado Pago».',
    );
  });

  it('split: cash and a QR order, the order for its part', async () => {
    const o = await ordenPagada(ctx, fake, owner, s, 1000);
    const r = await vender(
      s,
      [
        { medio_pago_id: s.efectivo, monto: 2000 },
        { medio_pago_id: s.medioMp, monto: 1000, mercadopago_orden_id: o.id },
      ],
      {},
      2,
    );
    expect(r.statusCode, r.body).toBe(201);
    const sale = (await get(`${s.base}/ventas/sales/${r.json().id}`)).json();
    expect(sale.total).toBe(3000);
    expect(
      sale.pagos.map((p: { nombre: string; total: number; vuelto: number }) => [p.nombre, p.total, p.vuelto]),
    ).toEqual([
      ['Efectivo', 2000, 0],
      ['Mercado Pago', 1000, 0],
    ]);
  });

  it('two sales racing for the same order: one gets it, the other is refused', async () => {
    const o = await ordenPagada(ctx, fake, owner, s, 1500);
    const n = await ventas(s);
    const [a, b] = await Promise.all([
      vender(s, [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: o.id }]),
      vender(s, [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: o.id }]),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect(await ventas(s)).toBe(n + 1);
    const bound = await ctx.sql(
      'SELECT venta_id FROM sale_payments WHERE business_id = $1 AND mercadopago_orden_id = $2',
      [s.id, o.id],
    );
    expect(bound).toHaveLength(1);
  });

  it('a retried sale (its Idempotency-Key) answers the first sale and binds nothing more', async () => {
    const o = await ordenPagada(ctx, fake, owner, s, 1500);
    const key = randomUUID();
    const pagos = [{ medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: o.id }];
    const a = await vender(s, pagos, {}, 1, key);
    const b = await vender(s, pagos, {}, 1, key);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().id).toBe(a.json().id);
  });
});

describe('giving the money back through MP', () => {
  const devolver = (ventaId: string, items: { item_id: string; cantidad: number }[], medio: string, key?: string) =>
    app.inject({
      method: 'POST',
      url: `${s.base}/ventas/${ventaId}/devoluciones`,
      headers: { ...owner.auth, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { items, medio_pago_id: medio },
    });
  const refunds = (mpOrdenId: string) => fake.requests.filter((r) => r.path === `/v1/orders/${mpOrdenId}/refund`);

  async function ventaMp(cantidad: number) {
    const o = await ordenPagada(ctx, fake, owner, s, 1500 * cantidad);
    const r = await vender(
      s,
      [{ medio_pago_id: s.medioMp, monto: 1500 * cantidad, mercadopago_orden_id: o.id }],
      {},
      cantidad,
    );
    expect(r.statusCode, r.body).toBe(201);
    const sale = (await get(`${s.base}/ventas/sales/${r.json().id}`)).json();
    return { o, sale, item: sale.items[0].id as string };
  }

  it('a partial return refunds that part through MP, a second one the rest; more is refused, nothing recorded', async () => {
    const { o, sale, item } = await ventaMp(3);
    const d1 = await devolver(sale.id, [{ item_id: item, cantidad: 1 }], s.medioMp);
    expect(d1.statusCode, d1.body).toBe(201);
    expect(refunds(o.mp_orden_id).map((r) => r.body)).toEqual([
      { transactions: [{ id: fake.order(o.mp_orden_id)!.transactions.payments[0].id, amount: '1500.00' }] },
    ]);
    expect(await orden(s, o.id)).toMatchObject({
      reembolsado: 1500,
      reembolsos: [
        expect.objectContaining({ origen: 'devolucion', monto: 1500, venta_id: sale.id, devolucion_id: d1.json().id }),
      ],
    });
    expect(fake.order(o.mp_orden_id)).toMatchObject({ status: 'processed', status_detail: 'partially_refunded' });

    const d2 = await devolver(sale.id, [{ item_id: item, cantidad: 2 }], s.medioMp);
    expect(d2.statusCode, d2.body).toBe(201);
    expect(refunds(o.mp_orden_id)).toHaveLength(2);
    expect((await orden(s, o.id)).reembolsado).toBe(4500);
    expect(fake.order(o.mp_orden_id)!.status).toBe('refunded');
  });

  it('a return beyond what MP collected is refused before anything is asked or recorded', async () => {
    // Cash 1500 and MP 1500: returning both units by MP asks for 3000 of a 1500 order.
    const o = await ordenPagada(ctx, fake, owner, s, 1500);
    const r = await vender(
      s,
      [
        { medio_pago_id: s.efectivo, monto: 1500 },
        { medio_pago_id: s.medioMp, monto: 1500, mercadopago_orden_id: o.id },
      ],
      {},
      2,
    );
    const sale = (await get(`${s.base}/ventas/sales/${r.json().id}`)).json();
    const st = await stock(s);
    const d = await devolver(sale.id, [{ item_id: sale.items[0].id, cantidad: 2 }], s.medioMp);
    expect(d.statusCode).toBe(409);
    expect(d.json().detail).toBe(
      'Por Mercado Pago se pueden devolver hasta $ 1.500,00 de esta venta: el resto, devolvelo con otro medio.',
    );
    expect(refunds(o.mp_orden_id)).toHaveLength(0);
    expect(await stock(s)).toBe(st);
    expect((await get(`${s.base}/ventas/${sale.id}/devoluciones`)).json()).toEqual([]);
    // By cash, the money leaves the drawer, not MP.
    const cash = await devolver(sale.id, [{ item_id: sale.items[0].id, cantidad: 1 }], s.efectivo);
    expect(cash.statusCode).toBe(201);
    expect(refunds(o.mp_orden_id)).toHaveLength(0);
  });

  it('MP down or refusing: the return is not recorded; a retry after a lost answer gets MP’s one refund', async () => {
    const { o, sale, item } = await ventaMp(2);
    fake.setSwitches({ caido: true });
    const down = await devolver(sale.id, [{ item_id: item, cantidad: 1 }], s.medioMp);
    fake.setSwitches({ caido: false });
    expect(down.statusCode).toBe(503);
    expect((await get(`${s.base}/ventas/${sale.id}/devoluciones`)).json()).toEqual([]);
    // MP refunds, but its answer comes too late: nothing recorded here; the retry is answered the same refund.
    fake.setSwitches({ lento_ms: 3_500 });
    const lost = await devolver(sale.id, [{ item_id: item, cantidad: 1 }], s.medioMp);
    fake.setSwitches({ lento_ms: 0 });
    expect(lost.statusCode).toBe(503);
    expect(fake.order(o.mp_orden_id)!.transactions.refunds).toHaveLength(1);
    const retry = await devolver(sale.id, [{ item_id: item, cantidad: 1 }], s.medioMp);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(fake.order(o.mp_orden_id)!.transactions.refunds).toHaveLength(1);
    expect((await orden(s, o.id)).reembolsado).toBe(1500);
  });

  it('voiding a sale paid with cash and MP refunds the whole MP order, once', async () => {
    const o = await ordenPagada(ctx, fake, owner, s, 500);
    const r = await vender(s, [
      { medio_pago_id: s.efectivo, monto: 1000 },
      { medio_pago_id: s.medioMp, monto: 500, mercadopago_orden_id: o.id },
    ]);
    const anular = () =>
      app.inject({
        method: 'POST',
        url: `${s.base}/ventas/${r.json().id}/anular`,
        headers: owner.auth,
        payload: { motivo: 'Error' },
      });
    fake.setSwitches({ caido: true });
    const down = await anular();
    fake.setSwitches({ caido: false });
    expect(down.statusCode).toBe(503);
    expect((await get(`${s.base}/ventas/sales/${r.json().id}`)).json().estado).toBe('completada');
    const v = await anular();
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json().estado).toBe('anulada');
    // The whole order (no body), refunded once (the request while MP was down did nothing).
    expect(refunds(o.mp_orden_id).at(-1)!.body).toBeUndefined();
    expect(fake.order(o.mp_orden_id)!.transactions.refunds).toHaveLength(1);
    expect(await orden(s, o.id)).toMatchObject({
      reembolsado: 500,
      reembolsos: [expect.objectContaining({ origen: 'anulacion', venta_id: r.json().id })],
    });
    expect(fake.order(o.mp_orden_id)!.status).toBe('refunded');
  });
});

describe('the arqueo and the reports', () => {
  it('MP money has its own esperado, never the drawer’s, exact to the cent; reports name it', async () => {
    const shop = await mpShop(ctx, fake, owner, 'Arqueo MP', 1000.1);
    const turno = (
      await app.inject({
        method: 'POST',
        url: `${shop.base}/cajas/${shop.caja}/turnos`,
        headers: owner.auth,
        payload: { fondo_inicial: 5000 },
      })
    ).json();
    const paid = async (monto: number, tipo: 'qr' | 'point' = 'qr') => ordenPagada(ctx, fake, owner, shop, monto, tipo);
    // 1) cash 1000.10 (handed 1100: 99.90 change)
    expect((await vender(shop, [{ medio_pago_id: shop.efectivo, monto: 1100 }])).statusCode).toBe(201);
    // 2) QR 2000.20 for two units
    const o2 = await paid(2000.2);
    const v2 = await vender(shop, [{ medio_pago_id: shop.medioMp, monto: 2000.2, mercadopago_orden_id: o2.id }], {}, 2);
    expect(v2.statusCode, v2.body).toBe(201);
    // 3) split: cash 700.03 and Point 300.07
    const o3 = await paid(300.07, 'point');
    const v3 = await vender(shop, [
      { medio_pago_id: shop.efectivo, monto: 700.03 },
      { medio_pago_id: shop.medioMp, monto: 300.07, mercadopago_orden_id: o3.id },
    ]);
    expect(v3.statusCode, v3.body).toBe(201);
    // 4) one unit of sale 2 back by MP: 1000.10
    const sale2 = (await get(`${shop.base}/ventas/sales/${v2.json().id}`)).json();
    const d = await app.inject({
      method: 'POST',
      url: `${shop.base}/ventas/${sale2.id}/devoluciones`,
      headers: owner.auth,
      payload: { items: [{ item_id: sale2.items[0].id, cantidad: 1 }], medio_pago_id: shop.medioMp },
    });
    expect(d.statusCode, d.body).toBe(201);
    const t = (await get(`${shop.base}/turnos/${turno.id}`)).json();
    const line = (id: string) => t.cuadre.find((c: { medio_pago_id: string }) => c.medio_pago_id === id);
    expect(line(shop.medioMp)).toMatchObject({
      nombre: 'Mercado Pago',
      tipo: 'qr',
      fondo: 0,
      ventas: 2300.27,
      devoluciones: 1000.1,
      esperado: 1300.17,
    });
    expect(line(shop.efectivo)).toMatchObject({ fondo: 5000, ventas: 1700.13, devoluciones: 0, esperado: 6700.13 });
    // Closing: counted exactly, no difference.
    const closed = await app.inject({
      method: 'POST',
      url: `${shop.base}/turnos/${turno.id}/cerrar`,
      headers: owner.auth,
      payload: {
        contado: t.a_contar.map((m: { medio_pago_id: string }) => ({
          medio_pago_id: m.medio_pago_id,
          monto: m.medio_pago_id === shop.medioMp ? 1300.17 : m.medio_pago_id === shop.efectivo ? 6700.13 : 0,
        })),
      },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().diferencia).toBe(0);

    // The sales report and its spreadsheet name the medio.
    // The business's day (Buenos Aires), not UTC's: after 21:00 there they differ.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());
    const rep = (await get(`${shop.base}/ventas/reporte?fecha_desde=${today}&fecha_hasta=${today}`)).json();
    expect(rep.por_medio_pago).toEqual(
      expect.arrayContaining([expect.objectContaining({ nombre: 'Mercado Pago', total: 1300.17 })]),
    );
    const x = await get(`${shop.base}/ventas/reporte?fecha_desde=${today}&fecha_hasta=${today}&formato=xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const medios = (wb.getWorksheet('Métodos de pago')!.getSheetValues().slice(2) as unknown[][]).map((r) => r[1]);
    expect(medios).toContain('Mercado Pago');
    const ventasSheet = wb.getWorksheet('Ventas')!;
    const col = (ventasSheet.getRow(1).values as unknown[]).indexOf('Método de pago');
    const names: unknown[] = [];
    ventasSheet.eachRow((row, n) => n > 1 && names.push(row.getCell(col).value));
    expect(names).toEqual(expect.arrayContaining(['Mercado Pago', 'Efectivo + Mercado Pago']));
  });
});
