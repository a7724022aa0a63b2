import { z } from 'zod';
import {
  bulkPriceInput,
  PRODUCT_MESSAGES,
  productInput,
  productListQuery,
  productUpdate,
  stockAdjustmentInput,
  stockMovementsQuery,
  type Product,
  bulkPriceResultSchema,
  productConListasSchema,
  productSchema,
  stockAdjustmentResultSchema,
  stockMovementSchema,
} from '@mostrador/shared';
import { noContent, xlsxFile } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf, canSeeCosts, takeFirstRead } from '../../lib/access.js';
import { knownFilters } from '../../lib/known-ids.js';
import { todayIn } from '../../lib/dates.js';
import { requireSomeField } from '../../lib/http.js';
import { MONEY_FMT, paged, pathId, sendXlsx } from './common.js';
import * as service from './products.service.js';
import { listStockMovements } from './stock.service.js';
import { conPreciosDeListas, exportColumnsDeListas } from '../precios/productos-listas.js';

const tags = ['productos'];
const base = '/businesses/:id/products';
const idParams = z.object({ id: z.string() });
const pidParams = z.object({ id: z.string(), pid: z.string() });

const ver = { access: access.module('productos', 'ver') };
const editar = { access: access.module('productos', 'editar') };
const eliminar = { access: access.module('productos', 'eliminar') };

/** The product columns of the export; the headers are ones the import recognises, so a file round-trips. */
export const PRODUCT_EXPORT_COLUMNS = [
  { header: 'Código', value: (p: Product) => p.codigo, width: 14 },
  { header: 'Nombre', value: (p: Product) => p.nombre, width: 32 },
  { header: 'Descripción', value: (p: Product) => p.descripcion, width: 28 },
  { header: 'Código de barras', value: (p: Product) => p.codigo_barras, width: 18 },
  { header: 'Categoría', value: (p: Product) => p.categoria_nombre, width: 18 },
  { header: 'Precio de compra', value: (p: Product) => p.precio_compra, numFmt: MONEY_FMT, cost: true },
  { header: 'Precio de venta', value: (p: Product) => p.precio_venta, numFmt: MONEY_FMT },
  { header: 'Stock', value: (p: Product) => p.stock_actual, width: 10 },
  { header: 'Stock mínimo', value: (p: Product) => p.stock_minimo, width: 12 },
  { header: 'Unidad', value: (p: Product) => p.unidad, width: 10 },
  { header: 'Activo', value: (p: Product) => (p.activo ? 'Sí' : 'No'), width: 8 },
];

/** Products, stock adjustments and history, bulk price update and export (§4.1, §14.2): module `productos`. */
export async function productRoutes(app: App) {
  const { db } = app.db;
  const filters = knownFilters(db, [
    { field: 'categoria_id', kind: 'categoria', except: 'ninguna' },
    { field: 'deposito_id', kind: 'deposito' },
  ]);

  app.get(
    base,
    {
      // The page goes to PostgreSQL with the session check, in one write (issue 20).
      config: { ...ver, firstRead: (req, businessId) => service.firstListRead(businessId, req.query) },
      schema: {
        tags,
        params: idParams,
        querystring: productListQuery,
        response: { 200: z.array(productConListasSchema) },
      },
      preHandler: filters,
    },
    async (req, reply) => {
      const b = businessOf(req);
      const first = takeFirstRead(req, JSON.stringify(req.query));
      const { rows, total, conListas } = first
        ? await service.readList(db, b.id, req.query, await first)
        : await service.listProducts(db, b.id, req.query);
      // The list's statement already said whether there are active price lists (issue 20).
      const body = conListas === false ? rows : await conPreciosDeListas(db, b.id, rows);
      return reply.header('X-Total-Count', String(total)).send(body);
    },
  );

  app.get(
    `${base}/exportar`,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: productListQuery, response: { 200: xlsxFile } },
      preHandler: filters,
    },
    async (req, reply) => {
      const b = businessOf(req);
      const q = req.query;
      const listas = await exportColumnsDeListas(db, b.id);
      return sendXlsx<Product>(reply, {
        filename: `productos-${todayIn(b.timezone, app.services.now())}.xlsx`,
        sheet: 'Productos',
        columns: [
          ...(canSeeCosts(b) ? PRODUCT_EXPORT_COLUMNS : PRODUCT_EXPORT_COLUMNS.filter((c) => !c.cost)),
          ...listas.columns,
        ],
        pages: paged(async (limit, offset) =>
          listas.withPrices((await service.listProducts(db, b.id, { ...q, limit, offset })).rows),
        ),
      });
    },
  );

  app.post(
    base,
    { config: editar, schema: { tags, params: idParams, body: productInput, response: { 201: productSchema } } },
    async (req, reply) =>
      reply.status(201).send(await service.createProduct(db, businessOf(req).id, authOf(req).id, req.body)),
  );

  app.post(
    `${base}/actualizacion-masiva`,
    {
      config: editar,
      schema: { tags, params: idParams, body: bulkPriceInput, response: { 200: bulkPriceResultSchema } },
    },
    async (req) => service.bulkPriceUpdate(db, businessOf(req).id, authOf(req).id, req.body),
  );

  app.get(
    `${base}/:pid`,
    { config: ver, schema: { tags, params: pidParams, response: { 200: productSchema } } },
    async (req) => service.getProduct(db, businessOf(req).id, pathId(req.params.pid, PRODUCT_MESSAGES.notFound)),
  );

  app.put(
    `${base}/:pid`,
    { config: editar, schema: { tags, params: pidParams, body: productUpdate, response: { 200: productSchema } } },
    async (req) => {
      requireSomeField(req.body);
      const pid = pathId(req.params.pid, PRODUCT_MESSAGES.notFound);
      return service.updateProduct(db, businessOf(req).id, authOf(req).id, pid, req.body);
    },
  );

  app.delete(
    `${base}/:pid`,
    { config: eliminar, schema: { tags, params: pidParams, response: { 204: noContent } } },
    async (req, reply) => {
      const pid = pathId(req.params.pid, PRODUCT_MESSAGES.notFound);
      await service.deleteProduct(db, businessOf(req).id, authOf(req).id, pid);
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}/:pid/ajuste-stock`,
    {
      config: editar,
      schema: { tags, params: pidParams, body: stockAdjustmentInput, response: { 200: stockAdjustmentResultSchema } },
    },
    async (req) => {
      const pid = pathId(req.params.pid, PRODUCT_MESSAGES.notFound);
      return service.adjustStock(db, businessOf(req).id, authOf(req).id, pid, req.body);
    },
  );

  app.get(
    `${base}/:pid/movimientos-stock`,
    {
      config: ver,
      schema: {
        tags,
        params: pidParams,
        querystring: stockMovementsQuery,
        response: { 200: z.array(stockMovementSchema) },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const pid = pathId(req.params.pid, PRODUCT_MESSAGES.notFound);
      await service.getProduct(db, b.id, pid);
      const { rows, total } = await listStockMovements(db, b.id, pid, req.query);
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );
}
