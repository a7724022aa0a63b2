import { describe, expect, it } from 'vitest';
import { seedInventory } from '../../db/seed/inventory.js';
import { seedPurchases } from '../../db/seed/purchases.js';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { enNegocio } from '../../db/tenant.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

describe('demo purchases seed', () => {
  it('fills suppliers and four months of purchases through the services', async () => {
    const owner = await registerUser(app, 'Demo');
    const biz = await createBusiness(app, owner, 'Almacén Demo');
    await enNegocio(biz, () => seedInventory(ctx.database.db, biz, owner.id, [], '2026-03-15'));
    await enNegocio(biz, () => seedPurchases(ctx.database.db, biz, owner.id, '2026-03-15'));
    const get = (path: string) =>
      app.inject({ method: 'GET', url: `/api/v1/businesses/${biz}/${path}`, headers: owner.auth });

    const suppliers = await get('proveedores');
    expect(suppliers.headers['x-total-count']).toBe('7');
    const compras = (await get('compras?limit=200')).json() as {
      estado: string;
      fecha: string;
      cuenta_estado: string;
    }[];
    expect(compras).toHaveLength(19);
    expect(compras.filter((c) => c.estado === 'recibida')).toHaveLength(15);
    expect(compras.filter((c) => c.estado === 'pendiente')).toHaveLength(3);
    expect(compras.filter((c) => c.estado === 'cancelada')).toHaveLength(1);
    expect(compras.at(-1)!.fecha).toBe('2025-11-25');
    expect(compras.some((c) => c.cuenta_estado === 'vencido')).toBe(true);

    // The last received price is the cost the inventory seed chose; the low-stock items wait on pending orders.
    const products = (await get('products')).json() as {
      codigo: string;
      precio_compra: number;
      stock_actual: number;
    }[];
    const byCode = new Map(products.map((p) => [p.codigo, p]));
    expect(byCode.get('YER001')).toMatchObject({ precio_compra: 2800, stock_actual: 33 + 72 });
    expect(byCode.get('ARR001')).toMatchObject({ precio_compra: 1300, stock_actual: 3 });
    expect((await get('products?stock_bajo=true')).json().length).toBeGreaterThan(2);

    const sur = (await get('proveedores?q=mayorista')).json()[0];
    expect(sur).toMatchObject({ deuda: 154_400 + 67_200, deuda_vencida: 0, cuentas_pendientes: 2 });
    const pagar = (await get('finanzas/cuentas-pagar?limit=500')).json() as { compra_id: string | null }[];
    expect(pagar.filter((a) => a.compra_id)).toHaveLength(9);
  });
});
