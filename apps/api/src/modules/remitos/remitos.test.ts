import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { leerPdf } from '../../test/pdf.js';

/*
 * Remitos (issue 37, decision 0056): stock out on delivery (refused when short, as a sale), one
 * sale for several remitos of a customer that moves no stock again, never invoiced twice (also
 * concurrently), void with the stock back by new movements, tenancy and permissions.
 */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Remi');
const biz = await createBusiness(app, owner, 'Distribuidora Remitos');
const base = `/api/v1/businesses/${biz}`;
const otro = await registerUser(app, 'Ajeno');
const otherBiz = await createBusiness(app, otro, 'Otra Distribuidora');
const otherBase = `/api/v1/businesses/${otherBiz}`;

type Method = 'GET' | 'POST';
const req = (method: Method, url: string, payload?: object, u: TestUser = owner) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });
async function created<T = { id: string }>(url: string, body: object, u: TestUser = owner): Promise<T> {
  const res = await req('POST', url, body, u);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as T;
}

const ladrillo = await created(`${base}/products`, { nombre: 'Ladrillo', precio_venta: 150.55, stock_actual: 1000 });
const cal = await created(`${base}/products`, { nombre: 'Cal 25 kg', precio_venta: 4200, stock_actual: 20 });
const obra = await created(`${base}/clientes`, { nombre: 'Obra', apellido: 'Centro' });
const vecino = await created(`${base}/clientes`, { nombre: 'Vecino', apellido: 'Sur' });
const ajeno = await created(`${otherBase}/clientes`, { nombre: 'Cliente', apellido: 'Ajeno' }, otro);
const ajenoProducto = await created(
  `${otherBase}/products`,
  { nombre: 'Otro', precio_venta: 10, stock_actual: 5 },
  otro,
);
const ajenoRemito = await created<{ id: string }>(
  `${otherBase}/remitos`,
  { cliente_id: ajeno.id, items: [{ id: ajenoProducto.id, cantidad: 1 }] },
  otro,
);

const stock = async (id: string) => (await req('GET', `${base}/products/${id}`)).json().stock_actual as number;
const movimientos = async (id: string) =>
  (await req('GET', `${base}/products/${id}/movimientos-stock`)).json() as {
    origen: string;
    cantidad: number;
    referencia_id: string;
  }[];
const remito = (body: object, u: TestUser = owner) => req('POST', `${base}/remitos`, body, u);
const facturar = (body: object, u: TestUser = owner) =>
  req('POST', `${base}/remitos/facturar`, { metodo_pago: 'efectivo', ...body }, u);

describe('remitos: delivery', () => {
  it('takes the stock out when written, numbered, with its stock movements', async () => {
    const res = await remito({
      cliente_id: obra.id,
      items: [
        { id: ladrillo.id, cantidad: 300 },
        { id: cal.id, cantidad: 2.5 },
      ],
      notas: 'Descargar en vereda',
    });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    // 300 × 150.55 = 45165; 2.5 × 4200 = 10500.
    expect(r).toMatchObject({
      numero: 1,
      estado: 'pendiente',
      cliente_nombre: 'Obra Centro',
      total: 55665,
      venta_id: null,
      notas: 'Descargar en vereda',
    });
    expect(await stock(ladrillo.id)).toBe(700);
    expect(await stock(cal.id)).toBe(17.5);
    const m = (await movimientos(cal.id)).find((x) => x.referencia_id === r.id)!;
    expect(m).toMatchObject({ origen: 'remito', cantidad: -2.5 });
    expect((await req('GET', `${base}/remitos/${r.id}`)).json()).toEqual(r);
  });

  it('refuses a delivery short of stock (409) and writes nothing', async () => {
    const before = (await req('GET', `${base}/remitos`)).json().total;
    const res = await remito({ cliente_id: obra.id, items: [{ id: cal.id, cantidad: 100 }] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'INSUFFICIENT_STOCK',
      detail: 'Stock insuficiente para Cal 25 kg. Disponible: 17,5.',
    });
    expect(await stock(cal.id)).toBe(17.5);
    expect((await req('GET', `${base}/remitos`)).json().total).toBe(before);
  });

  it("refuses another business's customer, product or presupuesto (422), and bad input", async () => {
    expect((await remito({ cliente_id: ajeno.id, items: [{ id: cal.id, cantidad: 1 }] })).statusCode).toBe(422);
    const p = await remito({ cliente_id: obra.id, items: [{ id: ajenoProducto.id, cantidad: 1 }] });
    expect(p.statusCode).toBe(422);
    expect(p.json().errors[0].field).toBe('items.0.id');
    const pr = await remito({
      cliente_id: obra.id,
      presupuesto_id: ajenoRemito.id,
      items: [{ id: cal.id, cantidad: 1 }],
    });
    expect(pr.statusCode).toBe(422);
    expect((await remito({ cliente_id: obra.id, items: [] })).statusCode).toBe(422);
    expect(await stock(cal.id)).toBe(17.5);
  });
});

describe('remitos: facturar', () => {
  it('one sale for two remitos of a customer, at their prices, without moving the stock again', async () => {
    const a = (await remito({ cliente_id: vecino.id, items: [{ id: ladrillo.id, cantidad: 100 }] })).json();
    const b = (await remito({ cliente_id: vecino.id, items: [{ id: cal.id, cantidad: 1, descuento: 200 }] })).json();
    const pendientes = (await req('GET', `${base}/remitos?cliente_id=${vecino.id}&estado=pendiente`)).json();
    expect(pendientes.remitos.map((x: { numero: number }) => x.numero)).toEqual([b.numero, a.numero]);
    const stockBefore = { ladrillo: await stock(ladrillo.id), cal: await stock(cal.id) };
    const res = await facturar({ remito_ids: [b.id, a.id] });
    expect(res.statusCode, res.body).toBe(201);
    const f = res.json();
    // 100 × 150.55 = 15055 + 4200 − 200 = 19055.
    expect(f.venta.total).toBe(19055);
    expect(f.remitos.map((x: { estado: string; venta_id: string }) => [x.estado, x.venta_id])).toEqual([
      ['facturado', f.venta.id],
      ['facturado', f.venta.id],
    ]);
    expect(await stock(ladrillo.id)).toBe(stockBefore.ladrillo);
    expect(await stock(cal.id)).toBe(stockBefore.cal);
    const sale = (await req('GET', `${base}/ventas/sales/${f.venta.id}`)).json();
    expect(sale).toMatchObject({
      total: 19055,
      cliente_id: vecino.id,
      observaciones: `Remitos #${a.numero}, #${b.numero}`,
    });
    expect(
      sale.items.map((i: { nombre: string; cantidad: number; descuento: number }) => [
        i.nombre,
        i.cantidad,
        i.descuento,
      ]),
    ).toEqual([
      ['Ladrillo', 100, 0],
      ['Cal 25 kg', 1, 200],
    ]);
    // The sale's day in the income: the money entered once.
    const ingresos = await ctx.sql<{ monto: string }>(
      `SELECT monto::text FROM finance_movements WHERE business_id = $1 AND venta_id = $2`,
      [biz, f.venta.id],
    );
    expect(ingresos.map((x) => x.monto)).toEqual(['19055.00']);
    // Nothing pending is left for that customer; invoiced again: 409.
    expect((await req('GET', `${base}/remitos?cliente_id=${vecino.id}&estado=pendiente`)).json().total).toBe(0);
    const again = await facturar({ remito_ids: [a.id] });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(`El remito #${a.numero} ya está facturado.`);
  });

  it('two invoices of the same remito at once: one wins, the other gets 409; one sale', async () => {
    const a = (await remito({ cliente_id: obra.id, items: [{ id: ladrillo.id, cantidad: 10 }] })).json();
    const count = async () =>
      (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [biz]))[0].n;
    const before = await count();
    const stockBefore = await stock(ladrillo.id);
    const results = await Promise.all([facturar({ remito_ids: [a.id] }), facturar({ remito_ids: [a.id] })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await count()) - before).toBe(1);
    expect(await stock(ladrillo.id)).toBe(stockBefore);
  });

  it("refuses remitos of different customers (422) and another business's (422), writing nothing", async () => {
    const a = (await remito({ cliente_id: obra.id, items: [{ id: ladrillo.id, cantidad: 1 }] })).json();
    const b = (await remito({ cliente_id: vecino.id, items: [{ id: ladrillo.id, cantidad: 1 }] })).json();
    const mixed = await facturar({ remito_ids: [a.id, b.id] });
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().detail).toBe('Los remitos son de clientes distintos: facturá los de un cliente por vez.');
    expect((await facturar({ remito_ids: [a.id, ajenoRemito.id] })).statusCode).toBe(422);
    expect((await facturar({ remito_ids: [a.id, a.id] })).statusCode).toBe(422);
    expect((await facturar({ remito_ids: [] })).statusCode).toBe(422);
    expect((await req('POST', `${base}/remitos/facturar`, { remito_ids: [a.id] })).statusCode).toBe(422);
    expect((await req('GET', `${base}/remitos/${a.id}`)).json().estado).toBe('pendiente');
  });
});

describe('remitos: paid in parts, with a cheque', () => {
  it('the cheque typed in goes to the cartera; bad pagos are 422 and leave the remito pendiente', async () => {
    const medios = (await req('GET', `${base}/medios-pago`)).json() as { id: string; tipo: string }[];
    const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
    // 20 × 150.55 = 3011.
    const r = (await remito({ cliente_id: obra.id, items: [{ id: ladrillo.id, cantidad: 20 }] })).json();
    const cheque = {
      banco: 'Banco Galicia',
      numero: '5500123',
      fecha_pago: '2030-01-15',
      librador_nombre: 'Obra Centro SRL',
      librador_cuit: '30-71234567-1',
    };
    const count = async (table: string) =>
      (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [biz]))[0].n;
    const before = { sales: await count('sales'), cheques: await count('cheques') };
    const pay = (pagos: object[]) => req('POST', `${base}/remitos/facturar`, { remito_ids: [r.id], pagos });
    const sinDatos = await pay([{ medio_pago_id: medio('cheque'), monto: 3011 }]);
    expect(sinDatos.statusCode).toBe(422);
    expect(sinDatos.json().errors[0].field).toBe('pagos.0.cheque');
    const fechas = await pay([
      { medio_pago_id: medio('cheque'), monto: 3011, cheque: { ...cheque, fecha_emision: '2030-02-01' } },
    ]);
    expect(fechas.statusCode).toBe(422);
    expect(fechas.json().errors[0].message).toBe('La fecha de pago no puede ser anterior a la de emisión.');
    const de_mas = await pay([
      { medio_pago_id: medio('transferencia'), monto: 3000 },
      { medio_pago_id: medio('cheque'), monto: 1000, cheque },
    ]);
    expect(de_mas.statusCode).toBe(422);
    expect((await req('GET', `${base}/remitos/${r.id}`)).json().estado).toBe('pendiente');
    expect({ sales: await count('sales'), cheques: await count('cheques') }).toEqual(before);

    const res = await pay([
      { medio_pago_id: medio('transferencia'), monto: 1011 },
      { medio_pago_id: medio('cheque'), monto: 2000, cheque },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const venta = res.json().venta;
    expect(venta.total).toBe(3011);
    const [c] = (await req('GET', `${base}/cheques?venta_id=${venta.id}`)).json().cheques;
    expect(c).toMatchObject({ estado: 'en_cartera', monto: 2000, numero: '5500123', cliente: { id: obra.id } });
    const sale = (await req('GET', `${base}/ventas/sales/${venta.id}`)).json();
    expect(sale.pagos.map((p: { tipo: string; total: number }) => [p.tipo, p.total])).toEqual([
      ['transferencia', 1011],
      ['cheque', 2000],
    ]);
  });
});

describe('remitos: the sale that invoiced them voided', () => {
  const eventos = async (id: string) =>
    ((await req('GET', `${base}/remitos/${id}`)).json().eventos as { estado: string; venta_id: string }[]).map(
      (e) => [e.estado, e.venta_id],
    );

  it('is a normal void; its remitos go back to pendiente (stock stays out) and are invoiced again once', async () => {
    const a = (await remito({ cliente_id: vecino.id, items: [{ id: cal.id, cantidad: 2 }] })).json();
    const b = (await remito({ cliente_id: vecino.id, items: [{ id: ladrillo.id, cantidad: 10 }] })).json();
    const f = (await facturar({ remito_ids: [a.id, b.id] })).json();
    const stockBefore = { cal: await stock(cal.id), ladrillo: await stock(ladrillo.id) };
    const voided = await req('POST', `${base}/ventas/${f.venta.id}/anular`, { motivo: 'Factura con error' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().estado).toBe('anulada');
    // The money is reversed by the void; the goods stay delivered.
    const income = await ctx.sql<{ monto: string; anulado: boolean }>(
      'SELECT monto::text, anulado FROM finance_movements WHERE business_id = $1 AND venta_id = $2',
      [biz, f.venta.id],
    );
    expect(income).toEqual([{ monto: '9905.50', anulado: true }]);
    expect({ cal: await stock(cal.id), ladrillo: await stock(ladrillo.id) }).toEqual(stockBefore);
    for (const r of [a, b]) {
      const now = (await req('GET', `${base}/remitos/${r.id}`)).json();
      expect(now).toMatchObject({ estado: 'pendiente', venta_id: null, venta_numero: null, facturado_en: null });
      expect(now.eventos).toEqual([
        expect.objectContaining({ estado: 'facturado', venta_id: f.venta.id, venta_numero: f.venta.numero }),
        expect.objectContaining({
          estado: 'pendiente',
          venta_id: f.venta.id,
          motivo: `Venta #${f.venta.numero} anulada: Factura con error`,
          usuario: { id: owner.id, nombre: expect.any(String) },
        }),
      ]);
    }
    const pendientes = (await req('GET', `${base}/remitos?cliente_id=${vecino.id}&estado=pendiente`)).json();
    expect(pendientes.remitos.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    // The void is not repeated; invoiced again, once.
    expect((await req('POST', `${base}/ventas/${f.venta.id}/anular`, {})).statusCode).toBe(409);
    const again = await Promise.all([facturar({ remito_ids: [a.id, b.id] }), facturar({ remito_ids: [b.id] })]);
    expect(again.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const won = again.find((r) => r.statusCode === 201)!.json();
    expect(won.remitos.every((x: { estado: string }) => x.estado === 'facturado')).toBe(true);
    expect(await eventos(b.id)).toEqual([
      ['facturado', f.venta.id],
      ['pendiente', f.venta.id],
      ['facturado', won.venta.id],
    ]);
    expect({ cal: await stock(cal.id), ladrillo: await stock(ladrillo.id) }).toEqual(stockBefore);
    // A remito of a voided sale still is not voided by hand once invoiced again.
    expect((await req('POST', `${base}/remitos/${b.id}/anular`, {})).statusCode).toBe(409);
  });

  it('void and a new invoice at once: the remito ends invoiced by a live sale or pendiente, never both', async () => {
    const r = (await remito({ cliente_id: obra.id, items: [{ id: ladrillo.id, cantidad: 4 }] })).json();
    const f = (await facturar({ remito_ids: [r.id] })).json();
    const [voided, ...invoices] = await Promise.all([
      req('POST', `${base}/ventas/${f.venta.id}/anular`, {}),
      facturar({ remito_ids: [r.id] }),
      facturar({ remito_ids: [r.id] }),
    ]);
    expect(voided.statusCode, voided.body).toBe(200);
    const codes = invoices.map((x) => x.statusCode).sort();
    expect([
      [409, 409],
      [201, 409],
    ]).toContainEqual(codes);
    const now = (await req('GET', `${base}/remitos/${r.id}`)).json();
    const won = invoices.find((x) => x.statusCode === 201);
    if (won) expect(now).toMatchObject({ estado: 'facturado', venta_id: won.json().venta.id });
    else expect(now).toMatchObject({ estado: 'pendiente', venta_id: null });
    // Every live sale that names it is the one it says.
    const live = await ctx.sql<{ id: string }>(
      `SELECT s.id FROM sales s JOIN remito_eventos e ON e.business_id = s.business_id AND e.venta_id = s.id
        WHERE s.business_id = $1 AND e.remito_id = $2 AND s.estado <> 'anulada' AND e.estado = 'facturado'`,
      [biz, r.id],
    );
    expect(live.map((x) => x.id)).toEqual(won ? [won.json().venta.id] : []);
  });
});

describe('remitos: anular', () => {
  it('gives the stock back by a new movement; a facturado or anulado one is refused', async () => {
    const before = await stock(cal.id);
    const r = (await remito({ cliente_id: obra.id, items: [{ id: cal.id, cantidad: 3 }] })).json();
    expect(await stock(cal.id)).toBe(before - 3);
    const res = await req('POST', `${base}/remitos/${r.id}/anular`, { motivo: 'No lo recibió' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      estado: 'anulado',
      motivo_anulacion: 'No lo recibió',
      anulado_por: { id: owner.id },
    });
    expect(await stock(cal.id)).toBe(before);
    const movs = (await movimientos(cal.id)).filter((m) => m.referencia_id === r.id);
    expect(movs.map((m) => [m.origen, m.cantidad]).sort()).toEqual([
      ['anulacion', 3],
      ['remito', -3],
    ]);
    expect((await req('POST', `${base}/remitos/${r.id}/anular`, {})).statusCode).toBe(409);
    expect((await facturar({ remito_ids: [r.id] })).statusCode).toBe(409);
    const f = (await remito({ cliente_id: obra.id, items: [{ id: cal.id, cantidad: 1 }] })).json();
    await facturar({ remito_ids: [f.id] });
    const refused = await req('POST', `${base}/remitos/${f.id}/anular`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/facturado/);
  });
});

describe('remitos: printed and shared', () => {
  it("prints on A4 with the receiver's signature lines, and shares a link to the same PDF", async () => {
    const r = (await remito({ cliente_id: obra.id, items: [{ id: ladrillo.id, cantidad: 12 }] })).json();
    const res = await req('GET', `${base}/documentos/pdf?tipo=remito&id=${r.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = await leerPdf(res.rawPayload);
    expect(pdf.titulo).toBe(`Remito #${r.numero}`);
    const [pagina] = pdf.paginas;
    expect(pdf.paginas).toHaveLength(1);
    const texto = pagina.textos.join('\n');
    expect(texto).toMatch(new RegExp(`REMITO #${r.numero}`));
    expect(texto).toMatch(/Ladrillo +12/);
    for (const linea of ['Recibí conforme', 'Firma:', 'Aclaración:', 'DNI:', 'Fecha: ____'])
      expect(texto).toContain(linea);
    // An A4 sheet.
    const { PDFDocument } = await import('pdf-lib');
    const [page] = (await PDFDocument.load(res.rawPayload)).getPages();
    expect(page.getSize()).toEqual({ width: 595.28, height: 841.89 });

    const shared = await req('POST', `${base}/documentos/compartir`, { tipo: 'remito', id: r.id });
    expect(shared.statusCode, shared.body).toBe(200);
    const link = new URL(shared.json().url);
    const open = await app.inject({ method: 'GET', url: link.pathname });
    expect(open.statusCode).toBe(200);
    expect((await leerPdf(open.rawPayload)).titulo).toBe(`Remito #${r.numero}`);
    // Another business's remito, and a member who may not see remitos.
    expect((await req('GET', `${base}/documentos/pdf?tipo=remito&id=${ajenoRemito.id}`)).statusCode).toBe(404);
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas']);
    expect((await req('GET', `${base}/documentos/pdf?tipo=remito&id=${r.id}`, undefined, cajero)).statusCode).toBe(403);
    expect((await req('POST', `${base}/documentos/compartir`, { tipo: 'remito', id: r.id }, cajero)).statusCode).toBe(
      403,
    );
  });
});

describe('remitos: tenancy and permissions', () => {
  it("another business's remito is not found", async () => {
    const r = (await remito({ cliente_id: obra.id, items: [{ id: ladrillo.id, cantidad: 1 }] })).json();
    expect((await req('GET', `${otherBase}/remitos/${r.id}`, undefined, otro)).statusCode).toBe(404);
    expect((await req('POST', `${otherBase}/remitos/${r.id}/anular`, {}, otro)).statusCode).toBe(404);
    const theirs = (await req('GET', `${otherBase}/remitos`, undefined, otro)).json();
    expect(theirs.remitos.map((x: { id: string }) => x.id)).toEqual([ajenoRemito.id]);
    expect((await req('GET', `${base}/remitos/${ajenoRemito.id}`)).statusCode).toBe(404);
  });

  it('ver, editar, eliminar of remitos; facturar also needs ventas/editar', async () => {
    const deposito = await registerUser(app, 'Deposito');
    await addMember(ctx, biz, owner, deposito, ['puede_ver_remitos', 'puede_editar_remitos']);
    const lector = await registerUser(app, 'Lector');
    await addMember(ctx, biz, owner, lector, ['puede_ver_remitos']);
    const body = { cliente_id: obra.id, items: [{ id: ladrillo.id, cantidad: 1 }] };
    expect((await remito(body, lector)).statusCode).toBe(403);
    const r = await remito(body, deposito);
    expect(r.statusCode).toBe(201);
    expect((await req('GET', `${base}/remitos/${r.json().id}`, undefined, lector)).statusCode).toBe(200);
    expect((await facturar({ remito_ids: [r.json().id] }, deposito)).statusCode).toBe(403);
    expect((await req('POST', `${base}/remitos/${r.json().id}/anular`, {}, deposito)).statusCode).toBe(403);
    expect((await req('GET', `${base}/remitos`, undefined, await registerUser(app, 'Nadie'))).statusCode).toBe(403);
  });
});
