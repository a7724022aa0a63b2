import { z } from 'zod';
import {
  apiErrorSchema,
  compartidoSchema,
  compartirInput,
  COMPARTIR_MESSAGES,
  DIAS_ENLACE_COMPARTIDO,
  documentoImprimirInput,
  documentoPdfQuery,
  impresionSchema,
  SALE_MESSAGES,
  ventaImprimirInput,
  type DocumentoTipo,
} from '@mostrador/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app.js';
import { enNegocio } from '../../db/tenant.js';
import { access, assertCan, businessOf } from '../../lib/access.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { pdfFile } from '../../lib/responses.js';
import { pathId } from '../products/common.js';
import { firmarEnlace, leerEnlace, telefonoWhatsapp } from './compartir.js';
import { contactoCliente, formatoNegocio } from './impresion.queries.js';
import { cajaParaVenta, documentoDe, documentoDeVenta, imprimir, type Negocio } from './impresion.service.js';
import { documentoPdf } from './pdf-documento.js';
import type { Documento } from './documento.js';

const ventaParams = z.object({ id: z.string(), ventaId: z.string() });
const idParams = z.object({ id: z.string() });
const tokenParams = z.object({ token: z.string() });

/** A document's PDF, shown in the browser (never cached nor indexed). */
function sendPdf(reply: FastifyReply, doc: Documento, pdf: Buffer) {
  const nombre =
    doc.titulo
      .normalize('NFD')
      .replace(/[^\w.# -]/g, '')
      .trim() || 'documento';
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `inline; filename="${nombre}.pdf"`)
    .header('Cache-Control', 'private, no-store')
    .header('X-Robots-Tag', 'noindex')
    .header('Referrer-Policy', 'no-referrer')
    .send(pdf);
}

/** Who may print (or share) each document: the module that shows it. */
export function assertPuedeVer(req: FastifyRequest, tipo: DocumentoTipo) {
  const modulo =
    tipo === 'estado_cuenta'
      ? 'clientes'
      : tipo === 'presupuesto'
        ? 'presupuestos'
        : tipo === 'remito'
          ? 'remitos'
          : tipo === 'transferencia'
            ? 'productos'
            : 'ventas';
  assertCan(businessOf(req), modulo, 'ver');
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
          'Imprime un documento (ticket, factura, recibo de cobro, devolución, cierre de turno, estado de cuenta, presupuesto o remito) en la impresora de una caja.',
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

  app.post(
    '/businesses/:id/documentos/compartir',
    {
      config: { access: access.member },
      schema: {
        tags,
        summary:
          'Un enlace firmado que vence, sin iniciar sesión, al PDF de un ticket, factura, recibo de cobro, devolución, estado de cuenta, presupuesto o remito (A4); con el enlace de WhatsApp y, si se pide, por e-mail.',
        params: idParams,
        body: compartirInput,
        response: { 200: compartidoSchema },
      },
    },
    async (req) => {
      assertPuedeVer(req, req.body.tipo);
      const b = negocio(req);
      const { mailer, jwtKey, publicUrl } = app.services;
      if (req.body.email && !mailer.enabled) throw conflict('INVALID_STATE', COMPARTIR_MESSAGES.sinSmtp);
      const d = await documentoDe(db, b, req.body.tipo, req.body.id);
      const vence = new Date(b.now.getTime() + DIAS_ENLACE_COMPARTIDO * 86_400_000);
      const token = firmarEnlace(jwtKey, {
        negocio: b.id,
        tipo: req.body.tipo,
        id: req.body.id,
        vence: Math.floor(vence.getTime() / 1000),
      });
      const url = `${publicUrl || `${req.protocol}://${req.host}`}/api/v1/documentos/${token}`;
      const [f, contacto] = await Promise.all([
        formatoNegocio(b.id, db),
        d.clienteId ? contactoCliente(b.id, d.clienteId, db) : undefined,
      ]);
      const dia = new Intl.DateTimeFormat(b.locale, { dateStyle: 'short', timeZone: b.timezone }).format(vence);
      const texto = `Hola${contacto ? ` ${contacto.nombre}` : ''}, te compartimos ${d.doc.titulo} de ${f?.nombre ?? 'nuestro comercio'}: ${url} (el enlace vence el ${dia}).`;
      const tel = telefonoWhatsapp(contacto?.telefono ?? null);
      if (req.body.email) {
        await mailer.send({
          to: req.body.email,
          subject: `${d.doc.titulo} de ${f?.nombre ?? 'Mostrador'}`,
          text: texto,
        });
      }
      return {
        url,
        whatsapp_url: `https://wa.me/${tel ?? ''}?text=${encodeURIComponent(texto)}`,
        vence: vence.toISOString(),
        email_enviado: Boolean(req.body.email),
      };
    },
  );

  app.get(
    '/businesses/:id/documentos/pdf',
    {
      config: { access: access.member },
      schema: {
        tags,
        summary:
          'El PDF de un documento para imprimirlo o guardarlo (presupuestos y remitos en hoja A4; los demás, como el ticket).',
        params: idParams,
        querystring: documentoPdfQuery,
        response: { 200: pdfFile },
      },
    },
    async (req, reply) => {
      assertPuedeVer(req, req.query.tipo);
      const { doc } = await documentoDe(db, negocio(req), req.query.tipo, req.query.id);
      return sendPdf(reply, doc, await documentoPdf(doc));
    },
  );

  app.get(
    '/documentos/:token',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'El PDF de un documento compartido (sin sesión, mientras el enlace no venció).',
        params: tokenParams,
        response: {
          200: pdfFile,
          404: {
            description: 'Enlace no válido (JSON, o una página para el navegador).',
            content: { 'application/json': { schema: apiErrorSchema }, 'text/html': { schema: z.string() } },
          },
          410: {
            description: 'Enlace vencido (JSON, o una página para el navegador).',
            content: { 'application/json': { schema: apiErrorSchema }, 'text/html': { schema: z.string() } },
          },
        },
      },
    },
    async (req, reply) => {
      // Opened from WhatsApp or an e-mail: a browser gets a page that says it, not JSON.
      const html = (status: 404 | 410, mensaje: string) =>
        reply
          .status(status)
          .header('Content-Type', 'text/html; charset=utf-8')
          .header('Cache-Control', 'no-store')
          .send(
            `<!doctype html><html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Mostrador</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#0f172a"><h1 style="font-size:1.25rem">Documento compartido</h1><p>${mensaje}</p></body></html>`,
          );
      const browser = (req.headers.accept ?? '').includes('text/html');
      const e = leerEnlace(app.services.jwtKey, req.params.token);
      if (!e) {
        if (browser) return html(404, COMPARTIR_MESSAGES.enlaceInvalido);
        throw notFound(COMPARTIR_MESSAGES.enlaceInvalido);
      }
      const now = app.services.now();
      if (e.vence * 1000 <= now.getTime()) {
        if (browser) return html(410, COMPARTIR_MESSAGES.enlaceVencido);
        throw new AppError(410, 'TOKEN_INVALID', COMPARTIR_MESSAGES.enlaceVencido);
      }
      // The link names its business: its rows are read in that business only (row-level security).
      const { doc } = await enNegocio(e.negocio, async () => {
        const f = await formatoNegocio(e.negocio, db);
        if (!f) throw notFound(COMPARTIR_MESSAGES.enlaceInvalido);
        return documentoDe(db, { id: e.negocio, ...f, now }, e.tipo, e.id);
      });
      return sendPdf(reply, doc, await documentoPdf(doc));
    },
  );
}
