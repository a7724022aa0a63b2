import { z } from 'zod';
import {
  allPermissions,
  businessInput,
  businessUpdateInput,
  type PermissionsResponse,
  accountDebugSchema,
  accountRepairSchema,
  businessCreatedSchema,
  businessSchema,
  permissionsResponseSchema,
} from '@mostrador/shared';
import { noContent } from '../../lib/responses.js';
import type { App } from '../../app.js';
import {
  access,
  authOf,
  businessOf,
  canChangePrices,
  canExceedCredit,
  canSeeCosts,
  hasFullAccess,
  maxDiscount,
} from '../../lib/access.js';
import { requireSomeField } from '../../lib/http.js';
import * as svc from './businesses.service.js';

const tags = ['negocios'];
const idParams = z.object({ id: z.string() });
const emailParams = z.object({ email: z.string() });

export async function businessRoutes(app: App) {
  const { db } = app.db;

  app.post(
    '/businesses',
    {
      config: { access: access.user },
      schema: { tags, body: businessInput, response: { 201: businessCreatedSchema } },
    },
    async (req, reply) => {
      const business = await svc.createBusiness(db, authOf(req).id, req.body, app.services.now());
      return reply.status(201).send({ message: 'Negocio creado correctamente', business_id: business.id, business });
    },
  );

  app.get(
    '/businesses',
    { config: { access: access.user }, schema: { tags, response: { 200: z.array(businessSchema) } } },
    async (req) => svc.listBusinesses(app.db.pool, authOf(req).id),
  );

  app.get(
    '/businesses/:id',
    {
      config: { access: access.member, plan: { blocked: 'allow' } },
      schema: { tags, params: idParams, response: { 200: businessSchema } },
    },
    async (req) => {
      const b = businessOf(req);
      return svc.getBusiness(db, b.id, authOf(req).id, b.rol);
    },
  );

  app.put(
    '/businesses/:id',
    {
      config: { access: access.admin },
      schema: { tags, params: idParams, body: businessUpdateInput, response: { 200: businessSchema } },
    },
    async (req) => {
      requireSomeField(req.body);
      const b = businessOf(req);
      return svc.updateBusiness(db, b.id, authOf(req).id, b.rol, req.body);
    },
  );

  app.delete(
    '/businesses/:id',
    {
      // Allowed in every plan state (API-CONTRACT §1.6): the owner can always close the business.
      config: {
        access: access.creator('Solo el creador puede eliminar el negocio.'),
        plan: { readOnly: 'allow', blocked: 'allow' },
      },
      schema: { tags, params: idParams, response: { 204: noContent } },
    },
    async (req, reply) => {
      await svc.deleteBusiness(db, businessOf(req).id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/businesses/:id/permissions',
    {
      config: { access: access.member, plan: { blocked: 'allow' } },
      schema: { tags, params: idParams, response: { 200: permissionsResponseSchema } },
    },
    async (req): Promise<PermissionsResponse> => {
      const b = businessOf(req);
      const full = hasFullAccess(b);
      return {
        user_id: authOf(req).id,
        business_id: b.id,
        role: b.rol,
        is_creator: b.isCreator,
        is_admin: b.rol === 'admin',
        has_full_access: full,
        permissions: full ? allPermissions(true) : { ...allPermissions(false), ...b.permisos },
        ver_costos: canSeeCosts(b),
        cambiar_precios: canChangePrices(b),
        descuento_maximo: maxDiscount(b),
        exceder_credito: canExceedCredit(b),
        cerrar_turno: hasFullAccess(b) || b.cerrarTurno,
      };
    },
  );

  app.get(
    '/businesses/debug/:email',
    { config: { access: access.user }, schema: { tags, params: emailParams, response: { 200: accountDebugSchema } } },
    async (req) => {
      const me = await svc.assertOwnAccount(db, authOf(req).id, req.params.email);
      return svc.debugAccount(db, me.id, me.email);
    },
  );

  app.post(
    '/businesses/repair/:email',
    { config: { access: access.user }, schema: { tags, params: emailParams, response: { 200: accountRepairSchema } } },
    async (req) => {
      const me = await svc.assertOwnAccount(db, authOf(req).id, req.params.email);
      return svc.repairAccount(db, me.id);
    },
  );
}
