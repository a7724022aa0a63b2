import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Auditora');
const id = await createBusiness(app, owner);
const member = await registerUser(app, 'Auditado');
await addMember(ctx, id, owner, member, ['puede_ver_finanzas']);
await app.inject({
  method: 'POST',
  url: `/api/v1/businesses/${id}/tenant-settings`,
  headers: owner.auth,
  payload: { currency: 'USD' },
});
const url = `/api/v1/businesses/${id}/auditoria`;

describe('audit log', () => {
  it('lists the changes newest first with who, what, before and after', async () => {
    const res = await app.inject({ method: 'GET', url, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const rows = res.json();
    expect(rows.map((r: { entidad: string; accion: string }) => `${r.entidad}:${r.accion}`)).toEqual([
      'configuracion:actualizar',
      'miembro:aprobar',
      'negocio:crear',
    ]);
    expect(rows[0]).toMatchObject({
      usuario: { id: owner.id, email: owner.email },
      antes: { currency: 'ARS' },
      despues: { currency: 'USD' },
    });
  });

  it('filters by entity, user and dates, and pages', async () => {
    const byEntity = await app.inject({ method: 'GET', url: `${url}?entidad=miembro`, headers: owner.auth });
    expect(byEntity.json()).toHaveLength(1);
    expect(byEntity.json()[0].entidad_id).toBe(member.id);
    const byUser = await app.inject({ method: 'GET', url: `${url}?usuario_id=${member.id}`, headers: owner.auth });
    expect(byUser.json()).toEqual([]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());
    const byDate = await app.inject({
      method: 'GET',
      url: `${url}?fecha_desde=${today}&fecha_hasta=${today}`,
      headers: owner.auth,
    });
    expect(byDate.json()).toHaveLength(3);
    const past = await app.inject({ method: 'GET', url: `${url}?fecha_hasta=2020-01-01`, headers: owner.auth });
    expect(past.json()).toEqual([]);
    const page = await app.inject({ method: 'GET', url: `${url}?limit=1&offset=1`, headers: owner.auth });
    expect(page.json().map((r: { entidad: string }) => r.entidad)).toEqual(['miembro']);
    const bad = await app.inject({
      method: 'GET',
      url: `${url}?fecha_desde=2026-02-01&fecha_hasta=2026-01-01`,
      headers: owner.auth,
    });
    expect(bad.statusCode).toBe(422);
  });

  it('is for admins only and has no write routes', async () => {
    const denied = await app.inject({ method: 'GET', url, headers: member.auth });
    expect(denied.statusCode).toBe(403);
    expect(app.routeTable.filter((r) => r.url.includes('auditoria')).map((r) => r.method)).toEqual(['GET']);
  });
});

describe('audit log in human words', () => {
  it('names the records a row mentions: the entity and every …_id before and after, of this business only', async () => {
    const base = `/api/v1/businesses/${id}`;
    const post = (path: string, payload: object) =>
      app.inject({ method: 'POST', url: `${base}${path}`, headers: owner.auth, payload });
    const bebidas = (await post('/categories', { nombre: 'Bebidas' })).json();
    const almacen = (await post('/categories', { nombre: 'Almacén' })).json();
    const agua = (await post('/products', { nombre: 'Agua 2 l', precio_venta: 900, categoria_id: bebidas.id })).json();
    const put = await app.inject({
      method: 'PUT',
      url: `${base}/products/${agua.id}`,
      headers: owner.auth,
      payload: { categoria_id: almacen.id },
    });
    expect(put.statusCode).toBe(200);
    const res = await app.inject({
      method: 'GET',
      url: `${url}?entidad=producto&entidad_id=${agua.id}`,
      headers: owner.auth,
    });
    const [update, create] = res.json();
    expect(update).toMatchObject({
      accion: 'actualizar',
      antes: { categoria_id: bebidas.id },
      despues: { categoria_id: almacen.id },
      nombres: { [agua.id]: 'Agua 2 l', [bebidas.id]: 'Bebidas', [almacen.id]: 'Almacén' },
    });
    expect(create.nombres).toEqual({ [agua.id]: 'Agua 2 l', [bebidas.id]: 'Bebidas' });
    const members = (await app.inject({ method: 'GET', url: `${url}?entidad=miembro`, headers: owner.auth })).json();
    expect(members[0].nombres[member.id]).toBe('Auditado Prueba');
  });
});
