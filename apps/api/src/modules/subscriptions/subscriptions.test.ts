import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

// "Today" is 2026-03-15 in Buenos Aires.
const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;
let ana: string;
let beto: string;
let gym: { id: string };
let foreignCustomer: string;
let foreignService: { id: string };

const url = (path = '', b = biz) => `/api/v1/businesses/${b}/subscriptions${path}`;
const get = (path = '', u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url('', b), headers: u.auth, payload: payload as object });
const put = (id: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(`/${id}`, b), headers: u.auth, payload: payload as object });
const patch = (id: string, query: string, payload?: object, u = owner) =>
  app.inject({
    method: 'PATCH',
    url: url(`/${id}/estado${query}`),
    headers: u.auth,
    ...(payload ? { payload } : {}),
  });
const del = (id: string, u = owner) => app.inject({ method: 'DELETE', url: url(`/${id}`), headers: u.auth });

async function customer(b: string, u: TestUser, nombre: string, apellido?: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${b}/clientes`,
    headers: u.auth,
    payload: { nombre, apellido },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function service(b: string, u: TestUser, nombre: string, precio: number) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${b}/services`,
    headers: u.auth,
    payload: { nombre, precio },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

async function sub(payload: object) {
  const res = await post({ cliente_id: ana, frecuencia: 'mensual', ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Gimnasio Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Gimnasio Beto');
  ana = await customer(biz, owner, 'Ana', 'Pérez');
  beto = await customer(biz, owner, 'Beto', 'Acosta');
  gym = await service(biz, owner, 'Abono gimnasio', 15000);
  foreignCustomer = await customer(otherBiz, otherOwner, 'Ajena');
  foreignService = await service(otherBiz, otherOwner, 'Ajeno', 1);
});

describe('subscriptions', () => {
  it('creates a subscription to a service, taking its name and price, with the client aliases', async () => {
    const res = await post({
      cliente_id: ana,
      servicio_id: gym.id,
      tipo: 'mensual',
      fecha_inicio: '2026-03-01',
      dia_cobro: 5,
      business_id: otherBiz,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      cliente_id: ana,
      cliente_nombre: 'Ana Pérez',
      servicio_id: gym.id,
      servicio_nombre: 'Abono gimnasio',
      nombre: 'Abono gimnasio',
      descripcion: null,
      precio: 15000,
      frecuencia: 'mensual',
      tipo: 'mensual',
      fecha_inicio: '2026-03-01',
      fecha_fin: null,
      // The client's billing day is kept and the charges fall on it.
      dia_cobro: 5,
      dia_cobro_semanal: null,
      estado: 'activa',
      proximo_cobro: '2026-04-05',
      fecha_proximo_pago: '2026-04-05',
      creado_en: expect.any(String),
      actualizado_en: expect.any(String),
    });
    const audit = await ctx.sql('SELECT entidad, accion FROM audit_log WHERE entidad_id = $1', [res.json().id]);
    expect(audit).toEqual([{ entidad: 'suscripcion', accion: 'crear' }]);
  });

  it('starts today by default and accepts a name and price without a service', async () => {
    const s = await sub({
      nombre: 'Clases de guitarra',
      precio: '20000.50',
      frecuencia: 'semanal',
      descripcion: 'Martes',
    });
    expect(s).toMatchObject({
      servicio_id: null,
      servicio_nombre: null,
      nombre: 'Clases de guitarra',
      precio: 20000.5,
      fecha_inicio: '2026-03-15',
      proximo_cobro: '2026-03-15',
    });
  });

  it.each([
    ['mensual', '2026-01-31', null, '2026-03-31'],
    ['mensual', '2025-12-15', null, '2026-03-15'],
    ['semanal', '2026-03-02', null, '2026-03-16'],
    ['trimestral', '2025-11-30', null, '2026-05-30'],
    ['cuatrimestral', '2025-03-20', null, '2026-03-20'],
    ['semestral', '2025-08-31', null, '2026-08-31'],
    ['anual', '2024-02-29', null, '2027-02-28'],
    ['mensual', '2026-06-10', null, '2026-06-10'],
    ['mensual', '2026-01-20', '2026-04-10', '2026-03-20'],
    ['mensual', '2026-01-20', '2026-03-19', null],
  ])('next charge of %s from %s (end %s) is %s', async (frecuencia, fecha_inicio, fecha_fin, expected) => {
    const s = await sub({ nombre: 'Serie', precio: 1, frecuencia, fecha_inicio, fecha_fin });
    expect(s.proximo_cobro).toBe(expected);
  });

  it('reads an active subscription past its end as vencida, without a next charge', async () => {
    const s = await sub({ nombre: 'Terminada', precio: 1, fecha_inicio: '2025-01-01', fecha_fin: '2026-03-14' });
    expect(s).toMatchObject({ estado: 'vencida', proximo_cobro: null });
    const paused = await sub({ nombre: 'Pausada', precio: 1, estado: 'pausada' });
    expect(paused).toMatchObject({ estado: 'pausada', proximo_cobro: null });
  });

  it.each([
    [{ frecuencia: 'mensual', nombre: 'x', precio: 1 }, 'cliente_id', 'Este campo es obligatorio.'],
    [{ cliente_id: 'x', frecuencia: 'mensual', nombre: 'x', precio: 1 }, 'cliente_id', 'Identificador no válido.'],
    [{ nombre: 'x', precio: 1 }, 'frecuencia', 'Este campo es obligatorio.'],
    [
      { frecuencia: 'diaria', nombre: 'x', precio: 1 },
      'frecuencia',
      'Valor no válido. Opciones: semanal, mensual, trimestral, cuatrimestral, semestral, anual.',
    ],
    [{ frecuencia: 'mensual', precio: 1 }, 'nombre', 'Indicá un servicio o un nombre para la suscripción.'],
    [{ frecuencia: 'mensual', nombre: 'x' }, 'precio', 'Indicá el precio de la suscripción.'],
    [{ frecuencia: 'mensual', nombre: 'x', precio: -1 }, 'precio', 'Debe ser mayor o igual a 0.'],
    [{ frecuencia: 'mensual', nombre: 'x'.repeat(101), precio: 1 }, 'nombre', 'Debe tener como máximo 100 caracteres.'],
    [
      { frecuencia: 'mensual', nombre: 'x', precio: 1, fecha_inicio: '2026-03-10', fecha_fin: '2026-03-09' },
      'fecha_fin',
      'La fecha de fin no puede ser anterior a la de inicio.',
    ],
    [
      { frecuencia: 'mensual', nombre: 'x', precio: 1, fecha_inicio: '2026-02-30' },
      'fecha_inicio',
      'Fecha no válida (formato AAAA-MM-DD).',
    ],
    [
      { frecuencia: 'mensual', nombre: 'x', precio: 1, estado: 'borrada' },
      'estado',
      'Estado no válido. Opciones: activa, pausada, cancelada, vencida.',
    ],
  ])('refuses %j with 422 on %s', async (payload, field, message) => {
    const before = await ctx.sql('SELECT id FROM subscriptions');
    const body = { cliente_id: ana, ...payload } as Record<string, unknown>;
    if (!('cliente_id' in payload)) body.cliente_id = field === 'cliente_id' ? undefined : ana;
    const res = await post(body);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await ctx.sql('SELECT id FROM subscriptions')).toHaveLength(before.length);
  });

  it("refuses another business's customer or service (422)", async () => {
    const c = await post({ cliente_id: foreignCustomer, frecuencia: 'mensual', nombre: 'x', precio: 1 });
    expect(c.statusCode).toBe(422);
    expect(c.json().errors).toEqual([{ field: 'cliente_id', message: 'Cliente no encontrado en este negocio.' }]);
    const s = await post({ cliente_id: ana, servicio_id: foreignService.id, frecuencia: 'mensual' });
    expect(s.statusCode).toBe(422);
    expect(s.json().errors).toEqual([{ field: 'servicio_id', message: 'Servicio no encontrado en este negocio.' }]);
  });

  it('changes the estado with its own call (query string or body) and audits it', async () => {
    const s = await sub({ servicio_id: gym.id });
    const paused = await patch(s.id, '?estado=pausada');
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ estado: 'pausada', proximo_cobro: null });
    const active = await patch(s.id, '', { estado: 'ACTIVA' });
    expect(active.json()).toMatchObject({ estado: 'activa', proximo_cobro: '2026-03-15' });
    const cancelled = await patch(s.id, '?estado=cancelada', {});
    expect(cancelled.json().estado).toBe('cancelada');
    const bad = await patch(s.id, '?estado=borrada');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBe('Estado no válido. Opciones: activa, pausada, cancelada, vencida.');
    expect((await patch(s.id, '')).statusCode).toBe(422);
    const audit = await ctx.sql('SELECT accion, antes, despues FROM audit_log WHERE entidad_id = $1 ORDER BY fecha', [
      s.id,
    ]);
    expect(audit.map((a) => a.despues)).toEqual([
      expect.anything(),
      { estado: 'pausada' },
      { estado: 'activa' },
      { estado: 'cancelada' },
    ]);
  });

  it('updates partially, rechecking the rules on the whole subscription', async () => {
    const s = await sub({ servicio_id: gym.id, fecha_inicio: '2026-03-01' });
    const res = await put(s.id, { precio: 16000, tipo: 'trimestral', descripcion: 'Con descuento' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      precio: 16000,
      frecuencia: 'trimestral',
      tipo: 'trimestral',
      proximo_cobro: '2026-06-01',
    });
    const end = await put(s.id, { fecha_fin: '2026-02-01' });
    expect(end.statusCode).toBe(422);
    expect(end.json().detail).toBe('La fecha de fin no puede ser anterior a la de inicio.');
    // Clearing the price takes the service's again.
    expect((await put(s.id, { precio: null })).json().precio).toBe(15000);
    expect((await put(s.id, { cliente_id: beto })).json().cliente_nombre).toBe('Beto Acosta');
    expect((await put(s.id, { cliente_id: foreignCustomer })).statusCode).toBe(422);
    expect((await put(s.id, {})).json().detail).toBe('No hay datos para actualizar.');
    const own = await sub({ nombre: 'Sin servicio', precio: 1 });
    expect((await put(own.id, { nombre: null })).json().detail).toBe(
      'Indicá un servicio o un nombre para la suscripción.',
    );
  });

  it('lists with filters on customer, service, estado (as read) and text, paged, never another business', async () => {
    const b = await createBusiness(app, owner, 'Filtros');
    const c1 = await customer(b, owner, 'Zoe', 'Álvarez');
    const c2 = await customer(b, owner, 'Luis', 'Núñez');
    const yoga = await service(b, owner, 'Yoga', 9000);
    const mk = async (payload: object) => {
      const r = await post({ frecuencia: 'mensual', ...payload }, owner, b);
      expect(r.statusCode, r.body).toBe(201);
      return r.json();
    };
    await mk({ cliente_id: c1, servicio_id: yoga.id });
    await mk({ cliente_id: c2, servicio_id: yoga.id, estado: 'pausada' });
    await mk({ cliente_id: c2, nombre: 'Pilates', precio: 8000, fecha_inicio: '2025-01-01', fecha_fin: '2026-01-01' });
    const names = async (q: string) =>
      (await get(q, owner, b))
        .json()
        .map((s: { cliente_nombre: string; nombre: string }) => `${s.cliente_nombre}/${s.nombre}`);
    expect(await names('')).toEqual(['Zoe Álvarez/Yoga', 'Luis Núñez/Pilates', 'Luis Núñez/Yoga']);
    expect((await get('', owner, b)).headers['x-total-count']).toBe('3');
    expect(await names(`?cliente_id=${c2}`)).toEqual(['Luis Núñez/Pilates', 'Luis Núñez/Yoga']);
    expect(await names(`?servicio_id=${yoga.id}`)).toEqual(['Zoe Álvarez/Yoga', 'Luis Núñez/Yoga']);
    expect(await names('?estado=vencida')).toEqual(['Luis Núñez/Pilates']);
    expect(await names('?estado=activa')).toEqual(['Zoe Álvarez/Yoga']);
    expect(await names('?q=nunez pila')).toEqual(['Luis Núñez/Pilates']);
    expect(await names('?limit=1&offset=1')).toEqual(['Luis Núñez/Pilates']);
    // Another business's customer is not "no results" but invalid input (API-CONTRACT §1.3).
    for (const bad of ['?estado=x', '?cliente_id=x', '?limit=0', `?cliente_id=${foreignCustomer}`])
      expect((await get(bad, owner, b)).statusCode).toBe(422);
  });

  it('gets and deletes; missing, malformed and foreign ids are 404', async () => {
    const s = await sub({ nombre: 'Borrable', precio: 1 });
    expect((await get(`/${s.id}`)).json().nombre).toBe('Borrable');
    expect((await del(s.id)).statusCode).toBe(204);
    const other = await post(
      { cliente_id: foreignCustomer, nombre: 'Ajena', precio: 1, frecuencia: 'anual' },
      otherOwner,
      otherBiz,
    );
    for (const id of [s.id, randomUUID(), 'nope', other.json().id]) {
      const res = await get(`/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Suscripción no encontrada.', code: 'NOT_FOUND' });
      expect((await put(id, { nombre: 'X' })).statusCode).toBe(404);
      expect((await patch(id, '?estado=pausada')).statusCode).toBe(404);
      expect((await del(id)).statusCode).toBe(404);
    }
  });

  it('keeps a customer with subscriptions from being deleted (409)', async () => {
    const c = await customer(biz, owner, 'Suscripto');
    await sub({ cliente_id: c, nombre: 'Algo', precio: 1 });
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/v1/businesses/${biz}/clientes/${c}`,
      headers: owner.auth,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('IN_USE');
  });

  it('checks the productos flags', async () => {
    const s = await sub({ nombre: 'Protegida', precio: 1 });
    const viewer = await registerUser(app, 'Vera');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_productos']);
    expect((await get('', viewer)).statusCode).toBe(200);
    expect((await patch(s.id, '?estado=pausada', undefined, viewer)).json()).toMatchObject({
      code: 'FORBIDDEN',
      modulo: 'productos',
      accion: 'editar',
    });
    expect((await del(s.id, viewer)).json()).toMatchObject({ code: 'FORBIDDEN', accion: 'eliminar' });
  });
});
