import { describe, expect, it } from 'vitest';
import { seedInventory } from '../../db/seed/inventory.js';
import { seedSales } from '../../db/seed/sales.js';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { enNegocio } from '../../db/tenant.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T20:00:00Z') });

describe('demo sales seed', () => {
  it('records months of sales through the service, consistent with finance and stock', async () => {
    const owner = await registerUser(ctx.app, 'Carla');
    const biz = await createBusiness(ctx.app, owner, 'Almacén La Esquina');
    await enNegocio(biz, () =>
      seedInventory(ctx.database.db, biz, owner.id, [{ nombre: 'María', apellido: 'González' }], '2026-03-15'),
    );
    const stockBefore = await ctx.sql<{ id: string; s: string }>(
      'SELECT id, stock_actual AS s FROM products WHERE business_id = $1 ORDER BY id',
      [biz],
    );
    await enNegocio(biz, () => seedSales(ctx.database, biz, owner.id, '2026-03-15'));

    const numbers = await ctx.sql<{ numero: number }>(
      'SELECT numero FROM sales WHERE business_id = $1 ORDER BY numero',
      [biz],
    );
    expect(numbers.length).toBeGreaterThan(500);
    expect(numbers.map((r) => r.numero)).toEqual(numbers.map((_, i) => i + 1));
    const [span] = await ctx.sql<{ first: string; anuladas: number }>(
      `SELECT min(fecha)::text AS first, count(*) FILTER (WHERE estado = 'anulada')::int AS anuladas FROM sales WHERE business_id = $1`,
      [biz],
    );
    expect(span.first < '2025-11-20').toBe(true);
    expect(span.anuladas).toBe(3);

    // Every completed sale has its income movement; voided ones theirs marked anulado.
    const [m] = await ctx.sql<{ ventas: string; movs: string }>(
      `SELECT (SELECT sum(total) FROM sales WHERE business_id = $1 AND estado = 'completada')::text AS ventas,
              (SELECT sum(monto) FROM finance_movements WHERE business_id = $1 AND origen = 'venta' AND NOT anulado)::text AS movs`,
      [biz],
    );
    expect(m.movs).toBe(m.ventas);

    // Stock ends where the inventory seed left it, except for the lines of voided sales that came back.
    const stockAfter = await ctx.sql<{ id: string; s: string }>(
      'SELECT id, stock_actual AS s FROM products WHERE business_id = $1 ORDER BY id',
      [biz],
    );
    const returned = await ctx.sql<{ id: string; q: string }>(
      `SELECT i.producto_id AS id, sum(i.cantidad)::text AS q FROM sale_items i JOIN sales s ON s.id = i.venta_id
        WHERE s.business_id = $1 AND s.estado = 'anulada' AND i.producto_id IS NOT NULL GROUP BY 1`,
      [biz],
    );
    const back = new Map(returned.map((r) => [r.id, Number(r.q)]));
    for (const [i, p] of stockAfter.entries()) {
      expect(Number(p.s)).toBeCloseTo(Number(stockBefore[i].s) + (back.get(p.id) ?? 0), 3);
    }

    const report = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${biz}/ventas/reporte?fecha_desde=2026-02-01&fecha_hasta=2026-02-28`,
      headers: owner.auth,
    });
    expect(report.json().total_ventas).toBeGreaterThan(100);
    expect(report.json().ganancias_netas).toBeGreaterThan(0);
  }, 120_000); // about a thousand sales through the service
});
