import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_MESSAGE } from '@mostrador/shared';
import { api, ApiError } from './api';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function mockFetch(...answers: (Response | Error)[]) {
  const keys: (string | undefined)[] = [];
  const fn = vi.fn(async (_url: string, init: RequestInit) => {
    keys.push((init.headers as Record<string, string>)['Idempotency-Key']);
    const next = answers.shift()!;
    if (next instanceof Error) throw next;
    return next;
  });
  vi.stubGlobal('fetch', fn);
  return keys;
}

afterEach(() => vi.unstubAllGlobals());

describe('the API client and Idempotency-Key', () => {
  it('a save without connection fails at once with the offline message, and its retry reuses the key', async () => {
    const keys = mockFetch(new TypeError('Failed to fetch'), json(201, { id: '1' }), json(201, { id: '2' }));
    const failure = await api.post('/x/clientes', { nombre: 'Ana' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(0);
    expect((failure as ApiError).message).toBe(OFFLINE_MESSAGE);
    await api.post('/x/clientes', { nombre: 'Ana' });
    // After an answer, the next submission is a new one.
    await api.post('/x/clientes', { nombre: 'Beto' });
    expect(keys[0]).toMatch(/.{8,}/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('a 5xx keeps the key for the retry; a 4xx ends the submission', async () => {
    const keys = mockFetch(
      json(503, { detail: 'No disponible' }),
      json(422, { detail: 'Falta el nombre' }),
      json(201, { id: '1' }),
    );
    await expect(api.post('/x/proveedores', {})).rejects.toMatchObject({ status: 503 });
    await expect(api.post('/x/proveedores', {})).rejects.toMatchObject({ status: 422 });
    await api.post('/x/proveedores', { nombre: 'Sur' });
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('only POSTs carry a key, one per path', async () => {
    const keys = mockFetch(json(200, []), json(200, {}), new TypeError('x'), json(201, {}));
    await api.get('/x/clientes');
    await api.put('/x/clientes/1', { nombre: 'A' });
    await api.post('/x/tareas', {}).catch(() => undefined);
    await api.post('/x/compras', {});
    expect(keys[0]).toBeUndefined();
    expect(keys[1]).toBeUndefined();
    expect(keys[3]).not.toBe(keys[2]);
  });

  it('two saves in flight at once never share a key', async () => {
    const keys = mockFetch(json(201, { id: '1' }), json(201, { id: '2' }));
    await Promise.all([api.post('/x/ajustes', { cantidad: 1 }), api.post('/x/ajustes', { cantidad: 1 })]);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
