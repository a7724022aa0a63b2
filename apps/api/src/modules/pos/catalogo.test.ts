import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { posCatalogoSchema, type PosCatalogo } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

/* Issue 18: the catalogue the POS keeps on the device, whole or "what changed since a cursor". */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duenia');
const biz = await createBusiness(app, owner, 'Almacén Sin Red');
const base = `/api/v1/businesses/${biz}`;

const req = (u: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });
const catalogo = async (u: TestUser = owner, desde?: string) => {
  const res = await req(u, 'GET', `${base}/pos/catalogo${desde ? `?desde=${desde}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return posCatalogoSchema.parse(res.json()) as PosCatalogo;
};
const ids = (l: { id: string }[]) => l.map((x) => x.id);

/**
 * An incremental refresh that changed nothing. Transactions of other test files running at that
 * instant (two workers share the cluster) hold the cursor back (xids are cluster-wide), so a row
 * may come again until they end: ask again a little later, for up to about ten seconds.
 */
async function quietCursor(): Promise<string> {
  let cursor = (await catalogo()).cursor;
  for (let i = 0; i < 100; i++) {
    const c = await catalogo(owner, cursor);
    if (!c.productos.length && !c.servicios.length && !c.clientes.length) return c.cursor;
    cursor = c.cursor;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the catalogue never settled');
}

const yerba = (
  await req(owner, 'POST', `${base}/products`, {
    nombre: 'Yerba 1 kg',
    codigo: 'Y1',
    codigo_barras: '7790000000011',
    precio_venta: 4200.5,
    precio_compra: 3000,
    stock_actual: 3,
  })
).json();
const hielo = (
  await req(owner, 'POST', `${base}/products`, { nombre: 'Hielo', precio_venta: 900, controla_stock: false })
).json();
const viejo = (await req(owner, 'POST', `${base}/products`, { nombre: 'Discontinuado', precio_venta: 1 })).json();
await req(owner, 'PUT', `${base}/products/${viejo.id}`, { activo: false });
const envio = (await req(owner, 'POST', `${base}/services`, { nombre: 'Envío', precio: 1500, costo: 500 })).json();
const ana = (await req(owner, 'POST', `${base}/clientes`, { nombre: 'Ana', apellido: 'Pérez' })).json();

describe('GET /businesses/{id}/pos/catalogo', () => {
  it('without desde, answers the whole catalogue: active products and services, customers, medios, settings', async () => {
    const c = await catalogo();
    expect(c.completo).toBe(true);
    expect(c.cursor).toMatch(/^\d+$/);
    expect(ids(c.productos).sort()).toEqual([yerba.id, hielo.id].sort());
    expect(c.productos.find((p) => p.id === yerba.id)).toEqual({
      id: yerba.id,
      nombre: 'Yerba 1 kg',
      codigo: 'Y1',
      codigo_barras: '7790000000011',
      precio_venta: 4200.5,
      precio_compra: 3000,
      stock_actual: 3,
      controla_stock: true,
      unidad: 'unidad',
    });
    expect(c.productos.find((p) => p.id === hielo.id)?.controla_stock).toBe(false);
    expect(c.servicios).toEqual([{ id: envio.id, nombre: 'Envío', precio: 1500, costo: 500 }]);
    expect(c.clientes).toEqual([
      expect.objectContaining({ id: ana.id, nombre: 'Ana', apellido: 'Pérez', limite_credito: null }),
    ]);
    expect(c.medios_pago.map((m) => m.tipo)).toContain('efectivo');
    expect(c.turno).toBeNull();
    expect(c.configuracion).toEqual({ balanza: null, vender_sin_stock: false, caja_requiere_turno: true });
    expect(c.eliminados).toEqual({ productos: [], servicios: [], clientes: [] });
  });

  it('with desde, answers only what changed since, deletions and deactivations included', async () => {
    const cursor = await quietCursor();
    const nuevo = (await req(owner, 'POST', `${base}/products`, { nombre: 'Fideos', precio_venta: 1200 })).json();
    expect((await req(owner, 'PUT', `${base}/products/${yerba.id}`, { precio_venta: 4500 })).statusCode).toBe(200);
    expect((await req(owner, 'PUT', `${base}/services/${envio.id}`, { activo: false })).statusCode).toBe(200);
    const beto = (await req(owner, 'POST', `${base}/clientes`, { nombre: 'Beto' })).json();
    expect((await req(owner, 'DELETE', `${base}/clientes/${ana.id}`)).statusCode).toBeLessThan(300);
    expect((await req(owner, 'DELETE', `${base}/products/${hielo.id}`)).statusCode).toBeLessThan(300);

    const c = await catalogo(owner, cursor);
    expect(c.completo).toBe(false);
    expect(ids(c.productos).sort()).toEqual([nuevo.id, yerba.id].sort());
    expect(c.productos.find((p) => p.id === yerba.id)?.precio_venta).toBe(4500);
    expect(c.servicios).toEqual([]);
    expect(ids(c.clientes)).toEqual([beto.id]);
    expect(c.eliminados).toEqual({ productos: [hielo.id], servicios: [envio.id], clientes: [ana.id] });
    // The full download no longer has them.
    const full = await catalogo();
    expect(ids(full.productos)).not.toContain(hielo.id);
    expect(ids(full.clientes)).not.toContain(ana.id);
  });

  it('a sale changes the stock the next refresh brings', async () => {
    const cursor = await quietCursor();
    const sale = await req(owner, 'POST', `${base}/ventas`, {
      metodo_pago: 'efectivo',
      items: [{ tipo: 'producto', id: yerba.id, cantidad: 1 }],
    });
    expect(sale.statusCode, sale.body).toBe(201);
    const c = await catalogo(owner, cursor);
    expect(c.productos).toEqual([expect.objectContaining({ id: yerba.id, stock_actual: 2 })]);
  });

  it('never misses a write whose transaction commits after a later one (out-of-order commits)', async () => {
    const cursor = await quietCursor();
    const slow = new pg.Client({ connectionString: ctx.url });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      // Takes its xid first, commits last.
      await slow.query(`UPDATE products SET precio_venta = 4600 WHERE id = $1`, [yerba.id]);
      const fideos = (await req(owner, 'POST', `${base}/products`, { nombre: 'Arroz', precio_venta: 1100 })).json();
      const mid = await catalogo(owner, cursor);
      expect(ids(mid.productos)).toEqual([fideos.id]);
      await slow.query('COMMIT');
      const after = await catalogo(owner, mid.cursor);
      expect(after.productos).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: yerba.id, precio_venta: 4600 })]),
      );
    } finally {
      await slow.end();
    }
  });

  it('brings the open turno the user sells in', async () => {
    const caja = (await req(owner, 'GET', `${base}/cajas`)).json()[0];
    const t = (await req(owner, 'POST', `${base}/cajas/${caja.id}/turnos`, { fondo_inicial: 5000 })).json();
    const c = await catalogo();
    expect(c.turno).toMatchObject({ id: t.id, estado: 'abierto' });
  });

  it('refuses a malformed cursor (422); one from the future (a restored database) gets the whole catalogue', async () => {
    const res = await req(owner, 'GET', `${base}/pos/catalogo?desde=abc`);
    expect(res.statusCode).toBe(422);
    const future = await catalogo(owner, '99999999999999');
    expect(future.completo).toBe(true);
    expect(future.productos.length).toBeGreaterThan(0);
  });
});

describe('who may download it', () => {
  it('a cashier gets no costs; without clientes or productos, none of them', async () => {
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas', 'puede_ver_productos']);
    const c = await catalogo(cajero);
    expect(c.productos.length).toBeGreaterThan(0);
    for (const p of c.productos) expect(p).not.toHaveProperty('precio_compra');
    expect(c.clientes).toEqual([]);

    const vendedor = await registerUser(app, 'Vendedor');
    await addMember(ctx, biz, owner, vendedor, ['puede_ver_ventas', 'puede_editar_ventas', 'puede_ver_clientes']);
    const v = await catalogo(vendedor);
    expect(v.productos).toEqual([]);
    expect(v.clientes.length).toBeGreaterThan(0);
  });

  it('a member who cannot sell gets 403; a stranger cannot read another business (403 NOT_MEMBER)', async () => {
    const lector = await registerUser(app, 'Lector');
    await addMember(ctx, biz, owner, lector, ['puede_ver_ventas', 'puede_ver_productos']);
    const res = await req(lector, 'GET', `${base}/pos/catalogo`);
    expect(res.statusCode).toBe(403);

    const otro = await registerUser(app, 'Otro');
    const otroBiz = await createBusiness(app, otro, 'Otro Almacén');
    const stranger = await req(otro, 'GET', `${base}/pos/catalogo`);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().code).toBe('NOT_MEMBER');
    // And their own catalogue has none of this business's rows.
    const own = await req(otro, 'GET', `/api/v1/businesses/${otroBiz}/pos/catalogo`);
    expect(own.json().productos).toEqual([]);
    expect(own.json().clientes).toEqual([]);
  });
});
