import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_PREFIX, type RouteEntry } from '../../lib/access.js';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, PASSWORD, registerUser } from '../../test/fixtures.js';

const DAY = 86_400_000;
const start = new Date('2026-01-10T15:00:00Z');
let clock = start;
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;

/** Sessions last 12 hours: after moving the clock, log in again. */
async function login(email: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: email, password: PASSWORD },
  });
  return { authorization: `Bearer ${res.json().access_token}` };
}

const at = (days: number) => new Date(start.getTime() + days * DAY);
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];
const scopedOrResolved = (r: RouteEntry) =>
  r.url.startsWith(`${API_PREFIX}/businesses/:id`) ||
  (['member', 'admin', 'module'].includes(r.access.kind) && !r.url.includes(':id'));
const urlFor = (r: RouteEntry, id: string) => {
  const url = r.url.replace(':id', id).replace(/:[a-zA-Z_]+/g, () => randomUUID());
  return r.url.startsWith(`${API_PREFIX}/businesses/:id`) ? url : `${url}?negocio_id=${id}`;
};

describe('trial and plan', () => {
  it('starts a 14-day trial, then read-only for 30 days, then blocked; choosing a plan restores everything', async () => {
    clock = start;
    const owner = await registerUser(app, 'Plan');
    const id = await createBusiness(app, owner);
    const plan = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: owner.auth,
    });
    expect(plan.json()).toEqual({
      modo: 'saas',
      plan: 'trial',
      estado: 'trial',
      trial_ends_at: '2026-01-24T15:00:00.000Z',
      read_only_until: '2026-02-23T15:00:00.000Z',
      limite_usuarios: 5,
      usuarios_activos: 1,
      limite_almacenamiento_gb: 10,
    });

    clock = at(14);
    const auth = await login(owner.email);
    const ro = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/suscripcion-plan`, headers: auth });
    expect(ro.json().estado).toBe('solo_lectura');
    const write = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/tenant-settings`,
      headers: auth,
      payload: { currency: 'USD' },
    });
    expect(write.statusCode).toBe(402);
    expect(write.json()).toEqual({
      code: 'READ_ONLY',
      detail:
        'Tu período de prueba terminó. El negocio está en modo solo lectura hasta el 23/02/2026; elegí un plan para volver a registrar datos.',
    });
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/tenant-settings`, headers: auth })).statusCode,
    ).toBe(200);

    clock = at(44);
    const auth2 = await login(owner.email);
    const blocked = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${id}/tenant-settings`,
      headers: auth2,
    });
    expect(blocked.statusCode).toBe(402);
    expect(blocked.json()).toEqual({
      code: 'BLOCKED',
      detail: 'El período de solo lectura terminó. Elegí un plan para volver a usar este negocio.',
    });
    for (const path of ['', '/permissions', '/suscripcion-plan']) {
      expect(
        (await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}${path}`, headers: auth2 })).statusCode,
        path,
      ).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/api/v1/businesses', headers: auth2 })).json()).toHaveLength(1);

    const choose = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: auth2,
      payload: { plan: 'profesional' },
    });
    expect(choose.statusCode).toBe(200);
    expect(choose.json()).toMatchObject({
      plan: 'profesional',
      estado: 'activa',
      limite_usuarios: 20,
      limite_almacenamiento_gb: 100,
    });
    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/tenant-settings`,
      headers: auth2,
      payload: { currency: 'USD' },
    });
    expect(again.statusCode).toBe(200);
    const [row] = await ctx.sql<{ antes: unknown; despues: unknown }>(
      `SELECT antes, despues FROM audit_log WHERE business_id = $1 AND entidad = 'plan'`,
      [id],
    );
    expect(row).toEqual({
      antes: { plan: 'trial', estado: 'bloqueada' },
      despues: { plan: 'profesional', estado: 'activa' },
    });
    // No data is ever deleted by the trial rules.
    expect(await ctx.sql('SELECT 1 FROM finance_categories WHERE business_id = $1', [id])).toHaveLength(2);
  });

  it.each([
    ['trial', 3],
    ['solo_lectura', 20],
    ['bloqueada', 60],
  ])('choosing a plan during %s makes the business active and writable', async (estado, day) => {
    clock = start;
    const owner = await registerUser(app, `Elige${day}`);
    const id = await createBusiness(app, owner);
    clock = at(day);
    const auth = await login(owner.email);
    const before = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/suscripcion-plan`, headers: auth });
    expect(before.json().estado).toBe(estado);
    const chosen = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: auth,
      payload: { plan: 'esencial' },
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({ plan: 'esencial', estado: 'activa', limite_usuarios: 5 });
    const write = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/tenant-settings`,
      headers: auth,
      payload: { currency: 'EUR' },
    });
    expect(write.statusCode).toBe(200);
    clock = start;
  });

  it.each([
    ['solo_lectura', 20],
    ['bloqueada', 60],
  ])('the creator can still delete the business while %s', async (estado, day) => {
    clock = start;
    const owner = await registerUser(app, `Cierra${day}`);
    const id = await createBusiness(app, owner);
    clock = at(day);
    const auth = await login(owner.email);
    const plan = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/suscripcion-plan`, headers: auth });
    expect(plan.json().estado).toBe(estado);
    const del = await app.inject({ method: 'DELETE', url: `/api/v1/businesses/${id}`, headers: auth });
    expect(del.statusCode).toBe(204);
    expect(await ctx.sql('SELECT 1 FROM businesses WHERE id = $1', [id])).toHaveLength(0);
    clock = start;
  });

  it('refuses an unknown plan and a plan smaller than the team', async () => {
    clock = start;
    const owner = await registerUser(app, 'Grande');
    const id = await createBusiness(app, owner);
    const bad = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: owner.auth,
      payload: { plan: 'gratis' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBe('Plan no válido. Opciones: esencial, profesional, empresarial.');
    await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: owner.auth,
      payload: { plan: 'empresarial' },
    });
    for (let i = 0; i < 5; i++) await addMember(ctx, id, owner, await registerUser(app, `Equipo${i}`), []);
    const small = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: owner.auth,
      payload: { plan: 'esencial' },
    });
    expect(small.statusCode).toBe(409);
    expect(small.json()).toEqual({
      code: 'PLAN_LIMIT',
      detail: 'El plan Esencial admite hasta 5 usuarios y el negocio tiene 6 activos.',
    });
    expect(
      (
        await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/suscripcion-plan`, headers: owner.auth })
      ).json().plan,
    ).toBe('empresarial');
  });
});

describe('every write is refused while read-only (generated from the route table)', async () => {
  clock = start;
  const owner = await registerUser(app, 'SoloLectura');
  const id = await createBusiness(app, owner);
  const writes = app.routeTable.filter((r) => WRITES.includes(r.method) && scopedOrResolved(r));
  it('covers the write routes', () => {
    expect(writes.length).toBeGreaterThan(10);
  });
  it.each(writes.filter((r) => r.plan.readOnly !== 'allow').map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s',
    async (_l, r) => {
      clock = at(20);
      const auth = await login(owner.email);
      const res = await app.inject({ method: r.method as 'POST', url: urlFor(r, id), headers: auth, payload: {} });
      expect(res.statusCode).toBe(402);
      expect(res.json().code).toBe('READ_ONLY');
    },
  );
});

describe('every read is refused once blocked, except the listed ones (generated)', async () => {
  clock = start;
  const owner = await registerUser(app, 'Bloqueada');
  const id = await createBusiness(app, owner);
  const reads = app.routeTable.filter((r) => r.method === 'GET' && scopedOrResolved(r));
  it.each(reads.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', async (_l, r) => {
    clock = at(50);
    const auth = await login(owner.email);
    const res = await app.inject({ method: 'GET', url: urlFor(r, id), headers: auth });
    if (r.plan.blocked === 'allow' || r.url.endsWith('/exportar')) expect(res.statusCode).not.toBe(402);
    else {
      expect(res.statusCode).toBe(402);
      expect(res.json().code).toBe('BLOCKED');
    }
  });
});
