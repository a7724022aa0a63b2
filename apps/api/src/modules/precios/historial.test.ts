import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { multipartBody } from '../imports/test-files.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Ana');
const biz = await createBusiness(app, owner, 'Almacén Precios');
const other = await registerUser(app, 'Beto');
const otherBiz = await createBusiness(app, other, 'Kiosco Beto');
const base = `/api/v1/businesses/${biz}`;

const req = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, u: TestUser = owner) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

async function product(body: object) {
  const res = await req('POST', `${base}/products`, { precio_venta: 100, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; nombre: string };
}

interface H {
  origen: string;
  precio_anterior: number | null;
  precio_nuevo: number | null;
  costo_anterior?: number | null;
  costo_nuevo?: number | null;
  usuario: { nombre: string } | null;
  referencia_id: string | null;
}
const historial = async (id: string, u: TestUser = owner) => {
  const res = await req('GET', `${base}/products/${id}/precios/historial`, undefined, u);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as H[];
};

describe('price history per product', () => {
  it('records the first price, an edit and a bulk update, newest first, with who and why', async () => {
    const p = await product({ nombre: 'Yerba 1 kg', precio_venta: 4000, precio_compra: 2800.5 });
    expect(await historial(p.id)).toMatchObject([
      {
        origen: 'alta',
        precio_anterior: null,
        precio_nuevo: 4000,
        costo_nuevo: 2800.5,
        usuario: { nombre: 'Ana Prueba' },
      },
    ]);
    expect((await req('PUT', `${base}/products/${p.id}`, { precio_venta: 4200 })).statusCode).toBe(200);
    // Changing something else than prices writes no history.
    expect((await req('PUT', `${base}/products/${p.id}`, { descripcion: 'Suave' })).statusCode).toBe(200);
    const bulk = await req('POST', `${base}/products/actualizacion-masiva`, { porcentaje: 10 });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const h = await historial(p.id);
    expect(h.map((r) => r.origen)).toEqual(['masivo', 'manual', 'alta']);
    expect(h[0]).toMatchObject({
      precio_anterior: 4200,
      precio_nuevo: 4620,
      costo_anterior: 2800.5,
      costo_nuevo: 2800.5,
    });
    expect(h[1]).toMatchObject({ precio_anterior: 4000, precio_nuevo: 4200, usuario: { nombre: 'Ana Prueba' } });
    const res = await req('GET', `${base}/products/${p.id}/precios/historial?limit=1`);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.json()).toHaveLength(1);
  });

  it('records a purchase received (cost, with the purchase as reference) and an import', async () => {
    const p = await product({ nombre: 'Tornillo', codigo: 'TOR-1', precio_venta: 50, precio_compra: 20 });
    const compra = await req('POST', `${base}/compras`, {
      estado: 'recibida',
      items: [{ producto_id: p.id, cantidad: 10, precio_unitario: 25 }],
    });
    expect(compra.statusCode, compra.body).toBe(201);
    const csv = 'Código,Precio de venta\nTOR-1,60\n';
    const { payload, headers } = multipartBody([
      { name: 'file', filename: 'lista.csv', content: Buffer.from(csv, 'utf8') },
    ]);
    const imp = await app.inject({
      method: 'POST',
      url: `${base}/products/importar-excel`,
      headers: { ...owner.auth, ...headers },
      payload,
    });
    expect(imp.statusCode, imp.body).toBe(200);
    const h = await historial(p.id);
    expect(h.map((r) => r.origen)).toEqual(['importacion', 'compra', 'alta']);
    expect(h[1]).toMatchObject({ costo_anterior: 20, costo_nuevo: 25, referencia_id: compra.json().id });
    expect(h[0]).toMatchObject({ precio_anterior: 50, precio_nuevo: 60 });
  });

  it('hides costs from a member without ver_costos, needs productos.ver, and is per business', async () => {
    const p = await product({ nombre: 'Fideos', precio_venta: 900, precio_compra: 500 });
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_productos']);
    const [row] = await historial(p.id, cajero);
    expect(row).toMatchObject({ origen: 'alta', precio_nuevo: 900 });
    expect(row).not.toHaveProperty('costo_nuevo');

    const nadie = await registerUser(app, 'Nadie');
    await addMember(ctx, biz, owner, nadie, ['puede_ver_ventas']);
    expect((await req('GET', `${base}/products/${p.id}/precios/historial`, undefined, nadie)).statusCode).toBe(403);
    const foreign = await req(
      'GET',
      `/api/v1/businesses/${otherBiz}/products/${p.id}/precios/historial`,
      undefined,
      other,
    );
    expect(foreign.statusCode).toBe(404);
  });
});
