import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { leerPdf } from '../../test/pdf.js';

/*
 * Presupuestos (issue 37, decision 0056): priced with the customer's list, numbered per business,
 * states and their refusals, expiry by the business's day, conversion into a sale or a remito
 * (exactly one of two concurrent ones wins), tenancy and permissions.
 */

let clock = new Date('2026-03-10T15:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;
const owner = await registerUser(app, 'Presu');
const biz = await createBusiness(app, owner, 'Ferretería Presupuestos');
const base = `/api/v1/businesses/${biz}`;
const otro = await registerUser(app, 'Otro');
const otherBiz = await createBusiness(app, otro, 'Corralón Ajeno');
const otherBase = `/api/v1/businesses/${otherBiz}`;

type Method = 'GET' | 'POST' | 'PUT';
const req = (method: Method, url: string, payload?: object, u: TestUser = owner) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });
async function created<T = { id: string }>(url: string, body: object, u: TestUser = owner): Promise<T> {
  const res = await req('POST', url, body, u);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as T;
}

const cemento = await created(`${base}/products`, { nombre: 'Cemento 50 kg', precio_venta: 9000, stock_actual: 40 });
const arena = await created(`${base}/products`, { nombre: 'Arena m3', precio_venta: 333.33, stock_actual: 10 });
const flete = await created(`${base}/services`, { nombre: 'Flete', precio: 5000 });
// The builder buys at -10 % (the list of the customer, as the POS would price it).
const mayorista = await created(`${base}/listas-precios`, { nombre: 'Mayorista', tipo: 'porcentaje', porcentaje: -10 });
const constructora = await created(`${base}/clientes`, {
  nombre: 'Constructora',
  apellido: 'Norte',
  lista_precios_id: mayorista.id,
});
const juan = await created(`${base}/clientes`, { nombre: 'Juan', apellido: 'Pérez' });
const ajeno = await created(`${otherBase}/clientes`, { nombre: 'Cliente', apellido: 'Ajeno' }, otro);
const ajenoProducto = await created(
  `${otherBase}/products`,
  { nombre: 'Ajeno', precio_venta: 1, stock_actual: 1 },
  otro,
);

const stock = async (id: string) => (await req('GET', `${base}/products/${id}`)).json().stock_actual as number;

const quote = (body: object = {}) =>
  req('POST', `${base}/presupuestos`, {
    cliente_id: constructora.id,
    items: [
      { id: cemento.id, cantidad: 10 },
      { id: arena.id, cantidad: 3 },
      { id: flete.id, tipo: 'servicio', cantidad: 1 },
    ],
    descuento: 100,
    validez_dias: 10,
    notas: 'Entrega en obra',
    ...body,
  });

describe('presupuestos: create, read, list', () => {
  it('prices with the customer list, totals exact, numbered per business', async () => {
    const res = await quote();
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    // Cemento 9000 −10 % = 8100 × 10 = 81000; arena 333.33 −10 % = 300.00 × 3 = 900; flete 5000 (a
    // service keeps its price). 86900 − 100 = 86800.
    expect(p).toMatchObject({
      numero: 1,
      estado: 'borrador',
      fecha: '2026-03-10',
      vence: '2026-03-20',
      validez_dias: 10,
      cliente_nombre: 'Constructora Norte',
      subtotal: 86900,
      descuento: 100,
      total: 86800,
      notas: 'Entrega en obra',
      venta_id: null,
      remito_id: null,
    });
    expect(
      p.items.map((i: { nombre: string; precio_unitario: number; subtotal: number }) => [
        i.nombre,
        i.precio_unitario,
        i.subtotal,
      ]),
    ).toEqual([
      ['Cemento 50 kg', 8100, 81000],
      ['Arena m3', 300, 900],
      ['Flete', 5000, 5000],
    ]);
    // A quote moves no stock.
    expect(await stock(cemento.id)).toBe(40);
    const second = (await quote({ cliente_id: juan.id })).json();
    expect(second.numero).toBe(2);
    expect(second.total).toBe(95899.99);
    expect((await req('GET', `${base}/presupuestos/${p.id}`)).json()).toEqual(p);
    const list = (await req('GET', `${base}/presupuestos?cliente_id=${juan.id}`)).json();
    expect(list.total).toBe(1);
    expect(list.presupuestos[0]).toMatchObject({ numero: 2, cliente_nombre: 'Juan Pérez', estado: 'borrador' });
  });

  it('numbers concurrent quotes without gaps or repeats', async () => {
    const before = (await req('GET', `${base}/presupuestos?limit=1`)).json().presupuestos[0].numero as number;
    const all = await Promise.all(Array.from({ length: 6 }, () => quote({ cliente_id: juan.id })));
    const numeros = all.map((r) => r.json().numero as number).sort((a, b) => a - b);
    expect(numeros).toEqual(Array.from({ length: 6 }, (_, i) => before + 1 + i));
  });

  it('refuses bad input and another business ids, and writes nothing', async () => {
    const count = (await req('GET', `${base}/presupuestos`)).json().total;
    const bad = await quote({ items: [], validez_dias: 0 });
    expect(bad.statusCode).toBe(422);
    const fields = bad.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['items', 'validez_dias']));
    expect((await quote({ cliente_id: ajeno.id })).statusCode).toBe(422);
    const foreign = await quote({ items: [{ id: ajenoProducto.id, cantidad: 1 }] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors[0].field).toBe('items.0.id');
    expect((await quote({ descuento: 1_000_000 })).statusCode).toBe(422);
    expect((await req('GET', `${base}/presupuestos`)).json().total).toBe(count);
  });
});

describe('presupuestos: states', () => {
  it('borrador → enviado → aceptado; edits refused once accepted; anulado is final', async () => {
    const p = (await quote()).json();
    const estado = (estado: string) => req('POST', `${base}/presupuestos/${p.id}/estado`, { estado });
    expect((await estado('enviado')).json().estado).toBe('enviado');
    // Editing a sent one re-prices it and takes it back to borrador.
    const edited = await req('PUT', `${base}/presupuestos/${p.id}`, {
      cliente_id: juan.id,
      items: [{ id: cemento.id, cantidad: 2 }],
      validez_dias: 5,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      estado: 'borrador',
      total: 18000,
      cliente_nombre: 'Juan Pérez',
      vence: '2026-03-15',
    });
    expect(edited.json().items).toHaveLength(1);
    expect((await estado('aceptado')).json().estado).toBe('aceptado');
    const put = await req('PUT', `${base}/presupuestos/${p.id}`, {
      cliente_id: juan.id,
      items: [{ id: cemento.id, cantidad: 1 }],
    });
    expect(put.statusCode).toBe(409);
    expect(put.json().detail).toBe('El presupuesto está aceptado: ya no se puede editar.');
    expect((await estado('enviado')).statusCode).toBe(409);
    expect((await estado('anulado')).json().estado).toBe('anulado');
    for (const e of ['enviado', 'aceptado', 'anulado']) expect((await estado(e)).statusCode).toBe(409);
    const conv = await req('POST', `${base}/presupuestos/${p.id}/convertir`, {
      destino: 'venta',
      metodo_pago: 'efectivo',
    });
    expect(conv.statusCode).toBe(409);
    expect((await estado('convertido')).statusCode).toBe(422);
  });

  it('reads as vencido after its day in the business time zone; renewed by editing', async () => {
    const p = (await quote({ validez_dias: 1 })).json();
    expect(p.vence).toBe('2026-03-11');
    // Sessions last 12 hours: a member who logs in on the later days looks at it.
    const at = async (iso: string) => {
      clock = new Date(iso);
      const u = await registerUser(app, `Tarde${iso.slice(11, 13)}`);
      await ctx.sql(
        `INSERT INTO business_members (business_id, user_id, rol, estado, acceso_total, permisos)
         VALUES ($1, $2, 'admin', 'aceptado', true, '{}')`,
        [biz, u.id],
      );
      return u;
    };
    try {
      // 23:30 of the 11th in Buenos Aires is already the 12th in UTC: still valid.
      const u1 = await at('2026-03-12T02:30:00Z');
      expect((await req('GET', `${base}/presupuestos/${p.id}`, undefined, u1)).json().estado).toBe('borrador');
      const u = await at('2026-03-12T03:30:00Z');
      expect((await req('GET', `${base}/presupuestos/${p.id}`, undefined, u)).json().estado).toBe('vencido');
      const vencidos = (await req('GET', `${base}/presupuestos?estado=vencido`, undefined, u)).json().presupuestos;
      expect(vencidos.map((x: { id: string }) => x.id)).toContain(p.id);
      const aceptar = await req('POST', `${base}/presupuestos/${p.id}/estado`, { estado: 'aceptado' }, u);
      expect(aceptar.statusCode).toBe(409);
      // At its quoted prices: refused; at today's it may still be sold.
      const keep = await req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'remito' }, u);
      expect(keep.statusCode).toBe(409);
      expect(keep.json().detail).toMatch(/venció/);
      const renewed = await req(
        'PUT',
        `${base}/presupuestos/${p.id}`,
        { cliente_id: constructora.id, items: [{ id: arena.id, cantidad: 1 }], validez_dias: 7 },
        u,
      );
      expect(renewed.json()).toMatchObject({ estado: 'borrador', fecha: '2026-03-12', vence: '2026-03-19' });
    } finally {
      clock = new Date('2026-03-10T15:00:00Z');
    }
  });
});

describe('presupuestos: convertir', () => {
  it('into a sale at the quoted prices: stock, money and the sale as the POS records it', async () => {
    const p = (await quote()).json();
    await req('POST', `${base}/presupuestos/${p.id}/estado`, { estado: 'aceptado' });
    // The list changes after the quote: the quoted prices stay.
    await req('PATCH' as Method, `${base}/listas-precios/${mayorista.id}`, { porcentaje: -20 });
    const before = { cemento: await stock(cemento.id), arena: await stock(arena.id) };
    const res = await req('POST', `${base}/presupuestos/${p.id}/convertir`, {
      destino: 'venta',
      precios: 'presupuesto',
      metodo_pago: 'efectivo',
    });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r.venta.total).toBe(86800);
    expect(r.presupuesto).toMatchObject({ estado: 'convertido', venta_id: r.venta.id, venta_numero: r.venta.numero });
    const sale = (await req('GET', `${base}/ventas/sales/${r.venta.id}`)).json();
    expect(sale).toMatchObject({
      total: 86800,
      descuento: 100,
      cliente_id: constructora.id,
      observaciones: `Presupuesto #${p.numero}`,
    });
    expect(sale.items.map((i: { precio_unitario: number }) => i.precio_unitario)).toEqual([8100, 300, 5000]);
    expect(await stock(cemento.id)).toBe(before.cemento - 10);
    expect(await stock(arena.id)).toBe(before.arena - 3);
    // Converted is final.
    const again = await req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'remito' });
    expect(again.statusCode).toBe(409);
    const put = await req('PUT', `${base}/presupuestos/${p.id}`, {
      cliente_id: juan.id,
      items: [{ id: cemento.id, cantidad: 1 }],
    });
    expect(put.statusCode).toBe(409);
    await req('PATCH' as Method, `${base}/listas-precios/${mayorista.id}`, { porcentaje: -10 });
  });

  it("at today's prices re-prices from the customer's list", async () => {
    const p = (await quote({ items: [{ id: cemento.id, cantidad: 1 }], descuento: 0 })).json();
    await req('PUT', `${base}/products/${cemento.id}`, { precio_venta: 10000 });
    try {
      const r = (
        await req('POST', `${base}/presupuestos/${p.id}/convertir`, {
          destino: 'venta',
          precios: 'actuales',
          metodo_pago: 'transferencia',
        })
      ).json();
      expect(r.venta.total).toBe(9000);
    } finally {
      await req('PUT', `${base}/products/${cemento.id}`, { precio_venta: 9000 });
    }
  });

  it('two conversions at once: exactly one wins, the other gets 409; one sale, stock taken once', async () => {
    const p = (await quote({ items: [{ id: cemento.id, cantidad: 2 }], descuento: 0 })).json();
    const before = await stock(cemento.id);
    const sales = async () =>
      (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [biz]))[0].n;
    const salesBefore = await sales();
    const results = await Promise.all([
      req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'venta', metodo_pago: 'efectivo' }),
      req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'venta', metodo_pago: 'efectivo' }),
      req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'remito' }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409]);
    expect(await stock(cemento.id)).toBe(before - 2);
    const remitos = await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM remitos WHERE presupuesto_id = $1', [
      p.id,
    ]);
    expect((await sales()) - salesBefore + remitos[0].n).toBe(1);
  });

  it('into a remito: stock leaves, the presupuesto names it', async () => {
    const p = (await quote({ items: [{ id: arena.id, cantidad: 2 }] })).json();
    const before = await stock(arena.id);
    const res = await req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'remito' });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r.venta).toBeNull();
    expect(r.remito.total).toBe(500);
    expect(r.presupuesto).toMatchObject({
      estado: 'convertido',
      remito_id: r.remito.id,
      remito_numero: r.remito.numero,
    });
    expect(await stock(arena.id)).toBe(before - 2);
    const remito = (await req('GET', `${base}/remitos/${r.remito.id}`)).json();
    expect(remito).toMatchObject({
      estado: 'pendiente',
      presupuesto_id: p.id,
      presupuesto_numero: p.numero,
      descuento: 100,
    });
  });

  it('a sale short of stock is refused with 409 and leaves the presupuesto as it was', async () => {
    const p = (await quote({ items: [{ id: arena.id, cantidad: 500 }], descuento: 0 })).json();
    const res = await req('POST', `${base}/presupuestos/${p.id}/convertir`, {
      destino: 'venta',
      metodo_pago: 'efectivo',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('INSUFFICIENT_STOCK');
    expect((await req('GET', `${base}/presupuestos/${p.id}`)).json().estado).toBe('borrador');
    const remito = await req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'remito' });
    expect(remito.statusCode).toBe(409);
  });

  it('into a sale paid in parts, one a cheque with its data: the cheque goes to the cartera; bad pagos are 422 and save nothing', async () => {
    const medios = (await req('GET', `${base}/medios-pago`)).json() as { id: string; tipo: string }[];
    const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
    // 2 × 8100 (the customer's list) = 16200.
    const p = (await quote({ items: [{ id: cemento.id, cantidad: 2 }], descuento: 0 })).json();
    expect(p.total).toBe(16200);
    await req('POST', `${base}/presupuestos/${p.id}/estado`, { estado: 'aceptado' });
    const cheque = {
      banco: 'Banco Provincia',
      numero: '880011',
      fecha_emision: '2026-03-10',
      fecha_pago: '2026-04-24',
      librador_nombre: 'Constructora Norte SA',
      librador_cuit: '30-71234567-1',
      electronico: true,
    };
    const convertir = (pagos: object[]) =>
      req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'venta', pagos });
    const count = async (table: string) =>
      (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [biz]))[0].n;
    const before = { stock: await stock(cemento.id), sales: await count('sales'), cheques: await count('cheques') };

    const sinDatos = await convertir([
      { medio_pago_id: medio('efectivo'), monto: 6200 },
      { medio_pago_id: medio('cheque'), monto: 10000 },
    ]);
    expect(sinDatos.statusCode).toBe(422);
    expect(sinDatos.json().errors[0]).toMatchObject({
      field: 'pagos.1.cheque',
      message: 'Completá los datos del cheque (banco, número, fecha de pago, librador y CUIT).',
    });
    const cuitMalo = await convertir([
      { medio_pago_id: medio('efectivo'), monto: 6200 },
      { medio_pago_id: medio('cheque'), monto: 10000, cheque: { ...cheque, librador_cuit: '30-71234567-2' } },
    ]);
    expect(cuitMalo.statusCode).toBe(422);
    expect(cuitMalo.json().errors[0].message).toBe('CUIT no válido: revisá el dígito verificador.');
    const corto = await convertir([
      { medio_pago_id: medio('efectivo'), monto: 1000 },
      { medio_pago_id: medio('cheque'), monto: 10000, cheque },
    ]);
    expect(corto.statusCode).toBe(422);
    expect(corto.json().errors[0].field).toBe('pagos');
    // Nothing of the refused conversions stayed.
    expect((await req('GET', `${base}/presupuestos/${p.id}`)).json().estado).toBe('aceptado');
    expect({ stock: await stock(cemento.id), sales: await count('sales'), cheques: await count('cheques') }).toEqual(
      before,
    );

    const res = await convertir([
      { medio_pago_id: medio('efectivo'), monto: 6200 },
      { medio_pago_id: medio('cheque'), monto: 10000, cheque },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const venta = res.json().venta;
    expect(venta.total).toBe(16200);
    const list = (await req('GET', `${base}/cheques?venta_id=${venta.id}`)).json();
    expect(list.cheques).toHaveLength(1);
    expect(list.cheques[0]).toMatchObject({
      estado: 'en_cartera',
      monto: 10000,
      numero: '880011',
      electronico: true,
      cliente: { id: constructora.id },
      venta: { id: venta.id, numero: venta.numero },
    });
    // Only the cash is income today: the cheque is when it is credited or endorsed.
    const income = await ctx.sql<{ metodo_pago: string; monto: string }>(
      'SELECT metodo_pago, monto::text FROM finance_movements WHERE business_id = $1 AND venta_id = $2',
      [biz, venta.id],
    );
    expect(income).toEqual([{ metodo_pago: 'efectivo', monto: '6200.00' }]);
    expect(await stock(cemento.id)).toBe(before.stock - 2);
  });

  it('needs a payment for a sale (422)', async () => {
    const p = (await quote()).json();
    const res = await req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'venta' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].field).toBe('metodo_pago');
  });
});

describe('presupuestos: printed and shared', () => {
  it('an A4 PDF with its lines and total; a WhatsApp link to the same PDF', async () => {
    const p = (await quote()).json();
    const res = await req('GET', `${base}/documentos/pdf?tipo=presupuesto&id=${p.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const pdf = await leerPdf(res.rawPayload);
    expect(pdf.titulo).toBe(`Presupuesto #${p.numero}`);
    const texto = pdf.textos.join('\n');
    expect(texto).toContain(`PRESUPUESTO #${p.numero}`);
    expect(texto).toContain('Cliente: Constructora Norte');
    expect(texto).toMatch(/10 x \$ 8\.100,00 +\$ 81\.000,00/);
    expect(texto).toMatch(/TOTAL +\$ 86\.800,00/);
    expect(texto).toContain('Válido hasta');
    const shared = await req('POST', `${base}/documentos/compartir`, { tipo: 'presupuesto', id: p.id });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().whatsapp_url).toContain(encodeURIComponent('Constructora'));
    const open = await app.inject({ method: 'GET', url: new URL(shared.json().url).pathname });
    expect((await leerPdf(open.rawPayload)).titulo).toBe(`Presupuesto #${p.numero}`);
    expect(
      (await req('POST', `${otherBase}/documentos/compartir`, { tipo: 'presupuesto', id: p.id }, otro)).statusCode,
    ).toBe(404);
  });
});

describe('presupuestos: tenancy and permissions', () => {
  it("another business's presupuesto is not found, for every route", async () => {
    const p = (await quote()).json();
    const foreign = `${otherBase}/presupuestos/${p.id}`;
    expect((await req('GET', foreign, undefined, otro)).statusCode).toBe(404);
    expect(
      (await req('PUT', foreign, { cliente_id: ajeno.id, items: [{ id: ajenoProducto.id, cantidad: 1 }] }, otro))
        .statusCode,
    ).toBe(404);
    expect((await req('POST', `${foreign}/estado`, { estado: 'anulado' }, otro)).statusCode).toBe(404);
    expect((await req('POST', `${foreign}/convertir`, { destino: 'remito' }, otro)).statusCode).toBe(404);
    expect((await req('GET', `${otherBase}/presupuestos`, undefined, otro)).json().total).toBe(0);
    // A member of the other business asking this business's routes is not a member here.
    expect((await req('GET', `${base}/presupuestos/${p.id}`, undefined, otro)).statusCode).toBe(403);
    expect((await req('GET', `${base}/presupuestos/not-a-uuid`)).statusCode).toBe(404);
  });

  it('ver, editar, eliminar of presupuestos; converting into a sale also needs ventas', async () => {
    const vendedor = await registerUser(app, 'Vendedor');
    await addMember(ctx, biz, owner, vendedor, [
      'puede_ver_presupuestos',
      'puede_editar_presupuestos',
      'puede_ver_clientes',
    ]);
    const lector = await registerUser(app, 'Lector');
    await addMember(ctx, biz, owner, lector, ['puede_ver_presupuestos']);
    const p = (await quote()).json();
    expect((await req('GET', `${base}/presupuestos/${p.id}`, undefined, lector)).statusCode).toBe(200);
    expect(
      (
        await req(
          'POST',
          `${base}/presupuestos`,
          { cliente_id: juan.id, items: [{ id: cemento.id, cantidad: 1 }] },
          lector,
        )
      ).statusCode,
    ).toBe(403);
    expect((await req('POST', `${base}/presupuestos/${p.id}/estado`, { estado: 'enviado' }, lector)).statusCode).toBe(
      403,
    );
    expect((await req('POST', `${base}/presupuestos/${p.id}/estado`, { estado: 'enviado' }, vendedor)).statusCode).toBe(
      200,
    );
    expect((await req('POST', `${base}/presupuestos/${p.id}/estado`, { estado: 'anulado' }, vendedor)).statusCode).toBe(
      403,
    );
    const conv = await req(
      'POST',
      `${base}/presupuestos/${p.id}/convertir`,
      { destino: 'venta', metodo_pago: 'efectivo' },
      vendedor,
    );
    expect(conv.statusCode).toBe(403);
    expect(
      (await req('POST', `${base}/presupuestos/${p.id}/convertir`, { destino: 'remito' }, vendedor)).statusCode,
    ).toBe(403);
    // Without cambiar_precios a member quotes at list prices.
    const changed = await req(
      'POST',
      `${base}/presupuestos`,
      { cliente_id: juan.id, items: [{ id: cemento.id, cantidad: 1, precio: 1 }] },
      vendedor,
    );
    expect(changed.statusCode).toBe(403);
    expect(changed.json().code).toBe('PRICE_CHANGE_FORBIDDEN');
    expect((await req('GET', `${base}/presupuestos/${p.id}`)).json().estado).toBe('enviado');
  });
});
