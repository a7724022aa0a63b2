import { healthSchema } from '@mostrador/shared';
import type { App } from '../../app.js';
import { access } from '../../lib/access.js';

export async function healthRoutes(app: App) {
  app.get(
    '/health',
    {
      config: { access: access.public },
      schema: { tags: ['salud'], response: { 200: healthSchema, 503: healthSchema } },
    },
    async (_req, reply) => {
      try {
        await app.db.pool.query('SELECT 1');
        return { status: 'ok' as const };
      } catch {
        return reply.status(503).send({ status: 'error' as const, detail: 'Base de datos no disponible.' });
      }
    },
  );
}
