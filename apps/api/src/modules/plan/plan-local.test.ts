import { allPermissions } from '@mostrador/shared';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, PASSWORD, registerUser } from '../../test/fixtures.js';

// Installed in the shop (MOSTRADOR_MODO=local, decision 0055): no trial, no plans, no limits.
const DAY = 86_400_000;
const start = new Date('2026-01-10T15:00:00Z');
let clock = start;
const ctx = await createTestApp({ now: () => clock, modo: 'local' });
const { app } = ctx;

async function login(email: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: email, password: PASSWORD },
  });
  return { authorization: `Bearer ${res.json().access_token}` };
}

describe('modo local', () => {
  it('never counts trial days nor limits, and writes go on long after the trial would have ended', async () => {
    clock = start;
    const owner = await registerUser(app, 'Local');
    const id = await createBusiness(app, owner);
    const plan = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: owner.auth,
    });
    expect(plan.statusCode).toBe(200);
    expect(plan.json()).toMatchObject({
      modo: 'local',
      estado: 'activa',
      limite_usuarios: null,
      limite_almacenamiento_gb: null,
      usuarios_activos: 1,
    });

    // A year later: past trial, read-only and blocked of the hosted service.
    clock = new Date(start.getTime() + 365 * DAY);
    const auth = await login(owner.email);
    const later = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/suscripcion-plan`, headers: auth });
    expect(later.json()).toMatchObject({ modo: 'local', estado: 'activa' });
    const write = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/tenant-settings`,
      headers: auth,
      payload: { currency: 'USD' },
    });
    expect(write.statusCode).toBe(200);
    const settings = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${id}/tenant-settings`,
      headers: auth,
    });
    expect(settings.json().currency).toBe('USD');
  });

  it('has no plan to choose: 409 in Spanish, and the business is left as it was', async () => {
    clock = start;
    const owner = await registerUser(app, 'SinPlan');
    const id = await createBusiness(app, owner);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: owner.auth,
      payload: { plan: 'esencial' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'INVALID_STATE',
      detail: 'Mostrador está instalado en tu local: no hay planes que elegir, todo está habilitado y sin límites.',
    });
    expect(await ctx.sql('SELECT plan FROM businesses WHERE id = $1', [id])).toEqual([{ plan: 'trial' }]);
    expect(await ctx.sql(`SELECT 1 FROM audit_log WHERE business_id = $1 AND entidad = 'plan'`, [id])).toHaveLength(0);
  });

  it('approves a team larger than any plan allows', async () => {
    clock = start;
    const owner = await registerUser(app, 'Equipo');
    const id = await createBusiness(app, owner);
    for (let i = 0; i < 7; i++) {
      const member = await registerUser(app, `Empleado${i}`);
      await ctx.sql(
        `INSERT INTO business_members (business_id, user_id, rol, estado, acceso_total, permisos)
         VALUES ($1, $2, 'empleado', 'pendiente', false, $3)`,
        [id, member.id, JSON.stringify(allPermissions(false))],
      );
      const ok = await app.inject({
        method: 'POST',
        url: `/api/v1/businesses/${id}/usuarios-pendientes/${member.id}/aprobar`,
        headers: owner.auth,
        payload: {},
      });
      expect(ok.statusCode, `empleado ${i}`).toBe(200);
    }
    const plan = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${id}/suscripcion-plan`,
      headers: owner.auth,
    });
    expect(plan.json()).toMatchObject({ usuarios_activos: 8, limite_usuarios: null });
  });
});
