import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';

export const PASSWORD = 'clave-segura-123';

export interface E2EUser {
  id: string;
  nombre: string;
  apellido: string | null;
  email: string;
  token: string;
}

export const uniqueEmail = (name: string) => `${name}.${randomBytes(4).toString('hex')}@ejemplo.com`;

/** Signs up and logs in through the API (the server without SMTP confirms at once). */
export async function createUser(
  request: APIRequestContext,
  nombre = 'Ana',
  email = uniqueEmail(nombre.toLowerCase()),
): Promise<E2EUser> {
  const signup = await request.post('/api/v1/auth/signup', {
    data: { email, password: PASSWORD, nombre, apellido: 'Prueba' },
  });
  if (signup.status() !== 201) throw new Error(`signup ${signup.status()} ${await signup.text()}`);
  const login = await request.post('/api/v1/auth/login', { form: { username: email, password: PASSWORD } });
  if (login.status() !== 200) throw new Error(`login ${login.status()} ${await login.text()}`);
  const body = await login.json();
  return { ...body.user, token: body.access_token };
}

/**
 * A business ready to sell: unless `turno` is false, its "Caja 1" has a turno open with no float
 * (the point of sale asks for one by default).
 */
export async function createBusiness(
  request: APIRequestContext,
  user: E2EUser,
  nombre = 'Almacén Don Pepe',
  opts: { turno?: boolean } = {},
): Promise<string> {
  const headers = { authorization: `Bearer ${user.token}` };
  const res = await request.post('/api/v1/businesses/', { data: { nombre, tipo: 'Comercio' }, headers });
  if (res.status() !== 201) throw new Error(`business ${res.status()} ${await res.text()}`);
  const id: string = (await res.json()).business_id;
  if (opts.turno !== false) {
    const [caja] = await (await request.get(`/api/v1/businesses/${id}/cajas`, { headers })).json();
    const open = await request.post(`/api/v1/businesses/${id}/cajas/${caja.id}/turnos`, {
      data: { fondo_inicial: 0 },
      headers,
    });
    if (open.status() !== 201) throw new Error(`turno ${open.status()} ${await open.text()}`);
  }
  return id;
}

/**
 * Puts the session in browser storage, as the login page does. The storage belongs to the app's
 * origin, so a blank page is opened there first (answered by the browser itself, not the server):
 * loading the whole app only to write three keys cost each journey a page load.
 */
export async function signIn(page: Page, user: E2EUser, businessId?: string) {
  const blank = '**/__e2e-blank';
  await page.route(blank, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title></title>' }),
  );
  await page.goto('/__e2e-blank');
  await page.unroute(blank);
  await page.evaluate(
    ([token, u, b]) => {
      localStorage.setItem('mostrador.token', token);
      localStorage.setItem('mostrador.user', u);
      if (b) localStorage.setItem('mostrador.business', b);
    },
    [
      user.token,
      JSON.stringify({ id: user.id, nombre: user.nombre, apellido: user.apellido, email: user.email }),
      businessId ?? '',
    ] as const,
  );
}
