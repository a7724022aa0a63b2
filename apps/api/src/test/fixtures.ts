import { randomBytes } from 'node:crypto';
import { allPermissions, type PermissionKey } from '@mostrador/shared';
import type { App } from '../app.js';
import type { TestContext } from './app.js';

export const PASSWORD = 'clave-segura-123';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  auth: { authorization: string };
}

export const uniqueEmail = (name = 'usuario') => `${name}.${randomBytes(4).toString('hex')}@ejemplo.com`;

/** Signs up (confirmed at once: no SMTP in tests unless given) and logs in through the routes. */
export async function registerUser(
  app: App,
  nombre = 'Ana',
  email = uniqueEmail(nombre.toLowerCase()),
): Promise<TestUser> {
  const signup = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { email, password: PASSWORD, nombre, apellido: 'Prueba' },
  });
  if (signup.statusCode !== 201) throw new Error(`signup ${signup.statusCode} ${signup.body}`);
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: `username=${encodeURIComponent(email)}&password=${encodeURIComponent(PASSWORD)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (login.statusCode !== 200) throw new Error(`login ${login.statusCode} ${login.body}`);
  const body = login.json();
  return { id: body.user.id, email, token: body.access_token, auth: { authorization: `Bearer ${body.access_token}` } };
}

export async function createBusiness(app: App, owner: TestUser, nombre = 'Almacén de Prueba'): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/businesses/',
    headers: owner.auth,
    payload: { nombre, tipo: 'Comercio' },
  });
  if (res.statusCode !== 201) throw new Error(`business ${res.statusCode} ${res.body}`);
  return res.json().business_id;
}

/**
 * Adds `member` to the business as a pending user and has the owner approve them through the
 * route with exactly `flags` (invitations arrive with the team module).
 */
export async function addMember(
  ctx: TestContext,
  businessId: string,
  owner: TestUser,
  member: TestUser,
  flags: PermissionKey[] = [],
  extra: Record<string, unknown> = {},
) {
  await ctx.sql(
    `INSERT INTO business_members (business_id, user_id, rol, estado, acceso_total, permisos)
     VALUES ($1, $2, 'empleado', 'pendiente', false, $3)`,
    [businessId, member.id, JSON.stringify(allPermissions(false))],
  );
  const payload = { ...Object.fromEntries(flags.map((f) => [f, true])), ...extra };
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${businessId}/usuarios-pendientes/${member.id}/aprobar`,
    headers: owner.auth,
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`aprobar ${res.statusCode} ${res.body}`);
}
