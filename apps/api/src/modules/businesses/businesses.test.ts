import { describe, expect, it } from 'vitest';
import { PERMISSION_KEYS } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-10T15:00:00Z') });
const { app } = ctx;

describe('create business', () => {
  it('creates the business with membership, settings, system categories, trial and an audit row', async () => {
    const u = await registerUser(app, 'Creadora');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/businesses/',
      headers: u.auth,
      payload: {
        nombre: ' Almacén Don Pepe ',
        tipo: 'Comercio',
        descripcion: '',
        cuit: '20123456786',
        business_id: 'x',
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Negocio creado correctamente');
    expect(body.business).toMatchObject({
      id: body.business_id,
      nombre: 'Almacén Don Pepe',
      tipo: 'Comercio',
      descripcion: null,
      cuit: '20-12345678-6',
      creada_por: u.id,
      rol: 'admin',
      es_creador: true,
    });
    const id = body.business_id;
    const [b] = await ctx.sql<{ plan: string; trial_ends_at: Date }>(
      'SELECT plan, trial_ends_at FROM businesses WHERE id = $1',
      [id],
    );
    expect(b.plan).toBe('trial');
    expect(b.trial_ends_at.toISOString()).toBe('2026-03-24T15:00:00.000Z');
    const members = await ctx.sql('SELECT rol, estado, acceso_total FROM business_members WHERE business_id = $1', [
      id,
    ]);
    expect(members).toEqual([{ rol: 'admin', estado: 'aceptado', acceso_total: true }]);
    const cats = await ctx.sql(
      'SELECT nombre, tipo, sistema FROM finance_categories WHERE business_id = $1 ORDER BY nombre',
      [id],
    );
    expect(cats).toEqual([
      { nombre: 'Compras', tipo: 'egreso', sistema: true },
      { nombre: 'Ventas', tipo: 'ingreso', sistema: true },
    ]);
    expect(await ctx.sql('SELECT 1 FROM tenant_settings WHERE business_id = $1', [id])).toHaveLength(1);
    expect(await ctx.sql(`SELECT entidad, accion FROM audit_log WHERE business_id = $1`, [id])).toEqual([
      { entidad: 'negocio', accion: 'crear' },
    ]);
  });

  it('refuses a missing name and an invalid CUIT, storing nothing', async () => {
    const u = await registerUser(app, 'Mala');
    const noName = await app.inject({
      method: 'POST',
      url: '/api/v1/businesses',
      headers: u.auth,
      payload: { tipo: 'Otro' },
    });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().detail).toBe('El nombre del negocio es obligatorio.');
    const badCuit = await app.inject({
      method: 'POST',
      url: '/api/v1/businesses',
      headers: u.auth,
      payload: { nombre: 'X', cuit: '20-12345678-0' },
    });
    expect(badCuit.statusCode).toBe(422);
    expect(badCuit.json().errors).toEqual([{ field: 'cuit', message: 'CUIT/CUIL no válido.' }]);
    expect(await ctx.sql('SELECT 1 FROM businesses WHERE creada_por = $1', [u.id])).toHaveLength(0);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const u = await registerUser(app, 'Texto');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/businesses',
      headers: { ...u.auth, 'content-type': 'text/plain' },
      payload: 'nombre=X',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'Tipo de contenido no soportado.', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});

describe('list, detail, update, delete', () => {
  it('lists only accepted businesses, oldest membership first, with the caller role', async () => {
    const u = await registerUser(app, 'Lista');
    const other = await registerUser(app, 'OtraDuenia');
    const first = await createBusiness(app, u, 'Primero');
    const second = await createBusiness(app, u, 'Segundo');
    const theirs = await createBusiness(app, other, 'De otra');
    await addMember(ctx, theirs, other, u, ['puede_ver_productos']);
    const pendingBiz = await createBusiness(app, other, 'Pendiente');
    await ctx.sql(
      `INSERT INTO business_members (business_id, user_id, estado, permisos) VALUES ($1, $2, 'pendiente', '{}')`,
      [pendingBiz, u.id],
    );
    const res = await app.inject({ method: 'GET', url: '/api/v1/businesses', headers: u.auth });
    expect(res.statusCode).toBe(200);
    expect(
      res.json().map((b: { id: string; rol: string; es_creador: boolean }) => [b.id, b.rol, b.es_creador]),
    ).toEqual([
      [first, 'admin', true],
      [second, 'admin', true],
      [theirs, 'empleado', false],
    ]);
    const pending = await app.inject({ method: 'GET', url: `/api/v1/businesses/${pendingBiz}`, headers: u.auth });
    expect(pending.statusCode).toBe(403);
    expect(pending.json()).toEqual({
      detail: 'Tu acceso a este negocio está pendiente de aprobación.',
      code: 'MEMBERSHIP_PENDING',
    });
  });

  it('lets an admin update and only the creator delete, removing all its data', async () => {
    const owner = await registerUser(app, 'Duenio');
    const admin = await registerUser(app, 'Admin');
    const id = await createBusiness(app, owner, 'Para borrar');
    await addMember(ctx, id, owner, admin, [], { rol: 'admin' });

    const upd = await app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${id}/`,
      headers: admin.auth,
      payload: { descripcion: 'Kiosco y almacén' },
    });
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ descripcion: 'Kiosco y almacén', rol: 'admin', es_creador: false });

    const denied = await app.inject({ method: 'DELETE', url: `/api/v1/businesses/${id}`, headers: admin.auth });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toBe('Solo el creador puede eliminar el negocio.');

    const del = await app.inject({ method: 'DELETE', url: `/api/v1/businesses/${id}`, headers: owner.auth });
    expect(del.statusCode).toBe(204);
    for (const table of ['businesses', 'business_members', 'tenant_settings', 'finance_categories', 'audit_log']) {
      const col = table === 'businesses' ? 'id' : 'business_id';
      expect(await ctx.sql(`SELECT 1 FROM ${table} WHERE ${col} = $1`, [id]), table).toHaveLength(0);
    }
    expect((await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}`, headers: owner.auth })).statusCode).toBe(
      403,
    );
  });
});

describe('permissions', () => {
  it('gives the creator full access with every flag true', async () => {
    const owner = await registerUser(app, 'Full');
    const id = await createBusiness(app, owner);
    const res = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/permissions`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      user_id: owner.id,
      business_id: id,
      role: 'admin',
      is_creator: true,
      is_admin: true,
      has_full_access: true,
    });
    expect(Object.keys(p.permissions)).toHaveLength(40);
    expect(Object.values(p.permissions).every((v) => v === true)).toBe(true);
  });

  it('returns exactly the flags of a member, and full access through acceso_total', async () => {
    const owner = await registerUser(app, 'Jefa');
    const id = await createBusiness(app, owner);
    const member = await registerUser(app, 'Cajero');
    await addMember(ctx, id, owner, member, ['puede_ver_ventas', 'puede_editar_ventas']);
    const res = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/permissions`, headers: member.auth });
    const p = res.json();
    expect(p).toMatchObject({ role: 'empleado', is_creator: false, is_admin: false, has_full_access: false });
    expect(Object.keys(p.permissions).sort()).toEqual([...PERMISSION_KEYS].sort());
    const granted = Object.entries(p.permissions)
      .filter(([, v]) => v)
      .map(([k]) => k)
      .sort();
    expect(granted).toEqual(['puede_editar_ventas', 'puede_ver_ventas']);

    const full = await registerUser(app, 'Encargado');
    await addMember(ctx, id, owner, full, [], { acceso_total: true });
    const fp = (
      await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/permissions`, headers: full.auth })
    ).json();
    expect(fp.has_full_access).toBe(true);
    expect(fp.is_admin).toBe(false);
    expect(Object.values(fp.permissions).every((v) => v === true)).toBe(true);
  });
});

describe('debug and repair', () => {
  it('only answers for the caller own account', async () => {
    const u = await registerUser(app, 'Debug');
    const other = await registerUser(app, 'Espia');
    await createBusiness(app, u);
    const own = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/debug/${encodeURIComponent(u.email.toUpperCase())}`,
      headers: u.auth,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ user_id: u.id, total_relationships: 1, total_businesses: 1 });
    expect(own.json().memberships[0]).toMatchObject({
      rol: 'admin',
      estado: 'aceptado',
      es_creador: true,
      tiene_configuracion: true,
      categorias_sistema: true,
    });
    const byId = await app.inject({ method: 'GET', url: `/api/v1/businesses/debug/${u.id}`, headers: u.auth });
    expect(byId.statusCode).toBe(200);
    for (const method of ['GET', 'POST'] as const) {
      const path = method === 'GET' ? 'debug' : 'repair';
      const res = await app.inject({
        method,
        url: `/api/v1/businesses/${path}/${encodeURIComponent(u.email)}`,
        headers: other.auth,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe('Solo podés consultar tu propia cuenta.');
    }
  });

  it('re-creates a missing membership, settings and system categories of the caller businesses', async () => {
    const u = await registerUser(app, 'Reparar');
    const id = await createBusiness(app, u);
    await ctx.sql('DELETE FROM business_members WHERE business_id = $1', [id]);
    await ctx.sql('DELETE FROM tenant_settings WHERE business_id = $1', [id]);
    await ctx.sql(`DELETE FROM finance_categories WHERE business_id = $1 AND nombre = 'Compras'`, [id]);
    expect((await app.inject({ method: 'GET', url: '/api/v1/businesses', headers: u.auth })).json()).toEqual([]);
    const res = await app.inject({ method: 'POST', url: `/api/v1/businesses/repair/${u.email}`, headers: u.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Reparación completada: 1 relación creada.',
      total_businesses: 1,
      orphaned_businesses_found: 1,
      relationships_repaired: 1,
      configuraciones_reparadas: 1,
      categorias_reparadas: 1,
    });
    expect((await app.inject({ method: 'GET', url: '/api/v1/businesses', headers: u.auth })).json()).toHaveLength(1);
    const again = await app.inject({ method: 'POST', url: `/api/v1/businesses/repair/${u.email}`, headers: u.auth });
    expect(again.json()).toMatchObject({
      relationships_repaired: 0,
      configuraciones_reparadas: 0,
      categorias_reparadas: 0,
    });
  });
});
