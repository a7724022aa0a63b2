import type { PermissionKey } from '@mostrador/shared';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

// 12:00 in Buenos Aires (UTC−3) on Sunday 15 March 2026.
let clock = new Date('2026-03-15T15:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;

const owner = await registerUser(app, 'Ana');
const biz = await createBusiness(app, owner, 'Almacén Tareas');
const url = (path = '') => `/api/v1/businesses/${biz}/tareas${path}`;

async function member(nombre: string, flags: PermissionKey[], businessId = biz, admin = owner) {
  const u = await registerUser(app, nombre);
  await addMember(ctx, businessId, admin, u, flags);
  return u;
}

const viewer = await member('Vera', ['puede_ver_tareas']);
const editor = await member('Edu', ['puede_ver_tareas', 'puede_editar_tareas']);
const assigner = await member('Asia', ['puede_ver_tareas', 'puede_asignar_tareas']);
const deleter = await member('Delia', ['puede_ver_tareas', 'puede_eliminar_tareas']);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (u: TestUser, method: Method, path: string, payload?: object) =>
  app.inject({ method, url: url(path), headers: u.auth, ...(payload ? { payload } : {}) });

async function create(payload: Record<string, unknown>, u: TestUser = owner) {
  const res = await call(u, 'POST', '', payload);
  if (res.statusCode !== 201) throw new Error(`crear ${res.statusCode} ${res.body}`);
  return res.json();
}

describe('create and read', () => {
  it('creates a task with dates read in the business time zone and returns the contract object', async () => {
    const res = await call(owner, 'POST', '', {
      titulo: '  Contar inventario  ',
      descripcion: 'Depósito del fondo',
      fecha_inicio: '2026-03-20',
      fecha_fin: '2026-03-20T18:30',
      prioridad: 'alta',
      asignada_a_id: viewer.id,
      business_id: biz,
      creada_por: viewer.id,
    });
    expect(res.statusCode).toBe(201);
    const t = res.json();
    expect(t).toEqual({
      id: expect.any(String),
      titulo: 'Contar inventario',
      descripcion: 'Depósito del fondo',
      fecha_inicio: '2026-03-20T03:00:00.000Z',
      fecha_fin: '2026-03-20T21:30:00.000Z',
      estado: 'pendiente',
      prioridad: 'alta',
      vencida: false,
      asignada_a_id: viewer.id,
      asignada_a: { id: viewer.id, nombre: 'Vera', apellido: 'Prueba', email: viewer.email },
      creada_por_id: owner.id,
      creada_por: { id: owner.id, nombre: 'Ana', apellido: 'Prueba', email: owner.email },
      creado_en: clock.toISOString(),
      actualizado_en: clock.toISOString(),
    });
    const got = await call(owner, 'GET', `/${t.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(t);
    // Without and with a trailing slash.
    expect((await call(owner, 'GET', `/${t.id}/`)).statusCode).toBe(200);
  });

  it('keeps timestamps with an offset as given and defaults prioridad and estado', async () => {
    const t = await create({ titulo: 'Llamar al proveedor', fecha_fin: '2026-03-21T10:00:00-05:00' });
    expect(t).toMatchObject({
      fecha_inicio: null,
      fecha_fin: '2026-03-21T15:00:00.000Z',
      prioridad: 'media',
      estado: 'pendiente',
      asignada_a_id: null,
      asignada_a: null,
    });
  });

  it('validates the fields with Spanish messages', async () => {
    const cases: [object, string, string][] = [
      [{}, 'titulo', 'Este campo es obligatorio.'],
      [{ titulo: '   ' }, 'titulo', 'Este campo es obligatorio.'],
      [{ titulo: 'x'.repeat(201) }, 'titulo', 'Debe tener como máximo 200 caracteres.'],
      [{ titulo: 'a', descripcion: 'x'.repeat(2001) }, 'descripcion', 'Debe tener como máximo 2000 caracteres.'],
      [{ titulo: 'a', prioridad: 'altísima' }, 'prioridad', 'Valor no válido. Opciones: baja, media, alta, urgente.'],
      [
        { titulo: 'a', estado: 'hecha' },
        'estado',
        'Valor no válido. Opciones: pendiente, en_progreso, pausada, completada, cancelada.',
      ],
      [
        { titulo: 'a', fecha_inicio: '2026-02-30' },
        'fecha_inicio',
        'Fecha no válida (formato AAAA-MM-DD o AAAA-MM-DDTHH:MM).',
      ],
      [{ titulo: 'a', fecha_fin: 'mañana' }, 'fecha_fin', 'Fecha no válida (formato AAAA-MM-DD o AAAA-MM-DDTHH:MM).'],
      [{ titulo: 'a', asignada_a: 'no-es-un-id' }, 'asignada_a', 'Identificador no válido.'],
      [
        { titulo: 'a', fecha_inicio: '2026-03-20T10:00', fecha_fin: '2026-03-20T09:59' },
        'fecha_fin',
        'La fecha de fin no puede ser anterior a la de inicio.',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await call(owner, 'POST', '', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', detail: message });
      expect(res.json().errors[0]).toEqual({ field, message });
    }
    // Accepts the client's spellings of the state.
    const t = await create({ titulo: 'Ordenar', estado: 'En progreso', prioridad: 'URGENTE', asignada_a_id: '' });
    expect(t).toMatchObject({ estado: 'en_progreso', prioridad: 'urgente', asignada_a_id: null });
  });

  it('refuses to assign to a user who is not an accepted member of the business', async () => {
    const stranger = await registerUser(app, 'Extra');
    const otherOwner = await registerUser(app, 'Otro');
    const otherBiz = await createBusiness(app, otherOwner, 'Otro negocio');
    const elsewhere = await member('Lejos', ['puede_ver_tareas'], otherBiz, otherOwner);
    const pending = await registerUser(app, 'Pend');
    await ctx.sql(
      `INSERT INTO business_members (business_id, user_id, estado, permisos) VALUES ($1, $2, 'pendiente', '{}')`,
      [biz, pending.id],
    );
    const before = await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM tasks WHERE business_id = $1', [biz]);
    for (const who of [stranger.id, elsewhere.id, pending.id, otherOwner.id]) {
      const res = await call(owner, 'POST', '', { titulo: 'Asignación inválida', asignada_a: who });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        detail: 'El usuario asignado no pertenece a este negocio.',
        errors: [{ field: 'asignada_a', message: 'El usuario asignado no pertenece a este negocio.' }],
      });
    }
    const t = await create({ titulo: 'Válida' });
    const put = await call(owner, 'PUT', `/${t.id}`, { asignada_a: stranger.id });
    expect(put.statusCode).toBe(422);
    expect(put.json().detail).toBe('El usuario asignado no pertenece a este negocio.');
    const after = await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM tasks WHERE business_id = $1', [biz]);
    expect(after[0].n).toBe(before[0].n + 1);
  });

  it('answers 404 for a missing task, a malformed id and another business task', async () => {
    const otherOwner = await registerUser(app, 'Ajena');
    const otherBiz = await createBusiness(app, otherOwner, 'Ajeno');
    const foreign = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${otherBiz}/tareas`,
      headers: otherOwner.auth,
      payload: { titulo: 'De otro negocio' },
    });
    for (const id of [foreign.json().id, '00000000-0000-4000-8000-000000000000', 'no-es-un-id']) {
      for (const [method, payload] of [['GET'], ['PUT', { estado: 'completada' }], ['DELETE']] as const) {
        const res = await call(owner, method, `/${id}`, payload);
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND', detail: 'Tarea no encontrada.' });
      }
    }
    const mine = await call(owner, 'GET', '?por_pagina=100');
    expect(mine.json().tareas.some((t: { id: string }) => t.id === foreign.json().id)).toBe(false);
  });
});

describe('update', () => {
  it('updates only the given fields; null clears optional ones; a PUT without fields is refused', async () => {
    const t = await create({ titulo: 'Pintar vidriera', descripcion: 'Blanco', fecha_fin: '2026-03-25' });
    clock = new Date(clock.getTime() + 60_000);
    const res = await call(owner, 'PUT', `/${t.id}`, { descripcion: null, prioridad: 'baja', rol: 'x' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      titulo: 'Pintar vidriera',
      descripcion: null,
      prioridad: 'baja',
      fecha_fin: t.fecha_fin,
      actualizado_en: clock.toISOString(),
      creado_en: t.creado_en,
    });
    const empty = await call(owner, 'PUT', `/${t.id}`, { business_id: biz });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toBe('No hay datos para actualizar.');
    const nullTitle = await call(owner, 'PUT', `/${t.id}`, { titulo: null });
    expect(nullTitle.statusCode).toBe(422);
    expect(nullTitle.json().detail).toBe('Este campo es obligatorio.');
    const order = await call(owner, 'PUT', `/${t.id}`, { fecha_inicio: '2026-03-26' });
    expect(order.statusCode).toBe(422);
    expect(order.json().detail).toBe('La fecha de fin no puede ser anterior a la de inicio.');
    const cleared = await call(owner, 'PUT', `/${t.id}`, { fecha_fin: '', fecha_inicio: '2026-03-26' });
    expect(cleared.json()).toMatchObject({ fecha_fin: null, fecha_inicio: '2026-03-26T03:00:00.000Z' });
  });

  it('computes vencida from the injected clock', async () => {
    const t = await create({ titulo: 'Pagar luz', fecha_fin: '2026-03-15T20:00' });
    expect(t.vencida).toBe(false);
    const saved = clock;
    clock = new Date('2026-03-15T23:00:01Z'); // 20:00:01 in Buenos Aires
    try {
      expect((await call(owner, 'GET', `/${t.id}`)).json().vencida).toBe(true);
      const done = await call(owner, 'PUT', `/${t.id}`, { estado: 'completada' });
      expect(done.json().vencida).toBe(false);
      const cancelled = await call(owner, 'PUT', `/${t.id}`, { estado: 'cancelada' });
      expect(cancelled.json().vencida).toBe(false);
      const paused = await call(owner, 'PUT', `/${t.id}`, { estado: 'pausada' });
      expect(paused.json().vencida).toBe(true);
      const overdue = await call(owner, 'GET', '?vencida=true&por_pagina=100');
      expect(overdue.json().tareas.map((x: { id: string }) => x.id)).toContain(t.id);
    } finally {
      clock = saved;
    }
  });
});

describe('permissions and visibility', () => {
  it('creating needs tareas/asignar', async () => {
    for (const u of [viewer, editor, deleter]) {
      const res = await call(u, 'POST', '', { titulo: 'No debería' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'FORBIDDEN',
        modulo: 'tareas',
        accion: 'asignar',
        detail: 'No tenés permisos para asignar tareas.',
      });
    }
    const ok = await call(assigner, 'POST', '', { titulo: 'Reponer góndola', asignada_a: editor.id });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().creada_por_id).toBe(assigner.id);
  });

  it('members without asignar or editar see only tasks assigned to them or created by them', async () => {
    const own = await create({ titulo: 'Para Delia', asignada_a: deleter.id });
    const others = await create({ titulo: 'Para Vera (visibilidad)', asignada_a: viewer.id });
    const nobody = await create({ titulo: 'Sin asignar (visibilidad)' });

    const ids = async (u: TestUser) =>
      (await call(u, 'GET', '?por_pagina=100')).json().tareas.map((t: { id: string }) => t.id) as string[];
    const deleterSees = await ids(deleter);
    expect(deleterSees).toContain(own.id);
    expect(deleterSees).not.toContain(others.id);
    expect(deleterSees).not.toContain(nobody.id);
    for (const [u, id] of [
      [deleter, others.id],
      [viewer, own.id],
      [viewer, nobody.id],
    ] as const) {
      expect((await call(u, 'GET', `/${id}`)).statusCode).toBe(404);
      expect((await call(u, 'PUT', `/${id}`, { estado: 'completada' })).statusCode).toBe(404);
    }
    expect((await call(deleter, 'DELETE', `/${others.id}`)).statusCode).toBe(404);

    // Holding editar or asignar, or being admin, shows every task.
    for (const u of [editor, assigner, owner]) {
      const seen = await ids(u);
      expect(seen).toEqual(expect.arrayContaining([own.id, others.id, nobody.id]));
    }

    // The viewer's list is exactly the tasks assigned to or created by them.
    const rows = await ctx.sql<{ id: string }>(
      'SELECT id FROM tasks WHERE business_id = $1 AND (asignada_a = $2 OR creada_por = $2)',
      [biz, viewer.id],
    );
    expect((await ids(viewer)).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('the assignee with only ver may change the state alone; other changes need editar', async () => {
    const t = await create({ titulo: 'Limpiar depósito', asignada_a: viewer.id });
    const state = await call(viewer, 'PUT', `/${t.id}`, { estado: 'en_progreso', business_id: biz });
    expect(state.statusCode).toBe(200);
    expect(state.json().estado).toBe('en_progreso');
    for (const payload of [{ titulo: 'Otro' }, { estado: 'completada', prioridad: 'alta' }, { asignada_a: null }]) {
      const res = await call(viewer, 'PUT', `/${t.id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', accion: 'editar', modulo: 'tareas' });
    }
    // 403 comes before 422.
    expect((await call(viewer, 'PUT', `/${t.id}`, { prioridad: 'altísima' })).statusCode).toBe(403);
    // An assigner who is not the assignee cannot change the state of someone else's task.
    const notMine = await call(assigner, 'PUT', `/${t.id}`, { estado: 'completada' });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().accion).toBe('editar');
    const stored = await ctx.sql<{ estado: string; titulo: string }>('SELECT estado, titulo FROM tasks WHERE id = $1', [
      t.id,
    ]);
    expect(stored[0]).toEqual({ estado: 'en_progreso', titulo: 'Limpiar depósito' });
  });

  it('changing the assignee needs asignar as well as editar', async () => {
    const t = await create({ titulo: 'Revisar precios', asignada_a: viewer.id });
    const denied = await call(editor, 'PUT', `/${t.id}`, { asignada_a: editor.id, titulo: 'Revisar precios ya' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ accion: 'asignar', detail: 'No tenés permisos para asignar tareas.' });
    // The same assignee echoed back is not a change.
    const same = await call(editor, 'PUT', `/${t.id}`, { asignada_a_id: viewer.id, titulo: 'Revisar precios ya' });
    expect(same.statusCode).toBe(200);
    expect(same.json().titulo).toBe('Revisar precios ya');
    const moved = await call(owner, 'PUT', `/${t.id}`, { asignada_a: editor.id });
    expect(moved.json()).toMatchObject({ asignada_a_id: editor.id, asignada_a: { id: editor.id, nombre: 'Edu' } });
    const unassigned = await call(owner, 'PUT', `/${t.id}`, { asignada_a: null });
    expect(unassigned.json()).toMatchObject({ asignada_a_id: null, asignada_a: null });
  });

  it('deleting needs eliminar and a visible task', async () => {
    const t = await create({ titulo: 'Borrable', asignada_a: deleter.id });
    for (const u of [viewer, editor, assigner]) {
      const res = await call(u, 'DELETE', `/${t.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().accion).toBe('eliminar');
    }
    const ok = await call(deleter, 'DELETE', `/${t.id}`);
    expect(ok.statusCode).toBe(204);
    expect(ok.body).toBe('');
    expect((await call(owner, 'GET', `/${t.id}`)).statusCode).toBe(404);
  });

  it('the employee list needs asignar and lists accepted members, creator first', async () => {
    expect((await call(viewer, 'GET', '/empleados')).statusCode).toBe(403);
    expect((await call(editor, 'GET', '/empleados')).statusCode).toBe(403);
    const res = await call(assigner, 'GET', '/empleados');
    expect(res.statusCode).toBe(200);
    const list = res.json().empleados;
    expect(list[0]).toEqual({
      id: owner.id,
      nombre: 'Ana',
      apellido: 'Prueba',
      email: owner.email,
      rol: 'admin',
      nombre_completo: 'Ana Prueba',
    });
    const accepted = await ctx.sql<{ user_id: string }>(
      `SELECT user_id FROM business_members WHERE business_id = $1 AND estado = 'aceptado'`,
      [biz],
    );
    expect(list.map((e: { id: string }) => e.id).sort()).toEqual(accepted.map((r) => r.user_id).sort());
  });
});

describe('lists, statistics and calendar', () => {
  // A business of its own, so the numbers are exact.
  const setup = async () => {
    const boss = await registerUser(app, 'Jefa');
    const id = await createBusiness(app, boss, 'Taller Estadísticas');
    const worker = await member('Obrero', ['puede_ver_tareas'], id, boss);
    const post = async (payload: Record<string, unknown>) => {
      clock = new Date(clock.getTime() + 1000);
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/businesses/${id}/tareas`,
        headers: boss.auth,
        payload,
      });
      if (res.statusCode !== 201) throw new Error(res.body);
      return res.json();
    };
    const get = (u: TestUser, path: string) =>
      app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/tareas${path}`, headers: u.auth });
    return { boss, id, worker, post, get };
  };

  it('filters, searches and paginates in the wrapper shape, newest first', async () => {
    const { boss, worker, post, get } = await setup();
    const a = await post({ titulo: 'Lámpara del mostrador', prioridad: 'alta', asignada_a: worker.id });
    const b = await post({ titulo: 'Cambiar cerradura', descripcion: 'Puerta del depósito', estado: 'en_progreso' });
    const c = await post({ titulo: 'Inventario anual', prioridad: 'urgente', estado: 'pausada' });
    const d = await post({ titulo: 'Factura de gas', estado: 'completada', asignada_a: worker.id });

    const all = await get(boss, '');
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({
      tareas: [d, c, b, a].map((t) => expect.objectContaining({ id: t.id })),
      total: 4,
      pagina: 1,
      por_pagina: 20,
      total_paginas: 1,
    });
    const ids = async (path: string, u = boss) => (await get(u, path)).json().tareas.map((t: { id: string }) => t.id);
    expect(await ids('?estado=pendiente,en_progreso')).toEqual([b.id, a.id]);
    expect(await ids('?estado=en progreso')).toEqual([b.id]);
    expect(await ids('?prioridad=urgente')).toEqual([c.id]);
    expect(await ids(`?asignada_a=${worker.id}`)).toEqual([d.id, a.id]);
    expect(await ids(`?asignada_a_id=${worker.id}&estado=completada`)).toEqual([d.id]);
    expect(await ids('?asignada_a=ninguno')).toEqual([c.id, b.id]);
    expect(await ids('?q=lampara')).toEqual([a.id]);
    expect(await ids('?busqueda=DEPÓSITO')).toEqual([b.id]);
    expect(await ids('?q=50%25')).toEqual([]);
    expect(await ids('?estado=')).toHaveLength(4);

    const page2 = (await get(boss, '?por_pagina=3&pagina=2')).json();
    expect(page2).toMatchObject({ total: 4, pagina: 2, por_pagina: 3, total_paginas: 2 });
    expect(page2.tareas.map((t: { id: string }) => t.id)).toEqual([a.id]);
    expect((await get(boss, '?por_pagina=1000')).json().por_pagina).toBe(100);
    for (const bad of ['?pagina=0', '?por_pagina=-1', '?pagina=1.5', '?estado=hecha', '?asignada_a=x']) {
      expect((await get(boss, bad)).statusCode, bad).toBe(422);
    }
    // The worker sees only the two tasks assigned to them.
    expect(await ids('', worker)).toEqual([d.id, a.id]);
  });

  it('sorts the list by title, priority, state, end date and creation either way', async () => {
    const { boss, post, get } = await setup();
    const a = await post({ titulo: 'Órdenes de compra', prioridad: 'alta', fecha_fin: '2026-04-02' });
    const b = await post({ titulo: 'barrer', prioridad: 'baja', estado: 'completada' });
    const c = await post({
      titulo: 'Cerrar caja',
      prioridad: 'urgente',
      estado: 'en_progreso',
      fecha_fin: '2026-03-20',
    });
    const ids = async (path: string) => (await get(boss, path)).json().tareas.map((t: { id: string }) => t.id);
    expect(await ids('?orden=titulo')).toEqual([b.id, c.id, a.id]);
    expect(await ids('?orden=titulo&direccion=desc')).toEqual([a.id, c.id, b.id]);
    expect(await ids('?orden=prioridad')).toEqual([b.id, a.id, c.id]);
    expect(await ids('?orden=prioridad&direccion=DESC')).toEqual([c.id, a.id, b.id]);
    expect(await ids('?orden=estado')).toEqual([a.id, c.id, b.id]);
    // Tasks without an end date go last either way.
    expect(await ids('?orden=fecha_fin')).toEqual([c.id, a.id, b.id]);
    expect(await ids('?orden=fecha_fin&direccion=desc')).toEqual([a.id, c.id, b.id]);
    expect(await ids('?orden=creado_en')).toEqual([a.id, b.id, c.id]);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    for (const bad of ['?orden=color', '?direccion=arriba']) {
      const res = await get(boss, bad);
      expect(res.statusCode, bad).toBe(422);
      expect(res.body, bad).toMatch(/Valor no válido/);
    }
  });

  it('statistics count the visible tasks exactly', async () => {
    const { boss, worker, post, get } = await setup();
    const spec: [string, string, string | null, boolean][] = [
      // estado, prioridad, fecha_fin, assigned to worker
      ['pendiente', 'media', '2026-03-10', true], // overdue
      ['pendiente', 'baja', null, false],
      ['pendiente', 'urgente', '2026-04-01', true],
      ['en_progreso', 'alta', '2026-03-14', false], // overdue
      ['pausada', 'media', '2026-03-01', true], // overdue
      ['completada', 'media', '2026-03-01', true], // finished: not overdue
      ['completada', 'media', null, false],
      ['cancelada', 'urgente', '2026-03-02', false], // cancelled: not overdue
    ];
    for (const [estado, prioridad, fin, mine] of spec) {
      await post({
        titulo: `${estado} ${prioridad}`,
        estado,
        prioridad,
        fecha_fin: fin,
        asignada_a: mine ? worker.id : null,
      });
    }
    const res = await get(boss, '/estadisticas');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      total: 8,
      total_tareas: 8,
      pendientes: 3,
      en_progreso: 1,
      pausadas: 1,
      completadas: 2,
      canceladas: 1,
      vencidas: 3,
      por_prioridad: { baja: 1, media: 4, alta: 1, urgente: 2 },
    });
    expect((await get(worker, '/estadisticas')).json()).toEqual({
      total: 4,
      total_tareas: 4,
      pendientes: 2,
      en_progreso: 0,
      pausadas: 1,
      completadas: 1,
      canceladas: 0,
      vencidas: 2,
      por_prioridad: { baja: 0, media: 3, alta: 0, urgente: 1 },
    });
  });

  it('the calendar shows tasks whose span overlaps the range, with colours', async () => {
    const { boss, worker, post, get } = await setup();
    const span = await post({ titulo: 'Atraviesa el mes', fecha_inicio: '2026-02-25', fecha_fin: '2026-03-02' });
    const before = await post({ titulo: 'Antes', fecha_inicio: '2026-02-20', fecha_fin: '2026-02-28T23:59' });
    const startOnly = await post({ titulo: 'Solo inicio', fecha_inicio: '2026-03-31T23:30', prioridad: 'urgente' });
    const endOnly = await post({
      titulo: 'Solo fin',
      fecha_fin: '2026-03-01T00:00',
      prioridad: 'alta',
      asignada_a: worker.id,
    });
    const after = await post({ titulo: 'Después', fecha_inicio: '2026-04-01T00:00', fecha_fin: '2026-04-03' });
    const undated = await post({ titulo: 'Sin fechas' });
    const done = await post({
      titulo: 'Hecha',
      fecha_inicio: '2026-03-10',
      estado: 'completada',
      prioridad: 'urgente',
    });
    const progress = await post({ titulo: 'En curso', fecha_fin: '2026-03-12', estado: 'en_progreso' });

    const res = await get(boss, '/calendario?desde=2026-03-01&hasta=2026-03-31');
    expect(res.statusCode).toBe(200);
    const got = res.json() as { id: string; color: string }[];
    const byId = Object.fromEntries(got.map((t) => [t.id, t]));
    expect(Object.keys(byId).sort()).toEqual([span.id, startOnly.id, endOnly.id, done.id, progress.id].sort());
    expect(byId[before.id]).toBeUndefined();
    expect(byId[after.id]).toBeUndefined();
    expect(byId[undated.id]).toBeUndefined();
    expect(byId[span.id].color).toBe('#6b7280');
    expect(byId[startOnly.id].color).toBe('#ef4444');
    expect(byId[endOnly.id].color).toBe('#f59e0b');
    expect(byId[done.id].color).toBe('#10b981');
    expect(byId[progress.id].color).toBe('#3b82f6');
    // Ordered by start (or the single date).
    expect(got.map((t) => t.id)).toEqual([span.id, endOnly.id, done.id, progress.id, startOnly.id]);

    // Aliases; the default is the current month (March 2026 in Buenos Aires).
    const aliases = await get(boss, '/calendario?fecha_inicio=2026-03-01&fecha_fin=2026-03-31');
    expect(aliases.json()).toEqual(got);
    expect((await get(boss, '/calendario')).json()).toEqual(got);
    // A single day: the span and the tasks on that day.
    const day = (await get(boss, '/calendario?desde=2026-03-01&hasta=2026-03-01')).json();
    expect(day.map((t: { id: string }) => t.id).sort()).toEqual([span.id, endOnly.id].sort());
    // The member sees only their own.
    const mine = (await get(worker, '/calendario?desde=2026-01-01&hasta=2026-12-31')).json();
    expect(mine.map((t: { id: string }) => t.id)).toEqual([endOnly.id]);

    const inverted = await get(boss, '/calendario?desde=2026-03-31&hasta=2026-03-01');
    expect(inverted.statusCode).toBe(422);
    expect(inverted.json().detail).toBe('La fecha desde no puede ser posterior a la fecha hasta.');
    expect((await get(boss, '/calendario?desde=2026-01-01&hasta=2027-01-02')).statusCode).toBe(422);
    expect((await get(boss, '/calendario?desde=2026-01-01&hasta=2027-01-01')).statusCode).toBe(200);
    expect((await get(boss, '/calendario?desde=2026-13-01')).statusCode).toBe(422);
  });
});

describe('membership', () => {
  it('removing a member unassigns their tasks, and the removal applies from the next request', async () => {
    const boss = await registerUser(app, 'Jefe');
    const id = await createBusiness(app, boss, 'Negocio con bajas');
    const leaving = await member('Saliente', ['puede_ver_tareas'], id, boss);
    const staying = await member('Queda', ['puede_ver_tareas'], id, boss);
    const at = (path: string) => `/api/v1/businesses/${id}/tareas${path}`;
    const post = async (payload: object) =>
      (await app.inject({ method: 'POST', url: at(''), headers: boss.auth, payload })).json();
    const t1 = await post({ titulo: 'Tarea de quien se va', asignada_a: leaving.id });
    const t2 = await post({ titulo: 'Otra de quien se va', asignada_a: leaving.id });
    const t3 = await post({ titulo: 'De quien se queda', asignada_a: staying.id });
    expect((await app.inject({ method: 'GET', url: at(`/${t1.id}`), headers: leaving.auth })).statusCode).toBe(200);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${id}/usuarios/${leaving.id}`,
      headers: boss.auth,
    });
    expect(removed.statusCode).toBe(204);
    for (const t of [t1, t2]) {
      const res = await app.inject({ method: 'GET', url: at(`/${t.id}`), headers: boss.auth });
      expect(res.json()).toMatchObject({ asignada_a_id: null, asignada_a: null, titulo: t.titulo });
    }
    const kept = await app.inject({ method: 'GET', url: at(`/${t3.id}`), headers: boss.auth });
    expect(kept.json().asignada_a_id).toBe(staying.id);
    const after = await app.inject({ method: 'GET', url: at(''), headers: leaving.auth });
    expect(after.statusCode).toBe(403);
    expect(after.json().code).toBe('NOT_MEMBER');
  });
});
