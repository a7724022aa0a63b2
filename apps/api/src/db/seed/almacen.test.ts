import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { seedAlmacen } from './almacen.js';
import { enNegocio } from '../tenant.js';

let today = '2026-11-25';
const ctx = await createTestApp({ now: () => new Date(`${today}T21:00:00Z`) });

describe('demo business seed', () => {
  // The 25th (the day of issue 19) and the 10th, when rent, light and the last purchases weigh most.
  it.each(['2026-11-25', '2026-11-10'])(
    'seeded on %s it looks like a healthy shop: every month earns more than it spends, no stock below zero',
    async (day) => {
      today = day;
      const owner = await registerUser(ctx.app, 'Carla');
      const biz = await createBusiness(ctx.app, owner, 'Almacén La Esquina');
      await enNegocio(biz, () => seedAlmacen(ctx.database, biz, owner.id, today));

      const months = await ctx.sql<{ mes: number; anio: number }>(
        `SELECT DISTINCT extract(month FROM fecha)::int AS mes, extract(year FROM fecha)::int AS anio
         FROM finance_movements WHERE business_id = $1 AND NOT anulado ORDER BY 2, 1`,
        [biz],
      );
      expect(months.length).toBeGreaterThanOrEqual(4);
      expect(months.at(-1)).toEqual({ mes: 11, anio: 2026 });
      for (const { mes, anio } of months) {
        const res = await ctx.app.inject({
          method: 'GET',
          url: `/api/v1/businesses/${biz}/finanzas/resumen?mes=${mes}&anio=${anio}`,
          headers: owner.auth,
        });
        expect(res.statusCode).toBe(200);
        const { total_ingresos, total_egresos } = res.json();
        expect(total_ingresos, `${mes}/${anio}`).toBeGreaterThan(0);
        expect(total_ingresos, `${mes}/${anio}`).toBeGreaterThan(total_egresos);
        const flow = await ctx.app.inject({
          method: 'GET',
          url: `/api/v1/businesses/${biz}/finanzas/flujo-caja?mes=${mes}&anio=${anio}`,
          headers: owner.auth,
        });
        expect(flow.json().saldo_final, `${mes}/${anio}`).toBeGreaterThan(0);
      }

      const negative = await ctx.sql<{ nombre: string }>(
        'SELECT nombre FROM products WHERE business_id = $1 AND stock_actual < 0',
        [biz],
      );
      expect(negative).toEqual([]);
      const [{ n }] = await ctx.sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM products WHERE business_id = $1 AND stock_actual > 0',
        [biz],
      );
      expect(n).toBeGreaterThan(10);

      // Today's turno is open on the caja, so the demo's punto de venta sells without asking for one.
      const turnos = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/businesses/${biz}/turnos?estado=abierto`,
        headers: owner.auth,
      });
      expect(turnos.statusCode).toBe(200);
      const open = turnos.json() as { estado: string; fondo_inicial: number; abierto_por: { id: string } | null }[];
      expect(open).toHaveLength(1);
      expect(open[0]).toMatchObject({ estado: 'abierto', fondo_inicial: 20000 });
      expect(open[0]!.abierto_por?.id).toBe(owner.id);
    },
    120_000,
  );
});
