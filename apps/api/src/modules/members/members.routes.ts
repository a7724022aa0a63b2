import { z } from 'zod';
import {
  memberApprovedSchema,
  memberRejectedSchema,
  memberSchema,
  pendingUserSchema,
  permissionsUpdatedSchema,
} from '@mostrador/shared';
import { noContent } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import * as svc from './members.service.js';

const tags = ['equipo'];
const params = z.object({ id: z.string(), uid: z.string() });
const idParams = z.object({ id: z.string() });
const permissionBody = z.record(z.string(), z.unknown()).optional();

export async function memberRoutes(app: App) {
  const { db } = app.db;

  app.get(
    '/businesses/:id/usuarios',
    { config: { access: access.admin }, schema: { tags, params: idParams, response: { 200: z.array(memberSchema) } } },
    async (req) => svc.listMembers(db, businessOf(req).id),
  );

  app.put(
    '/businesses/:id/usuarios/:uid/permisos',
    {
      config: { access: access.admin },
      schema: { tags, params, body: permissionBody, response: { 200: permissionsUpdatedSchema } },
    },
    async (req) =>
      svc.updatePermissions(
        db,
        businessOf(req).id,
        authOf(req).id,
        req.params.uid,
        svc.parsePermissionPatch(req.body ?? {}),
      ),
  );

  // Admins remove members; any member may remove themself (leaving the business).
  app.delete(
    '/businesses/:id/usuarios/:uid',
    {
      config: { access: access.member, plan: { readOnly: 'allow' } },
      schema: { tags, params, response: { 204: noContent } },
    },
    async (req, reply) => {
      const b = businessOf(req);
      await svc.removeMember(db, b.id, authOf(req).id, b.isCreator || b.rol === 'admin', req.params.uid);
      return reply.status(204).send();
    },
  );

  app.get(
    '/businesses/:id/usuarios-pendientes',
    {
      config: { access: access.admin },
      schema: { tags, params: idParams, response: { 200: z.array(pendingUserSchema) } },
    },
    async (req) => svc.listPending(db, businessOf(req).id),
  );

  app.post(
    '/businesses/:id/usuarios-pendientes/:uid/aprobar',
    {
      config: { access: access.admin },
      schema: { tags, params, body: permissionBody, response: { 200: memberApprovedSchema } },
    },
    async (req) =>
      svc.approvePending(
        db,
        businessOf(req).id,
        authOf(req).id,
        req.params.uid,
        svc.parsePermissionPatch(req.body ?? {}),
        app.services.modo,
      ),
  );

  app.post(
    '/businesses/:id/usuarios-pendientes/:uid/rechazar',
    {
      config: { access: access.admin, plan: { readOnly: 'allow' } },
      schema: { tags, params, response: { 200: memberRejectedSchema } },
    },
    async (req) => svc.rejectPending(db, businessOf(req).id, authOf(req).id, req.params.uid),
  );
}
