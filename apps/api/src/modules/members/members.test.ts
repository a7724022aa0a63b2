import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp();
const { app } = ctx;

async function pending(businessId: string, user: TestUser) {
  await ctx.sql(
    `INSERT INTO business_members (business_id, user_id, estado, permisos) VALUES ($1, $2, 'pendiente', '{}')`,
    [businessId, user.id],
  );
}

describe('members', () => {
  it('lists accepted members with the creator first', async () => {
    const owner = await registerUser(app, 'Owner');
    const id = await createBusiness(app, owner);
    const m = await registerUser(app, 'Miembro');
    await addMember(ctx, id, owner, m, ['puede_ver_clientes']);
    const res = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/usuarios`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((r: { usuario_id: string }) => r.usuario_id)).toEqual([owner.id, m.id]);
    expect(list[0]).toMatchObject({ es_creador: true, rol: 'admin', acceso_total: true, estado: 'aceptado' });
    expect(list[1]).toMatchObject({ es_creador: false, rol: 'empleado', acceso_total: false, email: m.email });
    expect(list[1].permisos.puede_ver_clientes).toBe(true);
    expect(list[1].permisos.puede_editar_clientes).toBe(false);
  });

  it('approves with exactly the given flags, which take effect on the next request', async () => {
    const owner = await registerUser(app, 'Aprob');
    const id = await createBusiness(app, owner);
    const m = await registerUser(app, 'Nuevo');
    await pending(id, m);
    const list = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${id}/usuarios-pendientes`,
      headers: owner.auth,
    });
    expect(list.json()).toEqual([
      expect.objectContaining({
        usuario_id: m.id,
        estado: 'pendiente',
        usuario: expect.objectContaining({ email: m.email }),
      }),
    ]);
    const ok = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/usuarios-pendientes/${m.id}/aprobar`,
      headers: owner.auth,
      payload: { puede_ver_ventas: true },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Usuario aprobado correctamente',
      rol: 'empleado',
      acceso_total: false,
    });
    const settingsRead = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${id}/tenant-settings`,
      headers: m.auth,
    });
    expect(settingsRead.statusCode).toBe(200);
    const stats = await app.inject({
      method: 'GET',
      url: `/api/v1/ventas/dashboard-stats-v2?negocio_id=${id}`,
      headers: m.auth,
    });
    expect(stats.statusCode).toBe(200);

    const change = await app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${id}/usuarios/${m.id}/permisos`,
      headers: owner.auth,
      payload: { puede_ver_ventas: false, business_id: id },
    });
    expect(change.statusCode).toBe(200);
    expect(change.json().permisos.puede_ver_ventas).toBe(false);
    const denied = await app.inject({
      method: 'GET',
      url: `/api/v1/ventas/dashboard-stats-v2?negocio_id=${id}`,
      headers: m.auth,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'FORBIDDEN', detail: 'No tenés permisos para ver ventas.' });
    const audit = await ctx.sql(
      `SELECT entidad, accion FROM audit_log WHERE business_id = $1 AND entidad_id = $2 ORDER BY fecha`,
      [id, m.id],
    );
    expect(audit).toEqual([
      { entidad: 'miembro', accion: 'aprobar' },
      { entidad: 'permisos', accion: 'actualizar' },
    ]);
  });

  it('refuses unknown flags, the creator, and one own permissions', async () => {
    const owner = await registerUser(app, 'Prot');
    const id = await createBusiness(app, owner);
    const admin = await registerUser(app, 'Admin2');
    await addMember(ctx, id, owner, admin, [], { rol: 'admin' });
    const m = await registerUser(app, 'Emp');
    await addMember(ctx, id, owner, m, []);

    const unknown = await app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${id}/usuarios/${m.id}/permisos`,
      headers: admin.auth,
      payload: { puede_volar_productos: true },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toBe('Permiso desconocido: puede_volar_productos.');

    const creator = await app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${id}/usuarios/${owner.id}/permisos`,
      headers: admin.auth,
      payload: { rol: 'empleado' },
    });
    expect(creator.statusCode).toBe(403);
    expect(creator.json().detail).toBe('No se pueden modificar los permisos del creador del negocio.');

    const self = await app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${id}/usuarios/${admin.id}/permisos`,
      headers: admin.auth,
      payload: { acceso_total: true },
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().detail).toBe('No podés modificar tus propios permisos.');

    const removeCreator = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${id}/usuarios/${owner.id}`,
      headers: admin.auth,
    });
    expect(removeCreator.statusCode).toBe(403);
    expect(removeCreator.json().detail).toBe('No se puede quitar al creador del negocio.');
  });

  it('removal takes effect on the next request; a member may leave; others may not remove', async () => {
    const owner = await registerUser(app, 'Quita');
    const id = await createBusiness(app, owner);
    const a = await registerUser(app, 'Uno');
    const b = await registerUser(app, 'Dos');
    await addMember(ctx, id, owner, a, ['puede_ver_productos']);
    await addMember(ctx, id, owner, b, ['puede_ver_productos']);

    const notAdmin = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${id}/usuarios/${b.id}`,
      headers: a.auth,
    });
    expect(notAdmin.statusCode).toBe(403);

    expect((await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}`, headers: a.auth })).statusCode).toBe(
      200,
    );
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${id}/usuarios/${a.id}`,
      headers: owner.auth,
    });
    expect(del.statusCode).toBe(204);
    const after = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}`, headers: a.auth });
    expect(after.statusCode).toBe(403);
    expect(after.json().code).toBe('NOT_MEMBER');

    const leave = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${id}/usuarios/${b.id}`,
      headers: b.auth,
    });
    expect(leave.statusCode).toBe(204);
    const missing = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${id}/usuarios/${b.id}`,
      headers: owner.auth,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe('Usuario no encontrado en este negocio.');
  });

  it('rejects a pending user, who keeps no access', async () => {
    const owner = await registerUser(app, 'Rech');
    const id = await createBusiness(app, owner);
    const m = await registerUser(app, 'Rechazado');
    await pending(id, m);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/usuarios-pendientes/${m.id}/rechazar`,
      headers: owner.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Usuario rechazado', usuario_id: m.id });
    expect((await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}`, headers: m.auth })).json().code).toBe(
      'NOT_MEMBER',
    );
    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/usuarios-pendientes/${m.id}/aprobar`,
      headers: owner.auth,
      payload: {},
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe('Usuario pendiente no encontrado.');
  });

  it('enforces the trial plan limit of 5 users when approving', async () => {
    const owner = await registerUser(app, 'Limite');
    const id = await createBusiness(app, owner);
    for (let i = 0; i < 4; i++) await addMember(ctx, id, owner, await registerUser(app, `Lim${i}`), []);
    const sixth = await registerUser(app, 'Sexto');
    await pending(id, sixth);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/usuarios-pendientes/${sixth.id}/aprobar`,
      headers: owner.auth,
      payload: {},
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'Alcanzaste el límite de 5 usuarios del plan de prueba.',
      code: 'PLAN_LIMIT',
    });
    const [row] = await ctx.sql<{ estado: string }>(
      'SELECT estado FROM business_members WHERE business_id = $1 AND user_id = $2',
      [id, sixth.id],
    );
    expect(row.estado).toBe('pendiente');
  });
});
