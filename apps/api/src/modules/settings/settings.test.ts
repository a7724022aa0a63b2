import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Config');
const id = await createBusiness(app, owner);
const url = `/api/v1/businesses/${id}/tenant-settings`;

describe('tenant settings', () => {
  it('starts with the defaults', async () => {
    const res = await app.inject({ method: 'GET', url, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      tenant_id: id,
      locale: 'es-AR',
      timezone: 'America/Argentina/Buenos_Aires',
      currency: 'ARS',
      sales_drop_threshold: 15,
      min_days_for_model: 30,
    });
  });

  it('saves with POST (update when it exists) and PUT, writing audit rows', async () => {
    const post = await app.inject({
      method: 'POST',
      url,
      headers: owner.auth,
      payload: { currency: 'USD', sales_drop_threshold: 30 },
    });
    expect(post.statusCode).toBe(200);
    expect(post.json()).toMatchObject({ currency: 'USD', sales_drop_threshold: 30, locale: 'es-AR' });
    const put = await app.inject({
      method: 'PUT',
      url: `${url}/${post.json().id}`,
      headers: owner.auth,
      payload: { timezone: 'Europe/Madrid', min_days_for_model: 90 },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ currency: 'USD', timezone: 'Europe/Madrid', min_days_for_model: 90 });
    const audit = await ctx.sql<{ antes: unknown; despues: unknown }>(
      `SELECT antes, despues FROM audit_log WHERE business_id = $1 AND entidad = 'configuracion' ORDER BY fecha`,
      [id],
    );
    expect(audit).toEqual([
      { antes: { currency: 'ARS', sales_drop_threshold: 15 }, despues: { currency: 'USD', sales_drop_threshold: 30 } },
      {
        antes: { timezone: 'America/Argentina/Buenos_Aires', min_days_for_model: 30 },
        despues: { timezone: 'Europe/Madrid', min_days_for_model: 90 },
      },
    ]);
  });

  it.each([
    [{ sales_drop_threshold: 0 }, 'El umbral de alertas debe estar entre 1% y 100%'],
    [{ sales_drop_threshold: 101 }, 'El umbral de alertas debe estar entre 1% y 100%'],
    [{ min_days_for_model: 6 }, 'Los días mínimos deben estar entre 7 y 365'],
    [{ min_days_for_model: 366 }, 'Los días mínimos deben estar entre 7 y 365'],
    [{ locale: 'fr-FR' }, 'Configuración regional no válida.'],
    [{ timezone: 'Asia/Tokyo' }, 'Zona horaria no válida.'],
    [{ currency: 'JPY' }, 'Moneda no válida.'],
  ])('refuses %j with its Spanish message and changes nothing', async (payload, message) => {
    const before = (await app.inject({ method: 'GET', url, headers: owner.auth })).json();
    const auditBefore = await ctx.sql('SELECT 1 FROM audit_log WHERE business_id = $1', [id]);
    const res = await app.inject({ method: 'POST', url, headers: owner.auth, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe(message);
    expect((await app.inject({ method: 'GET', url, headers: owner.auth })).json()).toEqual(before);
    expect(await ctx.sql('SELECT 1 FROM audit_log WHERE business_id = $1', [id])).toHaveLength(auditBefore.length);
  });

  it('answers 404 for the settings id of another business and 403 to a non-admin member', async () => {
    const other = await registerUser(app, 'OtroConfig');
    const otherId = await createBusiness(app, other);
    const otherSettings = (
      await app.inject({ method: 'GET', url: `/api/v1/businesses/${otherId}/tenant-settings`, headers: other.auth })
    ).json();
    for (const sid of [otherSettings.id, randomUUID(), 'x']) {
      const res = await app.inject({
        method: 'PUT',
        url: `${url}/${sid}`,
        headers: owner.auth,
        payload: { currency: 'EUR' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Configuración no encontrada.');
    }
    expect(
      (
        await app.inject({ method: 'GET', url: `/api/v1/businesses/${otherId}/tenant-settings`, headers: other.auth })
      ).json().currency,
    ).toBe('ARS');

    const member = await registerUser(app, 'SoloVer');
    await addMember(ctx, id, owner, member, []);
    expect((await app.inject({ method: 'GET', url, headers: member.auth })).statusCode).toBe(200);
    const denied = await app.inject({ method: 'POST', url, headers: member.auth, payload: { currency: 'EUR' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('ADMIN_REQUIRED');
  });

  it('keeps the scale label layout, refuses a bad one with nothing saved, and clears it with null', async () => {
    const layout = { prefijos: ['20', '21'], codigo_digitos: 5, valor: 'peso', decimales: 3 };
    const saved = await app.inject({ method: 'POST', url, headers: owner.auth, payload: { balanza: layout } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().balanza).toEqual(layout);
    expect((await app.inject({ method: 'GET', url, headers: owner.auth })).json().balanza).toEqual(layout);

    for (const bad of [
      { ...layout, prefijos: ['19'] },
      { ...layout, codigo_digitos: 8 },
      { ...layout, valor: 'precio', decimales: 3 },
      { ...layout, valor: 'volumen' },
      'peso-5',
    ]) {
      const res = await app.inject({ method: 'POST', url, headers: owner.auth, payload: { balanza: bad } });
      expect(res.statusCode).toBe(422);
      expect(typeof res.json().detail).toBe('string');
    }
    expect((await app.inject({ method: 'GET', url, headers: owner.auth })).json().balanza).toEqual(layout);

    const cleared = await app.inject({ method: 'POST', url, headers: owner.auth, payload: { balanza: null } });
    expect(cleared.json().balanza).toBeNull();
    const rows = await ctx.sql<{ antes: unknown; despues: unknown }>(
      `SELECT antes, despues FROM audit_log WHERE business_id = $1 AND entidad = 'configuracion' ORDER BY fecha DESC LIMIT 1`,
      [id],
    );
    expect(rows[0]).toEqual({ antes: { balanza: layout }, despues: { balanza: null } });
  });
});
