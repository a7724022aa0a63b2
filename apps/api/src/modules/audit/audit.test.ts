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
