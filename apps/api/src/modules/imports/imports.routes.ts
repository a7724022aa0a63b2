import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  importConfirmInput,
  stagedRowsQuery,
  stagedRowUpdate,
  importCancelledSchema,
  importConfirmResultSchema,
  importResultSchema,
  importSheetsResultSchema,
  importStatusSchema,
  importUploadResultSchema,
  stagedRowSchema,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { rateLimitedResponse, xlsxFile } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { requireSomeField } from '../../lib/http.js';
import { pathId, sendXlsx } from '../products/common.js';
import { stagedErrors } from './errors-file.js';
import * as service from './imports.service.js';
import { listaProveedorRoutes } from '../precios/lista-proveedor.routes.js';
import { spreadsheetSlots } from './slots.js';
import { fileError, spreadsheetReaders } from './spreadsheet.js';

const tags = ['importacion'];
const idParams = z.object({ id: z.string() });
const tidParams = z.object({ id: z.string(), tid: z.string() });

const ver = { access: access.module('productos', 'ver') };
const editar = { access: access.module('productos', 'editar') };

const tooLarge = () => new AppError(413, 'PAYLOAD_TOO_LARGE', IMPORT_MESSAGES.tooLarge);

/** The file (field `file`) and the text fields of a multipart upload; the file is at most 10 MB. */
export async function readUpload(
  req: FastifyRequest,
): Promise<{ file: service.UploadedFile; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Tipo de contenido no soportado.');
  let file: service.UploadedFile | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer();
        if (part.fieldname === 'file' && !file) file = { buffer, filename: part.filename || 'archivo' };
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'La solicitud supera el tamaño máximo permitido.');
    }
    throw e;
  }
  if (!file) throw fileError(IMPORT_MESSAGES.noFile);
  return { file, fields };
}

/** The wizard's column step: `mapeo` is a JSON object from header text to field (or null to ignore it). */
export function mappingOf(raw: string | undefined): Record<string, string | null> | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const out: Record<string, string | null> = {};
      for (const [k, x] of Object.entries(v)) {
        if (x !== null && typeof x !== 'string') throw new Error('mapeo');
        out[k] = x;
      }
      return out;
    }
  } catch {
    // fall through
  }
  throw fileError(IMPORT_MESSAGES.badMapping);
}

/**
 * Product import (API-CONTRACT §4.2): the one-shot `products/importar-excel` and the staged
 * `/import/…` flow, module `productos`. Multipart is registered only in this scope.
 */
export async function importRoutes(app: App) {
  const { db } = app.db;
  const now = () => app.services.now();
  const limits = app.services.imports;
  const slots = spreadsheetSlots(limits.concurrent, limits.queued);
  const readers = spreadsheetReaders(limits.heapMb);
  app.addHook('onClose', async () => readers.close());
  /** Runs `task` on the file once it has a parsing slot and a reader thread; its time starts then. */
  const parse = <T>(file: service.UploadedFile, task: (f: service.UploadedFile) => Promise<T>) =>
    slots(() => {
      const deadline = Date.now() + limits.parseMs;
      return readers.run(deadline, (reader) => task({ ...file, deadline, reader }));
    });

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, fieldSize: 256 * 1024, parts: 12 },
    });
    const s = scope.withTypeProvider<ZodTypeProvider>();

    s.post(
      '/businesses/:id/products/importar-excel',
      {
        config: editar,
        schema: {
          tags,
          params: idParams,
          consumes: ['multipart/form-data'],
          response: { 200: importResultSchema, ...rateLimitedResponse },
        },
      },
      async (req) => {
        const { file } = await readUpload(req);
        return parse(file, (f) => service.importFile(db, businessOf(req).id, authOf(req).id, f));
      },
    );

    s.post(
      '/businesses/:id/import/hojas-excel',
      {
        config: editar,
        schema: {
          tags,
          params: idParams,
          consumes: ['multipart/form-data'],
          response: { 200: importSheetsResultSchema, ...rateLimitedResponse },
        },
      },
      async (req) => parse((await readUpload(req)).file, (f) => service.listSheets(f)),
    );

    s.post(
      '/businesses/:id/import/upload',
      {
        config: editar,
        schema: {
          tags,
          params: idParams,
          consumes: ['multipart/form-data'],
          response: { 200: importUploadResultSchema, ...rateLimitedResponse },
        },
      },
      async (req) => {
        const { file, fields } = await readUpload(req);
        const hoja = (fields.hoja ?? fields.sheet_name)?.trim() || undefined;
        const mapeo = mappingOf(fields.mapeo);
        return parse(file, (f) => service.upload(db, businessOf(req).id, authOf(req).id, f, { hoja, mapeo }, now()));
      },
    );

    s.get(
      '/businesses/:id/import/resumen',
      { config: ver, schema: { tags, params: idParams, response: { 200: importStatusSchema } } },
      async (req) => service.summary(db, businessOf(req).id, authOf(req).id, now()),
    );

    s.get(
      '/businesses/:id/import/productos-temporales',
      {
        config: ver,
        schema: { tags, params: idParams, querystring: stagedRowsQuery, response: { 200: z.array(stagedRowSchema) } },
      },
      async (req, reply) => {
        const { rows, total } = await service.listStaged(db, businessOf(req).id, authOf(req).id, req.query, now());
        return reply.header('X-Total-Count', String(total)).send(rows);
      },
    );

    // The rows that cannot be imported, with their errors, to fix them and import them again.
    s.get(
      '/businesses/:id/import/errores',
      { config: ver, schema: { tags, params: idParams, response: { 200: xlsxFile } } },
      async (req, reply) => {
        const { columns, pages } = await stagedErrors(db, businessOf(req).id, authOf(req).id, now());
        return sendXlsx(reply, { filename: 'filas-con-errores.xlsx', sheet: 'Filas con errores', columns, pages });
      },
    );

    s.put(
      '/businesses/:id/import/productos-temporales/:tid',
      {
        config: editar,
        schema: { tags, params: tidParams, body: stagedRowUpdate, response: { 200: stagedRowSchema } },
      },
      async (req) => {
        requireSomeField(req.body as Record<string, unknown>);
        const tid = pathId(req.params.tid, IMPORT_MESSAGES.rowNotFound);
        return service.updateStaged(db, businessOf(req).id, authOf(req).id, tid, req.body, now());
      },
    );

    s.post(
      '/businesses/:id/import/confirmar',
      {
        config: editar,
        schema: {
          tags,
          params: idParams,
          body: importConfirmInput.optional(),
          response: { 200: importConfirmResultSchema },
        },
      },
      async (req) =>
        service.confirm(
          db,
          businessOf(req).id,
          authOf(req).id,
          req.body ?? { crear_categorias_nuevas: true, sobrescribir_existentes: true, stock_vacio: 'cero' },
          now(),
        ),
    );

    // Cancelling needs productos/editar, not eliminar (API-CONTRACT §1.5).
    s.delete(
      '/businesses/:id/import/cancelar',
      { config: editar, schema: { tags, params: idParams, response: { 200: importCancelledSchema } } },
      async (req) => service.cancel(db, businessOf(req).id, authOf(req).id),
    );
    // Supplier price lists (issue 17) read files with this module's reader, under its limits.
    await listaProveedorRoutes(scope, { db, parse, now });
  });
}
