import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_PREFIX, type RouteEntry } from './access.js';
import { createTestApp } from '../test/app.js';
import { createBusiness, registerUser } from '../test/fixtures.js';

/**
 * Generated from the route table and the routes' own schemas (the OpenAPI document): every route,
 * registered now or later, gets malformed bodies, query strings and path parameters (NUL bytes,
 * lone UTF-16 surrogates, the year 0, path segments over 255 characters). Each must be refused
 * with a 4xx and a Spanish message, and nothing may be stored.
 */
const ctx = await createTestApp();
const { app } = ctx;

const owner = await registerUser(app, 'Fuzz');
const businessId = await createBusiness(app, owner, 'Negocio fuzz');

const routes = app.routeTable.filter((r) => r.url.startsWith(API_PREFIX));
const label = (r: RouteEntry) => `${r.method} ${r.url}`;

type Schema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
interface Param {
  in: 'query' | 'path';
  name: string;
  schema: Schema;
}
interface Operation {
  parameters?: Param[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const spec = app.swagger() as { paths: Record<string, Record<string, Operation>> };
function operationOf(r: RouteEntry): Operation {
  const path = r.url.replace(/:([a-zA-Z_]+)/g, '{$1}');
  const byPath = spec.paths[path] ?? spec.paths[path.replace(/\/$/, '')] ?? spec.paths[`${path}/`] ?? {};
  return byPath[r.method.toLowerCase()] ?? {};
}

const DATE_NAME = /fecha|vencimiento|desde|hasta|^date|_date$/;
const isDateField = (name: string, s: Schema) => s.format === 'date' || (DATE_NAME.test(name) && !s.enum);

/** A plausible value for a schema, so that the malformed field is the only thing wrong. */
function sample(s: Schema | undefined, name = ''): unknown {
  if (!s) return 'texto';
  const option = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (option) return sample(option, name);
  if (s.enum?.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string': {
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'email') return `fuzz.${randomUUID().slice(0, 8)}@ejemplo.com`;
      if (s.format === 'date-time') return '2025-01-15T12:00:00.000Z';
      if (isDateField(name, s)) return '2025-01-15';
      const text = 'Texto de prueba'.padEnd(s.minLength ?? 0, 'x');
      return text.slice(0, s.maxLength ?? text.length);
    }
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(s.minItems ?? 1, 1) }, () => sample(s.items, name));
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k) => [k, sample(s.properties?.[k], k)]));
    default:
      // Money and quantities accept numbers or numeric strings.
      return 100;
  }
}

const NUL_VALUES = ['a\u0000b', '\u0000', 'texto\u0000'];
const SURROGATES = ['x\ud800y', '\udfff', 'fin\udbff'];
const YEAR_ZERO = '0000-01-01';
const LONG_SEGMENT = 'a'.repeat(300);

interface Case {
  name: string;
  url: string;
  body?: string;
}

function casesFor(r: RouteEntry): Case[] {
  const op = operationOf(r);
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
  for (const m of r.url.matchAll(/:([a-zA-Z_]+)/g)) if (!pathParams.includes(m[1])) pathParams.push(m[1]);
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const global =
    !r.url.startsWith(`${API_PREFIX}/businesses/:id`) && r.access.kind !== 'public' && r.access.kind !== 'user';

  const pathValue = (name: string) =>
    name === 'id' && r.url.startsWith(`${API_PREFIX}/businesses/`) ? businessId : randomUUID();
  const build = (overrides: Record<string, string> = {}, query: Record<string, string> = {}) => {
    let url = r.url.replace(
      /:([a-zA-Z_]+)/g,
      (_m, name: string) => overrides[name] ?? encodeURIComponent(pathValue(name)),
    );
    const q = new URLSearchParams(global ? { negocio_id: businessId } : {});
    for (const [k, v] of Object.entries(query)) q.set(k, v);
    const qs = q.toString();
    if (qs) url += `?${qs}`;
    return url;
  };
  const validBody = bodySchema ? (sample(bodySchema) as Record<string, unknown>) : {};
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
  const withBody = (body: unknown, url = build()) => ({ url, body: JSON.stringify(body) });

  const cases: Case[] = [];
  const add = (name: string, c: Omit<Case, 'name'>) => cases.push({ ...c, name });

  // Path parameters: over 255 characters, NUL, and invalid UTF-8.
  for (const p of pathParams) {
    add(`:${p} de 300 caracteres`, {
      url: build({ [p]: LONG_SEGMENT }),
      body: hasBody ? JSON.stringify(validBody) : undefined,
    });
    add(`:${p} con NUL`, { url: build({ [p]: 'x%00y' }), body: hasBody ? JSON.stringify(validBody) : undefined });
    add(`:${p} con UTF-8 inválido`, {
      url: build({ [p]: '%ED%A0%80' }),
      body: hasBody ? JSON.stringify(validBody) : undefined,
    });
  }

  // Query string: every declared parameter, and some the route does not declare.
  const queryNames = [
    ...new Set([...queryParams.map((p) => p.name), 'q', 'zz', 'nombre', 'limit', 'offset', 'estado']),
  ];
  for (const name of queryNames) {
    for (const v of NUL_VALUES)
      add(`?${name} con NUL`, { url: build({}, { [name]: v }), body: hasBody ? JSON.stringify(validBody) : undefined });
  }
  add('segmento extra de 300 caracteres', { url: build().replace(/(\?|$)/, `/${LONG_SEGMENT}$1`) });
  add('clave de query con NUL', {
    url: build({}, { 'a\u0000b': '1' }),
    body: hasBody ? JSON.stringify(validBody) : undefined,
  });
  for (const p of queryParams) {
    if (isDateField(p.name, p.schema)) add(`?${p.name} en el año 0`, { url: build({}, { [p.name]: YEAR_ZERO }) });
  }

  if (hasBody) {
    const fields = Object.entries(bodySchema?.properties ?? {});
    for (const [name, s] of fields) {
      const type = Array.isArray(s.type) ? s.type : [s.type];
      if (type.includes('string') || s.type === undefined) {
        add(`${name} con NUL`, withBody({ ...validBody, [name]: NUL_VALUES[0] }));
        add(`${name} con surrogate suelto`, withBody({ ...validBody, [name]: SURROGATES[0] }));
      }
      if (isDateField(name, s)) add(`${name} en el año 0`, withBody({ ...validBody, [name]: YEAR_ZERO }));
      if (s.type === 'array' && s.items?.type === 'object') {
        for (const [sub, ss] of Object.entries(s.items.properties ?? {})) {
          const item = sample(s.items) as Record<string, unknown>;
          if (ss.type === 'string' || ss.type === undefined) {
            add(`${name}[].${sub} con NUL`, withBody({ ...validBody, [name]: [{ ...item, [sub]: NUL_VALUES[1] }] }));
            add(
              `${name}[].${sub} con surrogate`,
              withBody({ ...validBody, [name]: [{ ...item, [sub]: SURROGATES[1] }] }),
            );
          }
        }
      }
    }
    for (const v of SURROGATES) add('campo extra con surrogate', withBody({ ...validBody, extra: v }));
    add('clave con NUL', withBody({ ...validBody, 'a\u0000': 1 }));
    add('clave con surrogate', withBody({ ...validBody, '\ud800': 1 }));
    add('NUL anidado', withBody({ ...validBody, extra: { lista: [{ texto: '\u0000' }] } }));
  }
  return cases;
}

const TABLES = (
  await ctx.sql<{ t: string }>(
    `SELECT quote_ident(table_name) AS t FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  )
).map((r) => r.t);

async function rowCounts(): Promise<Record<string, number>> {
  const [row] = await ctx.sql<Record<string, string>>(
    `SELECT ${TABLES.map((t) => `(SELECT count(*) FROM ${t}) AS ${t}`).join(', ')}`,
  );
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

describe('malformed input, generated from the route table', () => {
  it('covers every API route', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it.each(routes.map((r) => [label(r), r] as const))('%s refuses every malformed request with a 4xx', async (_l, r) => {
    const cases = casesFor(r);
    expect(cases.length).toBeGreaterThanOrEqual(20);
    const before = await rowCounts();
    const failures: string[] = [];
    for (const c of cases) {
      const res = await app.inject({
        method: r.method as 'GET',
        url: c.url,
        headers: {
          ...owner.auth,
          ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(c.body !== undefined ? { payload: c.body } : {}),
      });
      const body = res.headers['content-type']?.toString().includes('json') ? res.json() : null;
      const ok =
        res.statusCode >= 400 &&
        res.statusCode < 500 &&
        typeof body?.detail !== 'undefined' &&
        typeof res.headers['x-request-id'] === 'string';
      if (!ok) failures.push(`${c.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      else if (typeof body.detail === 'string') expect(body.detail).not.toMatch(/error|invalid|failed|unexpected/i);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('identical inserts sent at once, generated from the route table', () => {
  // Every POST with a JSON body, sent three times at once with the same plausible body: the
  // requests that lose a race on a unique key answer 409 (or whatever the route refuses), never 500.
  const creates = routes.filter(
    (r) => r.method === 'POST' && operationOf(r).requestBody?.content?.['application/json'],
  );

  it('covers the routes that create', () => {
    expect(creates.length).toBeGreaterThan(20);
  });

  it.each(creates.map((r) => [label(r), r] as const))(
    '%s answers each of three identical requests with no 5xx',
    async (_l, r) => {
      const op = operationOf(r);
      const body = sample(op.requestBody?.content?.['application/json']?.schema);
      const url = r.url.replace(/:([a-zA-Z_]+)/g, (_m, name: string) =>
        name === 'id' && r.url.startsWith(`${API_PREFIX}/businesses/`) ? businessId : randomUUID(),
      );
      const global =
        !r.url.startsWith(`${API_PREFIX}/businesses/:id`) && r.access.kind !== 'public' && r.access.kind !== 'user';
      const send = () =>
        app.inject({
          method: 'POST',
          url: global ? `${url}?negocio_id=${businessId}` : url,
          headers: { ...owner.auth, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      const answers = await Promise.all([send(), send(), send()]);
      const failures = answers.filter((a) => a.statusCode >= 500).map((a) => `${a.statusCode} ${a.body.slice(0, 200)}`);
      expect(failures, failures.join('\n')).toEqual([]);
      for (const a of answers.filter((x) => x.statusCode === 409)) {
        expect(a.json().detail).toMatch(/^[^a-z]*[A-ZÁÉÍÓÚ¿]/);
      }
    },
  );
});

// The web app's files are served from disk: a segment over 255 bytes is no file (404), not an
// error of the file system. Asked with and without a session.
const web = mkdtempSync(path.join(tmpdir(), 'mostrador-web-'));
for (const f of ['app.html', 'index.html', 'politicas.html', 'terminos.html', 'cookies.html'])
  writeFileSync(path.join(web, f), '<!doctype html><title>Mostrador</title>');
mkdirSync(path.join(web, 'assets'));
writeFileSync(path.join(web, 'assets', 'app.js'), 'void 0;');

const withWeb = await createTestApp({ webDist: web });
const u = await registerUser(withWeb.app, 'Largo');
const b = await createBusiness(withWeb.app, u, 'Negocio largo');

describe('path segments longer than a file name, on every route and on the web app', () => {
  it.each([256, 1000])('answers %i characters with a 4xx and a message, never a 5xx', async (n) => {
    const long = 'a'.repeat(n);
    const urls = [
      `/${long}`,
      `/assets/${long}`,
      `/assets/${long}.js`,
      `/${long}/x`,
      `/x/${long}`,
      `/${'%C3%B1'.repeat(n / 2)}`,
    ];
    for (const r of withWeb.app.routeTable) {
      const url = r.url.replace(/:id\b/, b);
      if (url.includes(':')) urls.push(url.replace(/:([a-zA-Z_]+)/g, long));
      urls.push(`${url.replace(/:([a-zA-Z_]+)/g, randomUUID())}/${long}`);
    }
    const failures: string[] = [];
    for (const url of new Set(urls)) {
      for (const headers of [{}, u.auth]) {
        for (const method of ['GET', 'POST'] as const) {
          const res = await withWeb.app.inject({ method, url, headers });
          const json = res.headers['content-type']?.toString().includes('json') ? res.json() : null;
          if (res.statusCode < 400 || res.statusCode >= 500 || typeof json?.detail !== 'string')
            failures.push(`${method} ${url.slice(0, 60)}… ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    // The web app still serves its pages and files.
    expect((await withWeb.app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await withWeb.app.inject({ method: 'GET', url: '/ventas' })).body).toContain('Mostrador');
  });
});

describe('a unique key no module checks', () => {
  it('answers the request that breaks it with 409 and a Spanish message, storing nothing more', async () => {
    const other = await createTestApp();
    const u = await registerUser(other.app, 'Unico');
    const b = await createBusiness(other.app, u, 'Negocio único');
    // A key the tasks module knows nothing of stands for any race past a module's own check.
    await other.sql('CREATE UNIQUE INDEX tareas_titulo_prueba ON tasks (business_id, titulo)');
    const create = () =>
      other.app.inject({
        method: 'POST',
        url: `${API_PREFIX}/businesses/${b}/tareas`,
        headers: u.auth,
        payload: { titulo: 'Contar la caja' },
      });
    expect((await create()).statusCode).toBe(201);
    const again = await create();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: 'Ya existe un registro con esos datos. Revisalos e intentá nuevamente.',
      code: 'DUPLICATE',
    });
    expect(await other.sql('SELECT count(*)::int AS n FROM tasks')).toEqual([{ n: 1 }]);
  });
});
