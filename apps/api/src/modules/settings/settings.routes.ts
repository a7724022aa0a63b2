import { z } from 'zod';
import { tenantSettingsInput, tenantSettingsSchema } from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf, isUuid } from '../../lib/access.js';
import { notFound } from '../../lib/errors.js';
import { requireSomeField } from '../../lib/http.js';
import * as svc from './settings.service.js';

const tags = ['configuración'];
const idParams = z.object({ id: z.string() });

export async function settingsRoutes(app: App) {
  const { db } = app.db;

  app.get(
    '/businesses/:id/tenant-settings',
    { config: { access: access.member }, schema: { tags, params: idParams, response: { 200: tenantSettingsSchema } } },
    async (req) => svc.getSettings(db, businessOf(req).id),
  );

  // The existing client saves with POST every time: it creates the row or updates it.
  app.post(
    '/businesses/:id/tenant-settings',
    {
      config: { access: access.admin },
      schema: {
        tags,
        params: idParams,
        body: tenantSettingsInput,
        response: { 200: tenantSettingsSchema, 201: tenantSettingsSchema },
      },
    },
    async (req, reply) => {
      const r = await svc.saveSettings(db, businessOf(req).id, authOf(req).id, req.body);
      return reply.status(r.created ? 201 : 200).send(r.settings);
    },
  );

  app.put(
    '/businesses/:id/tenant-settings/:sid',
    {
      config: { access: access.admin },
      schema: {
        tags,
        params: z.object({ id: z.string(), sid: z.string() }),
        body: tenantSettingsInput,
        response: { 200: tenantSettingsSchema },
      },
    },
    async (req) => {
      requireSomeField(req.body);
      if (!isUuid(req.params.sid)) throw notFound('Configuración no encontrada.');
      return (await svc.saveSettings(db, businessOf(req).id, authOf(req).id, req.body, req.params.sid)).settings;
    },
  );
}
