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

const url = (path = '', b = biz) => `/api/v1/businesses/${b}/services${path}`;
const get = (path = '', u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url('', b), headers: u.auth, payload: payload as object });
const put = (id: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(`/${id}`, b), headers: u.auth, payload: payload as object });
const del = (id: string, u = owner, b = biz) =>
  app.inject({ method: 'DELETE', url: url(`/${id}`, b), headers: u.auth });

async function svc(payload: object, b = biz, u = owner) {
  const res = await post({ precio: 1000, ...payload }, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; nombre: string };
}

async function category(nombre: string, b = biz, u = owner) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${b}/categories`,
    headers: u.auth,
    payload: { nombre },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Peluquería Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Barbería Beto');
});

describe('services', () => {
  it('creates a service with every field and audits it', async () => {
    const cat = await category('Cortes');
    const res = await post({
      nombre: ' Corte de pelo ',
      descripcion: 'Lavado incluido',
      precio: '8000',
      costo: 1500,
      duracion_minutos: '30',
      categoria_id: cat.id,
      business_id: otherBiz,
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s).toEqual({
      id: expect.any(String),
      nombre: 'Corte de pelo',
      descripcion: 'Lavado incluido',
      precio: 8000,
      costo: 1500,
      duracion_minutos: 30,
      categoria_id: cat.id,
      categoria_nombre: 'Cortes',
      activo: true,
      iva: '21',
      creado_en: expect.any(String),
      actualizado_en: expect.any(String),
    });
    const audit = await ctx.sql('SELECT entidad, accion FROM audit_log WHERE entidad_id = $1', [s.id]);
    expect(audit).toEqual([{ entidad: 'servicio', accion: 'crear' }]);
  });

  it('applies defaults: no cost, no duration, no category, active', async () => {
    const s = await svc({ nombre: 'Consulta', precio: 0 });
    expect(s).toMatchObject({ precio: 0, costo: null, duracion_minutos: null, categoria_id: null, activo: true });
  });

  it.each([
    [{ precio: 1 }, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: 'x'.repeat(151), precio: 1 }, 'nombre', 'Debe tener como máximo 150 caracteres.'],
    [
      { nombre: 'A', precio: 1, descripcion: 'x'.repeat(1001) },
      'descripcion',
      'Debe tener como máximo 1000 caracteres.',
    ],
    [{ nombre: 'A' }, 'precio', 'Este campo es obligatorio.'],
    [{ nombre: 'A', precio: -1 }, 'precio', 'Debe ser mayor o igual a 0.'],
    [{ nombre: 'A', precio: 1.001 }, 'precio', 'Admite como máximo 2 decimales.'],
    [{ nombre: 'A', precio: 1, costo: 'x' }, 'costo', 'Debe ser un número.'],
    [{ nombre: 'A', precio: 1, duracion_minutos: 0 }, 'duracion_minutos', 'Debe ser mayor o igual a 1.'],
    [{ nombre: 'A', precio: 1, duracion_minutos: 1441 }, 'duracion_minutos', 'Debe ser menor o igual a 1440.'],
    [{ nombre: 'A', precio: 1, duracion_minutos: 1.5 }, 'duracion_minutos', 'Debe ser un número entero.'],
    [{ nombre: 'A', precio: 1, categoria_id: 'x' }, 'categoria_id', 'Identificador no válido.'],
    [{ nombre: 'A', precio: 1, activo: 1 }, 'activo', 'Debe ser verdadero o falso.'],
  ])('refuses %j with 422 on %s', async (payload, field, message) => {
    const before = await ctx.sql('SELECT id FROM services');
    const res = await post(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await ctx.sql('SELECT id FROM services')).toHaveLength(before.length);
  });

  it("refuses another business's category (422)", async () => {
    const foreign = await category('Ajena', otherBiz, otherOwner);
    const res = await post({ nombre: 'X', precio: 1, categoria_id: foreign.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('Categoría no encontrada en este negocio.');
  });

  it('lists sorted by name with search, category and activo filters, paging and X-Total-Count', async () => {
    const b = await createBusiness(app, owner, 'Lista servicios');
    const color = await category('Color', b);
    await svc({ nombre: 'Tintura', categoria_id: color.id }, b);
    await svc({ nombre: 'Brushing' }, b);
    await svc({ nombre: 'Ácido hialurónico', activo: false }, b);
    await svc({ nombre: 'Mechas', categoria_id: color.id }, b);
    await svc({ nombre: 'Tintura ajena' }, otherBiz, otherOwner);
    const names = async (q: string) => (await get(q, owner, b)).json().map((s: { nombre: string }) => s.nombre);
    const all = await get('', owner, b);
    expect(all.headers['x-total-count']).toBe('4');
    expect(await names('')).toEqual(['Ácido hialurónico', 'Brushing', 'Mechas', 'Tintura']);
    expect(await names('?q=acido')).toEqual(['Ácido hialurónico']);
    expect(await names('?search=TINT')).toEqual(['Tintura']);
    expect(await names(`?categoria_id=${color.id}`)).toEqual(['Mechas', 'Tintura']);
    expect(await names(`?category_id=${color.id}`)).toEqual(['Mechas', 'Tintura']);
    expect(await names('?activo=false')).toEqual(['Ácido hialurónico']);
    expect(await names('?limit=1&offset=1')).toEqual(['Brushing']);
    expect((await get('?limit=-1', owner, b)).statusCode).toBe(422);
  });

  it('gets, updates partially and audits; missing, malformed and foreign ids are 404', async () => {
    const s = await svc({ nombre: 'Manicura', precio: 5000, costo: 1000 });
    expect((await get(`/${s.id}`)).json()).toMatchObject({ nombre: 'Manicura', precio: 5000 });
    const res = await put(s.id, { precio: 5500, costo: null, duracion_minutos: 45, nombre: 'Manicura' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ nombre: 'Manicura', precio: 5500, costo: null, duracion_minutos: 45 });
    expect((await put(s.id, {})).statusCode).toBe(422);
    expect((await put(s.id, { precio: null })).statusCode).toBe(422);
    const audit = await ctx.sql('SELECT accion, antes, despues FROM audit_log WHERE entidad_id = $1 ORDER BY fecha', [
      s.id,
    ]);
    expect(audit[1]).toEqual({
      accion: 'actualizar',
      antes: { precio: 5000, costo: 1000, duracion_minutos: null },
      despues: { precio: 5500, costo: null, duracion_minutos: 45 },
    });
    const foreign = await svc({ nombre: 'Ajeno' }, otherBiz, otherOwner);
    for (const id of [randomUUID(), 'nope', foreign.id]) {
      const r = await get(`/${id}`);
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ detail: 'Servicio no encontrado.', code: 'NOT_FOUND' });
      expect((await put(id, { nombre: 'X' })).statusCode).toBe(404);
      expect((await del(id)).statusCode).toBe(404);
    }
  });

  it('deletes an unused service; one with subscriptions is refused (409 IN_USE)', async () => {
    const free = await svc({ nombre: 'Libre' });
    expect((await del(free.id)).statusCode).toBe(204);
    const used = await svc({ nombre: 'Abono' });
    const [c] = await ctx.sql<{ id: string }>(
      "INSERT INTO customers (business_id, nombre) VALUES ($1, 'Cliente') RETURNING id",
      [biz],
    );
    const sub = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/subscriptions`,
      headers: owner.auth,
      payload: { cliente_id: c.id, servicio_id: used.id, frecuencia: 'mensual' },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const res = await del(used.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'El servicio tiene ventas o suscripciones registradas; desactivalo en lugar de eliminarlo.',
      code: 'IN_USE',
    });
  });

  it('keeps a category used by a service from being deleted (409)', async () => {
    const cat = await category('Uñas');
    await svc({ nombre: 'Esmaltado', categoria_id: cat.id });
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${biz}/categories/${cat.id}`,
      headers: owner.auth,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('IN_USE');
    const list = await app.inject({ method: 'GET', url: `/api/v1/businesses/${biz}/categories`, headers: owner.auth });
    expect(list.json().find((c: { id: string }) => c.id === cat.id).cantidad_servicios).toBe(1);
  });

  it('checks the productos flags', async () => {
    const s = await svc({ nombre: 'Protegido' });
    const viewer = await registerUser(app, 'Vera');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_productos']);
    expect((await get('', viewer)).statusCode).toBe(200);
    expect((await post({ nombre: 'No', precio: 1 }, viewer)).json()).toMatchObject({
      code: 'FORBIDDEN',
      modulo: 'productos',
      accion: 'editar',
    });
    expect((await del(s.id, viewer)).json()).toMatchObject({ code: 'FORBIDDEN', accion: 'eliminar' });
  });
});

describe('services: sorting the list', () => {
  it('sorts by name either way and by price', async () => {
    const b = await createBusiness(app, owner, 'Orden Servicios');
    await svc({ nombre: 'Envío', precio: 3000 }, b);
    await svc({ nombre: 'Afinación', precio: 9000 }, b);
    await svc({ nombre: 'Zurcido', precio: 500 }, b);
    const names = async (qs: string) => ((await get(qs, owner, b)).json() as { nombre: string }[]).map((s) => s.nombre);
    expect(await names('')).toEqual(['Afinación', 'Envío', 'Zurcido']);
    expect(await names('?orden=nombre&direccion=desc')).toEqual(['Zurcido', 'Envío', 'Afinación']);
    expect(await names('?orden=precio')).toEqual(['Zurcido', 'Envío', 'Afinación']);
    expect(await names('?orden=precio&direccion=desc')).toEqual(['Afinación', 'Envío', 'Zurcido']);
  });
});
