import { z } from 'zod';
import {
  email,
  optText,
  invitationAcceptedSchema,
  invitationCreatedSchema,
  invitationPreviewSchema,
  invitationSchema,
} from '@mostrador/shared';
import { noContent } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import * as svc from './invitations.service.js';

const tags = ['equipo'];
const idParams = z.object({ id: z.string() });
const inviteBody = z.object({
  email: email(),
  rol: z.enum(['empleado', 'admin']).optional(),
  mensaje: optText(500),
});
const tokenParams = z.object({ token: z.string() });

export async function invitationRoutes(app: App) {
  const { db } = app.db;
  const services = app.services;

  app.post(
    '/businesses/:id/invitaciones',
    {
      config: { access: access.admin },
      schema: { tags, params: idParams, body: inviteBody, response: { 201: invitationCreatedSchema } },
    },
    async (req, reply) => {
      const me = authOf(req);
      return reply.status(201).send(await svc.invite(db, services, businessOf(req).id, me, req.body));
    },
  );

  app.get(
    '/businesses/:id/invitaciones',
    {
      config: { access: access.admin },
      schema: { tags, params: idParams, response: { 200: z.array(invitationSchema) } },
    },
    async (req) => svc.listInvitations(db, services, businessOf(req).id),
  );

  app.delete(
    '/businesses/:id/invitaciones/:iid',
    {
      config: { access: access.admin },
      schema: {
        tags,
        params: z.object({ id: z.string(), iid: z.string() }),
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.revokeInvitation(db, businessOf(req).id, authOf(req).id, req.params.iid);
      return reply.status(204).send();
    },
  );

  // Public: the link's page says who invites to which business before the person logs in or
  // signs up (the random token is the secret; accepting still needs the invited account).
  app.get(
    '/invitaciones/:token',
    {
      config: { access: access.public },
      schema: { tags, params: tokenParams, response: { 200: invitationPreviewSchema } },
    },
    async (req) => svc.getInvitation(db, services, req.params.token),
  );

  app.post(
    '/invitaciones/:token/aceptar',
    {
      config: { access: access.user },
      schema: { tags, params: tokenParams, response: { 200: invitationAcceptedSchema } },
    },
    async (req) => svc.acceptInvitation(db, services, req.params.token, authOf(req)),
  );
}
