import { describe, expect, it } from 'vitest';
import { createTestApp, siblingApp } from '../test/app.js';
import { PASSWORD, registerUser, uniqueEmail } from '../test/fixtures.js';
import type { App } from '../app.js';

// Two instances on one database, as two servers behind a load balancer.
const limits = { loginFailuresPerEmail: 3, loginFailuresPerIp: 8, signupPerHour: 3 };
const ctx = await createTestApp({ rateLimits: limits });
const a = ctx.app;
const b = await siblingApp(ctx, { rateLimits: limits });

const login = (app: App, username: string, password: string, ip = '198.51.100.1') =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress: ip,
  });

describe('rate limits shared by every instance on the database', () => {
  it('the per-e-mail login limit counts the failures on both instances', async () => {
    const u = await registerUser(a, 'Limite');
    // A right password in between is not a failure.
    expect((await login(b, u.email, PASSWORD)).statusCode).toBe(200);
    const codes = [];
    for (const app of [a, b, a]) codes.push((await login(app, u.email, 'mala-clave-1')).statusCode);
    expect(codes).toEqual([401, 401, 401]);
    for (const app of [b, a]) {
      const locked = await login(app, u.email.toUpperCase(), PASSWORD);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(locked.json().detail).toMatch(/^Demasiados intentos\. Intentá de nuevo en 1[45] minutos\.$/);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    }
  });

  it('guesses sent to both instances at once get no more than the limit', async () => {
    const u = await registerUser(a, 'Rafaga');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(i % 2 ? a : b, u.email, `mala-clave-${i}`, `203.0.113.${i}`)),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
  });

  it('the per-address login limit counts the failures on both instances', async () => {
    const ip = '192.0.2.77';
    const codes = [];
    for (let i = 0; i < 10; i++)
      codes.push((await login(i % 2 ? a : b, uniqueEmail('nadie'), 'x-clave-1', ip)).statusCode);
    expect(codes).toEqual([...Array(8).fill(401), 429, 429]);
  });

  it('the signup limit per address counts the accounts created on both instances', async () => {
    const signup = (app: App) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/signup',
        payload: { email: uniqueEmail('alta'), password: PASSWORD, nombre: 'Alta', apellido: 'Prueba' },
        remoteAddress: '192.0.2.10',
      });
    const codes = [];
    for (const app of [a, b, a, b]) codes.push((await signup(app)).statusCode);
    expect(codes).toEqual([201, 201, 201, 429]);
  });

  it('the confirmation e-mail limits count the requests on both instances', async () => {
    const email = uniqueEmail('confirma');
    const resend = (app: App) =>
      app.inject({ method: 'POST', url: '/api/v1/auth/resend-confirmation', payload: { email } });
    expect((await resend(a)).statusCode).toBe(200);
    expect((await resend(b)).statusCode).toBe(429);

    const check = (app: App) =>
      app.inject({
        method: 'GET',
        url: `/api/v1/auth/check-confirmation/${encodeURIComponent(email)}`,
        remoteAddress: '192.0.2.20',
      });
    const codes = [];
    for (let i = 0; i < 31; i++) codes.push((await check(i % 2 ? a : b)).statusCode);
    expect(codes).toEqual([...Array(30).fill(200), 429]);
  });
});
