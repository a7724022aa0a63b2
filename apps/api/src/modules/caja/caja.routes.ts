import { z } from 'zod';
import {
  CAJA_MESSAGES,
  cajaInput,
  cajaPatchInput,
  medioPagoInput,
  medioPagoUpdate,
  TURNO_STATE_LABELS,
  turnoCerrarInput,
  turnoListQuery,
  turnoMovimientoInput,
  turnoOpenInput,
  cobroInput,
  CUSTOMER_MESSAGES,
  type TurnoResumen,
  ACCOUNT_MOVE_LABELS,
  AGEING_BUCKETS,
  AGEING_LABELS,
  type AccountMove,
  type Deudor,
  cajaSchema,
  cobroSchema,
  cuentaCorrienteSchema,
  deudorSchema,
  medioDeletedSchema,
  medioPagoSchema,
  turnoMovimientoCreatedSchema,
  turnoResumenSchema,
  turnoSchema,
  cierreFilas,
  type CierreFila,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import { xlsxFile } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { todayIn } from '../../lib/dates.js';
import { access, authOf, blindCount, businessOf, hasFullAccess } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { idempotencyKey, requireSomeField } from '../../lib/http.js';
import {
  DATE_FMT,
  DATETIME_FMT,
  excelDate,
  excelDateTime,
  MONEY_FMT,
  onePage,
  paged,
  pathId,
  sendXlsx,
} from '../products/common.js';
import * as cuenta from './cuenta.service.js';
import * as medios from './medios.service.js';
import * as turnos from './turnos.service.js';

const idParams = z.object({ id: z.string() });
const midParams = z.object({ id: z.string(), medioId: z.string() });
const cajaParams = z.object({ id: z.string(), cajaId: z.string() });
const turnoParams = z.object({ id: z.string(), turnoId: z.string() });

// The counter's money belongs to the module ventas: whoever sells opens, moves and closes turnos.
const ver = { access: access.module('ventas', 'ver') };
const editar = { access: access.module('ventas', 'editar') };

/** Medios de pago, cajas and turnos (issue 14). */
export async function cajaRoutes(app: App) {
  const { db } = app.db;
  const now = () => app.services.now();
  const tags = ['caja'];
  const medioId = (v: string) => pathId(v, CAJA_MESSAGES.medioNotFound);
  const turnoId = (v: string) => pathId(v, CAJA_MESSAGES.turnoNotFound);
  /** A turno as the caller may see it: blind while open when the business counts blind (issue 33). */
  const visto = <T extends TurnoResumen>(req: FastifyRequest, t: T): T =>
    blindCount(businessOf(req)) ? turnos.aCiegas(t) : t;

  app.get(
    '/businesses/:id/medios-pago',
    {
      config: { access: access.member },
      schema: { tags, params: idParams, response: { 200: z.array(medioPagoSchema) } },
    },
    async (req) => medios.listMedios(db, businessOf(req).id),
  );
  app.post(
    '/businesses/:id/medios-pago',
    {
      config: { access: access.admin },
      schema: { tags, params: idParams, body: medioPagoInput, response: { 201: medioPagoSchema } },
    },
    async (req, reply) =>
      reply.status(201).send(await medios.createMedio(db, businessOf(req).id, authOf(req).id, req.body)),
  );
  app.put(
    '/businesses/:id/medios-pago/:medioId',
    {
      config: { access: access.admin },
      schema: { tags, params: midParams, body: medioPagoUpdate, response: { 200: medioPagoSchema } },
    },
    async (req) => {
      requireSomeField(req.body);
      return medios.updateMedio(db, businessOf(req).id, authOf(req).id, medioId(req.params.medioId), req.body);
    },
  );
  app.delete(
    '/businesses/:id/medios-pago/:medioId',
    { config: { access: access.admin }, schema: { tags, params: midParams, response: { 200: medioDeletedSchema } } },
    async (req) => medios.deleteMedio(db, businessOf(req).id, authOf(req).id, medioId(req.params.medioId)),
  );

  const clienteParams = z.object({ id: z.string(), clienteId: z.string() });
  const clienteId = (v: string) => pathId(v, CUSTOMER_MESSAGES.notFound);
  const deudores = (req: FastifyRequest) => {
    const b = businessOf(req);
    return cuenta.listDeudores(db, b.id, b.timezone, todayIn(b.timezone, now()));
  };
  app.get(
    '/businesses/:id/cuentas-corrientes',
    {
      config: { access: access.module('clientes', 'ver') },
      schema: { tags, params: idParams, response: { 200: z.array(deudorSchema) } },
    },
    async (req) => deudores(req),
  );
  app.get(
    '/businesses/:id/cuentas-corrientes/exportar',
    {
      config: { access: access.module('clientes', 'ver') },
      schema: { tags, params: idParams, response: { 200: xlsxFile } },
    },
    async (req, reply) => {
      const list = await deudores(req);
      return sendXlsx<Deudor>(reply, {
        filename: 'cuentas-corrientes.xlsx',
        sheet: 'Cuentas corrientes',
        columns: [
          { header: 'Cliente', value: (d) => d.cliente_nombre, width: 28 },
          { header: 'Debe', value: (d) => d.saldo, numFmt: MONEY_FMT },
          { header: 'Límite de crédito', value: (d) => d.limite_credito, numFmt: MONEY_FMT },
          ...AGEING_BUCKETS.map((k) => ({
            header: AGEING_LABELS[k],
            value: (d: Deudor) => d.antiguedad[k],
            numFmt: MONEY_FMT,
          })),
        ],
        pages: onePage(list),
      });
    },
  );
  app.get(
    '/businesses/:id/clientes/:clienteId/cuenta-corriente/exportar',
    {
      config: { access: access.module('clientes', 'ver') },
      schema: { tags, params: clienteParams, response: { 200: xlsxFile } },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const c = await cuenta.getCuenta(db, b.id, clienteId(req.params.clienteId), todayIn(b.timezone, now()));
      return sendXlsx<AccountMove>(reply, {
        filename: 'estado-de-cuenta.xlsx',
        sheet: 'Estado de cuenta',
        columns: [
          { header: 'Fecha', value: (m) => excelDate(m.fecha, businessOf(req).timezone), width: 12, numFmt: DATE_FMT },
          { header: 'Concepto', value: (m) => ACCOUNT_MOVE_LABELS[m.tipo], width: 26 },
          { header: 'Número', value: (m) => m.numero, width: 10 },
          { header: 'Debe', value: (m) => m.debe, numFmt: MONEY_FMT },
          { header: 'Haber', value: (m) => m.haber, numFmt: MONEY_FMT },
          { header: 'Saldo', value: (m) => m.saldo, numFmt: MONEY_FMT },
        ],
        pages: onePage(c.movimientos),
      });
    },
  );
  app.get(
    '/businesses/:id/clientes/:clienteId/cuenta-corriente',
    {
      config: { access: access.module('clientes', 'ver') },
      schema: { tags, params: clienteParams, response: { 200: cuentaCorrienteSchema } },
    },
    async (req) => {
      const b = businessOf(req);
      return cuenta.getCuenta(db, b.id, clienteId(req.params.clienteId), todayIn(b.timezone, now()));
    },
  );
  app.post(
    '/businesses/:id/clientes/:clienteId/cobros',
    { config: editar, schema: { tags, params: clienteParams, body: cobroInput, response: { 201: cobroSchema } } },
    async (req, reply) => {
      const b = businessOf(req);
      const ctx = { businessId: b.id, userId: authOf(req).id, timezone: b.timezone, now: now() };
      return reply.status(201).send(await cuenta.createCobro(db, ctx, clienteId(req.params.clienteId), req.body));
    },
  );

  app.get(
    '/businesses/:id/cajas',
    { config: ver, schema: { tags, params: idParams, response: { 200: z.array(cajaSchema) } } },
    async (req) =>
      (await turnos.listCajas(db, businessOf(req).id)).map((c) => ({
        ...c,
        turno_abierto: c.turno_abierto && visto(req, c.turno_abierto),
      })),
  );
  app.post(
    '/businesses/:id/cajas',
    {
      config: { access: access.admin },
      schema: { tags, params: idParams, body: cajaInput, response: { 201: cajaSchema } },
    },
    async (req, reply) =>
      reply.status(201).send(await turnos.createCaja(db, businessOf(req).id, authOf(req).id, req.body)),
  );
  app.patch(
    '/businesses/:id/cajas/:cajaId',
    {
      config: { access: access.admin },
      schema: { tags, params: cajaParams, body: cajaPatchInput, response: { 200: cajaSchema } },
    },
    async (req) =>
      turnos.updateCaja(
        db,
        businessOf(req).id,
        authOf(req).id,
        pathId(req.params.cajaId, CAJA_MESSAGES.cajaNotFound),
        req.body,
      ),
  );
  app.post(
    '/businesses/:id/cajas/:cajaId/turnos',
    { config: editar, schema: { tags, params: cajaParams, body: turnoOpenInput, response: { 201: turnoSchema } } },
    async (req, reply) => {
      const cajaId = pathId(req.params.cajaId, CAJA_MESSAGES.cajaNotFound);
      const t = await turnos.openTurno(db, businessOf(req).id, authOf(req).id, cajaId, req.body.fondo_inicial, now());
      return reply.status(201).send(visto(req, t));
    },
  );

  app.get(
    '/businesses/:id/turnos',
    {
      config: ver,
      schema: { tags, params: idParams, querystring: turnoListQuery, response: { 200: z.array(turnoResumenSchema) } },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const { rows, total } = await turnos.listTurnos(db, b.id, b.timezone, req.query);
      return reply.header('X-Total-Count', String(total)).send(rows.map((t) => visto(req, t)));
    },
  );

  app.get(
    '/businesses/:id/turnos/exportar',
    { config: ver, schema: { tags, params: idParams, querystring: turnoListQuery, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const b = businessOf(req);
      const when = (iso: string | null) => excelDateTime(iso, b.timezone);
      return sendXlsx<TurnoResumen>(reply, {
        filename: 'turnos.xlsx',
        sheet: 'Turnos',
        columns: [
          { header: 'Turno', value: (t) => t.numero, width: 8 },
          { header: 'Caja', value: (t) => t.caja_nombre },
          { header: 'Estado', value: (t) => TURNO_STATE_LABELS[t.estado], width: 10 },
          { header: 'Abierto por', value: (t) => t.abierto_por?.nombre ?? '', width: 22 },
          { header: 'Apertura', value: (t) => when(t.abierto_en), numFmt: DATETIME_FMT },
          { header: 'Cerrado por', value: (t) => t.cerrado_por?.nombre ?? '', width: 22 },
          { header: 'Cierre', value: (t) => when(t.cerrado_en), numFmt: DATETIME_FMT },
          { header: 'Fondo inicial', value: (t) => t.fondo_inicial, numFmt: MONEY_FMT },
          { header: 'Ventas', value: (t) => t.ventas_cantidad, width: 8 },
          { header: 'Total vendido', value: (t) => t.ventas_total, numFmt: MONEY_FMT },
          { header: 'Diferencia', value: (t) => t.diferencia, numFmt: MONEY_FMT },
        ],
        pages: paged(async (limit, offset) =>
          (await turnos.listTurnos(db, b.id, b.timezone, { ...req.query, limit, offset })).rows.map((t) =>
            visto(req, t),
          ),
        ),
      });
    },
  );

  // The closing (or the state while open) of one turno, as the printed report says it.
  app.get(
    '/businesses/:id/turnos/:turnoId/exportar',
    { config: ver, schema: { tags, params: turnoParams, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const b = businessOf(req);
      const t = await turnos.getTurno(db, b.id, turnoId(req.params.turnoId));
      if (t.estado === 'abierto' && blindCount(b)) throw new AppError(403, 'FORBIDDEN', CAJA_MESSAGES.blindExport);
      return sendXlsx<CierreFila>(reply, {
        filename: `turno-${t.numero}.xlsx`,
        sheet: `Turno ${t.numero} ${t.caja_nombre}`.slice(0, 31),
        columns: [
          { header: 'Medio de pago', value: (r) => r.medio, width: 34 },
          { header: 'Fondo inicial', value: (r) => r.fondo, numFmt: MONEY_FMT },
          { header: 'Ventas', value: (r) => r.ventas, numFmt: MONEY_FMT },
          { header: 'Cobros', value: (r) => r.cobros, numFmt: MONEY_FMT },
          { header: 'Ingresos', value: (r) => r.ingresos, numFmt: MONEY_FMT },
          { header: 'Retiros', value: (r) => r.retiros, numFmt: MONEY_FMT },
          { header: 'Devoluciones', value: (r) => r.devoluciones, numFmt: MONEY_FMT },
          { header: 'Esperado', value: (r) => r.esperado, numFmt: MONEY_FMT },
          { header: 'Contado', value: (r) => r.contado, numFmt: MONEY_FMT },
          { header: 'Diferencia', value: (r) => r.diferencia, numFmt: MONEY_FMT },
        ],
        pages: onePage(cierreFilas(t)),
      });
    },
  );

  app.get(
    '/businesses/:id/turnos/:turnoId',
    { config: ver, schema: { tags, params: turnoParams, response: { 200: turnoSchema } } },
    async (req) => visto(req, await turnos.getTurno(db, businessOf(req).id, turnoId(req.params.turnoId))),
  );
  app.post(
    '/businesses/:id/turnos/:turnoId/movimientos',
    {
      config: editar,
      schema: {
        tags,
        params: turnoParams,
        body: turnoMovimientoInput,
        response: { 201: turnoMovimientoCreatedSchema },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const id = turnoId(req.params.turnoId);
      const r = await turnos.addMovimiento(db, b.id, authOf(req).id, id, req.body, idempotencyKey(req));
      return reply.status(201).send({ ...r, turno: visto(req, r.turno) });
    },
  );
  app.post(
    '/businesses/:id/turnos/:turnoId/cerrar',
    { config: editar, schema: { tags, params: turnoParams, body: turnoCerrarInput, response: { 200: turnoSchema } } },
    async (req) => {
      const b = businessOf(req);
      const who = { full: hasFullAccess(b), cerrarTurno: b.cerrarTurno };
      return turnos.closeTurno(db, b.id, authOf(req).id, who, turnoId(req.params.turnoId), req.body, now());
    },
  );
}
