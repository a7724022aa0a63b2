import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  PRESUPUESTO_MESSAGES,
  presupuestoConvertidoSchema,
  presupuestoConvertirInput,
  presupuestoEstadoInput,
  presupuestoInput,
  presupuestoListQuery,
  presupuestoListSchema,
  presupuestoSchema,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import {
  access,
  assertCan,
  authOf,
  businessOf,
  canChangePrices,
  canExceedCredit,
  maxDiscount,
} from '../../lib/access.js';
import { pathId } from '../products/common.js';
import type { SaleContext } from '../sales/sales.service.js';
import { convertirPresupuesto } from './convertir.js';
import {
  changePresupuestoEstado,
  createPresupuesto,
  getPresupuesto,
  hoyDe,
  listPresupuestos,
  updatePresupuestoDoc,
} from './presupuestos.service.js';

const tags = ['presupuestos'];
const ver = { access: access.module('presupuestos', 'ver') };
const editar = { access: access.module('presupuestos', 'editar') };

const idParams = z.object({ id: z.string() });
const pidParams = z.object({ id: z.string(), presupuestoId: z.string() });

/** Presupuestos (issue 37, decision 0056). */
export async function presupuestoRoutes(app: App) {
  const { db } = app.db;
  const ctx = (req: FastifyRequest): SaleContext => {
    const b = businessOf(req);
    return {
      businessId: b.id,
      userId: authOf(req).id,
      timezone: b.timezone,
      now: app.services.now(),
      precios: { cambiar: canChangePrices(b), descuentoMaximo: maxDiscount(b) },
      excederCredito: canExceedCredit(b),
    };
  };
  const pid = (v: string) => pathId(v, PRESUPUESTO_MESSAGES.notFound);

  app.get(
    '/businesses/:id/presupuestos',
    {
      config: ver,
      schema: {
        tags,
        summary: 'Los presupuestos del negocio, del más nuevo al más viejo (filtros: estado, cliente_id).',
        params: idParams,
        querystring: presupuestoListQuery,
        response: { 200: presupuestoListSchema },
      },
    },
    async (req) => listPresupuestos(db, businessOf(req).id, req.query, hoyDe(ctx(req))),
  );

  app.post(
    '/businesses/:id/presupuestos',
    {
      config: editar,
      schema: {
        tags,
        summary: 'Crea un presupuesto (borrador) con los precios de la lista del cliente.',
        params: idParams,
        body: presupuestoInput,
        response: { 201: presupuestoSchema },
      },
    },
    async (req, reply) => reply.status(201).send(await createPresupuesto(db, ctx(req), req.body)),
  );

  app.get(
    '/businesses/:id/presupuestos/:presupuestoId',
    {
      config: ver,
      schema: {
        tags,
        summary: 'Un presupuesto con sus ítems.',
        params: pidParams,
        response: { 200: presupuestoSchema },
      },
    },
    async (req) => getPresupuesto(db, businessOf(req).id, pid(req.params.presupuestoId), hoyDe(ctx(req))),
  );

  app.put(
    '/businesses/:id/presupuestos/:presupuestoId',
    {
      config: editar,
      schema: {
        tags,
        summary:
          'Edita un presupuesto en borrador, enviado o vencido; queda en borrador, con fecha de hoy y los precios de hoy (409 si está aceptado, convertido o anulado).',
        params: pidParams,
        body: presupuestoInput,
        response: { 200: presupuestoSchema },
      },
    },
    async (req) => updatePresupuestoDoc(db, ctx(req), pid(req.params.presupuestoId), req.body),
  );

  app.post(
    '/businesses/:id/presupuestos/:presupuestoId/estado',
    {
      config: editar,
      schema: {
        tags,
        summary:
          'Marca un presupuesto enviado, aceptado o anulado (anular pide presupuestos/eliminar); 409 si el cambio no corresponde a su estado.',
        params: pidParams,
        body: presupuestoEstadoInput,
        response: { 200: presupuestoSchema },
      },
    },
    async (req) => {
      if (req.body.estado === 'anulado') assertCan(businessOf(req), 'presupuestos', 'eliminar');
      return changePresupuestoEstado(db, ctx(req), pid(req.params.presupuestoId), req.body.estado);
    },
  );

  app.post(
    '/businesses/:id/presupuestos/:presupuestoId/convertir',
    {
      config: editar,
      schema: {
        tags,
        summary:
          'Convierte un presupuesto en una venta (como una venta del POS: stock, caja, cobro y factura) o en un remito, con los precios del presupuesto o los de hoy. Dos conversiones a la vez: una gana, la otra recibe 409.',
        params: pidParams,
        body: presupuestoConvertirInput,
        response: { 201: presupuestoConvertidoSchema },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      assertCan(b, req.body.destino === 'venta' ? 'ventas' : 'remitos', 'editar');
      const r = await convertirPresupuesto(app, ctx(req), pid(req.params.presupuestoId), req.body);
      return reply.status(201).send(r);
    },
  );
}
