import { verify } from '@node-rs/argon2';
import { z } from 'zod';
import {
  AUTORIZACION_MESSAGES,
  autorizadoresSchema,
  PIN_FAILURES,
  PIN_WINDOW_MINUTES,
  pinInput,
  pinSavedSchema,
  pinStatusSchema,
  type Autorizador,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { invalid, unauthenticated } from '../../lib/errors.js';
import { RateLimiter } from '../../lib/rate-limit.js';
import { noContent, rateLimitedResponse } from '../../lib/responses.js';
import { getUser } from '../auth/auth.service.js';
import { authorizerRows } from './autorizacion.queries.js';
import type { PinCheck } from './autorizar.js';
import { hashPin, hasPin, storePin } from './pin.js';

const MIN = 60_000;

/** The limiter of wrong PINs at the counter, shared by the routes that take `autorizacion`. */
export const pinLimiter = (app: App): PinCheck => ({
  db: app.db.db,
  limiter: new RateLimiter(app.db.db, 'pin_autorizacion', PIN_FAILURES, PIN_WINDOW_MINUTES * MIN),
  cost: app.services.passwordCost,
});

/**
 * Autorización con PIN (issue 33, decision 0049): the user's own PIN (GET, PUT and DELETE
 * /auth/pin, from their profile) and who may authorize at a business's counter.
 */
export async function autorizacionRoutes(app: App) {
  const { db } = app.db;
  const cost = app.services.passwordCost;
  // Wrong passwords when setting a PIN, as when changing the password.
  const passwordLimit = new RateLimiter(db, 'pin_password', 5, 15 * MIN);

  app.get(
    '/auth/pin',
    { config: { access: access.user }, schema: { tags: ['auth'], response: { 200: pinStatusSchema } } },
    async (req) => ({ tiene_pin: await hasPin(db, authOf(req).id) }),
  );

  app.put(
    '/auth/pin',
    {
      config: { access: access.user },
      schema: { tags: ['auth'], body: pinInput, response: { 200: pinSavedSchema, ...rateLimitedResponse } },
    },
    async (req) => {
      const me = authOf(req);
      await passwordLimit.take(me.id);
      const u = await getUser(db, me.id);
      if (!u) throw unauthenticated();
      if (!(await verify(u.passwordHash, req.body.current_password).catch(() => false))) {
        throw invalid('current_password', AUTORIZACION_MESSAGES.wrongPassword);
      }
      await passwordLimit.release(me.id);
      await storePin(db, me.id, await hashPin(req.body.pin, cost));
      return { tiene_pin: true, message: AUTORIZACION_MESSAGES.pinSaved };
    },
  );

  app.delete(
    '/auth/pin',
    { config: { access: access.user }, schema: { tags: ['auth'], response: { 204: noContent } } },
    async (req, reply) => {
      await storePin(db, authOf(req).id, null);
      return reply.status(204).send();
    },
  );

  app.get(
    '/businesses/:id/autorizadores',
    {
      config: { access: access.module('ventas', 'editar') },
      schema: { tags: ['ventas'], params: z.object({ id: z.string() }), response: { 200: autorizadoresSchema } },
    },
    async (req): Promise<Autorizador[]> => {
      const rows = await authorizerRows(businessOf(req).id, authOf(req).id, db);
      return rows.map((r) => ({
        usuario_id: r.usuario_id,
        nombre: r.nombre,
        acceso_total: r.acceso_total,
        cambiar_precios: r.acceso_total || r.cambiar_precios,
        exceder_credito: r.acceso_total || r.exceder_credito,
        descuento_maximo: r.acceso_total || r.cambiar_precios ? null : r.descuento_maximo,
      }));
    },
  );
}
