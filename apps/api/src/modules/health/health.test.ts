import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';

const { app } = await createTestApp();

describe('health and docs', () => {
  it('answers ok without a token', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists every API route in the OpenAPI document', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const documented = new Set(
      Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    for (const r of app.routeTable) expect(documented, `${r.method} ${r.url}`).toContain(`${r.method} ${r.url}`);
  });

  it('answers unknown API paths with the Spanish 404 shape', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/no-existe' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Recurso no encontrado.', code: 'NOT_FOUND' });
  });

  it('answers 405 with the offered methods when a path exists under other methods', async () => {
    const owner = await registerUser(app, 'Metodos');
    const biz = await createBusiness(app, owner);
    const cases: [string, string, string][] = [
      ['PATCH', '/api/v1/auth/me', 'GET'],
      ['DELETE', '/api/v1/businesses/', 'GET, POST'],
      ['PATCH', `/api/v1/businesses/${biz}/products/00000000-0000-4000-8000-000000000001`, 'GET, PUT, DELETE'],
      ['DELETE', `/api/v1/businesses/${biz}/finanzas/resumen`, 'GET'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await app.inject({ method: method as 'PATCH', url, headers: owner.auth });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.json()).toEqual({ detail: 'Operación no permitida.', code: 'METHOD_NOT_ALLOWED' });
      expect(res.headers.allow?.toString().split(', ').sort(), `${method} ${url}`).toEqual(allow.split(', ').sort());
    }
    // A path that exists under no method is still 404.
    const none = await app.inject({ method: 'PATCH', url: `/api/v1/businesses/${biz}/nada`, headers: owner.auth });
    expect(none.statusCode).toBe(404);
  });

  it('marks every answer to a request with a token no-store, errors included', async () => {
    const owner = await registerUser(app, 'Cache');
    await createBusiness(app, owner, 'Uno');
    await createBusiness(app, owner, 'Dos');
    const urls = ['/api/v1/no-existe', '/api/v1/businesses/abc/products', '/api/v1/ventas/sales', '/api/v1/auth/me'];
    for (const url of urls) {
      const res = await app.inject({ method: 'GET', url, headers: owner.auth });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    // The public health check stays cacheable.
    expect((await app.inject({ method: 'GET', url: '/api/v1/health' })).headers['cache-control']).toBeUndefined();
  });

  it('refuses a malformed business id: 403 in the path, 422 in a query or header', async () => {
    const owner = await registerUser(app, 'Malformado');
    await createBusiness(app, owner);
    const path = await app.inject({ method: 'GET', url: '/api/v1/businesses/abc/products', headers: owner.auth });
    expect(path.statusCode).toBe(403);
    const query = await app.inject({ method: 'GET', url: '/api/v1/ventas/sales?negocio_id=abc', headers: owner.auth });
    expect(query.statusCode).toBe(422);
    expect(query.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      detail: 'Identificador no válido.',
      errors: [{ field: 'negocio_id', message: 'Identificador no válido.' }],
    });
    const header = await app.inject({
      method: 'GET',
      url: '/api/v1/ventas/sales',
      headers: { ...owner.auth, 'x-business-id': 'abc' },
    });
    expect(header.statusCode).toBe(422);
    // Still 401 first without a valid token.
    const anon = await app.inject({ method: 'GET', url: '/api/v1/ventas/sales?negocio_id=abc' });
    expect(anon.statusCode).toBe(401);
  });
});
