import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_MESSAGES } from '@mostrador/shared';
import { createTestApp } from '../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../test/fixtures.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let other: TestUser;
let otherBiz: string;

const url = (path: string, b = biz) => `/api/v1/businesses/${b}${path}`;
const post = (path: string, payload: object, key?: string, u = owner, b = biz) =>
  app.inject({
    method: 'POST',
    url: url(path, b),
    headers: { ...u.auth, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });
const count = async (table: string) =>
  (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [biz]))[0].n;

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  other = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, other, 'Kiosco Beto');
});

describe('Idempotency-Key on every create', () => {
  const creates: { name: string; path: string; table: string; body: () => Promise<object> | object }[] = [
    { name: 'customer', path: '/clientes', table: 'customers', body: () => ({ nombre: 'Carla' }) },
    { name: 'supplier', path: '/proveedores', table: 'suppliers', body: () => ({ nombre: 'Distribuidora Sur' }) },
    { name: 'category', path: '/categories', table: 'product_categories', body: () => ({ nombre: 'Bebidas' }) },
    { name: 'product', path: '/products', table: 'products', body: () => ({ nombre: 'Yerba', precio_venta: 2500 }) },
    { name: 'service', path: '/services', table: 'services', body: () => ({ nombre: 'Fotocopia', precio: 100 }) },
    { name: 'task', path: '/tareas', table: 'tasks', body: () => ({ titulo: 'Contar la caja' }) },
    {
      name: 'finance movement',
      path: '/finanzas/movimientos',
      table: 'finance_movements',
      body: () => ({ monto: 1500, metodo_pago: 'efectivo' }),
    },
    {
      name: 'purchase',
      path: '/compras',
      table: 'purchases',
      body: async () => {
        const p = await post('/products', { nombre: 'Azúcar', precio_venta: 900 });
        return { items: [{ producto_id: p.json().id, cantidad: 2, precio_unitario: 500 }] };
      },
    },
  ];

  for (const c of creates) {
    it(`a ${c.name} sent twice with the same key is created once and answered the same`, async () => {
      const body = await c.body();
      const before = await count(c.table);
      const first = await post(c.path, body, `k-${c.name}`);
      expect(first.statusCode, first.body).toBe(201);
      const again = await post(c.path, body, `k-${c.name}`);
      expect(again.statusCode, again.body).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect(await count(c.table)).toBe(before + 1);
    });
  }

  it('a concurrent double submit creates one row and both get the same answer', async () => {
    const before = await count('customers');
    const body = { nombre: 'Doble clic', email: 'doble@ejemplo.com' };
    const answers = await Promise.all([1, 2, 3].map(() => post('/clientes', body, 'k-doble')));
    for (const a of answers) expect(a.statusCode, a.body).toBe(201);
    const ids = new Set(answers.map((a) => a.json().id));
    expect(ids.size).toBe(1);
    expect(await count('customers')).toBe(before + 1);
  });

  it('the same key with another body is refused with a Spanish message and creates nothing', async () => {
    const first = await post('/proveedores', { nombre: 'Mayorista Norte' }, 'k-otro');
    expect(first.statusCode).toBe(201);
    const before = await count('suppliers');
    const changed = await post('/proveedores', { nombre: 'Mayorista Sur' }, 'k-otro');
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toMatchObject({ code: 'IDEMPOTENCY_MISMATCH', detail: IDEMPOTENCY_MESSAGES.mismatch });
    // Nor may the key be reused on another route.
    const elsewhere = await post('/clientes', { nombre: 'Mayorista Norte' }, 'k-otro');
    expect(elsewhere.statusCode).toBe(422);
    expect(await count('suppliers')).toBe(before);
  });

  it('a refused create frees its key, so the corrected retry creates the row', async () => {
    const bad = await post('/clientes', { nombre: '' }, 'k-corregido');
    expect(bad.statusCode).toBe(422);
    const before = await count('customers');
    const good = await post('/clientes', { nombre: 'Corregido' }, 'k-corregido');
    expect(good.statusCode, good.body).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('customers')).toBe(before + 1);
  });

  it('without a key every request creates, and keys belong to one user of one business', async () => {
    const before = await count('product_categories');
    expect((await post('/categories', { nombre: 'Sin clave 1' })).statusCode).toBe(201);
    expect((await post('/categories', { nombre: 'Sin clave 2' })).statusCode).toBe(201);
    expect(await count('product_categories')).toBe(before + 2);

    const mine = await post('/clientes', { nombre: 'Compartida' }, 'k-compartida');
    const theirs = await post('/clientes', { nombre: 'Compartida' }, 'k-compartida', other, otherBiz);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();

    const worker = await registerUser(app, 'Caro');
    await addMember(ctx, biz, owner, worker, ['puede_ver_clientes', 'puede_editar_clientes']);
    const hers = await post('/clientes', { nombre: 'Compartida' }, 'k-compartida', worker);
    expect(hers.statusCode, hers.body).toBe(201);
    expect(hers.json().id).not.toBe(mine.json().id);
  });

  it('refuses a malformed key', async () => {
    const res = await post('/clientes', { nombre: 'X' }, 'ñ'.repeat(3));
    expect(res.statusCode).toBe(422);
  });
});
