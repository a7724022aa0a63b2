import { describe, expect, it } from 'vitest';
import { seedFinance } from '../../db/seed/finance.js';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { enNegocio } from '../../db/tenant.js';

let clock: Date | null = null;
const ctx = await createTestApp({ now: () => clock ?? new Date() });
const { app } = ctx;

describe('finance demo data', () => {
  it('seeds categories, about three months of movements and accounts in every state', async () => {
    const owner = await registerUser(app, 'Demo');
    const biz = await createBusiness(app, owner, 'Almacén Demo');
    await ctx.sql(
      `INSERT INTO customers (business_id, nombre, apellido) VALUES ($1, 'María', 'González'), ($1, 'Juan', NULL)`,
      [biz],
    );
    await enNegocio(biz, () => seedFinance(ctx.database.db, biz, owner.id, '2026-03-15'));
    clock = new Date('2026-03-15T15:00:00Z');
    const get = (path: string) =>
      app.inject({ method: 'GET', url: `/api/v1/businesses/${biz}/finanzas/${path}`, headers: owner.auth });

    const cats = (await get('categorias')).json() as { nombre: string; activo: boolean }[];
    expect(cats.map((c) => c.nombre)).toEqual(
      expect.arrayContaining(['Alquiler', 'Servicios', 'Sueldos', 'Otros ingresos']),
    );
    expect(cats.some((c) => !c.activo)).toBe(true);

    const months = await ctx.sql<{ mes: string }>(
      `SELECT DISTINCT to_char(fecha, 'YYYY-MM') AS mes FROM finance_movements WHERE business_id = $1 ORDER BY 1`,
      [biz],
    );
    expect(months.map((m) => m.mes)).toEqual(['2025-12', '2026-01', '2026-02', '2026-03']);
    const [future] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM finance_movements WHERE business_id = $1 AND fecha > '2026-03-15'`,
      [biz],
    );
    expect(future.n).toBe(0);

    const estados = async (path: string) => ((await get(path)).json() as { estado: string }[]).map((a) => a.estado);
    for (const path of ['cuentas-cobrar', 'cuentas-pagar']) {
      expect(new Set(await estados(path))).toEqual(new Set(['pendiente', 'vencido', 'pagado']));
    }
    const soon = ((await get('cuentas-pagar?estado=pendiente')).json() as { dias_vencimiento: number }[]).map(
      (a) => a.dias_vencimiento,
    );
    expect(soon.some((d) => d >= 0 && d <= 7)).toBe(true);

    // Every paid account has its payment movement.
    const unlinked = await ctx.sql(
      `SELECT a.id FROM finance_accounts a LEFT JOIN finance_movements m ON m.id = a.movimiento_id
        WHERE a.business_id = $1 AND a.estado = 'pagado' AND m.id IS NULL`,
      [biz],
    );
    expect(unlinked).toHaveLength(0);

    const resumen = (await get('resumen?mes=2&anio=2026')).json();
    expect(resumen.total_ingresos).toBeGreaterThan(resumen.total_egresos);
    expect(resumen.cuentas_vencidas).toBeGreaterThan(0);
    expect((await get('flujo-caja?mes=2&anio=2026')).json().flujo_diario).toHaveLength(28);
  });
});
