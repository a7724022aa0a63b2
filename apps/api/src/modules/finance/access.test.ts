import type { PermissionKey } from '@mostrador/shared';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp();
const { app } = ctx;

let owner: TestUser;
let biz: string;
let ids: { categoria: string; movimiento: string; cuenta: string };

const url = (path: string) => `/api/v1/businesses/${biz}/finanzas/${path}`;

/** Every finance route with the action it needs (API-CONTRACT §1.5: GET ver, POST/PUT editar, DELETE eliminar). */
const routes = (): {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  accion: 'ver' | 'editar' | 'eliminar';
  payload?: object;
}[] => [
  { method: 'GET', path: 'categorias', accion: 'ver' },
  { method: 'POST', path: 'categorias', accion: 'editar', payload: { nombre: 'Nueva', tipo: 'egreso' } },
  { method: 'PUT', path: `categorias/${ids.categoria}`, accion: 'editar', payload: { descripcion: 'x' } },
  { method: 'DELETE', path: `categorias/${ids.categoria}`, accion: 'eliminar' },
  { method: 'GET', path: 'movimientos', accion: 'ver' },
  { method: 'POST', path: 'movimientos', accion: 'editar', payload: { monto: 1, metodo_pago: 'efectivo' } },
  { method: 'PUT', path: `movimientos/${ids.movimiento}`, accion: 'editar', payload: { descripcion: 'x' } },
  { method: 'DELETE', path: `movimientos/${ids.movimiento}`, accion: 'eliminar' },
  { method: 'GET', path: 'resumen', accion: 'ver' },
  { method: 'GET', path: 'flujo-caja?mes=3&anio=2026', accion: 'ver' },
  { method: 'GET', path: 'cuentas-cobrar', accion: 'ver' },
  { method: 'GET', path: 'cuentas-pagar', accion: 'ver' },
  {
    method: 'POST',
    path: 'cuentas',
    accion: 'editar',
    payload: {
      tipo: 'por_pagar',
      proveedor_nombre: 'Sur',
      monto: 1,
      fecha_vencimiento: '2099-01-01',
      descripcion: 'x',
    },
  },
  { method: 'PUT', path: `cuentas/${ids.cuenta}`, accion: 'editar', payload: { descripcion: 'x' } },
  { method: 'PUT', path: `cuentas/${ids.cuenta}/marcar-pagado`, accion: 'editar', payload: {} },
  { method: 'DELETE', path: `cuentas/${ids.cuenta}`, accion: 'eliminar' },
];

const call = (u: TestUser | null, r: ReturnType<typeof routes>[number]) =>
  app.inject({
    method: r.method,
    url: url(r.path),
    headers: u ? u.auth : {},
    ...(r.payload ? { payload: r.payload } : {}),
  });

async function member(flags: PermissionKey[]) {
  const u = await registerUser(app, 'Empleado');
  await addMember(ctx, biz, owner, u, flags);
  return u;
}

const snapshot = () =>
  Promise.all([
    ctx.sql('SELECT * FROM finance_categories ORDER BY id'),
    ctx.sql('SELECT * FROM finance_movements ORDER BY id'),
    ctx.sql('SELECT * FROM finance_accounts ORDER BY id'),
  ]);

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner);
});

// Fresh objects for every test: the allowed calls delete and pay them.
beforeEach(async () => {
  const post = async (path: string, payload: object) => {
    const r = await app.inject({ method: 'POST', url: url(path), headers: owner.auth, payload });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().id as string;
  };
  ids = {
    categoria: await post('categorias', { nombre: `Alquiler ${Math.random()}`, tipo: 'egreso' }),
    movimiento: await post('movimientos', { monto: 10, metodo_pago: 'efectivo' }),
    cuenta: await post('cuentas', {
      tipo: 'por_pagar',
      proveedor_nombre: 'Sur',
      monto: 10,
      fecha_vencimiento: '2099-01-01',
      descripcion: 'x',
    }),
  };
});

describe('finance permissions', () => {
  it('answers 401 without a token and 403 NOT_MEMBER to a stranger, on every route', async () => {
    const stranger = await registerUser(app, 'Extrano');
    for (const r of routes()) {
      expect((await call(null, r)).statusCode, `${r.method} ${r.path}`).toBe(401);
      const res = await call(stranger, r);
      expect(res.statusCode, `${r.method} ${r.path}`).toBe(403);
      expect(res.json().code).toBe('NOT_MEMBER');
    }
  });

  it('refuses every route to a member without finance flags (403 FORBIDDEN) and changes nothing', async () => {
    const u = await member(['puede_ver_ventas', 'puede_editar_productos']);
    const before = await snapshot();
    for (const r of routes()) {
      const res = await call(u, r);
      expect(res.statusCode, `${r.method} ${r.path}`).toBe(403);
      expect(res.json()).toEqual({
        detail: `No tenés permisos para ${r.accion} finanzas.`,
        code: 'FORBIDDEN',
        modulo: 'finanzas',
        accion: r.accion,
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    [['puede_ver_finanzas'], 'ver'],
    [['puede_editar_finanzas'], 'editar'],
    [['puede_eliminar_finanzas'], 'eliminar'],
  ] as [PermissionKey[], string][])('lets a member with %j through exactly the %s routes', async (flags, accion) => {
    const u = await member(flags);
    for (const r of routes().filter((x) => x.accion !== accion)) {
      expect((await call(u, r)).statusCode, `${r.method} ${r.path}`).toBe(403);
    }
    for (const r of routes().filter((x) => x.accion === accion)) {
      const res = await call(u, r);
      expect(res.statusCode, `${r.method} ${r.path}: ${res.body}`).not.toBe(403);
      expect(res.statusCode).toBeLessThan(300);
    }
  });

  it('lets a member with full access (acceso_total) use every route', async () => {
    // A second business of the owner: the trial plan admits 5 users and the first one is full.
    biz = await createBusiness(app, owner, 'Segundo local');
    const u = await registerUser(app, 'Total');
    await addMember(ctx, biz, owner, u, [], { acceso_total: true });
    for (const r of routes().filter((x) => x.method === 'GET')) {
      expect((await call(u, r)).statusCode).toBe(200);
    }
    const res = await call(u, routes()[1]);
    expect(res.statusCode).toBe(201);
  });
});
