import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';

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
});
