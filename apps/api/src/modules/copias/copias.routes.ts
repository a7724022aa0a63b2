import { z } from 'zod';
import type { App } from '../../app.js';
import { access } from '../../lib/access.js';

const params = z.object({ id: z.string() });
export const copiaSchema = z.object({
  /** Whether this server makes the daily backup (the embedded database). */
  activas: z.boolean(),
  /** The date of the newest good backup (ISO), null when there is none. */
  ultima_copia: z.string().nullable(),
  carpeta: z.string().nullable(),
  error: z.string().nullable(),
});

/** GET /businesses/{id}/copia-de-seguridad: the server's daily backup, for the business's admins. */
export async function copiaRoutes(app: App) {
  app.get(
    '/businesses/:id/copia-de-seguridad',
    {
      config: { access: access.admin, plan: { readOnly: 'allow', blocked: 'allow' } },
      schema: { tags: ['copias'], params, response: { 200: copiaSchema } },
    },
    async () => {
      const s = app.services.backups?.status();
      if (!s) return { activas: false, ultima_copia: null, carpeta: null, error: null };
      return { activas: true, ultima_copia: s.ultima?.toISOString() ?? null, carpeta: s.carpeta, error: s.error };
    },
  );
}
