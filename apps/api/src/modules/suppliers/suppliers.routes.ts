import { z } from 'zod';
import {
  SUPPLIER_MESSAGES,
  SUPPLIER_MOVE_LABELS,
  SUPPLIER_STATE_LABELS,
  supplierInput,
  supplierListQuery,
  supplierUpdate,
  type Supplier,
  supplierAccountSchema,
  supplierDetailSchema,
  supplierSchema,
  type SupplierMove,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import { noContent, xlsxFile } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { todayIn } from '../../lib/dates.js';
import { requireSomeField } from '../../lib/http.js';
import { DATE_FMT, excelDate, MONEY_FMT, onePage, paged, pathId, sendXlsx } from '../products/common.js';
import { getSupplierAccount } from './account.service.js';
import * as service from './suppliers.service.js';

const tags = ['proveedores'];
const base = '/businesses/:id/proveedores';
const idParams = z.object({ id: z.string() });
const pidParams = z.object({ id: z.string(), pid: z.string() });

// API-CONTRACT §1.5: proveedores → module stock.
const ver = { access: access.module('stock', 'ver') };
const editar = { access: access.module('stock', 'editar') };
const eliminar = { access: access.module('stock', 'eliminar') };

/** Suppliers (API-CONTRACT §12) and their export (§14.2): module `stock`. */
export async function supplierRoutes(app: App) {
  const { db } = app.db;
  const today = (req: FastifyRequest) => todayIn(businessOf(req).timezone, app.services.now());

  app.get(
    base,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: supplierListQuery, response: { 200: z.array(supplierSchema) } },
    },
    async (req, reply) => {
      const { rows, total } = await service.listSuppliers(db, businessOf(req).id, req.query, today(req));
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );

  app.get(
    `${base}/exportar`,
    { config: ver, schema: { tags, params: idParams, querystring: supplierListQuery, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const b = businessOf(req);
      const q = req.query;
      const day = today(req);
      return sendXlsx<Supplier>(reply, {
        filename: `proveedores-${day}.xlsx`,
        sheet: 'Proveedores',
        columns: [
          { header: 'Nombre', value: (s) => s.nombre, width: 28 },
          { header: 'CUIT', value: (s) => s.cuit, width: 16 },
          { header: 'E-mail', value: (s) => s.email, width: 28 },
          { header: 'Teléfono', value: (s) => s.telefono },
          { header: 'Contacto', value: (s) => s.contacto },
          { header: 'Dirección', value: (s) => s.direccion, width: 28 },
          { header: 'Ciudad', value: (s) => s.ciudad },
          { header: 'Provincia', value: (s) => s.provincia },
          { header: 'País', value: (s) => s.pais },
          { header: 'Condiciones de pago', value: (s) => s.condiciones_pago, width: 22 },
          { header: 'Estado', value: (s) => SUPPLIER_STATE_LABELS[s.estado] },
          { header: 'Deuda', value: (s) => s.deuda, numFmt: MONEY_FMT },
          { header: 'Deuda vencida', value: (s) => s.deuda_vencida, numFmt: MONEY_FMT },
          { header: 'Notas', value: (s) => s.notas, width: 30 },
        ],
        pages: paged(
          async (limit, offset) => (await service.listSuppliers(db, b.id, { ...q, limit, offset }, day)).rows,
        ),
      });
    },
  );

  app.post(
    base,
    { config: editar, schema: { tags, params: idParams, body: supplierInput, response: { 201: supplierSchema } } },
    async (req, reply) =>
      reply
        .status(201)
        .send(await service.createSupplier(db, businessOf(req).id, authOf(req).id, req.body, today(req))),
  );

  app.get(
    `${base}/:pid`,
    { config: ver, schema: { tags, params: pidParams, response: { 200: supplierDetailSchema } } },
    async (req) =>
      service.getSupplier(db, businessOf(req).id, pathId(req.params.pid, SUPPLIER_MESSAGES.notFound), today(req)),
  );

  app.put(
    `${base}/:pid`,
    { config: editar, schema: { tags, params: pidParams, body: supplierUpdate, response: { 200: supplierSchema } } },
    async (req) => {
      requireSomeField(req.body);
      const pid = pathId(req.params.pid, SUPPLIER_MESSAGES.notFound);
      return service.updateSupplier(db, businessOf(req).id, authOf(req).id, pid, req.body, today(req));
    },
  );

  app.delete(
    `${base}/:pid`,
    { config: eliminar, schema: { tags, params: pidParams, response: { 204: noContent } } },
    async (req, reply) => {
      await service.deleteSupplier(
        db,
        businessOf(req).id,
        authOf(req).id,
        pathId(req.params.pid, SUPPLIER_MESSAGES.notFound),
      );
      return reply.status(204).send();
    },
  );
  // The supplier's account (issue 14): payables and their payments with the running balance.
  const account = (req: FastifyRequest<{ Params: z.infer<typeof pidParams> }>) =>
    getSupplierAccount(db, businessOf(req).id, pathId(req.params.pid, SUPPLIER_MESSAGES.notFound));
  app.get(
    `${base}/:pid/cuenta-corriente`,
    { config: ver, schema: { tags, params: pidParams, response: { 200: supplierAccountSchema } } },
    async (req) => account(req),
  );
  app.get(
    `${base}/:pid/cuenta-corriente/exportar`,
    { config: ver, schema: { tags, params: pidParams, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const c = await account(req);
      return sendXlsx<SupplierMove>(reply, {
        filename: 'cuenta-proveedor.xlsx',
        sheet: 'Cuenta del proveedor',
        columns: [
          { header: 'Fecha', value: (m) => excelDate(m.fecha, businessOf(req).timezone), width: 12, numFmt: DATE_FMT },
          { header: 'Concepto', value: (m) => SUPPLIER_MOVE_LABELS[m.tipo], width: 18 },
          { header: 'Descripción', value: (m) => m.descripcion, width: 40 },
          { header: 'Debe', value: (m) => m.debe, numFmt: MONEY_FMT },
          { header: 'Haber', value: (m) => m.haber, numFmt: MONEY_FMT },
          { header: 'Saldo', value: (m) => m.saldo, numFmt: MONEY_FMT },
        ],
        pages: onePage(c.movimientos),
      });
    },
  );
}
