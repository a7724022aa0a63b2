import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, uniqueEmail } from '../../test/fixtures.js';
import { startSmtpPeer } from '../../test/smtp.js';

const smtp = await startSmtpPeer();
let clock = new Date('2026-06-01T12:00:00Z');
const ctx = await createTestApp({ smtpUrl: smtp.url, now: () => clock });
const { app } = ctx;

// With SMTP configured, accounts must be confirmed: confirm through the e-mailed link.
async function user(nombre: string, email = uniqueEmail(nombre.toLowerCase())) {
  await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { email, password: 'clave-segura-123', nombre },
  });
  const token = new URL(smtp.linkTo(email, '/confirm')).searchParams.get('token');
  await app.inject({ method: 'GET', url: `/api/v1/auth/activate/${token}` });
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: email, password: 'clave-segura-123' },
  });
  const body = login.json();
  return { id: body.user.id, email, token: body.access_token, auth: { authorization: `Bearer ${body.access_token}` } };
}

const owner = await user('Duenia');
const businessId = await createBusiness(app, owner, 'Ferretería El Tornillo');
const base = `/api/v1/businesses/${businessId}/invitaciones`;

describe('invitations', () => {
  it('invites by e-mail, the invitee accepts, an admin approves with flags', async () => {
    const email = uniqueEmail('luis');
    const res = await app.inject({
      method: 'POST',
      url: base,
      headers: owner.auth,
      payload: { email: email.toUpperCase(), mensaje: 'Sumate' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      message: 'Invitación creada',
      enviado: true,
      invitacion: { email, rol: 'empleado', estado: 'pendiente' },
    });
    const link = smtp.linkTo(email, '/invitacion');
    expect(body.invitacion.enlace).toBe(link);
    const token = new URL(link).searchParams.get('token')!;

    // The link's page shows the invitation before the person logs in or signs up.
    const anonymous = await app.inject({ method: 'GET', url: `/api/v1/invitaciones/${token}` });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toMatchObject({
      negocio: { id: businessId, nombre: 'Ferretería El Tornillo' },
      email,
      rol: 'empleado',
      mensaje: 'Sumate',
      invitado_por: { nombre: expect.any(String) },
    });
    const unknown = await app.inject({ method: 'GET', url: `/api/v1/invitaciones/${token}x` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('La invitación no existe o expiró.');
    // Accepting still needs the invited account.
    expect((await app.inject({ method: 'POST', url: `/api/v1/invitaciones/${token}/aceptar` })).statusCode).toBe(401);

    const luis = await user('Luis', email);
    const seen = await app.inject({ method: 'GET', url: `/api/v1/invitaciones/${token}`, headers: luis.auth });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      negocio: { id: businessId, nombre: 'Ferretería El Tornillo' },
      email,
      rol: 'empleado',
      estado: 'pendiente',
    });

    const accepted = await app.inject({
      method: 'POST',
      url: `/api/v1/invitaciones/${token}/aceptar`,
      headers: luis.auth,
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      message: 'Invitación aceptada. Un administrador debe aprobar tu acceso.',
      business_id: businessId,
      estado: 'pendiente',
    });
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/businesses/${businessId}`, headers: luis.auth })).json().code,
    ).toBe('MEMBERSHIP_PENDING');
    const reuse = await app.inject({
      method: 'POST',
      url: `/api/v1/invitaciones/${token}/aceptar`,
      headers: luis.auth,
    });
    expect(reuse.statusCode).toBe(404);

    const pending = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${businessId}/usuarios-pendientes`,
      headers: owner.auth,
    });
    expect(pending.json()).toEqual([expect.objectContaining({ usuario_id: luis.id, invitado_por: owner.id })]);
    const approve = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${businessId}/usuarios-pendientes/${luis.id}/aprobar`,
      headers: owner.auth,
      payload: { puede_ver_clientes: true },
    });
    expect(approve.statusCode).toBe(200);
    const perms = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${businessId}/permissions`,
      headers: luis.auth,
    });
    expect(perms.json().permissions.puede_ver_clientes).toBe(true);
    expect(perms.json().permissions.puede_editar_clientes).toBe(false);

    const again = await app.inject({ method: 'POST', url: base, headers: owner.auth, payload: { email } });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Esa persona ya es miembro de este negocio.');

    // The accepted invitation stays accepted: revoking it is refused and changes nothing.
    const revoke = await app.inject({ method: 'DELETE', url: `${base}/${body.invitacion.id}`, headers: owner.auth });
    expect(revoke.statusCode).toBe(409);
    expect(revoke.json()).toEqual({
      code: 'INVALID_STATE',
      detail: 'La invitación ya fue aceptada. Para quitarle el acceso, elimina a esa persona del equipo.',
    });
    const list = (await app.inject({ method: 'GET', url: base, headers: owner.auth })).json();
    expect(list.find((i: { id: string }) => i.id === body.invitacion.id)).toMatchObject({ estado: 'aceptada' });
  });

  it('refuses another e-mail, an expired link and a revoked one', async () => {
    const email = uniqueEmail('ana');
    const inv = (await app.inject({ method: 'POST', url: base, headers: owner.auth, payload: { email } })).json()
      .invitacion;
    const token = new URL(inv.enlace).searchParams.get('token');
    const intruder = await user('Intruso');
    const wrong = await app.inject({
      method: 'POST',
      url: `/api/v1/invitaciones/${token}/aceptar`,
      headers: intruder.auth,
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().detail).toBe('Esta invitación es para otra dirección de e-mail.');

    // A new invitation to the same e-mail replaces the pending one.
    const second = (
      await app.inject({ method: 'POST', url: base, headers: owner.auth, payload: { email, rol: 'admin' } })
    ).json().invitacion;
    const list = (await app.inject({ method: 'GET', url: base, headers: owner.auth })).json();
    expect(list.find((i: { id: string }) => i.id === inv.id)).toMatchObject({ estado: 'revocada', enlace: null });
    expect(list.find((i: { id: string }) => i.id === second.id)).toMatchObject({ estado: 'pendiente', rol: 'admin' });

    const ana = await user('Ana', email);
    const old = await app.inject({ method: 'POST', url: `/api/v1/invitaciones/${token}/aceptar`, headers: ana.auth });
    expect(old.statusCode).toBe(404);
    expect(old.json().detail).toBe('La invitación no existe o expiró.');

    const del = await app.inject({ method: 'DELETE', url: `${base}/${second.id}`, headers: owner.auth });
    expect(del.statusCode).toBe(204);
    // Revoking it again is harmless.
    expect((await app.inject({ method: 'DELETE', url: `${base}/${second.id}`, headers: owner.auth })).statusCode).toBe(
      204,
    );
    const secondToken = new URL(second.enlace).searchParams.get('token');
    expect(
      (await app.inject({ method: 'POST', url: `/api/v1/invitaciones/${secondToken}/aceptar`, headers: ana.auth }))
        .statusCode,
    ).toBe(404);

    const third = (await app.inject({ method: 'POST', url: base, headers: owner.auth, payload: { email } })).json()
      .invitacion;
    clock = new Date(clock.getTime() + 8 * 86_400_000);
    try {
      // Sessions last 12 hours: log in again at the new time.
      const relogin = async (email: string) =>
        `Bearer ${(await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: email, password: 'clave-segura-123' } })).json().access_token}`;
      const expired = await app.inject({
        method: 'GET',
        url: `/api/v1/invitaciones/${new URL(third.enlace).searchParams.get('token')}`,
        headers: { authorization: await relogin(email) },
      });
      expect(expired.statusCode).toBe(404);
      const listed = (
        await app.inject({ method: 'GET', url: base, headers: { authorization: await relogin(owner.email) } })
      ).json();
      expect(listed.find((i: { id: string }) => i.id === third.id).estado).toBe('vencida');
    } finally {
      clock = new Date('2026-06-01T12:00:00Z');
    }
  });

  it('is for admins only and never shows another business invitations', async () => {
    const member = await user('Emple');
    await addMember(ctx, businessId, owner, member, ['puede_ver_clientes']);
    const denied = await app.inject({
      method: 'POST',
      url: base,
      headers: member.auth,
      payload: { email: uniqueEmail('x') },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('ADMIN_REQUIRED');

    const other = await user('Otro');
    const otherBiz = await createBusiness(app, other, 'Otro negocio');
    const mine = (await app.inject({ method: 'GET', url: base, headers: owner.auth })).json();
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${otherBiz}/invitaciones/${mine[0].id}`,
      headers: other.auth,
    });
    expect(del.statusCode).toBe(404);
    expect(
      (
        await app.inject({ method: 'GET', url: `/api/v1/businesses/${otherBiz}/invitaciones`, headers: other.auth })
      ).json(),
    ).toEqual([]);
  });
});
