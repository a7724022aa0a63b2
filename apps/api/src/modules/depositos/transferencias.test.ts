import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { stockInvariantBreaks } from '../../test/stock-invariant.js';

/* Issue 38 part 1 (decision 0059): transferencias between depósitos, sent and received. */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duenio');
const biz = await createBusiness(app, owner, 'Almacén con Depósito');
const base = `/api/v1/businesses/${biz}`;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: object, u: TestUser = owner) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });
const ok = async <T = Record<string, unknown>>(
  method: Method,
  url: string,
  payload?: object,
  u = owner,
): Promise<T> => {
  const res = await call(method, url, payload, u);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as T;
};
const stockIn = async (pid: string, depositoId: string) =>
  (await ok<{ deposito_id: string; stock: number }[]>('GET', `${base}/products/${pid}/stock`)).find(
    (r) => r.deposito_id === depositoId,
  )!.stock;
const total = async (pid: string) =>
  (await ok<{ stock_actual: number }>('GET', `${base}/products/${pid}`)).stock_actual;
const count = async (table: string) =>
  (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [biz]))[0].n;

const [principal] = await ok<{ id: string }[]>('GET', `${base}/depositos`);
const local = await ok<{ id: string }>('POST', `${base}/sucursales`, { nombre: 'Local 2' });
const trastienda = await ok<{ id: string }>('POST', `${base}/depositos`, { nombre: 'Local 2', sucursal_id: local.id });
const yerba = await ok<{ id: string }>('POST', `${base}/products`, {
  nombre: 'Yerba',
  precio_venta: 3000,
  stock_actual: 20,
});
const fideos = await ok<{ id: string }>('POST', `${base}/products`, {
  nombre: 'Fideos',
  precio_venta: 1200,
  stock_actual: 8,
});

interface T {
  id: string;
  numero: number;
  estado: string;
  items: { producto_id: string; cantidad: number; cantidad_recibida: number | null; diferencia: number | null }[];
}

describe('transferencias', () => {
  it('sends: the stock leaves the origin at once (en tránsito), the destination waits', async () => {
    const res = await call('POST', `${base}/transferencias`, {
      origen_id: principal.id,
      destino_id: trastienda.id,
      observaciones: 'Para el finde',
      items: [
        { producto_id: yerba.id, cantidad: 6 },
        { producto_id: fideos.id, cantidad: 2.5 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json() as T;
    expect(t).toMatchObject({
      numero: 1,
      estado: 'en_transito',
      origen_nombre: 'Depósito principal',
      destino_nombre: 'Local 2',
    });
    expect(t.items).toEqual([
      expect.objectContaining({ producto_id: yerba.id, cantidad: 6, cantidad_recibida: null, diferencia: null }),
      expect.objectContaining({ producto_id: fideos.id, cantidad: 2.5, cantidad_recibida: null }),
    ]);
    expect(await stockIn(yerba.id, principal.id)).toBe(14);
    expect(await stockIn(yerba.id, trastienda.id)).toBe(0);
    expect(await total(yerba.id)).toBe(14);
    expect(await stockInvariantBreaks(ctx, biz)).toEqual([]);

    // Received with a difference: 5 of 6 yerbas arrived, the fideos whole (a line not named).
    const rec = await call('POST', `${base}/transferencias/${t.id}/recibir`, {
      items: [{ producto_id: yerba.id, cantidad_recibida: 5 }],
    });
    expect(rec.statusCode, rec.body).toBe(200);
    const r = rec.json() as T;
    expect(r.estado).toBe('recibida');
    expect(r.items).toEqual([
      expect.objectContaining({ producto_id: yerba.id, cantidad: 6, cantidad_recibida: 5, diferencia: 1 }),
      expect.objectContaining({ producto_id: fideos.id, cantidad: 2.5, cantidad_recibida: 2.5, diferencia: 0 }),
    ]);
    expect(await stockIn(yerba.id, trastienda.id)).toBe(5);
    expect(await stockIn(yerba.id, principal.id)).toBe(14);
    expect(await total(yerba.id)).toBe(19);
    expect(await stockIn(fideos.id, trastienda.id)).toBe(2.5);
    expect(await total(fideos.id)).toBe(8);

    const again = await call('POST', `${base}/transferencias/${t.id}/recibir`, { items: [] });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('La transferencia ya fue recibida.');
    expect((await ok<T[]>('GET', `${base}/transferencias`)).map((x) => x.numero)).toEqual([1]);
    expect((await ok<T[]>('GET', `${base}/transferencias?estado=en_transito`)).length).toBe(0);
    expect((await ok<T>('GET', `${base}/transferencias/${t.id}`)).estado).toBe('recibida');
    expect(await stockInvariantBreaks(ctx, biz)).toEqual([]);

    // Its remito interno, an A4 PDF like the other printable documents.
    const pdf = await call('GET', `${base}/documentos/pdf?tipo=transferencia&id=${t.id}`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses what the origin lacks (409), the same depósito, repeated products and more received than sent (422): nothing stored', async () => {
    const before = await Promise.all(['transferencias', 'transferencia_items', 'stock_movements'].map(count));
    const short = await call('POST', `${base}/transferencias`, {
      origen_id: trastienda.id,
      destino_id: principal.id,
      items: [{ producto_id: yerba.id, cantidad: 6 }],
    });
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    expect(short.json().detail).toBe('No hay stock suficiente de Yerba en el depósito de origen (disponible: 5).');
    const same = await call('POST', `${base}/transferencias`, {
      origen_id: principal.id,
      destino_id: principal.id,
      items: [{ producto_id: yerba.id, cantidad: 1 }],
    });
    expect(same.statusCode).toBe(422);
    expect(same.json().errors[0].field).toBe('destino_id');
    const twice = await call('POST', `${base}/transferencias`, {
      origen_id: principal.id,
      destino_id: trastienda.id,
      items: [
        { producto_id: yerba.id, cantidad: 1 },
        { producto_id: yerba.id, cantidad: 1 },
      ],
    });
    expect(twice.statusCode).toBe(422);
    expect(await Promise.all(['transferencias', 'transferencia_items', 'stock_movements'].map(count))).toEqual(before);

    const t = await ok<T>('POST', `${base}/transferencias`, {
      origen_id: trastienda.id,
      destino_id: principal.id,
      items: [{ producto_id: yerba.id, cantidad: 2 }],
    });
    const tooMuch = await call('POST', `${base}/transferencias/${t.id}/recibir`, {
      items: [{ producto_id: yerba.id, cantidad_recibida: 3 }],
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors[0]).toMatchObject({ field: 'items.0.cantidad_recibida' });
    const notIn = await call('POST', `${base}/transferencias/${t.id}/recibir`, {
      items: [{ producto_id: fideos.id, cantidad_recibida: 1 }],
    });
    expect(notIn.statusCode).toBe(422);
    expect((await ok<T>('GET', `${base}/transferencias/${t.id}`)).estado).toBe('en_transito');
    await ok('POST', `${base}/transferencias/${t.id}/recibir`, { items: [] });
    expect(await stockIn(yerba.id, principal.id)).toBe(16);
    expect(await stockIn(yerba.id, trastienda.id)).toBe(3);
    expect(await stockInvariantBreaks(ctx, biz)).toEqual([]);
  });

  it('another business’s depósitos, products and transferencias are 404, and nothing moves', async () => {
    const otro = await registerUser(app, 'Otra');
    const otroBiz = await createBusiness(app, otro, 'Negocio Ajeno');
    const ob = `/api/v1/businesses/${otroBiz}`;
    const [suyo] = await ok<{ id: string }[]>('GET', `${ob}/depositos`, undefined, otro);
    const suDep = await ok<{ id: string }>(
      'POST',
      `${ob}/depositos`,
      { nombre: 'Galpón', sucursal_id: (await ok<{ id: string }[]>('GET', `${ob}/sucursales`, undefined, otro))[0].id },
      otro,
    );
    const suProducto = await ok<{ id: string }>(
      'POST',
      `${ob}/products`,
      { nombre: 'Ajeno', precio_venta: 1, stock_actual: 5 },
      otro,
    );
    const suya = await ok<T>(
      'POST',
      `${ob}/transferencias`,
      { origen_id: suyo.id, destino_id: suDep.id, items: [{ producto_id: suProducto.id, cantidad: 1 }] },
      otro,
    );
    const before = await count('stock_movements');
    for (const body of [
      { origen_id: suyo.id, destino_id: trastienda.id, items: [{ producto_id: yerba.id, cantidad: 1 }] },
      { origen_id: principal.id, destino_id: suDep.id, items: [{ producto_id: yerba.id, cantidad: 1 }] },
      { origen_id: principal.id, destino_id: trastienda.id, items: [{ producto_id: suProducto.id, cantidad: 1 }] },
    ]) {
      const res = await call('POST', `${base}/transferencias`, body);
      expect(res.statusCode, res.body).toBe(404);
    }
    expect((await call('GET', `${base}/transferencias/${suya.id}`)).statusCode).toBe(404);
    expect((await call('POST', `${base}/transferencias/${suya.id}/recibir`, { items: [] })).statusCode).toBe(404);
    expect(await count('stock_movements')).toBe(before);
    expect((await ok<T>('GET', `${ob}/transferencias/${suya.id}`, undefined, otro)).estado).toBe('en_transito');
  });

  it('a transfer and a sale of the last unit at once: one wins, nothing goes negative', async () => {
    const ultimo = await ok<{ id: string }>('POST', `${base}/products`, {
      nombre: 'Último queso',
      precio_venta: 9000,
      stock_actual: 1,
    });
    for (let round = 0; round < 3; round++) {
      if (round > 0)
        await ok('POST', `${base}/products/${ultimo.id}/ajuste-stock`, {
          cantidad: 1,
          motivo: 'Recuento de inventario',
        });
      const [transfer, sale] = await Promise.all([
        call('POST', `${base}/transferencias`, {
          origen_id: principal.id,
          destino_id: trastienda.id,
          items: [{ producto_id: ultimo.id, cantidad: 1 }],
        }),
        call('POST', '/api/v1/ventas/record-sale', {
          negocio_id: biz,
          metodo_pago: 'efectivo',
          items: [{ id: ultimo.id, tipo: 'producto', cantidad: 1 }],
        }),
      ]);
      expect([transfer.statusCode, sale.statusCode].sort()).toEqual([201, 409]);
      expect(await stockIn(ultimo.id, principal.id)).toBe(0);
      expect(await total(ultimo.id)).toBe(0);
    }
    const [{ n }] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM stock_depositos WHERE business_id = $1 AND stock < 0`,
      [biz],
    );
    expect(n).toBe(0);
    expect(await stockInvariantBreaks(ctx, biz)).toEqual([]);
  });
});
