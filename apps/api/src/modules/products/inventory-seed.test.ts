import { describe, expect, it } from 'vitest';
import { seedInventory } from '../../db/seed/inventory.js';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { enNegocio } from '../../db/tenant.js';

const ctx = await createTestApp();

describe('demo inventory seed', () => {
  it('fills a business through the API functions: stock history, low stock, customers and subscriptions', async () => {
    const owner = await registerUser(ctx.app, 'Carla');
    const biz = await createBusiness(ctx.app, owner, 'Almacén La Esquina');
    await enNegocio(biz, () =>
      seedInventory(
        ctx.database.db,
        biz,
        owner.id,
        [
          { nombre: 'María', apellido: 'González', documentoTipo: 'DNI', documentoNumero: '28456123' },
          { nombre: 'Juan Carlos', apellido: 'Fernández' },
          { nombre: 'Lucía', apellido: 'Martínez' },
          {
            nombre: 'Distribuidora Norte',
            documentoTipo: 'CUIT',
            documentoNumero: '30-71234567-1',
            condicionIva: 'responsable_inscripto',
          },
          { nombre: 'Ramiro', apellido: 'Sosa', condicionIva: 'monotributista' },
        ],
        '2026-03-15',
      ),
    );
    const get = (path: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/v1/businesses/${biz}/${path}`, headers: owner.auth });
    const products = await get('products');
    expect(Number(products.headers['x-total-count'])).toBeGreaterThan(20);
    expect((await get('products?stock_bajo=true')).json().length).toBeGreaterThan(2);
    const yerba = products.json().find((p: { codigo: string }) => p.codigo === 'YER001');
    expect(yerba.stock_actual).toBe(33);
    const history = (await get(`products/${yerba.id}/movimientos-stock`)).json();
    expect(history.map((m: { origen: string }) => m.origen)).toEqual(['ajuste', 'inicial']);
    expect((await get('clientes')).json()).toHaveLength(5);
    const subs = (await get('subscriptions')).json();
    expect(subs.map((s: { estado: string }) => s.estado).sort()).toEqual(['activa', 'activa', 'cancelada', 'pausada']);
    expect((await get('services')).json()).toHaveLength(3);
  });
});
