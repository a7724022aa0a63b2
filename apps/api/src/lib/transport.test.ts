import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApp, type AppOptions } from '../app.js';
import { createTestApp } from '../test/app.js';
import { uniqueEmail } from '../test/fixtures.js';
import { parseTrustProxy } from './transport.js';

const ctx = await createTestApp();

/** Another app on the same database, with other options (closed by the caller). */
async function appWith(opts: Partial<AppOptions>) {
  const app = await buildApp({
    database: ctx.database,
    jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
    publicUrl: 'http://localhost:3000',
    ...opts,
  });
  await app.ready();
  return app;
}

const failedLogin = (app: Awaited<ReturnType<typeof appWith>>, forwardedFor: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: new URLSearchParams({ username: uniqueEmail('nadie'), password: 'no-es-la-clave' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
    remoteAddress: '192.168.0.50',
  });

describe('TRUST_PROXY', () => {
  it('takes proxy addresses, refuses a bare hop count, and is off when empty', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(() => parseTrustProxy('1')).toThrow(/direcciones de los proxies/);
    expect(parseTrustProxy('loopback')).toEqual(['loopback']);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8')).toEqual(['127.0.0.1', '10.0.0.0/8']);
  });

  it('ignores X-Forwarded-For by default: a rotating header does not escape the per-IP login limit', async () => {
    const app = await appWith({ rateLimits: { loginFailuresPerIp: 50, loginFailuresPerEmail: 10 } });
    const codes: number[] = [];
    for (let i = 0; i < 55; i++) codes.push((await failedLogin(app, `203.0.113.${i}`)).statusCode);
    await app.close();
    expect(codes.slice(0, 50)).toEqual(Array(50).fill(401));
    expect(codes.slice(50)).toEqual(Array(5).fill(429));
  });

  it('honours X-Forwarded-For from a trusted proxy: each client address has its own limit', async () => {
    const app = await appWith({
      trustProxy: ['192.168.0.50'],
      rateLimits: { loginFailuresPerIp: 3, loginFailuresPerEmail: 10 },
    });
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await failedLogin(app, `203.0.113.${i}`)).statusCode);
    // The same client three times more reaches its own limit.
    for (let i = 0; i < 3; i++) codes.push((await failedLogin(app, '198.51.100.7')).statusCode);
    const blocked = await failedLogin(app, '198.51.100.7');
    await app.close();
    expect(codes).toEqual(Array(9).fill(401));
    expect(blocked.statusCode).toBe(429);
  });
});

describe('HTTPS-only headers', () => {
  const upgrades = (csp: unknown) => String(csp).includes('upgrade-insecure-requests');

  it('sends neither HSTS nor upgrade-insecure-requests over plain HTTP (the shop LAN address)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/health', headers: { host: '192.168.0.10:3000' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(upgrades(res.headers['content-security-policy'])).toBe(false);
    // An untrusted X-Forwarded-Proto changes nothing.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    expect(upgrades(forged.headers['content-security-policy'])).toBe(false);
  });

  it('sends them when a trusted proxy says the request came over HTTPS', async () => {
    const app = await appWith({ trustProxy: ['192.168.0.0/24'] });
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '192.168.0.1',
    });
    const plain = await app.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: '192.168.0.1' });
    // The same header from an address that is not the proxy is ignored.
    const direct = await app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '10.1.1.1',
    });
    await app.close();
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(upgrades(res.headers['content-security-policy'])).toBe(true);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(upgrades(plain.headers['content-security-policy'])).toBe(false);
    expect(direct.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends them for the host of an https PUBLIC_URL, and not for the LAN address', async () => {
    const app = await appWith({ publicUrl: 'https://tienda.example.com.ar' });
    const pub = await app.inject({ method: 'GET', url: '/api/v1/health', headers: { host: 'tienda.example.com.ar' } });
    const lan = await app.inject({ method: 'GET', url: '/api/v1/health', headers: { host: '192.168.0.10:3000' } });
    await app.close();
    expect(pub.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(upgrades(pub.headers['content-security-policy'])).toBe(true);
    expect(lan.headers['strict-transport-security']).toBeUndefined();
    expect(upgrades(lan.headers['content-security-policy'])).toBe(false);
  });
});

describe('CORS preflight with CORS_ORIGINS', () => {
  it("allows the headers the contract's client sends (Cache-Control, Pragma…), whatever their case", async () => {
    const app = await appWith({ corsOrigins: ['https://otro.example.com'] });
    const asked = 'Accept, Authorization, Cache-Control, Content-Type, Pragma, Expires, X-Requested-With';
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/businesses/00000000-0000-4000-8000-000000000001/finanzas/movimientos',
      headers: {
        origin: 'https://otro.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': asked,
      },
    });
    const foreign = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/health',
      headers: {
        origin: 'https://malo.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': asked,
      },
    });
    await app.close();
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://otro.example.com');
    const allowed = String(res.headers['access-control-allow-headers'])
      .toLowerCase()
      .split(',')
      .map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(asked.toLowerCase().split(', ')));
    // A browser compares the asked headers with the answer: the answer must vary with the question.
    expect(String(res.headers.vary).toLowerCase()).toContain('access-control-request-headers');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows the methods and headers the API and its client use', async () => {
    const app = await appWith({ corsOrigins: ['https://otro.example.com'] });
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/businesses/00000000-0000-4000-8000-000000000001/products/00000000-0000-4000-8000-000000000002',
      headers: {
        origin: 'https://otro.example.com',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    const foreign = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/health',
      headers: { origin: 'https://malo.example.com', 'access-control-request-method': 'DELETE' },
    });
    await app.close();
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://otro.example.com');
    const methods = String(res.headers['access-control-allow-methods'])
      .split(',')
      .map((s) => s.trim());
    expect(methods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']));
    const headers = String(res.headers['access-control-allow-headers'])
      .toLowerCase()
      .split(',')
      .map((s) => s.trim());
    expect(headers).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']));
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('framing and <base>', () => {
  // The web app's pages (the app and the landing and legal pages), as written in apps/web.
  const webDir = new URL('../../../web/', import.meta.url);
  const pages = readdirSync(webDir).filter((f) => f.endsWith('.html'));

  it("forbid being framed and any <base>: frame-ancestors 'none', base-uri 'none', X-Frame-Options DENY", async () => {
    const web = await appWith({ webDist: webDir.pathname });
    try {
      for (const url of ['/api/v1/health', '/', '/politicas', '/ventas', '/api/v1/auth/me']) {
        const res = await web.inject({ method: 'GET', url });
        const csp = String(res.headers['content-security-policy']);
        expect(csp, url).toContain("frame-ancestors 'none'");
        expect(csp, url).toContain("base-uri 'none'");
        expect(res.headers['x-frame-options'], url).toBe('DENY');
      }
    } finally {
      await web.close();
    }
  });

  it('leaves the web app working: no page uses <base>, a frame, or needs to be framed', () => {
    expect(pages).toEqual(expect.arrayContaining(['app.html', 'index.html', 'politicas.html']));
    for (const page of pages) {
      const html = readFileSync(new URL(page, webDir), 'utf8');
      expect(html, page).not.toMatch(/<base\b|<i?frame\b|window\.(top|parent)\b/i);
    }
  });
});
