import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp();
const { app } = ctx;

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;

const url = (path = '', b = biz) => `/api/v1/businesses/${b}/categories${path}`;
const get = (path = '', u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url('/', b), headers: u.auth, payload: payload as object });
const put = (id: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(`/${id}`, b), headers: u.auth, payload: payload as object });
const del = (id: string, u = owner, b = biz) =>
  app.inject({ method: 'DELETE', url: url(`/${id}`, b), headers: u.auth });

async function category(nombre: string, extra: object = {}, u = owner, b = biz) {
  const res = await post({ nombre, ...extra }, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; nombre: string; activo: boolean };
}

async function product(nombre: string, categoria_id: string, b = biz, u = owner) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${b}/products`,
    headers: u.auth,
    payload: { nombre, precio_venta: 100, categoria_id },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
});

describe('product categories', () => {
  it('creates a category with defaults, trimmed, ignoring unknown properties, and audits it', async () => {
    const res = await post({ nombre: '  Almacén ', descripcion: '', business_id: otherBiz, cantidad_productos: 9 });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({ nombre: 'Almacén', descripcion: null, activo: true, cantidad_productos: 0 });
    expect(Object.keys(c).sort()).toEqual(
      [
        'id',
        'nombre',
        'descripcion',
        'activo',
        'cantidad_productos',
        'cantidad_servicios',
        'creado_en',
        'actualizado_en',
      ].sort(),
    );
    const audit = await ctx.sql('SELECT entidad, accion, despues FROM audit_log WHERE entidad_id = $1', [c.id]);
    expect(audit).toEqual([
      { entidad: 'categoria', accion: 'crear', despues: { nombre: 'Almacén', descripcion: null, activo: true } },
    ]);
  });

  it('answers with and without the trailing slash', async () => {
    expect((await app.inject({ method: 'GET', url: url(''), headers: owner.auth })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: url('/'), headers: owner.auth })).statusCode).toBe(200);
  });

  it.each([
    [{}, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: '  ' }, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: 'x'.repeat(101) }, 'nombre', 'Debe tener como máximo 100 caracteres.'],
    [{ nombre: 'Ok', descripcion: 'x'.repeat(501) }, 'descripcion', 'Debe tener como máximo 500 caracteres.'],
    [{ nombre: 'Ok', activo: 'si' }, 'activo', 'Debe ser verdadero o falso.'],
  ])('refuses %j with 422 on %s', async (payload, field, message) => {
    const before = await ctx.sql('SELECT id FROM product_categories');
    const res = await post(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await ctx.sql('SELECT id FROM product_categories')).toHaveLength(before.length);
  });

  it('refuses a duplicate name in any case (409); another business may use it', async () => {
    await category('Bebidas');
    const res = await post({ nombre: 'BEBIDAS' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: 'Ya existe una categoría con ese nombre.', code: 'DUPLICATE' });
    await category('Bebidas', {}, otherOwner, otherBiz);
  });

  it('lists active and inactive sorted the Spanish way, filters by activo and q, and counts products', async () => {
    const b = await createBusiness(app, owner, 'Orden');
    const z = await category('Zapatería', {}, owner, b);
    await category('Ñoquis', { activo: false }, owner, b);
    await category('Árboles', {}, owner, b);
    await category('Lácteos', {}, owner, b);
    await product('Zapato', z.id, b);
    await product('Zapatilla', z.id, b);
    const all = (await get('', owner, b)).json();
    expect(all.map((c: { nombre: string }) => c.nombre)).toEqual(['Árboles', 'Lácteos', 'Ñoquis', 'Zapatería']);
    expect(all.find((c: { id: string }) => c.id === z.id).cantidad_productos).toBe(2);
    const inactive = (await get('?activo=false', owner, b)).json();
    expect(inactive.map((c: { nombre: string }) => c.nombre)).toEqual(['Ñoquis']);
    const active = (await get('?activo=1', owner, b)).json();
    expect(active).toHaveLength(3);
    expect((await get('?q=arbol', owner, b)).json().map((c: { nombre: string }) => c.nombre)).toEqual(['Árboles']);
    expect((await get('?activo=quizas', owner, b)).statusCode).toBe(422);
  });

  it('gets one category; missing, malformed and foreign ids are 404', async () => {
    const c = await category('Limpieza');
    expect((await get(`/${c.id}`)).json()).toMatchObject({ id: c.id, nombre: 'Limpieza' });
    const foreign = await category('Ajena', {}, otherOwner, otherBiz);
    for (const id of [randomUUID(), 'x', foreign.id]) {
      const res = await get(`/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Categoría no encontrada.', code: 'NOT_FOUND' });
      expect((await put(id, { nombre: 'Nuevo' })).statusCode).toBe(404);
      expect((await del(id)).statusCode).toBe(404);
    }
    expect((await ctx.sql('SELECT nombre FROM product_categories WHERE id = $1', [foreign.id]))[0].nombre).toBe(
      'Ajena',
    );
  });

  it('updates partially, refuses renaming onto another name (409), and audits only changes', async () => {
    const c = await category('Fiambres');
    await category('Quesos');
    const res = await put(c.id, { descripcion: 'Jamón y salame', activo: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ nombre: 'Fiambres', descripcion: 'Jamón y salame', activo: false });
    expect((await put(c.id, { nombre: 'quesos' })).statusCode).toBe(409);
    expect((await put(c.id, { nombre: 'Fiambres' })).statusCode).toBe(200);
    expect((await put(c.id, { nombre: 'FIAMBRES' })).json().nombre).toBe('FIAMBRES');
    expect((await put(c.id, {})).json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      detail: 'No hay datos para actualizar.',
    });
    expect((await put(c.id, { nombre: null })).statusCode).toBe(422);
    const audit = await ctx.sql<{ accion: string }>(
      'SELECT accion FROM audit_log WHERE entidad_id = $1 ORDER BY fecha',
      [c.id],
    );
    expect(audit.map((a) => a.accion)).toEqual(['crear', 'actualizar', 'actualizar']);
  });

  it('deletes an unused category (204) and refuses one used by products (409 IN_USE)', async () => {
    const unused = await category('Vacía');
    expect((await del(unused.id)).statusCode).toBe(204);
    expect((await get(`/${unused.id}`)).statusCode).toBe(404);
    const used = await category('Usada');
    await product('Yerba', used.id);
    const res = await del(used.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'No se puede eliminar la categoría porque tiene productos o servicios asociados.',
      code: 'IN_USE',
    });
    expect((await get(`/${used.id}`)).statusCode).toBe(200);
  });

  it("never lists another business's categories", async () => {
    await category('Secreta de Beto', {}, otherOwner, otherBiz);
    const names = (await get()).json().map((c: { nombre: string }) => c.nombre);
    expect(names).not.toContain('Secreta de Beto');
  });

  it('checks the categorias flags per action, not the productos ones', async () => {
    const viewer = await registerUser(app, 'Vera');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_categorias', 'puede_editar_productos']);
    expect((await get('', viewer)).statusCode).toBe(200);
    const res = await post({ nombre: 'No' }, viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', modulo: 'categorias', accion: 'editar' });
    const editor = await registerUser(app, 'Edu');
    await addMember(ctx, biz, owner, editor, ['puede_editar_categorias']);
    const c = await category('Del editor', {}, editor);
    expect((await del(c.id, editor)).statusCode).toBe(403);
    const deleter = await registerUser(app, 'Dora');
    await addMember(ctx, biz, owner, deleter, ['puede_eliminar_categorias']);
    expect((await del(c.id, deleter)).statusCode).toBe(204);
  });
});
