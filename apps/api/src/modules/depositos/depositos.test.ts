import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { stockInvariantBreaks } from '../../test/stock-invariant.js';

/* Issue 38 part 1 (decision 0059): sucursales, depósitos, stock per depósito, cajas selling from theirs. */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duena');
const biz = await createBusiness(app, owner, 'Ferretería Dos Locales');
const base = `/api/v1/businesses/${biz}`;
const otro = await registerUser(app, 'Otro');
const otroBiz = await createBusiness(app, otro, 'Kiosco Ajeno');
const otroBase = `/api/v1/businesses/${otroBiz}`;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: object, u: TestUser = owner) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });
const ok = async <T = Record<string, unknown>>(method: Method, url: string, payload?: object): Promise<T> => {
  const res = await call(method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as T;
};

interface StockRow {
  deposito_id: string;
  deposito_nombre: string;
  stock: number;
}
const stockOf = async (pid: string) => ok<StockRow[]>('GET', `${base}/products/${pid}/stock`);
const stockIn = async (pid: string, depositoId: string) =>
  (await stockOf(pid)).find((r) => r.deposito_id === depositoId)!.stock;
const total = async (pid: string) =>
  (await ok<{ stock_actual: number }>('GET', `${base}/products/${pid}`)).stock_actual;

const martillo = await ok<{ id: string }>('POST', `${base}/products`, {
  nombre: 'Martillo',
  precio_venta: 5000,
  stock_actual: 10,
});

describe('a business from its creation', () => {
  it('has its Casa central with the Depósito principal and its caja, and today’s stock is the principal’s', async () => {
    const sucursales = await ok<{ nombre: string; principal: boolean; depositos: unknown[]; cajas: unknown[] }[]>(
      'GET',
      `${base}/sucursales`,
    );
    expect(sucursales).toHaveLength(1);
    expect(sucursales[0]).toMatchObject({ nombre: 'Casa central', principal: true });
    expect(sucursales[0].depositos).toEqual([
      expect.objectContaining({ nombre: 'Depósito principal', principal: true }),
    ]);
    expect(sucursales[0].cajas).toHaveLength(1);
    const stock = await stockOf(martillo.id);
    expect(stock).toEqual([expect.objectContaining({ deposito_nombre: 'Depósito principal', stock: 10 })]);
    expect(await stockInvariantBreaks(ctx, biz)).toEqual([]);
  });
});

describe('sucursales and depósitos', () => {
  it('creates, renames and lists them; a repeated name is 409; another business’s sucursal is 422', async () => {
    const centro = await ok<{ id: string; depositos: unknown[] }>('POST', `${base}/sucursales`, {
      nombre: 'Sucursal Centro',
      direccion: 'San Martín 100',
    });
    expect(centro).toMatchObject({
      nombre: 'Sucursal Centro',
      direccion: 'San Martín 100',
      principal: false,
      depositos: [],
    });
    const dup = await call('POST', `${base}/sucursales`, { nombre: 'sucursal centro' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'DUPLICATE', field: 'nombre' });
    const renamed = await ok('PUT', `${base}/sucursales/${centro.id}`, { nombre: 'Centro' });
    expect(renamed).toMatchObject({ nombre: 'Centro', direccion: 'San Martín 100' });

    const dep = await ok<{ id: string }>('POST', `${base}/depositos`, {
      nombre: 'Depósito Centro',
      sucursal_id: centro.id,
    });
    expect(dep).toMatchObject({
      nombre: 'Depósito Centro',
      sucursal_id: centro.id,
      sucursal_nombre: 'Centro',
      principal: false,
    });
    const otraSucursal = (await ok<{ id: string }[]>('GET', `${base}/sucursales`))[0].id;
    const ajena = (await call('GET', `${otroBase}/sucursales`, undefined, otro)).json()[0].id as string;
    const bad = await call('POST', `${base}/depositos`, { nombre: 'Intruso', sucursal_id: ajena });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({
      field: 'sucursal_id',
      message: 'Sucursal no encontrada en este negocio.',
    });
    expect(
      (await call('POST', `${base}/depositos`, { nombre: 'depósito centro', sucursal_id: otraSucursal })).statusCode,
    ).toBe(409);

    const list = await ok<{ nombre: string }[]>('GET', `${base}/depositos`);
    expect(list.map((d) => d.nombre)).toEqual(['Depósito principal', 'Depósito Centro']);
    expect((await ok<StockRow[]>('GET', `${base}/products/${martillo.id}/stock`)).map((r) => r.stock)).toEqual([10, 0]);
  });

  it('refuses to delete the principal, a sucursal with cajas and a depósito with stock (409, in Spanish); deletes empty ones', async () => {
    const [principal] = await ok<{ id: string; depositos: { id: string }[] }[]>('GET', `${base}/sucursales`);
    const delP = await call('DELETE', `${base}/sucursales/${principal.id}`);
    expect(delP.statusCode).toBe(409);
    expect(delP.json().detail).toBe('La sucursal principal no se elimina.');
    const delD = await call('DELETE', `${base}/depositos/${principal.depositos[0].id}`);
    expect(delD.statusCode).toBe(409);
    expect(delD.json().detail).toBe('El depósito principal no se elimina.');

    const norte = await ok<{ id: string }>('POST', `${base}/sucursales`, { nombre: 'Norte' });
    const depNorte = await ok<{ id: string }>('POST', `${base}/depositos`, {
      nombre: 'Depósito Norte',
      sucursal_id: norte.id,
    });
    const adj = await call('POST', `${base}/products/${martillo.id}/ajuste-stock`, {
      cantidad: 2,
      motivo: 'Recuento de inventario',
      deposito_id: depNorte.id,
    });
    expect(adj.statusCode, adj.body).toBe(200);
    expect(adj.json()).toMatchObject({ stock_anterior: 10, stock_actual: 12 });
    const withStock = await call('DELETE', `${base}/depositos/${depNorte.id}`);
    expect(withStock.statusCode).toBe(409);
    expect(withStock.json().detail).toContain('tiene stock');
    expect((await call('DELETE', `${base}/sucursales/${norte.id}`)).statusCode).toBe(409);

    const caja = await ok<{ id: string }>('POST', `${base}/cajas`, { nombre: 'Caja Norte', sucursal_id: norte.id });
    expect(caja).toMatchObject({ sucursal_id: norte.id });
    // Taken back to 0: still refused, its movements name it.
    await ok('POST', `${base}/products/${martillo.id}/ajuste-stock`, {
      cantidad: -2,
      motivo: 'Rotura',
      deposito_id: depNorte.id,
    });
    const conCajas = await call('DELETE', `${base}/sucursales/${norte.id}`);
    expect(conCajas.statusCode).toBe(409);
    expect(conCajas.json().detail).toContain('una caja');
    expect((await call('DELETE', `${base}/depositos/${depNorte.id}`)).statusCode).toBe(409);

    const vacia = await ok<{ id: string }>('POST', `${base}/sucursales`, { nombre: 'Sur' });
    await ok('POST', `${base}/depositos`, { nombre: 'Depósito Sur', sucursal_id: vacia.id });
    expect((await call('DELETE', `${base}/sucursales/${vacia.id}`)).statusCode).toBe(204);
    expect((await ok<{ nombre: string }[]>('GET', `${base}/depositos`)).map((d) => d.nombre)).not.toContain(
      'Depósito Sur',
    );
    expect((await call('DELETE', `${base}/sucursales/${vacia.id}`)).statusCode).toBe(404);
    expect(await stockInvariantBreaks(ctx, biz)).toEqual([]);
  });

  it('answers 404 for another business’s sucursal, depósito and product, and 422 for its depósito as a filter', async () => {
    const [suyo] = (await call('GET', `${otroBase}/sucursales`, undefined, otro)).json() as {
      id: string;
      depositos: { id: string }[];
    }[];
    expect((await call('PUT', `${base}/sucursales/${suyo.id}`, { nombre: 'Mía' })).statusCode).toBe(404);
    expect((await call('DELETE', `${base}/sucursales/${suyo.id}`)).statusCode).toBe(404);
    expect((await call('PUT', `${base}/depositos/${suyo.depositos[0].id}`, { nombre: 'Mío' })).statusCode).toBe(404);
    expect((await call('DELETE', `${base}/depositos/${suyo.depositos[0].id}`)).statusCode).toBe(404);
    const adj = await call('POST', `${base}/products/${martillo.id}/ajuste-stock`, {
      cantidad: 1,
      motivo: 'Recuento de inventario',
      deposito_id: suyo.depositos[0].id,
    });
    expect(adj.statusCode).toBe(404);
    expect(await total(martillo.id)).toBe(10);
    const list = await call('GET', `${base}/products?deposito_id=${suyo.depositos[0].id}`);
    expect(list.statusCode).toBe(422);
    const ajeno = (await call('POST', `${otroBase}/products`, { nombre: 'Alfajor', precio_venta: 900 }, otro)).json();
    expect((await call('GET', `${base}/products/${ajeno.id}/stock`)).statusCode).toBe(404);
    // Nothing of the other business changed name.
    expect((await call('GET', `${otroBase}/sucursales`, undefined, otro)).json()[0].nombre).toBe('Casa central');
  });

  it('keeps the permissions of the inventory: ver reads, editar creates, without ver 403', async () => {
    const lector = await registerUser(app, 'Lector');
    await addMember(ctx, biz, owner, lector, ['puede_ver_productos']);
    expect((await call('GET', `${base}/depositos`, undefined, lector)).statusCode).toBe(200);
    expect((await call('GET', `${base}/products/${martillo.id}/stock`, undefined, lector)).statusCode).toBe(200);
    expect((await call('POST', `${base}/sucursales`, { nombre: 'Oeste' }, lector)).statusCode).toBe(403);
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas']);
    expect((await call('GET', `${base}/sucursales`, undefined, cajero)).statusCode).toBe(403);
  });
});

describe('stock per depósito', () => {
  it('receives a purchase into a depósito, lists a depósito’s stock, and a caja of a sucursal sells from its depósito', async () => {
    const oeste = await ok<{ id: string }>('POST', `${base}/sucursales`, { nombre: 'Oeste' });
    const depOeste = await ok<{ id: string }>('POST', `${base}/depositos`, {
      nombre: 'Depósito Oeste',
      sucursal_id: oeste.id,
    });
    const [principal] = await ok<{ id: string }[]>('GET', `${base}/depositos`);
    const clavos = await ok<{ id: string }>('POST', `${base}/products`, {
      nombre: 'Clavos',
      precio_venta: 100,
      stock_actual: 5,
    });

    const compra = await call('POST', `${base}/compras`, {
      proveedor_nombre: 'Bulonera',
      estado: 'recibida',
      deposito_id: depOeste.id,
      items: [{ producto_id: clavos.id, cantidad: 3, precio_unitario: 50 }],
    });
    expect(compra.statusCode, compra.body).toBe(201);
    expect(await stockIn(clavos.id, depOeste.id)).toBe(3);
    expect(await stockIn(clavos.id, principal.id)).toBe(5);
    expect(await total(clavos.id)).toBe(8);

    const listed = async (q: string) =>
      (await ok<{ id: string; stock_actual: number }[]>('GET', `${base}/products?q=Clavos${q}`)).find(
        (p) => p.id === clavos.id,
      )!.stock_actual;
    expect(await listed('')).toBe(8);
    expect(await listed(`&deposito_id=${depOeste.id}`)).toBe(3);
    expect(await listed(`&deposito_id=${principal.id}`)).toBe(5);

    const caja = await ok<{ id: string }>('POST', `${base}/cajas`, { nombre: 'Caja Oeste', sucursal_id: oeste.id });
    const turno = await ok<{ id: string }>('POST', `${base}/cajas/${caja.id}/turnos`, { fondo_inicial: 0 });
    const sell = (cantidad: number) =>
      call('POST', '/api/v1/ventas/record-sale', {
        negocio_id: biz,
        turno_id: turno.id,
        metodo_pago: 'efectivo',
        items: [{ id: clavos.id, tipo: 'producto', cantidad }],
      });
    // 8 in all, 3 in Oeste: its caja cannot sell 4.
    const short = await sell(4);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    const sold = await sell(2);
    expect(sold.statusCode, sold.body).toBe(201);
    expect(await stockIn(clavos.id, depOeste.id)).toBe(1);
    expect(await stockIn(clavos.id, principal.id)).toBe(5);
    expect(await total(clavos.id)).toBe(6);
    const [mov] = await ctx.sql<{ deposito_id: string }>(
      `SELECT deposito_id FROM stock_movements WHERE business_id = $1 AND referencia_id = $2`,
      [biz, sold.json().id],
    );
    expect(mov.deposito_id).toBe(depOeste.id);

    // A return and a void put the stock back where it came from.
    const venta = await ok<{ items: { id: string }[] }>('GET', `${base}/ventas/sales/${sold.json().id}`);
    const medios = await ok<{ id: string; tipo: string }[]>('GET', `${base}/medios-pago`);
    const dev = await call('POST', `${base}/ventas/${sold.json().id}/devoluciones`, {
      items: [{ item_id: venta.items[0].id, cantidad: 1 }],
      medio_pago_id: medios.find((m) => m.tipo === 'efectivo')!.id,
      turno_id: turno.id,
    });
    expect(dev.statusCode, dev.body).toBe(201);
    expect(await stockIn(clavos.id, depOeste.id)).toBe(2);
    const other = await sell(1);
    expect(other.statusCode).toBe(201);
    expect(await stockIn(clavos.id, depOeste.id)).toBe(1);
    const anulada = await call('POST', `${base}/ventas/${other.json().id}/anular`, { motivo: 'Error' });
    expect(anulada.statusCode, anulada.body).toBe(200);
    expect(await stockIn(clavos.id, depOeste.id)).toBe(2);
    expect(await stockIn(clavos.id, principal.id)).toBe(5);

    // The caja of the Casa central (no sucursal: the principal) takes from the principal, which
    // cannot lend Oeste's stock.
    const central = (await ok<{ id: string; sucursal_id: string | null }[]>('GET', `${base}/cajas`)).find(
      (c) => c.sucursal_id === null,
    )!;
    const turnoCentral = await ok<{ id: string }>('POST', `${base}/cajas/${central.id}/turnos`, { fondo_inicial: 0 });
    const counter = (cantidad: number) =>
      call('POST', '/api/v1/ventas/record-sale', {
        negocio_id: biz,
        turno_id: turnoCentral.id,
        metodo_pago: 'efectivo',
        items: [{ id: clavos.id, tipo: 'producto', cantidad }],
      });
    expect((await counter(6)).statusCode).toBe(409);
    expect((await counter(5)).statusCode).toBe(201);
    expect(await stockIn(clavos.id, principal.id)).toBe(0);
    expect(await stockIn(clavos.id, depOeste.id)).toBe(2);
    // An adjustment may not take a depósito below 0, whatever the total.
    const neg = await call('POST', `${base}/products/${clavos.id}/ajuste-stock`, {
      cantidad: -1,
      motivo: 'Rotura',
    });
    expect(neg.statusCode).toBe(409);
    expect(await stockInvariantBreaks(ctx, biz)).toEqual([]);
  });

  it('a remito takes its goods from the depósito named (the principal by default) and a void puts them back there', async () => {
    const sur = await ok<{ id: string }>('POST', `${base}/sucursales`, { nombre: 'Sur 2' });
    const depSur = await ok<{ id: string }>('POST', `${base}/depositos`, {
      nombre: 'Depósito Sur 2',
      sucursal_id: sur.id,
    });
    const [principal] = await ok<{ id: string }[]>('GET', `${base}/depositos`);
    const tornillos = await ok<{ id: string }>('POST', `${base}/products`, {
      nombre: 'Tornillos',
      precio_venta: 10,
      stock_actual: 4,
    });
    await ok('POST', `${base}/products/${tornillos.id}/ajuste-stock`, {
      cantidad: 3,
      motivo: 'Recuento de inventario',
      deposito_id: depSur.id,
    });
    const cliente = await ok<{ id: string }>('POST', `${base}/clientes`, { nombre: 'Obra', apellido: 'Sur' });
    const remito = (cantidad: number, deposito_id?: string) =>
      call('POST', `${base}/remitos`, { cliente_id: cliente.id, items: [{ id: tornillos.id, cantidad }], deposito_id });
    // Sur 2 holds 3: 4 is refused even though the business holds 7.
    const short = await remito(4, depSur.id);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    const r = await remito(2, depSur.id);
    expect(r.statusCode, r.body).toBe(201);
    expect(await stockIn(tornillos.id, depSur.id)).toBe(1);
    expect(await stockIn(tornillos.id, principal.id)).toBe(4);
    const main = await remito(1);
    expect(main.statusCode, main.body).toBe(201);
    expect(await stockIn(tornillos.id, principal.id)).toBe(3);
    const anulado = await call('POST', `${base}/remitos/${r.json().id}/anular`, { motivo: 'No se entregó' });
    expect(anulado.statusCode, anulado.body).toBe(200);
    expect(await stockIn(tornillos.id, depSur.id)).toBe(3);
    expect(await stockIn(tornillos.id, principal.id)).toBe(3);
    const [ajeno] = (await call('GET', `${otroBase}/depositos`, undefined, otro)).json() as { id: string }[];
    expect((await remito(1, ajeno.id)).statusCode).toBe(404);
    expect(await total(tornillos.id)).toBe(6);
    expect(await stockInvariantBreaks(ctx, biz)).toEqual([]);
  });
});
