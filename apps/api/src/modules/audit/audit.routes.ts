import { z } from 'zod';
import { isoDate, auditEntrySchema } from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, businessOf, isUuid } from '../../lib/access.js';
import { invalid } from '../../lib/errors.js';
import { listAuditRows, namesOf } from './audit.queries.js';
import { idsOf } from './names.js';

const query = z.object({
  entidad: z.string().max(50).optional(),
  entidad_id: z.string().optional(),
  accion: z.string().max(50).optional(),
  usuario_id: z.string().optional(),
  fecha_desde: isoDate().optional(),
  fecha_hasta: isoDate().optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(100)
    .transform((n) => Math.min(n, 500)),
  offset: z.coerce.number().int().min(0).default(0),
});

/** The audit log of a business, for its admins (API-CONTRACT §14.7). Read-only. */
export async function auditRoutes(app: App) {
  const { db } = app.db;
  app.get(
    '/businesses/:id/auditoria',
    {
      config: { access: access.admin },
      schema: {
        tags: ['auditoría'],
        params: z.object({ id: z.string() }),
        querystring: query,
        response: { 200: z.array(auditEntrySchema) },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const q = req.query;
      for (const f of ['entidad_id', 'usuario_id'] as const) {
        if (q[f] !== undefined && !isUuid(q[f])) throw invalid(f, 'Identificador no válido.');
      }
      if (q.fecha_desde && q.fecha_hasta && q.fecha_desde > q.fecha_hasta) {
        throw invalid('fecha_desde', 'La fecha desde no puede ser posterior a la fecha hasta.');
      }
      const { total, rows } = await listAuditRows(b.id, b.timezone, q, db);
      reply.header('X-Total-Count', String(total));
      const names = await namesOf(b.id, [...new Set(rows.flatMap((r) => idsOf(r.a)))], db);
      return rows.map((r) => ({
        id: r.a.id,
        fecha: r.a.fecha.toISOString(),
        usuario: r.a.userId
          ? { id: r.a.userId, nombre: [r.nombre, r.apellido].filter(Boolean).join(' '), email: r.email }
          : null,
        entidad: r.a.entidad,
        entidad_id: r.a.entidadId,
        accion: r.a.accion,
        antes: r.a.antes,
        despues: r.a.despues,
        // What people call the records the row mentions (its entity, every …_id), by id.
        nombres: Object.fromEntries(idsOf(r.a).flatMap((id) => (names.has(id) ? [[id, names.get(id)!]] : []))),
      }));
    },
  );
}
