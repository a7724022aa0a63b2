import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_PREFIX, type RouteEntry } from './access.js';
import { createTestApp } from '../test/app.js';
import { addMember, createBusiness, registerUser } from '../test/fixtures.js';

/**
 * Generated from the route table: every route registered now or later is covered, so a new
 * business route cannot forget its membership or permission check.
 */
const ctx = await createTestApp();
const { app } = ctx;

const owner = await registerUser(app, 'Duenia');
const businessId = await createBusiness(app, owner, 'Negocio A');
const stranger = await registerUser(app, 'Ajeno');
await createBusiness(app, stranger, 'Negocio del ajeno');
const employee = await registerUser(app, 'Empleado');
await addMember(ctx, businessId, owner, employee, []);

const routes = app.routeTable.filter((r) => r.url.startsWith(API_PREFIX));
const businessRoutes = routes.filter((r) => r.url.startsWith(`${API_PREFIX}/businesses/:id`));
const globalBusinessRoutes = routes.filter(
  (r) => !r.url.startsWith(`${API_PREFIX}/businesses/:id`) && ['member', 'admin', 'module'].includes(r.access.kind),
);

function urlFor(r: RouteEntry, id: string) {
  const url = r.url.replace(':id', id).replace(/:[a-zA-Z_]+/g, () => randomUUID());
  return globalBusinessRoutes.includes(r) ? `${url}?negocio_id=${id}` : url;
}

function call(r: RouteEntry, url: string, headers: Record<string, string> = {}) {
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
  return app.inject({ method: r.method as 'GET', url, headers, ...(hasBody ? { payload: {} } : {}) });
}

const label = (r: RouteEntry) => `${r.method} ${r.url}`;

describe('route table', () => {
  it('declares an access rule for every API route and covers the business routes', () => {
    expect(businessRoutes.length).toBeGreaterThan(10);
    for (const r of routes) expect(r.access, label(r)).toBeDefined();
  });

  it('refuses to register an API route without an access rule', async () => {
    const { buildApp } = await import('../app.js');
    const probe = await buildApp({ database: ctx.database, jwtSecret: 'x'.repeat(40), publicUrl: 'http://x' });
    expect(() => probe.get(`${API_PREFIX}/sin-acceso`, async () => ({}))).toThrow(/no declara su acceso/);
    expect(() =>
      probe.get(`${API_PREFIX}/businesses/:id/abierta`, { config: { access: { kind: 'user' } } }, async () => ({})),
    ).toThrow(/debe verificar la membresía/);
    await probe.close();
  });
});

describe.each(routes.filter((r) => r.access.kind !== 'public').map((r) => [label(r), r] as const))('%s', (_l, r) => {
  it('answers 401 without a valid token', async () => {
    const res = await call(r, urlFor(r, businessId));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });
});

describe.each([...businessRoutes, ...globalBusinessRoutes].map((r) => [label(r), r] as const))('%s', (_l, r) => {
  it('answers 403 NOT_MEMBER to a user of another business', async () => {
    const res = await call(r, urlFor(r, businessId), stranger.auth);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NOT_MEMBER');
  });

  it('answers 403 NOT_MEMBER for an unknown business id; a malformed one is 403 in the path, 422 in the query', async () => {
    const unknown = await call(r, urlFor(r, randomUUID()), owner.auth);
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json().code).toBe('NOT_MEMBER');
    const malformed = await call(r, urlFor(r, 'no-es-un-id'), owner.auth);
    if (globalBusinessRoutes.includes(r)) {
      expect(malformed.statusCode).toBe(422);
      expect(malformed.json().errors).toEqual([{ field: 'negocio_id', message: 'Identificador no válido.' }]);
    } else expect(malformed.statusCode).toBe(403);
  });

  it('applies the declared rule to a member without permissions', async () => {
    const res = await call(r, urlFor(r, businessId), employee.auth);
    const code = res.json()?.code;
    switch (r.access.kind) {
      case 'module':
        expect(res.statusCode).toBe(403);
        expect(code).toBe('FORBIDDEN');
        expect(res.json()).toMatchObject({ modulo: r.access.modulo, accion: r.access.accion });
        break;
      case 'admin':
        expect(res.statusCode).toBe(403);
        expect(code).toBe('ADMIN_REQUIRED');
        break;
      case 'creator':
        expect(res.statusCode).toBe(403);
        expect(code).toBe('FORBIDDEN');
        break;
      default:
        expect(res.statusCode).not.toBe(403);
        expect(res.statusCode).not.toBe(401);
    }
  });
});
