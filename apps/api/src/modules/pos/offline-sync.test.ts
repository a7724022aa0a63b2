import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';

/*
 * Issue 18: what the offline POS's queue sends when the network returns. Every item carries the
 * key made on the device; a replay (the first request applied, its answer lost) changes nothing.
 */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duenio');
const biz = await createBusiness(app, owner, 'Kiosco Offline');
const base = `/api/v1/businesses/${biz}`;

const post = (url: string, payload: object, key?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...owner.auth, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });
const get = (url: string) => app.inject({ method: 'GET', url, headers: owner.auth });
const count = async (table: string) =>
  (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [biz]))[0].n;

const ultimo = (
  await post(`${base}/products`, { nombre: 'Último alfajor', precio_venta: 800, stock_actual: 1 })
).json();
const caja = (await get(`${base}/cajas`)).json()[0];
const turno = (await post(`${base}/cajas/${caja.id}/turnos`, { fondo_inicial: 1000 })).json();

const offlineSale = (creada_en: string, extra: object = {}) => ({
  metodo_pago: 'efectivo',
  turno_id: turno.id,
  items: [{ tipo: 'producto', id: ultimo.id, cantidad: 1 }],
  offline: { creada_en, dispositivo: 'tablet-1' },
  ...extra,
});

describe('a sale taken offline', () => {
  it('two devices sold the last unit: both are kept, stock −1, flagged in the notifications', async () => {
    const first = await post(`${base}/ventas`, offlineSale('2026-11-25T12:00:00-03:00'), randomUUID());
    expect(first.statusCode, first.body).toBe(201);
    // Online, the same sale is still refused: the business does not sell without stock.
    const online = await post(`${base}/ventas`, { metodo_pago: 'efectivo', items: offlineSale('').items });
    expect(online.statusCode).toBe(409);
    const second = await post(`${base}/ventas`, offlineSale('2026-11-25T12:01:00-03:00'), randomUUID());
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().numero).toBe(first.json().numero + 1);
    expect((await get(`${base}/products/${ultimo.id}`)).json().stock_actual).toBe(-1);
    const notes = (await get(`${base}/notificaciones`)).json();
    expect(notes.find((n: { id: string }) => n.id === `stock_bajo:${ultimo.id}`)).toMatchObject({
      titulo: 'Stock negativo: Último alfajor',
    });
  });

  it('keeps the time it happened on the device (never in the future)', async () => {
    const then = new Date(Math.floor(Date.now() / 1000) * 1000 - 3 * 3600_000).toISOString();
    const res = await post(`${base}/ventas`, offlineSale(then), randomUUID());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().fecha).toBe(then);
    const sale = (await get(`${base}/ventas/sales/${res.json().id}`)).json();
    expect(new Date(sale.fecha).toISOString()).toBe(then);
    const future = await post(`${base}/ventas`, offlineSale('2099-01-01T00:00:00Z'), randomUUID());
    expect(future.statusCode).toBe(201);
    expect(new Date(future.json().fecha).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('sent again with its key (the answer was lost), or twice at once, is recorded once', async () => {
    const key = randomUUID();
    const body = offlineSale('2026-11-25T13:00:00-03:00');
    const before = await count('sales');
    const applied = await post(`${base}/ventas`, body, key);
    expect(applied.statusCode).toBe(201);
    // The device never saw that answer: the queue sends the item again, twice in a row.
    const [a, b] = await Promise.all([post(`${base}/ventas`, body, key), post(`${base}/ventas`, body, key)]);
    expect(a.json()).toEqual(applied.json());
    expect(b.json()).toEqual(applied.json());
    expect(await count('sales')).toBe(before + 1);

    const key2 = randomUUID();
    const body2 = offlineSale('2026-11-25T13:05:00-03:00');
    const together = await Promise.all([1, 2, 3].map(() => post(`${base}/ventas`, body2, key2)));
    expect(new Set(together.map((r) => r.json().id)).size).toBe(1);
    expect(await count('sales')).toBe(before + 2);
  });

  it('refuses a malformed offline field (422)', async () => {
    const res = await post(`${base}/ventas`, offlineSale('ayer'), randomUUID());
    expect(res.statusCode).toBe(422);
  });
});

describe('a customer created offline', () => {
  it('keeps the id made on the device; a replay returns it; a sale naming it syncs after it', async () => {
    const id = randomUUID();
    const made = await post(`${base}/clientes`, { id, nombre: 'Carla', apellido: 'Sosa' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().id).toBe(id);
    const again = await post(`${base}/clientes`, { id, nombre: 'Carla', apellido: 'Sosa' });
    expect(again.json().id).toBe(id);
    expect(await count('customers')).toBe(1);
    const sale = await post(
      `${base}/ventas`,
      offlineSale('2026-11-25T14:00:00-03:00', { cliente_id: id }),
      randomUUID(),
    );
    expect(sale.statusCode, sale.body).toBe(201);

    // An id of another business's customer is never taken over: refused (409 on the id, decision
    // 0036), and this business's customer is untouched.
    const otro = await registerUser(app, 'Otro');
    const otroBiz = await createBusiness(app, otro, 'Otro');
    const steal = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${otroBiz}/clientes`,
      headers: otro.auth,
      payload: { id, nombre: 'Intruso' },
    });
    expect(steal.statusCode).toBe(409);
    expect(steal.json()).toMatchObject({ code: 'DUPLICATE', field: 'id' });
    expect((await get(`${base}/clientes/${id}`)).json().nombre).toBe('Carla');
    expect(await count('customers')).toBe(1);
  });
});

describe('caja ingresos and retiros offline', () => {
  it('one movement per Idempotency-Key, however many times it is sent', async () => {
    const key = randomUUID();
    const body = { tipo: 'retiro', monto: 300, motivo: 'Pago al proveedor de hielo' };
    const first = await post(`${base}/turnos/${turno.id}/movimientos`, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const [a, b] = await Promise.all([
      post(`${base}/turnos/${turno.id}/movimientos`, body, key),
      post(`${base}/turnos/${turno.id}/movimientos`, body, key),
    ]);
    expect(a.json().id).toBe(first.json().id);
    expect(b.json().id).toBe(first.json().id);
    expect(await count('turno_movimientos')).toBe(1);
    expect((await get(`${base}/turnos/${turno.id}`)).json().retiros).toBe(300);
  });
});
