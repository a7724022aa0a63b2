import { z } from 'zod';
import { notificationSchema } from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, businessOf } from '../../lib/access.js';
import { listNotifications } from './notifications.service.js';

const tags = ['negocios'];

/** GET /businesses/{id}/notificaciones (API-CONTRACT §9.5): membership; content filtered by flags. */
export async function notificationRoutes(app: App) {
  const { db } = app.db;
  app.get(
    '/businesses/:id/notificaciones',
    {
      config: { access: access.member },
      schema: { tags, params: z.object({ id: z.string() }), response: { 200: z.array(notificationSchema) } },
    },
    async (req) => listNotifications(db, { business: businessOf(req), now: app.services.now() }),
  );
}
