import { z } from 'zod';
import { posCatalogoQuery, posCatalogoSchema } from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, blindCount, businessOf, canSeeCosts, hasFullAccess } from '../../lib/access.js';
import { aCiegas } from '../caja/turnos.service.js';
import { getCatalogo } from './catalogo.service.js';

/**
 * The catalogue the point of sale keeps on the device to sell offline (issue 18). Whoever sells
 * may download it; products and customers come only to members who may see them, and costs only
 * to those with ver_costos.
 */
export async function posRoutes(app: App) {
  const { db } = app.db;
  app.get(
    '/businesses/:id/pos/catalogo',
    {
      config: { access: access.module('ventas', 'editar') },
      schema: {
        tags: ['ventas'],
        params: z.object({ id: z.string() }),
        querystring: posCatalogoQuery,
        response: { 200: posCatalogoSchema },
      },
    },
    async (req) => {
      const b = businessOf(req);
      const may = (modulo: 'productos' | 'clientes') => hasFullAccess(b) || b.permisos[`puede_ver_${modulo}`] === true;
      const c = await getCatalogo(db, {
        businessId: b.id,
        userId: authOf(req).id,
        desde: req.query.desde,
        productos: may('productos'),
        clientes: may('clientes'),
        costos: canSeeCosts(b),
      });
      // The counter's turno, blind while open for who counts blind (arqueo a ciegas).
      return c.turno && blindCount(b) ? { ...c, turno: aCiegas(c.turno) } : c;
    },
  );
}
