import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { addMember, registerUser } from '../../test/fixtures.js';
import { crearOrden, mpShop, mpTestApp, ordenPagada } from '../../test/mercadopago.js';
import { readXlsx } from '../../test/xlsx.js';

/*
 * The conciliación (decision 0052): MP's payments of the period against the sales recorded with
 * the MP medio, per day, exact to the cent: matched, paid without a sale, a sale without MP's
 * money, amounts that differ; MP's fee and net as the fake reports them (3.25 %).
 */
const { ctx, fake, owner } = await mpTestApp();
const { app } = ctx;
const s = await mpShop(ctx, fake, owner, 'Almacén Conciliado', 1234.57);
const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());

const vender = (pagos: object[], extra: object = {}, cantidad = 1) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/ventas/record-sale',
    headers: owner.auth,
    payload: { negocio_id: s.id, items: [{ id: s.producto, tipo: 'producto', cantidad }], pagos, ...extra },
  });
const get = (url: string, u = owner) => app.inject({ method: 'GET', url, headers: u.auth });
const conciliacion = (q = `desde=${hoy}&hasta=${hoy}`, u = owner) => get(`${s.base}/mercadopago/conciliacion?${q}`, u);

// 1) Matched: a QR sale of 1234.57 (fee 40.12, net 1194.45).
const o1 = await ordenPagada(ctx, fake, owner, s, 1234.57);
const v1 = (await vender([{ medio_pago_id: s.medioMp, monto: 1234.57, mercadopago_orden_id: o1.id }])).json();
// 2) Paid, never sold: an approved order the cashier abandoned (200.00), and money to the account's printed QR (50.00).
const o2 = await ordenPagada(ctx, fake, owner, s, 200);
fake.pagoSuelto(s.token, 5000);
// 3) A sale with the MP medio but no MP money: taken offline (1234.57).
const v3 = (
  await vender([{ medio_pago_id: s.medioMp, monto: 1234.57 }], {
    offline: { dispositivo: 'caja-1', creada_en: new Date().toISOString() },
  })
).json();
// 4) Amounts differ: MP gave back 100.00 from its own panel; the sale still says 1234.57.
const o4 = await ordenPagada(ctx, fake, owner, s, 1234.57);
const v4 = (await vender([{ medio_pago_id: s.medioMp, monto: 1234.57, mercadopago_orden_id: o4.id }])).json();
const pay4 = fake.order(o4.mp_orden_id)!.transactions.payments[0].id as string;
const panel = await fetch(`${fake.url}/v1/orders/${o4.mp_orden_id}/refund`, {
  method: 'POST',
  headers: { authorization: `Bearer ${s.token}`, 'x-idempotency-key': 'panel-1', 'content-type': 'application/json' },
  body: JSON.stringify({ transactions: [{ id: pay4, amount: '100.00' }] }),
});
if (panel.status !== 201) throw new Error(`refund ${panel.status}`);
// 5) Two units by QR (2469.14), one returned through MP: both sides 1234.57.
const o5 = await ordenPagada(ctx, fake, owner, s, 2469.14);
const v5 = (await vender([{ medio_pago_id: s.medioMp, monto: 2469.14, mercadopago_orden_id: o5.id }], {}, 2)).json();
const item5 = (await get(`${s.base}/ventas/sales/${v5.id}`)).json().items[0].id;
const d5 = await app.inject({
  method: 'POST',
  url: `${s.base}/ventas/${v5.id}/devoluciones`,
  headers: owner.auth,
  payload: { items: [{ item_id: item5, cantidad: 1 }], medio_pago_id: s.medioMp },
});
if (d5.statusCode !== 201) throw new Error(`devolución ${d5.body}`);
// 6) Voided (refunded in full through MP): on neither side.
const o6 = await ordenPagada(ctx, fake, owner, s, 1234.57);
const v6 = (await vender([{ medio_pago_id: s.medioMp, monto: 1234.57, mercadopago_orden_id: o6.id }])).json();
await app.inject({ method: 'POST', url: `${s.base}/ventas/${v6.id}/anular`, headers: owner.auth, payload: {} });
// A pending order collected nothing yet.
await crearOrden(ctx, owner, s, { monto: 999 });

describe('the conciliación', () => {
  it('lists the day’s MP payments against its sales, exact to the cent', async () => {
    const r = await conciliacion();
    expect(r.statusCode, r.body).toBe(200);
    const c = r.json();
    expect(c.dias).toHaveLength(1);
    const dia = c.dias[0];
    expect(dia.fecha).toBe(hoy);
    const by = (tipo: string) => dia.lineas.filter((l: { tipo: string }) => l.tipo === tipo);
    expect(by('conciliado')).toEqual([
      expect.objectContaining({
        venta_id: v1.id,
        orden_id: o1.id,
        monto_mp: 1234.57,
        monto_venta: 1234.57,
        comision: 40.12,
        neto: 1194.45,
        diferencia: 0,
      }),
      expect.objectContaining({
        venta_id: v5.id,
        orden_id: o5.id,
        monto_mp: 1234.57,
        monto_venta: 1234.57,
        diferencia: 0,
      }),
    ]);
    expect(by('pagado_sin_venta')).toEqual([
      expect.objectContaining({
        venta_id: null,
        orden_id: o2.id,
        monto_mp: 200,
        monto_venta: null,
        comision: 6.5,
        neto: 193.5,
        diferencia: 200,
      }),
      expect.objectContaining({ venta_id: null, orden_id: null, monto_mp: 50, monto_venta: null, diferencia: 50 }),
    ]);
    expect(by('venta_sin_pago')).toEqual([
      expect.objectContaining({
        venta_id: v3.id,
        venta_numero: v3.numero,
        mp_pago_id: null,
        monto_mp: null,
        monto_venta: 1234.57,
        diferencia: -1234.57,
      }),
    ]);
    expect(by('monto_distinto')).toEqual([
      expect.objectContaining({
        venta_id: v4.id,
        orden_id: o4.id,
        monto_mp: 1134.57,
        monto_venta: 1234.57,
        diferencia: -100,
      }),
    ]);
    expect(dia.lineas.some((l: { venta_id: string | null }) => l.venta_id === v6.id)).toBe(false);
    // Totals: MP 1234.57 + 1234.57 + 200 + 50 + 1134.57; sales 1234.57 × 4.
    expect(c.totales).toEqual({
      cobrado: 3853.71,
      vendido: 4938.28,
      comision: expect.any(Number),
      neto: expect.any(Number),
      diferencia: -1084.57,
      conciliados: 2,
      pagado_sin_venta: 2,
      venta_sin_pago: 1,
      monto_distinto: 1,
    });
    expect(dia).toMatchObject({ cobrado: 3853.71, vendido: 4938.28, diferencia: -1084.57 });
    const lineas = dia.lineas as { comision: number | null; neto: number | null }[];
    const cents = (f: (l: (typeof lineas)[number]) => number | null) =>
      lineas.reduce((t, l) => t + Math.round((f(l) ?? 0) * 100), 0) / 100;
    expect(c.totales.comision).toBe(cents((l) => l.comision));
    expect(c.totales.neto).toBe(cents((l) => l.neto));
  });

  it('a day without MP movement lists nothing; bad ranges are 422', async () => {
    const r = await conciliacion('desde=2020-01-01&hasta=2020-01-02');
    expect(r.json()).toMatchObject({ dias: [], totales: { cobrado: 0, vendido: 0, conciliados: 0 } });
    expect((await conciliacion(`desde=${hoy}&hasta=2020-01-01`)).statusCode).toBe(422);
    const largo = await conciliacion('desde=2026-01-01&hasta=2026-03-01');
    expect(largo.statusCode).toBe(422);
    expect(largo.json().detail).toBe('Elegí un período de hasta 31 días.');
    expect((await conciliacion('desde=ayer&hasta=hoy')).statusCode).toBe(422);
  });

  it('MP down: 503', async () => {
    fake.setSwitches({ caido: true });
    const r = await conciliacion();
    fake.setSwitches({ caido: false });
    expect(r.statusCode).toBe(503);
  });

  it('exports the same lines as a spreadsheet, with a totals row', async () => {
    const r = await get(`${s.base}/mercadopago/conciliacion/exportar?desde=${hoy}&hasta=${hoy}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toContain(`conciliacion-mercadopago-${hoy}-a-${hoy}.xlsx`);
    const rows = await readXlsx(r.rawPayload);
    expect(rows[0]).toEqual([
      'Día',
      'Fecha y hora',
      'Situación',
      'Venta',
      'Pago de Mercado Pago',
      'Cobrado por Mercado Pago',
      'Registrado en la venta',
      'Comisión',
      'Neto',
      'Diferencia',
    ]);
    const body = rows.slice(1);
    expect(body).toHaveLength(7);
    expect(
      body
        .map((x) => x[2])
        .slice(0, 6)
        .sort(),
    ).toEqual(
      [
        'Cobrado sin venta',
        'Cobrado sin venta',
        'Conciliado',
        'Conciliado',
        'Montos distintos',
        'Venta sin cobro',
      ].sort(),
    );
    expect(body[6].slice(0, 1)).toEqual(['Totales']);
    expect(body[6].slice(5, 7)).toEqual([3853.71, 4938.28]);
    expect(body[6][9]).toBe(-1084.57);
  });

  it('the workbook, opened with ExcelJS, has one row per MP payment and sale with the orders’ amounts', async () => {
    const r = await get(`${s.base}/mercadopago/conciliacion/exportar?desde=${hoy}&hasta=${hoy}`);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Conciliación')!;
    expect(ws).toBeDefined();
    expect(ws.rowCount).toBe(8);
    // MP's payment id of each approved order, as the fake holds it.
    const pagoDe = (o: { mp_orden_id: string }) =>
      String((fake.order(o.mp_orden_id)!.transactions.payments[0].reference as { id: string }).id);
    const filas = [2, 3, 4, 5, 6, 7].map((n) => {
      const row = ws.getRow(n);
      const v = (c: number) => row.getCell(c).value;
      return {
        dia: v(1),
        situacion: v(3),
        venta: v(4),
        pago: v(5),
        mp: v(6),
        venta_monto: v(7),
        comision: v(8),
        neto: v(9),
        diferencia: v(10),
      };
    });
    const dia = new Date(`${hoy}T00:00:00Z`);
    for (const f of filas) expect(f.dia).toEqual(dia);
    const sale = (v: { numero: number }) => filas.find((f) => f.venta === v.numero);
    // 1) Matched to o1: MP's 1234.57 against the sale's, its 3.25 % fee and net.
    expect(sale(v1)).toEqual(
      expect.objectContaining({
        situacion: 'Conciliado',
        pago: pagoDe(o1),
        mp: o1.monto,
        venta_monto: 1234.57,
        comision: 40.12,
        neto: 1194.45,
        diferencia: 0,
      }),
    );
    // 2) o2, approved and never sold; and the loose 50.00.
    expect(filas.find((f) => f.pago === pagoDe(o2))).toEqual(
      expect.objectContaining({
        situacion: 'Cobrado sin venta',
        venta: null,
        mp: o2.monto,
        venta_monto: null,
        comision: 6.5,
        neto: 193.5,
        diferencia: 200,
      }),
    );
    expect(filas.filter((f) => f.situacion === 'Cobrado sin venta' && f.pago !== pagoDe(o2))).toEqual([
      expect.objectContaining({ venta: null, mp: 50, venta_monto: null, comision: 1.63, neto: 48.37, diferencia: 50 }),
    ]);
    // 3) The offline sale: no MP payment at all.
    expect(sale(v3)).toEqual(
      expect.objectContaining({
        situacion: 'Venta sin cobro',
        pago: null,
        mp: null,
        venta_monto: 1234.57,
        diferencia: -1234.57,
      }),
    );
    // 4) o4 less the 100.00 MP gave back from its panel.
    expect(sale(v4)).toEqual(
      expect.objectContaining({
        situacion: 'Montos distintos',
        pago: pagoDe(o4),
        mp: o4.monto - 100,
        venta_monto: 1234.57,
        diferencia: -100,
      }),
    );
    // 5) o5's 2469.14 less the unit returned through MP, on both sides.
    expect(sale(v5)).toEqual(
      expect.objectContaining({
        situacion: 'Conciliado',
        pago: pagoDe(o5),
        mp: 1234.57,
        venta_monto: 1234.57,
        diferencia: 0,
      }),
    );
    // 6) The voided sale and o6 are on neither side.
    expect(sale(v6)).toBeUndefined();
    expect(filas.some((f) => f.pago === pagoDe(o6))).toBe(false);
    // The totals row is the sum of the rows above it, to the cent; money cells carry the money format.
    const totales = ws.getRow(8);
    const suma = (c: keyof (typeof filas)[number]) =>
      filas.reduce((t, f) => t + Math.round(Number(f[c] ?? 0) * 100), 0) / 100;
    expect(totales.getCell(1).value).toBe('Totales');
    expect(totales.getCell(6).value).toBe(suma('mp'));
    expect(totales.getCell(7).value).toBe(suma('venta_monto'));
    expect(totales.getCell(8).value).toBe(suma('comision'));
    expect(totales.getCell(9).value).toBe(suma('neto'));
    expect(totales.getCell(10).value).toBe(suma('diferencia'));
    for (const c of [6, 7, 8, 9, 10]) expect(ws.getRow(2).getCell(c).numFmt).toBe('#,##0.00');
  });

  it('the export is finance’s too: a cashier and someone of another business get nothing', async () => {
    const cajero = await registerUser(app, 'Cajerx');
    await addMember(ctx, s.id, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas']);
    const url = `${s.base}/mercadopago/conciliacion/exportar?desde=${hoy}&hasta=${hoy}`;
    expect((await get(url, cajero)).statusCode).toBe(403);
    expect((await get(`${s.base}/mercadopago/conciliacion/exportar?desde=${hoy}&hasta=2020-01-01`)).statusCode).toBe(
      422,
    );
    const otro = await registerUser(app, 'Ajena');
    const ajeno = await app.inject({
      method: 'GET',
      url: `${s.base}/mercadopago/conciliacion/exportar?desde=${hoy}&hasta=${hoy}`,
      headers: otro.auth,
    });
    expect([403, 404]).toContain(ajeno.statusCode);
  });

  it('is finance’s: whoever sells but cannot see finance gets 403', async () => {
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, s.id, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas']);
    expect((await conciliacion(undefined, cajero)).statusCode).toBe(403);
    const contadora = await registerUser(app, 'Contadora');
    await addMember(ctx, s.id, owner, contadora, ['puede_ver_finanzas']);
    expect((await conciliacion(undefined, contadora)).statusCode).toBe(200);
  });
});
