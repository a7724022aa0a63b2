import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app.js';
import { createTestApp } from '../test/app.js';
import { API_PREFIX } from './access.js';
import { COST_FIELDS } from './costs.js';
import { sendJsonText, XLSX_TYPE } from './responses.js';

/**
 * The OpenAPI document at /api/docs describes every operation's answers (decision 0009), and the
 * test app checks every real answer against them (`checkResponses`), so the ~1500 API tests prove
 * the documented schemas match what the API says.
 */
const ctx = await createTestApp();
const { app } = ctx;

type Schema = {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: unknown;
};
type Response = { description?: string; content?: Record<string, { schema: Schema }> };
type Operation = { responses?: Record<string, Response> };

const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(doc.paths)
  .filter(([path]) => path.startsWith(API_PREFIX))
  .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })));
const op = (id: string) => {
  const found = operations.find((o) => o.id === id);
  if (!found) throw new Error(`${id} no está en el documento`);
  return found.op;
};
const json = (o: Operation, status: string) => o.responses?.[status]?.content?.['application/json']?.schema ?? {};

describe('OpenAPI answers', () => {
  it('documents every operation of the route table', () => {
    expect(operations.length).toBeGreaterThan(130);
    expect(operations.length).toBe(app.routeTable.filter((r) => r.method !== 'HEAD').length);
  });

  it.each(operations.map((o) => [o.id, o.op] as const))('%s documents its success and its errors', (id, o) => {
    const statuses = Object.keys(o.responses ?? {});
    const successes = statuses.filter((s) => /^2\d\d$/.test(s));
    // Only the routes kept to refuse (sales are never deleted) answer no success: they say 405.
    if (!successes.length) expect(statuses, id).toContain('405');
    for (const s of successes) {
      const r = o.responses![s];
      if (s === '204') expect(r.content, id).toBeUndefined();
      else expect(Object.keys(r.content ?? {}).length, `${id} ${s}`).toBeGreaterThan(0);
    }
    const errors = statuses.filter((s) => Number(s) >= 400);
    expect(errors, id).toContain('500');
    if (id.includes('{')) expect(errors, id).toContain('404');
    for (const s of errors) {
      const body = json(o, s);
      if (id === 'GET /api/v1/health' || id === 'GET /api/v1/ventas/health-check') continue;
      expect(body.required, `${id} ${s}`).toEqual(expect.arrayContaining(['detail', 'code']));
    }
  });

  it('documents the errors of access: 401 without a session, 402/403 on a business route', () => {
    for (const r of app.routeTable.filter((e) => e.method !== 'HEAD')) {
      const o = op(`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
      const statuses = Object.keys(o.responses ?? {});
      if (r.access.kind !== 'public') expect(statuses, `${r.method} ${r.url}`).toContain('401');
      if (!['public', 'user'].includes(r.access.kind)) {
        expect(statuses, `${r.method} ${r.url}`).toEqual(expect.arrayContaining(['402', '403']));
      }
    }
  });

  it('documents record-sale with the sale it answers and the limit of logins', () => {
    const sale = json(op('POST /api/v1/ventas/record-sale'), '201');
    expect(sale.required).toEqual(expect.arrayContaining(['id', 'numero', 'total', 'fecha', 'mensaje']));
    expect(sale.properties?.numero.type).toBe('number');
    // Why a sale that asked for an invoice stands without one (issue 32).
    expect(sale.properties?.sin_factura.type).toBe('string');
    expect(Object.keys(op('POST /api/v1/auth/login').responses ?? {})).toEqual(
      expect.arrayContaining(['200', '401', '422', '429']),
    );
  });

  it('documents a turno with its counts per medio and its differences', () => {
    const turno = json(op('GET /api/v1/businesses/{id}/turnos/{turnoId}'), '200');
    expect(turno.required).toEqual(
      expect.arrayContaining(['numero', 'caja_id', 'estado', 'fondo_inicial', 'esperado', 'por_medio', 'diferencias']),
    );
    expect(turno.properties?.diferencias.items?.required).toEqual([
      'medio_pago_id',
      'esperado',
      'contado',
      'diferencia',
    ]);
    const cajas = json(op('GET /api/v1/businesses/{id}/cajas'), '200');
    expect(cajas.items?.properties?.turno_abierto).toBeDefined();
  });

  it('marks every cost field optional (decision 0005) and leaves answers open to more fields', () => {
    const product = json(op('GET /api/v1/businesses/{id}/products/{pid}'), '200');
    expect(product.properties?.precio_compra).toBeDefined();
    expect(product.required).toContain('precio_venta');
    expect(product.required).not.toContain('precio_compra');
    expect(product.additionalProperties).not.toBe(false);
    const sale = json(op('GET /api/v1/businesses/{id}/ventas/sales/{vid}'), '200');
    expect(sale.required).not.toContain('costo_estimado');
    expect(sale.properties?.items.items?.required).not.toContain('costo_unitario');
    const report = json(op('GET /api/v1/businesses/{id}/ventas/reporte'), '200');
    for (const k of ['costo_estimado', 'ganancias_netas']) expect(report.required).not.toContain(k);
  });

  it('never requires a cost field in any answer: a member without ver_costos gets none', () => {
    const required: string[] = [];
    const walk = (where: string, v: unknown): void => {
      if (Array.isArray(v)) return v.forEach((x) => walk(where, x));
      if (v === null || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (Array.isArray(o.required)) {
        for (const k of o.required as string[]) if (COST_FIELDS.has(k)) required.push(`${where}: ${k}`);
      }
      for (const x of Object.values(o)) walk(where, x);
    };
    let documented = 0;
    for (const { id, op: o } of operations) {
      walk(id, o.responses);
      documented += JSON.stringify(o.responses ?? {}).match(/"(precio_compra|costo_unitario|ganancia)"/g)?.length ?? 0;
    }
    expect(documented).toBeGreaterThan(5);
    expect(required).toEqual([]);
  });

  it('documents downloads as .xlsx files', () => {
    for (const id of [
      'GET /api/v1/businesses/{id}/products/exportar',
      'GET /api/v1/businesses/{id}/turnos/exportar',
      'GET /api/v1/businesses/{id}/compras/{pid}/exportar',
    ]) {
      const content = op(id).responses?.['200'].content ?? {};
      expect(Object.keys(content), id).toEqual([XLSX_TYPE]);
      expect(content[XLSX_TYPE].schema.format, id).toBe('binary');
    }
    const report = op('GET /api/v1/businesses/{id}/ventas/reporte').responses?.['200'].content ?? {};
    expect(Object.keys(report)).toEqual(['application/json', XLSX_TYPE]);
  });
});

describe('documented answers at run time', () => {
  const probe = async (checkResponses: boolean) => {
    const a = await buildApp({
      database: ctx.database,
      jwtSecret: 'x'.repeat(40),
      publicUrl: 'http://x',
      checkResponses,
    });
    const response = { 200: z.object({ numero: z.number() }) };
    a.get(`${API_PREFIX}/sonda/:n`, { config: { access: { kind: 'public' } }, schema: { response } }, async (req) => {
      const n = (req.params as { n: string }).n;
      return (n === 'texto' ? { numero: 'uno', extra: true } : { numero: 1, extra: true }) as never;
    });
    // An answer already written as JSON text (the sales report's): checked the same way.
    a.get(
      `${API_PREFIX}/sonda-json/:n`,
      { config: { access: { kind: 'public' } }, schema: { response } },
      async (req, reply) => {
        const n = (req.params as { n: string }).n;
        return sendJsonText(reply, n === 'texto' ? '{"numero":"uno","extra":true}' : '{"numero":1.50,"extra":true}');
      },
    );
    await a.ready();
    return a;
  };

  it('refuses to register an API route without a documented answer', async () => {
    const a = await buildApp({ database: ctx.database, jwtSecret: 'x'.repeat(40), publicUrl: 'http://x' });
    expect(() =>
      a.get(`${API_PREFIX}/sin-respuesta`, { config: { access: { kind: 'public' } } }, async () => ({})),
    ).toThrow(/no documenta su respuesta/);
    await a.close();
  });

  it('checks answers against their schema in the tests, keeping every field', async () => {
    const a = await probe(true);
    const ok = await a.inject({ method: 'GET', url: `${API_PREFIX}/sonda/1` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ numero: 1, extra: true });
    const bad = await a.inject({ method: 'GET', url: `${API_PREFIX}/sonda/texto` });
    expect(bad.statusCode).toBe(500);
    expect(bad.json().code).toBe('INTERNAL');
    const text = await a.inject({ method: 'GET', url: `${API_PREFIX}/sonda-json/1` });
    expect([text.statusCode, text.headers['content-type'], text.body]).toEqual([
      200,
      'application/json; charset=utf-8',
      '{"numero":1.50,"extra":true}',
    ]);
    const badText = await a.inject({ method: 'GET', url: `${API_PREFIX}/sonda-json/texto` });
    expect([badText.statusCode, badText.json().code]).toEqual([500, 'INTERNAL']);
    await a.close();
  });

  it('writes answers as they are when not checking (production): no field is lost, nothing refused', async () => {
    const a = await probe(false);
    const res = await a.inject({ method: 'GET', url: `${API_PREFIX}/sonda/texto` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ numero: 'uno', extra: true });
    const text = await a.inject({ method: 'GET', url: `${API_PREFIX}/sonda-json/texto` });
    expect([text.statusCode, text.body]).toEqual([200, '{"numero":"uno","extra":true}']);
    await a.close();
  });
});
