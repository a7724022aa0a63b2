import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { CHECK_ADDRESSES_PER_HOUR } from './auth.routes.js';
import { confirmationCheckKey } from './tokens.js';
import { PASSWORD, registerUser, uniqueEmail } from '../../test/fixtures.js';

const ctx = await createTestApp({
  rateLimits: { loginFailuresPerEmail: 3, loginFailuresPerIp: 1000, signupPerHour: 1000 },
});
const { app } = ctx;

const form = (o: Record<string, string>) => ({
  payload: new URLSearchParams(o).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe('signup', () => {
  it('creates a confirmed account when SMTP is not configured and stores the e-mail in lower case', async () => {
    const email = uniqueEmail('Mixto').replace('mixto', 'MiXto');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email, password: PASSWORD, nombre: '  Ana ', rol: 'admin' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      message: 'Cuenta creada. Ya podés iniciar sesión.',
      email: email.toLowerCase(),
      requires_confirmation: false,
    });
    const [row] = await ctx.sql<{
      email: string;
      nombre: string;
      email_confirmed_at: Date | null;
      password_hash: string;
    }>('SELECT email, nombre, email_confirmed_at, password_hash FROM users WHERE email = $1', [email.toLowerCase()]);
    expect(row.nombre).toBe('Ana');
    expect(row.email_confirmed_at).not.toBeNull();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a duplicate e-mail in any case with 409', async () => {
    const u = await registerUser(app, 'Dup');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: u.email.toUpperCase(), password: PASSWORD, nombre: 'Otra' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'Este e-mail ya está registrado. Si no confirmaste tu cuenta, revisá tu correo.',
      code: 'DUPLICATE',
    });
  });

  it.each([
    [{ password: 'corta', nombre: 'A' }, 'password', 'La contraseña debe tener al menos 8 caracteres.'],
    [{ password: 'password123', nombre: 'A' }, 'password', 'La contraseña es demasiado común.'],
    [{ password: PASSWORD, nombre: '' }, 'nombre', 'Este campo es obligatorio.'],
    [{ password: PASSWORD }, 'nombre', 'Este campo es obligatorio.'],
  ])('refuses invalid input %j with a Spanish 422 and stores nothing', async (body, field, message) => {
    const email = uniqueEmail('invalido');
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { email, ...body } });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(res.json().errors).toContainEqual({ field, message });
    expect(res.json().detail).toBe(res.json().errors[0].message);
    expect(await ctx.sql('SELECT 1 FROM users WHERE email = $1', [email])).toHaveLength(0);
  });

  it('refuses a malformed e-mail', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: 'no-es-un-email', password: PASSWORD, nombre: 'A' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field: 'email', message: 'El e-mail no es válido.' });
  });
});

describe('login', () => {
  it('accepts a form body and a JSON body, returning the token and the user', async () => {
    const u = await registerUser(app, 'Luis');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...form({ username: u.email.toUpperCase(), password: PASSWORD, grant_type: 'password', scope: '' }),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 43200,
      user: { id: u.id, nombre: 'Luis', email: u.email },
    });
    const json = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: u.email, password: PASSWORD },
    });
    expect(json.statusCode).toBe(200);
    const me = await app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: u.id, email: u.email, nombre: 'Luis', apellido: 'Prueba', telefono: null });
    expect(me.json().last_sign_in_at).not.toBeNull();
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.headers['x-request-id']).toBeTruthy();
  });

  it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
    const u = await registerUser(app, 'Mara');
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...form({ username: u.email, password: 'otra-clave-99' }),
    });
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...form({ username: uniqueEmail('nadie'), password: 'otra-clave-99' }),
    });
    for (const r of [wrong, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ detail: 'E-mail o contraseña incorrectos.', code: 'INVALID_CREDENTIALS' });
    }
  });

  it('locks an e-mail after the configured failures, even with the right password', async () => {
    const u = await registerUser(app, 'Bloq');
    for (let i = 0; i < 3; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        ...form({ username: u.email, password: 'mala-clave-1' }),
      });
      expect(r.statusCode).toBe(401);
    }
    const locked = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...form({ username: u.email, password: PASSWORD }),
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('requires both fields', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/v1/auth/login', ...form({ username: uniqueEmail() }) });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors).toContainEqual({ field: 'password', message: 'Este campo es obligatorio.' });
  });
});

describe('sessions', () => {
  it('rejects missing, malformed and forged tokens with 401', async () => {
    for (const authorization of [
      undefined,
      'Bearer nada',
      'Basic abc',
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    ]) {
      const r = await app.inject({
        method: 'GET',
        url: '/api/v1/auth/me',
        headers: authorization ? { authorization } : {},
      });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({
        detail: 'Tu sesión no es válida o expiró. Iniciá sesión nuevamente.',
        code: 'UNAUTHENTICATED',
      });
      expect(r.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('logout revokes only that token', async () => {
    const u = await registerUser(app, 'Salir');
    const other = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...form({ username: u.email, password: PASSWORD }),
    });
    const otherAuth = { authorization: `Bearer ${other.json().access_token}` };
    const out = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: u.auth });
    expect(out.statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: u.auth })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: otherAuth })).statusCode).toBe(200);
  });

  it('change-password keeps the token used, revokes the others, and checks the current password', async () => {
    const u = await registerUser(app, 'Cambio');
    const other = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...form({ username: u.email, password: PASSWORD }),
    });
    const otherAuth = { authorization: `Bearer ${other.json().access_token}` };

    const wrong = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/change-password',
      headers: u.auth,
      payload: { current_password: 'no-es-esta-1', new_password: 'nueva-clave-456' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual([
      { field: 'current_password', message: 'La contraseña actual es incorrecta.' },
    ]);

    const same = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/change-password',
      headers: u.auth,
      payload: { currentPassword: PASSWORD, newPassword: PASSWORD },
    });
    expect(same.statusCode).toBe(422);
    expect(same.json().detail).toBe('La nueva contraseña debe ser distinta de la actual.');

    const ok = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/change-password',
      headers: u.auth,
      payload: { currentPassword: PASSWORD, newPassword: 'nueva-clave-456' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'Contraseña actualizada correctamente.' });
    expect((await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: u.auth })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: otherAuth })).statusCode).toBe(401);
    const relog = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...form({ username: u.email, password: 'nueva-clave-456' }),
    });
    expect(relog.statusCode).toBe(200);
  });
});

describe('profile', () => {
  it('updates name and phone, ignores the e-mail, and refuses an empty update', async () => {
    const u = await registerUser(app, 'Perfil');
    const res = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/profile',
      headers: u.auth,
      payload: { nombre: 'Perfilada', telefono: '+54 9 11 5555-0000', email: 'otro@ejemplo.com' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ nombre: 'Perfilada', telefono: '+54 9 11 5555-0000', email: u.email });
    const empty = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/profile',
      headers: u.auth,
      payload: { email: 'x@y.com' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toBe('No hay datos para actualizar.');
    const blank = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/profile',
      headers: u.auth,
      payload: { nombre: '' },
    });
    expect(blank.statusCode).toBe(422);
  });
});

describe('check-confirmation', () => {
  const ask = (email: string, opts: { clave?: string; ip?: string } = {}) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/auth/check-confirmation/${encodeURIComponent(email)}${opts.clave ? `?clave=${opts.clave}` : ''}`,
      remoteAddress: opts.ip ?? '198.51.100.7',
    });

  it('answers the truth for the address asked, without a key (the contract client never sends one); never 404', async () => {
    const u = await registerUser(app, 'Check');
    const existing = await ask(u.email, { ip: '198.51.100.1' });
    expect(existing.statusCode, existing.body).toBe(200);
    expect(existing.json()).toEqual({ email: u.email, confirmed: true, is_confirmed: true });
    const unknown = await ask('nadie@ejemplo.com', { ip: '198.51.100.1' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ email: 'nadie@ejemplo.com', confirmed: false, is_confirmed: false });
    // Without SMTP the account is confirmed at once: there is nothing to wait for, and no key.
    const other = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: uniqueEmail('otra'), password: PASSWORD, nombre: 'Otra' },
    });
    expect(other.statusCode).toBe(201);
    expect(other.json().clave_consulta).toBeUndefined();
  });

  it(`lets one client ask about only ${CHECK_ADDRESSES_PER_HOUR} different addresses an hour; asking again about one is free`, async () => {
    const ip = '198.51.100.2';
    const addresses = Array.from({ length: CHECK_ADDRESSES_PER_HOUR }, (_, i) => uniqueEmail(`lista${i}`));
    for (const email of addresses) expect((await ask(email, { ip })).statusCode).toBe(200);
    // Polling the same addresses (what the signup page does) keeps working.
    for (const email of addresses) expect((await ask(email, { ip })).statusCode).toBe(200);
    // One more address from the same client: refused, with nothing said about it.
    const refused = await ask(uniqueEmail('otra-mas'), { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json().confirmed).toBeUndefined();
    // Another client is counted apart.
    expect((await ask(uniqueEmail('otra-mas'), { ip: '198.51.100.3' })).statusCode).toBe(200);
    // The browser that signed up, holding its key, is never limited for its own address.
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: uniqueEmail('con-clave'), password: PASSWORD, nombre: 'Clave' },
      remoteAddress: ip,
    });
    expect(res.statusCode).toBe(201);
    const key = confirmationCheckKey(app.services.jwtKey, res.json().email);
    expect((await ask(res.json().email, { ip, clave: key })).json()).toMatchObject({ confirmed: true });
  });
});

describe('session tokens carry who signed them, for whom, and until when', () => {
  /** A token signed with the app's own key for a real session, with the claims given. */
  async function signed(claims: { iss?: string; aud?: string; exp?: number }) {
    const u = await registerUser(app, 'Firma');
    const [, payload] = u.auth.authorization.replace('Bearer ', '').split('.');
    const { sub, sid } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string; sid: string };
    const jwt = new SignJWT({ sid }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(sub).setIssuedAt();
    if (claims.iss) jwt.setIssuer(claims.iss);
    if (claims.aud) jwt.setAudience(claims.aud);
    if (claims.exp) jwt.setExpirationTime(claims.exp);
    return { authorization: `Bearer ${await jwt.sign(app.services.jwtKey)}` };
  }
  const me = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/api/v1/auth/me', headers });
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

  it('issues tokens with iss, aud and exp', async () => {
    const u = await registerUser(app, 'Claims');
    const [, payload] = u.auth.authorization.replace('Bearer ', '').split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: 'mostrador', aud: 'mostrador-api' });
    expect(claims.exp).toBe((claims.iat as number) + 12 * 3600);
  });

  it('accepts the claims it issues, and refuses a token without exp or with a foreign or missing iss or aud (401)', async () => {
    expect((await me(await signed({ iss: 'mostrador', aud: 'mostrador-api', exp: inAnHour() }))).statusCode).toBe(200);
    for (const claims of [
      { iss: 'mostrador', aud: 'mostrador-api' },
      { iss: 'otro-sistema', aud: 'mostrador-api', exp: inAnHour() },
      { iss: 'mostrador', aud: 'otra-api', exp: inAnHour() },
      { aud: 'mostrador-api', exp: inAnHour() },
      { iss: 'mostrador', exp: inAnHour() },
    ]) {
      const res = await me(await signed(claims));
      expect(res.statusCode, JSON.stringify(claims)).toBe(401);
      expect(res.json()).toEqual({
        detail: 'Tu sesión no es válida o expiró. Iniciá sesión nuevamente.',
        code: 'UNAUTHENTICATED',
      });
    }
  });
});

describe('common passwords', () => {
  const refused = [
    ['password12', 'La contraseña es demasiado común.'],
    ['qwerty1234', 'La contraseña es demasiado común.'],
    ['QWERTY1234', 'La contraseña es demasiado común.'],
    ['aaaaaaaa', 'La contraseña no puede ser un mismo carácter repetido. Elegí otra.'],
    ['ññññññññññ', 'La contraseña no puede ser un mismo carácter repetido. Elegí otra.'],
  ] as const;

  it.each(refused)('refuses %s at signup, password change and reset', async (password, message) => {
    const email = uniqueEmail('comun');
    const signup = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email, password, nombre: 'Común' },
    });
    expect(signup.statusCode).toBe(422);
    expect(signup.json().errors).toEqual([{ field: 'password', message }]);
    expect(await ctx.sql('SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);

    const u = await registerUser(app, 'Cambia');
    const change = await app.inject({
      method: 'PUT',
      url: '/api/v1/auth/change-password',
      headers: u.auth,
      payload: { current_password: PASSWORD, new_password: password },
    });
    expect(change.statusCode).toBe(422);
    expect(change.json().errors).toEqual([{ field: 'new_password', message }]);
    // The password did not change: the old one still logs in.
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...form({ username: u.email, password: PASSWORD }),
    });
    expect(login.statusCode).toBe(200);

    const reset = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: 'x'.repeat(43), new_password: password },
    });
    expect(reset.statusCode).toBe(422);
    expect(reset.json().errors).toEqual([{ field: 'new_password', message }]);
  });

  it('accepts a password that is on no list', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: uniqueEmail('rara'), password: 'mate-con-bizcochos-77', nombre: 'Rara' },
    });
    expect(res.statusCode).toBe(201);
  });
});
