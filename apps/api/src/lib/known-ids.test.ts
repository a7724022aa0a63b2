import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../test/fixtures.js';

/**
 * API-CONTRACT §1.3: an id in a query string that names nothing of the business is 422, not an
 * empty list; the same filter with the business's own object answers 200.
 */
const ctx = await createTestApp();
const { app } = ctx;

type Objects = Record<'categoria' | 'categoriaFinanciera' | 'cliente' | 'proveedor' | 'producto' | 'servicio', string>;
let owner: TestUser;
let biz: string;
let mine: Objects;
let theirs: Objects;
let theirUser: string;

async function objects(u: TestUser, b: string): Promise<Objects> {
  const post = async (path: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url: `/api/v1/businesses/${b}${path}`, headers: u.auth, payload });
    expect(res.statusCode, `${path} ${res.body}`).toBe(201);
    return res.json().id as string;
  };
  return {
    categoria: await post('/categories', { nombre: 'Bebidas' }),
    categoriaFinanciera: await post('/finanzas/categorias', { nombre: 'Luz', tipo: 'egreso' }),
    cliente: await post('/clientes', { nombre: 'Ana' }),
    proveedor: await post('/proveedores', { nombre: 'Distribuidora' }),
    producto: await post('/products', { nombre: 'Agua', precio_venta: 100 }),
    servicio: await post('/services', { nombre: 'Envío', precio: 500 }),
  };
}

beforeAll(async () => {
  owner = await registerUser(app, 'Filtra');
  biz = await createBusiness(app, owner, 'Propio');
  const stranger = await registerUser(app, 'Otro');
  const other = await createBusiness(app, stranger, 'Ajeno');
  mine = await objects(owner, biz);
  theirs = await objects(stranger, other);
  theirUser = stranger.id;
});

const cases: [path: string, field: string, kind: keyof Objects | 'usuario', message: string][] = [
  ['/products', 'categoria_id', 'categoria', 'Categoría no encontrada en este negocio.'],
  ['/products/exportar', 'categoria_id', 'categoria', 'Categoría no encontrada en este negocio.'],
  ['/services', 'categoria_id', 'categoria', 'Categoría no encontrada en este negocio.'],
  [
    '/finanzas/movimientos',
    'categoria_id',
    'categoriaFinanciera',
    'Categoría financiera no encontrada en este negocio.',
  ],
  [
    '/finanzas/movimientos/exportar',
    'categoria_id',
    'categoriaFinanciera',
    'Categoría financiera no encontrada en este negocio.',
  ],
  ['/finanzas/cuentas-cobrar', 'cliente_id', 'cliente', 'Cliente no encontrado en este negocio.'],
  ['/finanzas/cuentas-pagar', 'proveedor_id', 'proveedor', 'Proveedor no encontrado en este negocio.'],
  ['/compras', 'proveedor_id', 'proveedor', 'Proveedor no encontrado en este negocio.'],
  ['/compras/exportar', 'producto_id', 'producto', 'Producto no encontrado en este negocio.'],
  ['/ventas/sales', 'cliente_id', 'cliente', 'Cliente no encontrado en este negocio.'],
  ['/subscriptions', 'cliente_id', 'cliente', 'Cliente no encontrado en este negocio.'],
  ['/subscriptions', 'servicio_id', 'servicio', 'Servicio no encontrado en este negocio.'],
  ['/tareas', 'asignada_a', 'usuario', 'Usuario no encontrado en este negocio.'],
];

describe('filters by id must name something of the business', () => {
  it.each(cases)('%s?%s=', async (path, field, kind, message) => {
    const get = (id: string) =>
      app.inject({ method: 'GET', url: `/api/v1/businesses/${biz}${path}?${field}=${id}`, headers: owner.auth });
    const own = kind === 'usuario' ? owner.id : mine[kind];
    const foreign = kind === 'usuario' ? theirUser : theirs[kind];
    expect((await get(own)).statusCode).toBe(200);
    for (const id of [foreign, randomUUID()]) {
      const res = await get(id);
      expect(res.statusCode, id).toBe(422);
      expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', detail: message, errors: [{ field, message }] });
    }
  });

  it('keeps the values that mean "none" and the global sales list', async () => {
    const none = (path: string) =>
      app.inject({ method: 'GET', url: `/api/v1/businesses/${biz}${path}`, headers: owner.auth });
    expect((await none('/products?categoria_id=ninguna')).statusCode).toBe(200);
    expect((await none('/tareas?asignada_a=ninguno')).statusCode).toBe(200);
    const global = await app.inject({
      method: 'GET',
      url: `/api/v1/ventas/sales?negocio_id=${biz}&cliente_id=${theirs.cliente}`,
      headers: owner.auth,
    });
    expect(global.statusCode).toBe(422);
    expect(global.json().errors).toEqual([{ field: 'cliente_id', message: 'Cliente no encontrado en este negocio.' }]);
  });
});
