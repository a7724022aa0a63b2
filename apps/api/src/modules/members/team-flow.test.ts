import { randomUUID } from 'node:crypto';
import { ACTIONS, MODULES, permissionKey, type Accion, type Modulo, type PermissionKey } from '@mostrador/shared';
import { describe, expect, it } from 'vitest';
import { API_PREFIX, type RouteEntry } from '../../lib/access.js';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser, uniqueEmail, type TestUser } from '../../test/fixtures.js';

/**
 * The whole team journey through the real routes: invitation → acceptance → approval with
 * flags → the member can do exactly what the flags allow; rejection; removal and permission
 * changes apply from the next request.
 */
const ctx = await createTestApp();
const { app } = ctx;

const api = (u: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url: `${API_PREFIX}${url}`, headers: u.auth, ...(payload ? { payload } : {}) });

/** Invites a new e-mail, registers that user and accepts through the link of the invitation. */
async function inviteAndAccept(owner: TestUser, businessId: string, nombre: string): Promise<TestUser> {
  const email = uniqueEmail(nombre.toLowerCase());
  const inv = await api(owner, 'POST', `/businesses/${businessId}/invitaciones`, { email });
  expect(inv.statusCode).toBe(201);
  const token = new URL(inv.json().invitacion.enlace).searchParams.get('token')!;
  const user = await registerUser(app, nombre, email);
  const seen = await api(user, 'GET', `/invitaciones/${token}`);
  expect(seen.statusCode).toBe(200);
  const accepted = await api(user, 'POST', `/invitaciones/${token}/aceptar`);
  expect(accepted.statusCode).toBe(200);
  expect(accepted.json().estado).toBe('pendiente');
  const before = await api(user, 'GET', `/businesses/${businessId}`);
  expect(before.json().code).toBe('MEMBERSHIP_PENDING');
  return user;
}

async function approve(owner: TestUser, businessId: string, user: TestUser, flags: PermissionKey[]) {
  const res = await api(
    owner,
    'POST',
    `/businesses/${businessId}/usuarios-pendientes/${user.id}/aprobar`,
    Object.fromEntries(flags.map((f) => [f, true])),
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const moduleRoutes = app.routeTable.filter(
  (r): r is RouteEntry & { access: { kind: 'module'; modulo: Modulo; accion: Accion; costos?: string } } =>
    r.access.kind === 'module',
);
const scoped = (r: RouteEntry) => r.url.startsWith(`${API_PREFIX}/businesses/:id`);

function urlFor(r: RouteEntry, businessId: string) {
  const url = r.url.replace(':id', businessId).replace(/:[a-zA-Z_]+/g, () => randomUUID());
  return scoped(r) ? url : `${url}?negocio_id=${businessId}`;
}

describe('a member can do exactly what the approved flags allow', () => {
  it('covers routes of finanzas, tareas, clientes, productos and categorias', () => {
    expect(moduleRoutes.length).toBeGreaterThan(40);
    const covered = new Set(moduleRoutes.map((r) => r.access.modulo));
    for (const m of ['finanzas', 'tareas', 'clientes', 'productos', 'categorias'] as const) {
      expect(covered.has(m), m).toBe(true);
    }
  });

  // One business per module (creator + 4 members fits the trial plan), one member per action.
  describe.each(MODULES.map((m) => [m]))('%s', (modulo) => {
    it.each(ACTIONS.map((a) => [a]))('with only %s: every module route answers as the flag says', async (accion) => {
      const owner = await registerUser(app, 'Duenio');
      const businessId = await createBusiness(app, owner, `Negocio ${modulo} ${accion}`);
      const member = await inviteAndAccept(owner, businessId, 'Miembro');
      const flag = permissionKey(accion, modulo);
      const approved = await approve(owner, businessId, member, [flag]);
      expect(Object.entries(approved.permisos).filter(([, v]) => v)).toEqual([[flag, true]]);

      const perms = (await api(member, 'GET', `/businesses/${businessId}/permissions`)).json();
      expect(perms).toMatchObject({ has_full_access: false, is_admin: false, is_creator: false });
      expect(Object.entries(perms.permissions).filter(([, v]) => v)).toEqual([[flag, true]]);

      for (const r of moduleRoutes) {
        const hasBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
        const res = await app.inject({
          method: r.method as 'GET',
          url: urlFor(r, businessId),
          headers: member.auth,
          ...(hasBody ? { payload: {} } : {}),
        });
        const allowed = r.access.modulo === modulo && r.access.accion === accion;
        const label = `${r.method} ${r.url}`;
        if (allowed && r.access.costos) {
          // The flag lets the member in, but the route also needs ver_costos, which the member lacks.
          expect(res.statusCode, label).toBe(403);
          expect(res.json(), label).toMatchObject({ code: 'FORBIDDEN', detail: r.access.costos });
        } else if (allowed) {
          expect(res.statusCode, label).not.toBe(403);
          expect(res.statusCode, label).not.toBe(401);
        } else {
          expect(res.statusCode, label).toBe(403);
          expect(res.json(), label).toMatchObject({
            code: 'FORBIDDEN',
            modulo: r.access.modulo,
            accion: r.access.accion,
          });
        }
      }
      // Team administration stays with the administrators.
      const team = await api(member, 'GET', `/businesses/${businessId}/usuarios`);
      expect(team.json().code).toBe('ADMIN_REQUIRED');
    });
  });
});

describe('the granted actions really work', () => {
  it('finanzas, clientes, productos and tareas, each action against its real route', async () => {
    const owner = await registerUser(app, 'Propietaria');
    const biz = await createBusiness(app, owner, 'Negocio Completo');
    await ctx.sql(`UPDATE businesses SET plan = 'empresarial' WHERE id = $1`, [biz]);
    const b = `/businesses/${biz}`;

    const seller = await inviteAndAccept(owner, biz, 'Vendedora');
    await approve(owner, biz, seller, [
      'puede_ver_clientes',
      'puede_editar_clientes',
      'puede_ver_finanzas',
      'puede_editar_finanzas',
      'puede_ver_productos',
      'puede_ver_tareas',
    ]);
    const boss = await inviteAndAccept(owner, biz, 'Encargado');
    await approve(owner, biz, boss, [
      'puede_ver_clientes',
      'puede_eliminar_clientes',
      'puede_ver_finanzas',
      'puede_eliminar_finanzas',
      'puede_ver_productos',
      'puede_editar_productos',
      'puede_eliminar_productos',
      'puede_ver_tareas',
      'puede_asignar_tareas',
      'puede_editar_tareas',
      'puede_eliminar_tareas',
    ]);

    // clientes: the seller creates and edits, cannot delete; the boss deletes.
    const cliente = await api(seller, 'POST', `${b}/clientes`, { nombre: 'María', apellido: 'González' });
    expect(cliente.statusCode).toBe(201);
    const cid = cliente.json().id;
    expect((await api(seller, 'PUT', `${b}/clientes/${cid}`, { telefono: '11 5555-0000' })).statusCode).toBe(200);
    expect((await api(seller, 'DELETE', `${b}/clientes/${cid}`)).statusCode).toBe(403);
    expect((await api(boss, 'PUT', `${b}/clientes/${cid}`, { telefono: '1' })).statusCode).toBe(403);
    expect((await api(boss, 'GET', `${b}/clientes`)).statusCode).toBe(200);
    expect((await api(boss, 'DELETE', `${b}/clientes/${cid}`)).statusCode).toBe(204);

    // finanzas
    const mov = await api(seller, 'POST', `${b}/finanzas/movimientos`, {
      tipo: 'egreso',
      monto: 1500,
      metodo_pago: 'Efectivo',
      descripcion: 'Artículos de limpieza',
    });
    expect(mov.statusCode).toBe(201);
    expect((await api(seller, 'GET', `${b}/finanzas/resumen`)).statusCode).toBe(200);
    expect((await api(seller, 'DELETE', `${b}/finanzas/movimientos/${mov.json().id}`)).statusCode).toBe(403);
    expect((await api(boss, 'DELETE', `${b}/finanzas/movimientos/${mov.json().id}`)).statusCode).toBe(204);

    // productos: the seller only sees them.
    const prodInput = { nombre: 'Yerba mate 1 kg', precio_venta: 4200 };
    expect((await api(seller, 'POST', `${b}/products`, prodInput)).statusCode).toBe(403);
    const prod = await api(boss, 'POST', `${b}/products`, prodInput);
    expect(prod.statusCode).toBe(201);
    expect((await api(seller, 'GET', `${b}/products/${prod.json().id}`)).statusCode).toBe(200);
    expect((await api(boss, 'DELETE', `${b}/products/${prod.json().id}`)).statusCode).toBe(204);

    // tareas: the boss assigns to the seller, who moves the state and nothing else.
    const tarea = await api(boss, 'POST', `${b}/tareas`, { titulo: 'Ordenar depósito', asignada_a: seller.id });
    expect(tarea.statusCode).toBe(201);
    const tid = tarea.json().id;
    expect((await api(seller, 'POST', `${b}/tareas`, { titulo: 'No' })).statusCode).toBe(403);
    expect((await api(seller, 'PUT', `${b}/tareas/${tid}`, { estado: 'completada' })).statusCode).toBe(200);
    expect((await api(seller, 'PUT', `${b}/tareas/${tid}`, { titulo: 'Otro' })).statusCode).toBe(403);
    expect((await api(seller, 'DELETE', `${b}/tareas/${tid}`)).statusCode).toBe(403);
    expect((await api(boss, 'PUT', `${b}/tareas/${tid}`, { prioridad: 'alta' })).statusCode).toBe(200);
    expect((await api(boss, 'DELETE', `${b}/tareas/${tid}`)).statusCode).toBe(204);
  });

  it('approved with only ventas and clientes: those modules and nothing else', async () => {
    const owner = await registerUser(app, 'Owner');
    const biz = await createBusiness(app, owner, 'Kiosco');
    const luis = await inviteAndAccept(owner, biz, 'Luis');
    const flags = ACTIONS.flatMap((a) => [permissionKey(a, 'ventas'), permissionKey(a, 'clientes')]);
    await approve(owner, biz, luis, flags);
    const b = `/businesses/${biz}`;
    expect((await api(luis, 'GET', `${b}/clientes`)).statusCode).toBe(200);
    expect((await api(luis, 'POST', `${b}/clientes`, { nombre: 'Cliente' })).statusCode).toBe(201);
    expect((await api(luis, 'GET', `/ventas/dashboard-stats-v2?negocio_id=${biz}`)).statusCode).toBe(200);
    for (const path of ['finanzas/movimientos', 'products', 'categories', 'tareas']) {
      const res = await api(luis, 'GET', `${b}/${path}`);
      expect(res.statusCode, path).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    const perms = (await api(luis, 'GET', `${b}/permissions`)).json().permissions;
    expect(
      Object.keys(perms)
        .filter((k) => perms[k])
        .sort(),
    ).toEqual([...flags].sort());
    // Notifications are filtered the same way (no finance or stock for this member).
    expect((await api(luis, 'GET', `${b}/notificaciones`)).json()).toEqual([]);
  });
});

describe('rejection, removal and changes', () => {
  it('a rejected user gets no access; a new invitation reopens the request', async () => {
    const owner = await registerUser(app, 'Rechaza');
    const biz = await createBusiness(app, owner, 'Negocio Rechazos');
    const user = await inviteAndAccept(owner, biz, 'Rechazado');
    const pending = await api(owner, 'GET', `/businesses/${biz}/usuarios-pendientes`);
    expect(pending.json().map((p: { usuario_id: string }) => p.usuario_id)).toEqual([user.id]);
    const notes = (await api(owner, 'GET', `/businesses/${biz}/notificaciones`)).json();
    expect(notes.map((n: { id: string }) => n.id)).toEqual([`usuario_pendiente:${user.id}`]);

    const rejected = await api(owner, 'POST', `/businesses/${biz}/usuarios-pendientes/${user.id}/rechazar`);
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toEqual({ message: 'Usuario rechazado', usuario_id: user.id });
    expect((await api(user, 'GET', `/businesses/${biz}`)).json().code).toBe('NOT_MEMBER');
    expect((await api(user, 'GET', `/businesses/${biz}/clientes`)).statusCode).toBe(403);
    expect((await api(user, 'GET', '/businesses/')).json()).toEqual([]);
    expect((await api(owner, 'GET', `/businesses/${biz}/usuarios-pendientes`)).json()).toEqual([]);
    expect((await api(owner, 'GET', `/businesses/${biz}/notificaciones`)).json()).toEqual([]);
    // Approving a rejected user is not possible.
    const late = await api(owner, 'POST', `/businesses/${biz}/usuarios-pendientes/${user.id}/aprobar`, {});
    expect(late.statusCode).toBe(404);

    const again = await api(owner, 'POST', `/businesses/${biz}/invitaciones`, { email: user.email });
    const token = new URL(again.json().invitacion.enlace).searchParams.get('token')!;
    expect((await api(user, 'POST', `/invitaciones/${token}/aceptar`)).statusCode).toBe(200);
    expect((await api(user, 'GET', `/businesses/${biz}`)).json().code).toBe('MEMBERSHIP_PENDING');
  });

  it('permission changes and removal apply from the next request', async () => {
    const owner = await registerUser(app, 'Quita');
    const biz = await createBusiness(app, owner, 'Negocio Bajas');
    const user = await inviteAndAccept(owner, biz, 'Temporal');
    await approve(owner, biz, user, ['puede_ver_clientes', 'puede_ver_tareas']);
    const b = `/businesses/${biz}`;
    expect((await api(user, 'GET', `${b}/clientes`)).statusCode).toBe(200);
    expect((await api(user, 'GET', `${b}/finanzas/resumen`)).statusCode).toBe(403);

    const change = await api(owner, 'PUT', `${b}/usuarios/${user.id}/permisos`, {
      puede_ver_clientes: false,
      puede_ver_finanzas: true,
    });
    expect(change.statusCode).toBe(200);
    expect((await api(user, 'GET', `${b}/clientes`)).statusCode).toBe(403);
    expect((await api(user, 'GET', `${b}/finanzas/resumen`)).statusCode).toBe(200);

    const task = await api(owner, 'POST', `${b}/tareas`, { titulo: 'Cerrar caja', asignada_a: user.id });
    expect((await api(user, 'GET', `${b}/tareas/${task.json().id}`)).statusCode).toBe(200);

    const removed = await api(owner, 'DELETE', `${b}/usuarios/${user.id}`);
    expect(removed.statusCode).toBe(204);
    for (const path of ['', '/finanzas/resumen', '/tareas', '/notificaciones', '/permissions']) {
      const res = await api(user, 'GET', `${b}${path}`);
      expect(res.statusCode, path).toBe(403);
      expect(res.json().code).toBe('NOT_MEMBER');
    }
    expect((await api(user, 'GET', '/businesses/')).json()).toEqual([]);
    const t = (await api(owner, 'GET', `${b}/tareas/${task.json().id}`)).json();
    expect(t.asignada_a).toBeNull();
    const members = (await api(owner, 'GET', `${b}/usuarios`)).json();
    expect(members.map((m: { usuario_id: string }) => m.usuario_id)).toEqual([owner.id]);
  });
});
