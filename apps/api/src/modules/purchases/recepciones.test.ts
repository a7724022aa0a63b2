import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;

const api = (path: string, b = biz) => `/api/v1/businesses/${b}${path}`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, u = owner, b = biz) =>
  app.inject({ method, url: api(path, b), headers: u.auth, payload: payload as object });
const recibir = (compraId: string, lineas: unknown, u = owner, b = biz) =>
  call('POST', `/compras/${compraId}/recepciones`, { lineas }, u, b);

interface Item {
  id: string;
  producto_id: string;
  cantidad: number;
  cantidad_recibida: number;
  cantidad_pendiente: number;
  precio_compra_anterior: number | null;
}
interface C {
  id: string;
  estado: string;
  recibida_en: string | null;
  items_pendientes: number;
  items: Item[];
}
interface Sug {
  producto_id: string;
  producto_nombre: string;
  costo_anterior: number;
  costo_nuevo: number;
  precio_actual: number;
  precio_sugerido: number;
  margen: number | null;
  regla: string;
}
interface Rec {
  recepcion: { id: string; numero: number; lineas: { producto_id: string; cantidad: number; costo: number }[] };
  compra: C;
  sugerencias: Sug[];
}

async function product(nombre: string, precio_venta: number, precio_compra: number | null, b = biz, u = owner) {
  const res = await call('POST', '/products', { nombre, precio_venta, precio_compra }, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; nombre: string };
}
const productNow = async (id: string) =>
  (await call('GET', `/products/${id}`)).json() as {
    stock_actual: number;
    precio_compra: number;
    precio_venta: number;
  };

async function compra(items: { producto_id: string; cantidad: number; precio_unitario: number }[], b = biz, u = owner) {
  const res = await call('POST', '/compras', { items }, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as C;
}
const compraNow = async (id: string) => (await call('GET', `/compras/${id}`)).json() as C;
const lineOf = (c: C, productoId: string) => c.items.find((i) => i.producto_id === productoId)!;

async function counts() {
  const [r] = await ctx.sql<Record<string, number>>(`SELECT
    (SELECT count(*)::int FROM purchase_receptions) AS recepciones,
    (SELECT count(*)::int FROM purchase_reception_items) AS lineas,
    (SELECT count(*)::int FROM stock_movements) AS stock,
    (SELECT coalesce(sum(cantidad_recibida), 0)::text FROM purchase_items) AS recibido,
    (SELECT count(*)::int FROM audit_log) AS auditoria,
    (SELECT count(*)::int FROM precios_historial) AS historial`);
  return r;
}

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
});

describe('partial reception', () => {
  it('receives some lines and some quantities, then the rest: stock and cost move only for what arrived', async () => {
    const yerba = await product('Yerba', 1000, 100);
    const queso = await product('Queso', 5000, 150);
    const c = await compra([
      { producto_id: yerba.id, cantidad: 10, precio_unitario: 100 },
      { producto_id: queso.id, cantidad: 5.5, precio_unitario: 200 },
    ]);
    expect(c.items_pendientes).toBe(2);
    expect(lineOf(c, queso.id)).toMatchObject({ cantidad_recibida: 0, cantidad_pendiente: 5.5 });

    const first = await recibir(c.id, [{ linea_id: lineOf(c, yerba.id).id, cantidad: 4 }]);
    expect(first.statusCode, first.body).toBe(201);
    const r1 = first.json() as Rec;
    expect(r1.recepcion).toMatchObject({ numero: 1, lineas: [{ producto_id: yerba.id, cantidad: 4, costo: 100 }] });
    expect(r1.compra).toMatchObject({ estado: 'recibida_parcial', recibida_en: null, items_pendientes: 2 });
    expect(lineOf(r1.compra, yerba.id)).toMatchObject({ cantidad_recibida: 4, cantidad_pendiente: 6 });
    expect(lineOf(r1.compra, queso.id)).toMatchObject({ cantidad_recibida: 0, cantidad_pendiente: 5.5 });
    expect(await productNow(yerba.id)).toMatchObject({ stock_actual: 4, precio_compra: 100 });
    expect(await productNow(queso.id)).toMatchObject({ stock_actual: 0, precio_compra: 150 });

    // The list shows the state and how many lines still wait.
    const list = (await call('GET', '/compras?estado=recibida_parcial')).json() as C[];
    expect(list.find((x) => x.id === c.id)).toMatchObject({ estado: 'recibida_parcial', items_pendientes: 2 });

    // Some of the cheese (by product), then the rest of everything.
    const second = await recibir(c.id, [{ producto_id: queso.id, cantidad: 2.25 }]);
    expect(second.statusCode, second.body).toBe(201);
    expect(await productNow(queso.id)).toMatchObject({ stock_actual: 2.25, precio_compra: 200 });
    const third = await recibir(c.id, [
      { producto_id: yerba.id, cantidad: 6 },
      { linea_id: lineOf(c, queso.id).id, cantidad: '3.25' },
    ]);
    expect(third.statusCode, third.body).toBe(201);
    const done = (third.json() as Rec).compra;
    expect(done).toMatchObject({ estado: 'recibida', items_pendientes: 0 });
    expect(done.recibida_en).not.toBeNull();
    expect(lineOf(done, queso.id)).toMatchObject({
      cantidad_recibida: 5.5,
      cantidad_pendiente: 0,
      precio_compra_anterior: 150,
    });
    expect(lineOf(done, yerba.id)).toMatchObject({ cantidad_recibida: 10, precio_compra_anterior: 100 });
    expect(await productNow(yerba.id)).toMatchObject({ stock_actual: 10, precio_compra: 100 });
    expect(await productNow(queso.id)).toMatchObject({ stock_actual: 5.5, precio_compra: 200 });

    // Each reception is recorded (who, when, what) and audited.
    const recs = (await call('GET', `/compras/${c.id}/recepciones`)).json() as {
      numero: number;
      creado_por_nombre: string;
      creado_en: string;
      revertida_en: string | null;
      lineas: { producto_nombre: string; cantidad: number }[];
    }[];
    expect(recs.map((r) => r.numero)).toEqual([1, 2, 3]);
    expect(recs[0]).toMatchObject({ creado_por_nombre: 'Ana Prueba', revertida_en: null });
    expect(recs[2].lineas).toEqual([
      expect.objectContaining({ producto_nombre: 'Queso', cantidad: 3.25 }),
      expect.objectContaining({ producto_nombre: 'Yerba', cantidad: 6 }),
    ]);
    const audits = await ctx.sql<{ despues: { estado: string; recepcion: number } }>(
      `SELECT despues FROM audit_log WHERE entidad = 'compra' AND accion = 'recibir' AND entidad_id = $1 ORDER BY fecha`,
      [c.id],
    );
    expect(audits.map((a) => [a.despues.recepcion, a.despues.estado])).toEqual([
      [1, 'recibida_parcial'],
      [2, 'recibida_parcial'],
      [3, 'recibida'],
    ]);
    const moves = await ctx.sql<{ cantidad: string }>(
      `SELECT cantidad FROM stock_movements WHERE referencia_id = $1 AND producto_id = $2 ORDER BY fecha, id`,
      [c.id, queso.id],
    );
    expect(moves.map((m) => m.cantidad)).toEqual(['2.250', '3.250']);
  });

  it('refuses receiving more than pending, bad lines and closed purchases, saving nothing', async () => {
    const arroz = await product('Arroz', 900, 300);
    const otro = await product('Fideos', 800, 200);
    const c = await compra([{ producto_id: arroz.id, cantidad: 3, precio_unitario: 350 }]);
    const otra = await compra([{ producto_id: otro.id, cantidad: 3, precio_unitario: 250 }]);
    expect((await recibir(c.id, [{ producto_id: arroz.id, cantidad: 1 }])).statusCode).toBe(201);
    const before = await counts();

    const over = await recibir(c.id, [{ producto_id: arroz.id, cantidad: 2.001 }]);
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toBe('No podés recibir más de lo pendiente de Arroz: faltan 2.');

    const cases: [unknown, number, string][] = [
      [[{ producto_id: otro.id, cantidad: 1 }], 422, 'La línea no es de esta compra.'],
      [[{ linea_id: otra.items[0].id, cantidad: 1 }], 422, 'La línea no es de esta compra.'],
      [[{ linea_id: 'no-es-un-id', cantidad: 1 }], 422, 'Identificador no válido.'],
      [[{ cantidad: 1 }], 422, 'Indicá la línea (linea_id) o el producto (producto_id).'],
      [[{ producto_id: arroz.id, cantidad: 0 }], 422, 'Debe ser mayor a 0.'],
      [[{ producto_id: arroz.id, cantidad: 'mucho' }], 422, 'Debe ser un número.'],
      [
        [
          { producto_id: arroz.id, cantidad: 1 },
          { linea_id: lineOf(c, arroz.id).id, cantidad: 1 },
        ],
        422,
        'La línea ya está en otra fila de la recepción.',
      ],
      [[], 422, 'Indicá al menos una línea con la cantidad recibida.'],
    ];
    for (const [lineas, status, message] of cases) {
      const res = await recibir(c.id, lineas);
      expect(res.statusCode, JSON.stringify(lineas)).toBe(status);
      expect(res.body).toContain(message);
    }
    expect(await counts()).toEqual(before);
    expect(await productNow(arroz.id)).toMatchObject({ stock_actual: 1, precio_compra: 350 });

    // Received in full, or cancelled: nothing left to receive.
    expect((await recibir(c.id, [{ producto_id: arroz.id, cantidad: 2 }])).statusCode).toBe(201);
    const closed = await recibir(c.id, [{ producto_id: arroz.id, cantidad: 1 }]);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().detail).toBe('Solo se puede recibir mercadería de una compra pendiente o recibida en parte.');
    const c2 = await compra([{ producto_id: otro.id, cantidad: 1, precio_unitario: 10 }]);
    expect((await call('PUT', `/compras/${c2.id}`, { estado: 'cancelada' })).statusCode).toBe(200);
    expect((await recibir(c2.id, [{ producto_id: otro.id, cantidad: 1 }])).statusCode).toBe(409);
  });

  it('never over-receives with concurrent receptions (the purchase row is locked)', async () => {
    const azucar = await product('Azúcar', 700, 400);
    const c = await compra([{ producto_id: azucar.id, cantidad: 10, precio_unitario: 400 }]);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => recibir(c.id, [{ producto_id: azucar.id, cantidad: 3 }])),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 409, 409]);
    expect(await productNow(azucar.id)).toMatchObject({ stock_actual: 9 });
    const now = await compraNow(c.id);
    expect(now).toMatchObject({ estado: 'recibida_parcial' });
    expect(lineOf(now, azucar.id)).toMatchObject({ cantidad_recibida: 9, cantidad_pendiente: 1 });
    const recs = (await call('GET', `/compras/${c.id}/recepciones`)).json() as { numero: number }[];
    expect(recs.map((r) => r.numero)).toEqual([1, 2, 3]);
  });

  it('refuses cancelling, reverting, editing or deleting a purchase received in part; PUT recibida takes the rest', async () => {
    const cafe = await product('Café', 3000, 1000);
    const te = await product('Té', 1500, 500);
    const c = await compra([
      { producto_id: cafe.id, cantidad: 4, precio_unitario: 1000 },
      { producto_id: te.id, cantidad: 2, precio_unitario: 500 },
    ]);
    expect((await recibir(c.id, [{ producto_id: cafe.id, cantidad: 1 }])).statusCode).toBe(201);
    const before = await counts();
    const message =
      'La compra ya tiene mercadería recibida en parte; no se puede cancelar ni volver a pendiente. Recibí lo que falta y después cancelala.';
    for (const estado of ['cancelada', 'pendiente', 'no_entregado']) {
      const res = await call('PUT', `/compras/${c.id}`, { estado });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'INVALID_STATE', detail: message });
    }
    const edit = await call('PUT', `/compras/${c.id}`, {
      items: [{ producto_id: cafe.id, cantidad: 1, precio_unitario: 1000 }],
    });
    expect(edit.statusCode).toBe(409);
    const del = await call('DELETE', `/compras/${c.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().detail).toBe('Una compra recibida en parte no se puede eliminar.');
    const bad = await call('PUT', `/compras/${c.id}`, { estado: 'recibida_parcial' });
    expect(bad.statusCode).toBe(422);
    expect(await counts()).toEqual(before);

    // Notes still change; "Recibida" receives what is missing, as one more reception.
    expect((await call('PUT', `/compras/${c.id}`, { observaciones: 'Falta el resto' })).statusCode).toBe(200);
    const all = await call('PUT', `/compras/${c.id}`, { estado: 'entregado' });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toMatchObject({ estado: 'recibida', items_pendientes: 0 });
    expect(await productNow(cafe.id)).toMatchObject({ stock_actual: 4 });
    expect(await productNow(te.id)).toMatchObject({ stock_actual: 2 });

    // Once all arrived, cancelling reverses everything, as before, and the receptions show it.
    const cancel = await call('PUT', `/compras/${c.id}`, { estado: 'cancelada' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await productNow(cafe.id)).toMatchObject({ stock_actual: 0, precio_compra: 1000 });
    expect(await productNow(te.id)).toMatchObject({ stock_actual: 0 });
    const recs = (await call('GET', `/compras/${c.id}/recepciones`)).json() as { revertida_en: string | null }[];
    expect(recs).toHaveLength(2);
    expect(recs.every((r) => r.revertida_en !== null)).toBe(true);
    expect(lineOf(await compraNow(c.id), cafe.id)).toMatchObject({ cantidad_recibida: 0, cantidad_pendiente: 0 });
  });

  it("counts a purchase received in part among the supplier's purchases still to receive", async () => {
    const sup = (await call('POST', '/proveedores', { nombre: 'Lácteos del Sur' })).json() as { id: string };
    const manteca = await product('Manteca', 2000, 1000);
    const c = (
      await call('POST', '/compras', {
        proveedor_id: sup.id,
        items: [{ producto_id: manteca.id, cantidad: 4, precio_unitario: 1000 }],
      })
    ).json() as C;
    const pendientes = async () =>
      ((await call('GET', `/proveedores/${sup.id}`)).json() as { compras: { pendientes_recepcion: number } }).compras
        .pendientes_recepcion;
    expect(await pendientes()).toBe(1);
    expect((await recibir(c.id, [{ producto_id: manteca.id, cantidad: 1 }])).statusCode).toBe(201);
    expect(await pendientes()).toBe(1);
    expect((await recibir(c.id, [{ producto_id: manteca.id, cantidad: 3 }])).statusCode).toBe(201);
    expect(await pendientes()).toBe(0);
  });

  it('checks the stock permission flags and never reaches another business', async () => {
    const leche = await product('Leche', 1200, 800);
    const c = await compra([{ producto_id: leche.id, cantidad: 2, precio_unitario: 900 }]);
    const miron = await registerUser(app, 'Miron');
    await addMember(ctx, biz, owner, miron, ['puede_ver_stock']);
    expect((await call('GET', `/compras/${c.id}/recepciones`, undefined, miron)).statusCode).toBe(200);
    const denied = await recibir(c.id, [{ producto_id: leche.id, cantidad: 1 }], miron);
    expect(denied.statusCode).toBe(403);

    const r = await recibir(c.id, [{ producto_id: leche.id, cantidad: 1 }]);
    const rid = (r.json() as Rec).recepcion.id;
    const before = await counts();
    for (const res of [
      await call('GET', `/compras/${c.id}/recepciones`, undefined, otherOwner, otherBiz),
      await recibir(c.id, [{ producto_id: leche.id, cantidad: 1 }], otherOwner, otherBiz),
      await call('GET', `/compras/${c.id}/recepciones/${rid}/precios`, undefined, otherOwner, otherBiz),
      await call(
        'POST',
        `/compras/${c.id}/recepciones/${rid}/precios`,
        { producto_ids: [leche.id] },
        otherOwner,
        otherBiz,
      ),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect(await counts()).toEqual(before);
    // Another business's member cannot use its own purchase to reach this reception either.
    const ajeno = await product('Ajeno', 100, 50, otherBiz, otherOwner);
    const otra = await compra([{ producto_id: ajeno.id, cantidad: 1, precio_unitario: 60 }], otherBiz, otherOwner);
    const cross = await call('GET', `/compras/${otra.id}/recepciones/${rid}/precios`, undefined, otherOwner, otherBiz);
    expect(cross.statusCode).toBe(404);
    expect(cross.json().detail).toBe('Recepción no encontrada.');
  });
});

describe('suggested prices when the cost rises', () => {
  it('follows the stored margin rules: product, then category, then the purchase supplier, then the current margin', async () => {
    const made = async (path: string, payload: object) => {
      const res = await call('POST', path, payload);
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    };
    const regla = async (payload: object) =>
      expect((await call('PUT', '/reglas-margen', payload)).statusCode).toBe(200);
    const almacen = await made('/categories', { nombre: 'Almacén' });
    const distri = await made('/proveedores', { nombre: 'Distri Sur' });
    const otro = await made('/proveedores', { nombre: 'Otro Mayorista' });
    const withCat = async (nombre: string, precio_venta: number, precio_compra: number) =>
      (await made('/products', { nombre, precio_venta, precio_compra, categoria_id: almacen })) as string;
    const fideos = await withCat('Fideos', 1000, 600);
    const arroz = await withCat('Arroz', 1500, 1000);
    const sal = await withCat('Sal', 2000, 500);
    const lavandina = (await product('Lavandina', 600, 500)).id;
    const jabon = (await product('Jabón', 300, 200)).id;
    await regla({ producto_id: fideos, margen: 50 });
    await regla({ categoria_id: almacen, margen: 40 });
    await regla({ proveedor_id: distri, margen: 25 });
    await regla({ proveedor_id: otro, margen: 90 });

    const res = await call('POST', '/compras', {
      proveedor_id: distri,
      items: [
        { producto_id: fideos, cantidad: 1, precio_unitario: 700 },
        { producto_id: arroz, cantidad: 1, precio_unitario: 1234.57 },
        { producto_id: sal, cantidad: 1, precio_unitario: 550 },
        { producto_id: lavandina, cantidad: 1, precio_unitario: 533.33 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json() as C;
    const r = (
      await recibir(
        c.id,
        c.items.map((i) => ({ linea_id: i.id, cantidad: 1 })),
      )
    ).json() as Rec;
    // Fideos: its own 50 % over 700 = 1050. Arroz: the category's 40 % over 1234.57 = 1728.398 → 1728.40.
    // Lavandina (no category): the supplier's 25 % over 533.33 = 666.6625 → 666.66.
    // Sal: 40 % over 550 = 770 is below its 2000, so nothing is suggested.
    expect(r.sugerencias.map((s) => [s.producto_nombre, s.precio_sugerido, s.margen, s.regla])).toEqual([
      ['Arroz', 1728.4, 40, 'categoria'],
      ['Fideos', 1050, 50, 'producto'],
      ['Lavandina', 666.66, 25, 'proveedor'],
    ]);
    const url = `/compras/${c.id}/recepciones/${r.recepcion.id}/precios`;
    const preview = (await call('GET', url)).json() as { sugerencias: Sug[] };
    expect(preview.sugerencias).toEqual(r.sugerencias);
    const applied = await call('POST', url, { producto_ids: [fideos, arroz, lavandina] });
    expect(applied.statusCode, applied.body).toBe(200);
    const aplicados = (applied.json() as { aplicados: Sug[] }).aplicados;
    expect(aplicados.sort((a, b) => a.producto_nombre.localeCompare(b.producto_nombre))).toEqual(preview.sugerencias);
    expect(await productNow(fideos)).toMatchObject({ precio_venta: 1050 });
    expect(await productNow(arroz)).toMatchObject({ precio_venta: 1728.4 });
    expect(await productNow(lavandina)).toMatchObject({ precio_venta: 666.66 });
    expect(await productNow(sal)).toMatchObject({ precio_venta: 2000 });
    // The audit log says which margin set each price.
    const motivos = await ctx.sql<{ entidad_id: string; motivo: string }>(
      `SELECT entidad_id, despues->>'motivo' AS motivo FROM audit_log WHERE entidad = 'producto' AND entidad_id = ANY($1) AND despues->>'motivo' LIKE 'Precio sugerido%'`,
      [[fideos, arroz, lavandina]],
    );
    expect(Object.fromEntries(motivos.map((m) => [m.entidad_id, m.motivo]))).toEqual({
      [fideos]: 'Precio sugerido por la compra (margen del producto)',
      [arroz]: 'Precio sugerido por la compra (margen de la categoría)',
      [lavandina]: 'Precio sugerido por la compra (margen del proveedor)',
    });

    // A purchase without a supplier: no supplier rule (not even another supplier's), the margin it had.
    const sinProveedor = await compra([{ producto_id: jabon, cantidad: 1, precio_unitario: 210 }]);
    const r2 = (await recibir(sinProveedor.id, [{ producto_id: jabon, cantidad: 1 }])).json() as Rec;
    // 300 × 210 ÷ 200 = 315, keeping its 50 %.
    expect(r2.sugerencias.map((s) => [s.producto_nombre, s.precio_sugerido, s.margen, s.regla])).toEqual([
      ['Jabón', 315, 50, 'actual'],
    ]);
    const url2 = `/compras/${sinProveedor.id}/recepciones/${r2.recepcion.id}/precios`;
    expect((await call('GET', url2)).json()).toEqual({ sugerencias: r2.sugerencias });

    // Removing the product's rule: the fideos now follow the category on a new rise.
    const reglas = (await call('GET', '/reglas-margen')).json() as { id: string; producto_id: string | null }[];
    const propia = reglas.find((x) => x.producto_id === fideos)!;
    expect((await call('DELETE', `/reglas-margen/${propia.id}`)).statusCode).toBe(204);
    const c3 = await compra([{ producto_id: fideos, cantidad: 1, precio_unitario: 800 }]);
    const r3 = (await recibir(c3.id, [{ producto_id: fideos, cantidad: 1 }])).json() as Rec;
    // 40 % over 800 = 1120.
    expect(r3.sugerencias.map((s) => [s.precio_sugerido, s.regla])).toEqual([[1120, 'categoria']]);
  });

  it('suggests the price that keeps the margin; the preview is what is applied, only for the chosen lines', async () => {
    const mate = await product('Mate', 1000, 600);
    const bombilla = await product('Bombilla', 999.99, 300);
    const termo = await product('Termo', 20000, 9000);
    const sinCosto = await product('Yerbera', 500, null);
    const c = await compra([
      { producto_id: mate.id, cantidad: 2, precio_unitario: 600 },
      { producto_id: bombilla.id, cantidad: 3, precio_unitario: 333.33 },
      { producto_id: termo.id, cantidad: 1, precio_unitario: 8000 },
      { producto_id: sinCosto.id, cantidad: 1, precio_unitario: 100 },
    ]);
    // The mate arrives at the same cost: nothing to suggest.
    const first = (await recibir(c.id, [{ producto_id: mate.id, cantidad: 2 }])).json() as Rec;
    expect(first.sugerencias).toEqual([]);

    // Costs differ on the rest: the bombilla rises, the termo falls, the yerbera had no cost.
    const res = await recibir(c.id, [
      { producto_id: bombilla.id, cantidad: 3 },
      { producto_id: termo.id, cantidad: 1 },
      { producto_id: sinCosto.id, cantidad: 1 },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json() as Rec;
    // 999.99 × 333.33 ÷ 300 = 1111.0888… → 1111.09; margin (999.99 − 300) ÷ 300 = 233.33 %.
    expect(r.sugerencias).toEqual([
      {
        producto_id: bombilla.id,
        producto_nombre: 'Bombilla',
        costo_anterior: 300,
        costo_nuevo: 333.33,
        precio_actual: 999.99,
        precio_sugerido: 1111.09,
        margen: 233.33,
        regla: 'actual',
      },
    ]);
    const rid = r.recepcion.id;
    const preview = await call('GET', `/compras/${c.id}/recepciones/${rid}/precios`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({ sugerencias: r.sugerencias });
  });

  it('applies only the accepted products, in one transaction, with a price-history row of origin compra', async () => {
    const aceite = await product('Aceite', 1000, 600);
    const vinagre = await product('Vinagre', 500, 200);
    const c = await compra([
      { producto_id: aceite.id, cantidad: 1, precio_unitario: 750 },
      { producto_id: vinagre.id, cantidad: 1, precio_unitario: 250 },
    ]);
    const r = (
      await recibir(c.id, [
        { producto_id: aceite.id, cantidad: 1 },
        { producto_id: vinagre.id, cantidad: 1 },
      ])
    ).json() as Rec;
    const rid = r.recepcion.id;
    const preview = (await call('GET', `/compras/${c.id}/recepciones/${rid}/precios`)).json() as { sugerencias: Sug[] };
    expect(preview.sugerencias.map((s) => [s.producto_nombre, s.precio_sugerido, s.margen])).toEqual([
      ['Aceite', 1250, 66.67],
      ['Vinagre', 625, 150],
    ]);
    const ajeno = await product('Sal', 300, 100);
    const before = await counts();

    // A stale or foreign product in the list: 409, nothing changes.
    const stale = await call('POST', `/compras/${c.id}/recepciones/${rid}/precios`, {
      producto_ids: [aceite.id, ajeno.id],
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toContain('Sal ya no tiene un precio sugerido vigente');
    expect(await productNow(aceite.id)).toMatchObject({ precio_venta: 1000 });
    const empty = await call('POST', `/compras/${c.id}/recepciones/${rid}/precios`, { producto_ids: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toBe('Elegí al menos un producto.');
    expect(await counts()).toEqual(before);

    const applied = await call('POST', `/compras/${c.id}/recepciones/${rid}/precios`, { producto_ids: [aceite.id] });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual({ aplicados: [preview.sugerencias[0]] });
    expect(await productNow(aceite.id)).toMatchObject({ precio_venta: 1250, precio_compra: 750 });
    expect(await productNow(vinagre.id)).toMatchObject({ precio_venta: 500 });

    const hist = await call('GET', `/products/${aceite.id}/precios/historial`);
    expect(hist.json()[0]).toMatchObject({
      origen: 'compra',
      precio_anterior: 1000,
      precio_nuevo: 1250,
      referencia_id: c.id,
      usuario: { nombre: 'Ana Prueba' },
    });

    // Applied once: it leaves the preview, and applying it again is refused.
    const after = (await call('GET', `/compras/${c.id}/recepciones/${rid}/precios`)).json() as { sugerencias: Sug[] };
    expect(after.sugerencias.map((s) => s.producto_nombre)).toEqual(['Vinagre']);
    const again = await call('POST', `/compras/${c.id}/recepciones/${rid}/precios`, { producto_ids: [aceite.id] });
    expect(again.statusCode).toBe(409);
    expect(await productNow(aceite.id)).toMatchObject({ precio_venta: 1250 });

    // A price edited by hand since the reception drops the suggestion.
    expect((await call('PUT', `/products/${vinagre.id}`, { precio_venta: 550 })).statusCode).toBe(200);
    const none = (await call('GET', `/compras/${c.id}/recepciones/${rid}/precios`)).json() as { sugerencias: Sug[] };
    expect(none.sugerencias).toEqual([]);
  });

  it('suggests on a full reception by PUT too, and forgets the suggestion when the reception is reverted', async () => {
    const harina = await product('Harina', 800, 400);
    const c = await compra([{ producto_id: harina.id, cantidad: 5, precio_unitario: 500 }]);
    expect((await call('PUT', `/compras/${c.id}`, { estado: 'recibida' })).statusCode).toBe(200);
    const [rec] = (await call('GET', `/compras/${c.id}/recepciones`)).json() as { id: string }[];
    const preview = (await call('GET', `/compras/${c.id}/recepciones/${rec.id}/precios`)).json() as {
      sugerencias: Sug[];
    };
    expect(preview.sugerencias).toMatchObject([{ producto_nombre: 'Harina', precio_sugerido: 1000 }]);
    expect((await call('PUT', `/compras/${c.id}`, { estado: 'pendiente' })).statusCode).toBe(200);
    const gone = (await call('GET', `/compras/${c.id}/recepciones/${rec.id}/precios`)).json() as {
      sugerencias: Sug[];
    };
    expect(gone.sugerencias).toEqual([]);
  });

  it('needs ver_costos to see suggestions and productos · editar to apply them', async () => {
    const pan = await product('Pan', 1000, 500);
    const c = await compra([{ producto_id: pan.id, cantidad: 2, precio_unitario: 600 }]);
    const deposito = await registerUser(app, 'Deposito');
    await addMember(ctx, biz, owner, deposito, ['puede_ver_stock', 'puede_editar_stock']);
    const r = await recibir(c.id, [{ producto_id: pan.id, cantidad: 1 }], deposito);
    expect(r.statusCode, r.body).toBe(201);
    expect((r.json() as Rec).sugerencias).toEqual([]);
    const rid = (r.json() as Rec).recepcion.id;
    const hidden = await call('GET', `/compras/${c.id}/recepciones/${rid}/precios`, undefined, deposito);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().detail).toBe('Para ver y aplicar precios sugeridos necesitás permiso para ver costos.');

    const encargado = await registerUser(app, 'Encargado');
    await addMember(ctx, biz, owner, encargado, ['puede_ver_stock', 'puede_editar_stock'], { ver_costos: true });
    const seen = await call('GET', `/compras/${c.id}/recepciones/${rid}/precios`, undefined, encargado);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().sugerencias).toMatchObject([{ precio_sugerido: 1200 }]);
    const refused = await call(
      'POST',
      `/compras/${c.id}/recepciones/${rid}/precios`,
      { producto_ids: [pan.id] },
      encargado,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('No tenés permiso para cambiar precios de productos.');
    expect(await productNow(pan.id)).toMatchObject({ precio_venta: 1000 });
  });
});
