import { z } from 'zod';
import {
  apiErrorSchema,
  codigosInternosInput,
  codigosInternosSchema,
  etiquetasImpresionSchema,
  etiquetasImprimirInput,
  etiquetasQuery,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { pdfFile } from '../../lib/responses.js';
import { asignarCodigosInternos, etiquetas, imprimirEtiquetas } from './etiquetas.service.js';

const idParams = z.object({ id: z.string() });

/** Shelf and barcode labels as A4 PDF sheets, and internal barcodes for products without one (issue 35). */
export async function etiquetaRoutes(app: App) {
  const { db } = app.db;
  const tags = ['etiquetas'];

  app.get(
    '/businesses/:id/etiquetas',
    {
      config: { access: access.module('productos', 'ver') },
      schema: {
        tags,
        summary:
          'Etiquetas de góndola o de código de barras (PDF, hojas A4) de los productos elegidos, de una categoría o de los que cambiaron de precio.',
        params: idParams,
        querystring: etiquetasQuery,
        response: { 200: pdfFile },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const r = await etiquetas(db, { ...b, now: app.services.now() }, req.query);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${r.nombre}"`)
        .header('X-Total-Count', String(r.cantidad))
        .send(r.pdf);
    },
  );

  app.post(
    '/businesses/:id/etiquetas/imprimir',
    {
      config: { access: access.module('productos', 'ver') },
      schema: {
        tags,
        summary:
          'Imprime las etiquetas (las mismas que el PDF) en la impresora de etiquetas de la caja (ZPL por la red, puerto 9100).',
        params: idParams,
        body: etiquetasImprimirInput,
        response: { 200: etiquetasImpresionSchema, 409: apiErrorSchema, 502: apiErrorSchema },
      },
    },
    async (req) => {
      const b = businessOf(req);
      const { caja_id, ...q } = req.body;
      return imprimirEtiquetas(db, { ...b, now: app.services.now() }, caja_id, q, app.services.impresoras);
    },
  );

  app.post(
    '/businesses/:id/etiquetas/codigos-internos',
    {
      config: { access: access.module('productos', 'editar') },
      schema: {
        tags,
        summary:
          'Código de barras interno (EAN-13 con prefijo GS1 04) para los productos elegidos que no tienen uno.',
        params: idParams,
        body: codigosInternosInput,
        response: { 200: codigosInternosSchema },
      },
    },
    async (req) => asignarCodigosInternos(db, businessOf(req).id, authOf(req).id, req.body.producto_ids),
  );
}
