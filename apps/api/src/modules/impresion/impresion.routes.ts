import { z } from 'zod';
import {
  apiErrorSchema,
  documentoImprimirInput,
  impresionSchema,
  SALE_MESSAGES,
  ventaImprimirInput,
  type DocumentoTipo,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.js';
import { access, assertCan, businessOf } from '../../lib/access.js';
import { pathId } from '../products/common.js';
import { cajaParaVenta, documentoDe, documentoDeVenta, imprimir, type Negocio } from './impresion.service.js';

const ventaParams = z.object({ id: z.string(), ventaId: z.string() });
const idParams = z.object({ id: z.string() });

/** Who may print (or share) each document: the module that shows it. */
export function assertPuedeVer(req: FastifyRequest, tipo: DocumentoTipo) {
  assertCan(businessOf(req), tipo === 'estado_cuenta' ? 'clientes' : 'ventas', 'ver');
}

/** Printing without the browser's dialog (issue 35): a sale's reprint and any document on a caja's printer. */
export async function impresionRoutes(app: App) {
  const { db } = app.db;
  const tags = ['impresion'];
  const negocio = (req: FastifyRequest): Negocio => {
    const b = businessOf(req);
    return { id: b.id, timezone: b.timezone, locale: b.locale, currency: b.currency, now: app.services.now() };
  };
  // The printer failed (off, refused, out of paper, too slow): what failed, in Spanish.
  const response = { 200: impresionSchema, 502: apiErrorSchema };

  app.post(
    '/businesses/:id/ventas/:ventaId/imprimir',
    {
      config: { access: access.module('ventas', 'ver') },
      schema: {
        tags,
        summary: 'Imprime (o reimprime) una venta en la impresora de una caja: su factura autorizada o su ticket.',
        params: ventaParams,
        body: ventaImprimirInput,
        response,
      },
    },
    async (req) => {
      const b = negocio(req);
      const ventaId = pathId(req.params.ventaId, SALE_MESSAGES.notFound);
      const d = await documentoDeVenta(db, b, ventaId);
      const caja = await cajaParaVenta(db, b.id, ventaId, req.body.caja_id);
      return imprimir(db, b.id, caja, d, {
        abrirCajon: req.body.abrir_cajon ?? false,
        tiempos: app.services.impresoras,
      });
    },
  );

  app.post(
    '/businesses/:id/documentos/imprimir',
    {
      config: { access: access.member },
      schema: {
        tags,
        summary:
          'Imprime un documento (ticket, factura, recibo de cobro, devolución, cierre de turno o estado de cuenta) en la impresora de una caja.',
        params: idParams,
        body: documentoImprimirInput,
        response,
      },
    },
    async (req) => {
      assertPuedeVer(req, req.body.tipo);
      const b = negocio(req);
      const d = await documentoDe(db, b, req.body.tipo, req.body.id);
      return imprimir(db, b.id, req.body.caja_id, d, { abrirCajon: false, tiempos: app.services.impresoras });
    },
  );
}
