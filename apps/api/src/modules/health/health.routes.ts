import type { App } from '../../app.js';
import { access } from '../../lib/access.js';

export async function healthRoutes(app: App) {
  app.get('/health', { config: { access: access.public }, schema: { tags: ['salud'] } }, async (_req, reply) => {
    try {
      await app.db.pool.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'error', detail: 'Base de datos no disponible.' });
    }
  });
}
