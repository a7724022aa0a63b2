import type { FastifyInstance, FastifyReply, RouteOptions } from 'fastify';
import { jsonSchemaTransform, ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@mostrador/shared';
import { API_PREFIX } from './access.js';

/**
 * Every /api/v1 operation documents its answers (docs/decisions/0011-openapi-responses.md):
 * the route declares its success (`schema.response[200|201|204]`, from the zod schemas in
 * @mostrador/shared) and any status of its own (429, 405); the error statuses every route of its
 * kind can answer are added here from its access, parameters and method. A route registered
 * without a success answer fails at startup.
 */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** 204: no body (typed void, so the handler's `send()` takes none). */
export const noContent = z.null().describe('Sin contenido.') as unknown as z.ZodType<void>;

// Documented as a binary string; the handler sends the file's bytes (never serialized).
const binary = z.string().meta({ format: 'binary' }) as unknown as z.ZodType<Buffer | string>;

/** A download: the .xlsx file itself. */
export const xlsxFile = {
  description: 'Planilla .xlsx.',
  content: { [XLSX_TYPE]: { schema: binary } },
};

/** A download: a text file (the Libro IVA Digital's fixed-width records, ISO-8859-1, CRLF). */
export const txtFile = {
  description: 'Archivo de texto .txt.',
  content: { 'text/plain': { schema: binary } },
};

/** A download: a PDF (label sheets, shared documents). */
export const pdfFile = {
  description: 'Documento PDF.',
  content: { 'application/pdf': { schema: binary } },
};

/** JSON, or the same data as an .xlsx file with `formato=xlsx`. */
export const jsonOrXlsx = (json: z.ZodType) => ({
  description: 'JSON, o la planilla .xlsx con formato=xlsx.',
  content: { 'application/json': { schema: json }, [XLSX_TYPE]: { schema: binary } },
});

/** Limited routes (logins, signups, mail, spreadsheet uploads) add this to their own answers. */
export const rateLimitedResponse = { 429: apiErrorSchema };

/** A route kept only to refuse (sales are never deleted): 405 is its documented answer. */
export const refusedResponse = { 405: apiErrorSchema };

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function commonErrors(route: RouteOptions): Record<number, typeof apiErrorSchema> {
  const acc = route.config?.access;
  const schema = route.schema ?? {};
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  // A business's route (its id in the path, query or body): membership, permissions and plan.
  const business = acc !== undefined && acc.kind !== 'public' && acc.kind !== 'user';
  // Malformed input (lib/input-guard.ts: a NUL byte, a lone surrogate…) is a 422 on any route.
  const out: Record<number, typeof apiErrorSchema> = { 422: apiErrorSchema, 500: apiErrorSchema, 503: apiErrorSchema };
  if (schema.body || schema.consumes) Object.assign(out, { 413: apiErrorSchema, 415: apiErrorSchema });
  // A session's routes: 401 without one, 403 when it may not (another account's data, a role).
  if (acc && acc.kind !== 'public') Object.assign(out, { 401: apiErrorSchema, 403: apiErrorSchema });
  if (business) out[402] = apiErrorSchema;
  if (route.url.includes(':')) out[404] = apiErrorSchema;
  if (business && methods.some((m) => WRITES.has(m))) out[409] = apiErrorSchema;
  return out;
}

const isSuccess = (status: string) => /^2\d\d$/.test(status);

/**
 * Fails the registration of an API route without a documented success, and adds its errors.
 * With `check` (the tests), an answer with a status its route does not document is a 500.
 */
export function installResponseDocs(app: FastifyInstance, check: boolean) {
  app.decorate('checkResponses', check);
  if (check) {
    app.addHook('onSend', async (req, reply, payload) => {
      const response = req.routeOptions.schema?.response as Record<string, unknown> | undefined;
      const status = String(reply.statusCode);
      if (!response || !req.routeOptions.url?.startsWith(API_PREFIX) || status in response) return payload;
      process.stderr.write(`Estado no documentado: ${req.method} ${req.routeOptions.url} ${status}\n`);
      throw new Error(`${req.method} ${req.routeOptions.url} respondió ${status}, que no documenta.`);
    });
  }
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const response = (route.schema?.response ?? {}) as Record<string, unknown>;
    const statuses = Object.keys(response);
    if (!statuses.some(isSuccess) && !statuses.includes('405')) {
      throw new Error(`La ruta ${String(route.method)} ${route.url} no documenta su respuesta (schema.response).`);
    }
    route.schema = { ...route.schema, response: { ...commonErrors(route), ...response } };
  });
}

type SchemaOf = { schema: unknown; method: string; url: string };

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers are validated against their documented schemas (the tests). */
    checkResponses: boolean;
  }
}

const zodOf = (schema: unknown): z.ZodType => {
  if (schema instanceof z.ZodType) return schema;
  const inner = (schema as { properties?: unknown })?.properties;
  if (inner instanceof z.ZodType) return inner;
  throw new Error(`Esquema de respuesta no válido: ${JSON.stringify(schema)}`);
};

/**
 * Answers are written with JSON.stringify exactly as before the schemas: nothing is stripped
 * and the hot path pays nothing. With `check` (the tests), every answer is first validated, as
 * the client reads it (its JSON), against its documented schema: a mismatch is a 500.
 */
export function responseSerializer(check: boolean) {
  return ({ schema, method, url }: SchemaOf) => {
    const zod = zodOf(schema);
    if (!check) return (data: unknown) => JSON.stringify(data);
    return (data: unknown) => {
      const json = JSON.stringify(data);
      checkAnswer(zod, json, method, url);
      return json;
    };
  };
}

function checkAnswer(zod: z.ZodType, json: string | undefined, method: string, url: string) {
  const result = zod.safeParse(json === undefined ? undefined : JSON.parse(json));
  if (!result.success) {
    process.stderr.write(`Respuesta fuera de su esquema: ${method} ${url}\n${z.prettifyError(result.error)}\n`);
    throw new ResponseSerializationError(method, url, { cause: result.error });
  }
}

/**
 * Sends a 200 answer already written as JSON text (the sales report, whose lists PostgreSQL
 * writes: issue 20, decision 0027). It goes out as it is, past the serializer and the
 * preSerialization hooks, so the route itself leaves costs out and labels medios; the tests still
 * check it against the route's documented schema, as the serializer does for every other answer.
 */
export function sendJsonText(reply: FastifyReply, json: string) {
  if (reply.server.checkResponses) {
    const { method, url } = reply.request.routeOptions;
    const ok = (reply.request.routeOptions.schema?.response as Record<string, unknown> | undefined)?.['200'] as
      { content?: Record<string, { schema: unknown }> } | undefined;
    checkAnswer(zodOf(ok?.content?.['application/json']?.schema ?? ok), json, String(method), String(url));
  }
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Answers may carry more fields than documented (metodo_pago_label, for one): objects stay open. */
function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openObjects);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'additionalProperties' && v === false) continue;
    out[k] = openObjects(v);
  }
  return out;
}

/** fastify-type-provider-zod's transform, with the answers' objects left open. */
export const openApiTransform: typeof jsonSchemaTransform = (document) => {
  const result = jsonSchemaTransform(document);
  const schema = result.schema as { response?: unknown } | undefined;
  if (schema?.response) {
    const response = openObjects(schema.response) as Record<string, unknown>;
    // A `null` type is how @fastify/swagger writes an answer without content.
    if (response['204']) response['204'] = { type: 'null', description: 'Sin contenido.' };
    schema.response = response;
  }
  return result;
};
