import { z } from 'zod';
import type { App } from '../../app.js';
import { access, businessOf } from '../../lib/access.js';

const query = z.object({
  negocio_id: z.string().optional(),
  business_id: z.string().optional(),
  periodo: z.enum(['dia', 'semana', 'mes']).default('mes'),
});

/**
 * Dashboard figures. Sales, products and customers arrive with their own modules; until then
 * every figure is zero and every list empty, in the shape the dashboard reads.
 */
export async function dashboardRoutes(app: App) {
  app.get(
    '/ventas/dashboard-stats-v2',
    { config: { access: access.module('ventas', 'ver') }, schema: { tags: ['tablero'], querystring: query } },
    async (req) => {
      const b = businessOf(req);
      const empty = { total_sales: 0, estimated_profit: 0, new_customers: 0 };
      return {
        negocio_id: b.id,
        periodo: req.query.periodo,
        ventas_mes: 0,
        ventas_periodo: 0,
        cantidad_ventas_periodo: 0,
        facturas_emitidas: 0,
        productos_activos: 0,
        clientes_registrados: 0,
        top_productos: [],
        ventas_recientes: [],
        today: empty,
        week: empty,
        month: empty,
        top_items: [],
        total_products: 0,
        total_customers: 0,
        low_stock_products: 0,
      };
    },
  );
}
