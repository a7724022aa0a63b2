import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Vendedora');
const id = await createBusiness(app, owner);
const base = `/api/v1/businesses/${id}`;

async function post(path: string, payload: object) {
  const res = await app.inject({ method: 'POST', url: `${base}${path}`, headers: owner.auth, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('records referenced by a sale cannot be deleted', () => {
  it('refuses to delete the customer, product and service of a sale with 409 IN_USE, and keeps them', async () => {
    const cliente = await post('/clientes', { nombre: 'Marta', apellido: 'Ibáñez' });
    const producto = await post('/products', { nombre: 'Yerba mate 1 kg', precio_venta: 4000, stock_actual: 10 });
    const servicio = await post('/services', { nombre: 'Envío a domicilio', precio: 1500 });
    await post('/ventas', {
      cliente_id: cliente.id,
      metodo_pago: 'efectivo',
      items: [
        { id: producto.id, tipo: 'producto', cantidad: 1 },
        { id: servicio.id, tipo: 'servicio', cantidad: 1 },
      ],
    });

    const cases = [
      [
        `/clientes/${cliente.id}`,
        'No se puede eliminar el cliente porque tiene ventas, suscripciones o cuentas asociadas.',
      ],
      [
        `/products/${producto.id}`,
        'El producto tiene ventas o compras registradas; desactivalo en lugar de eliminarlo.',
      ],
      [
        `/services/${servicio.id}`,
        'El servicio tiene ventas o suscripciones registradas; desactivalo en lugar de eliminarlo.',
      ],
    ];
    for (const [path, detail] of cases) {
      const res = await app.inject({ method: 'DELETE', url: `${base}${path}`, headers: owner.auth });
      expect(res.statusCode, path).toBe(409);
      expect(res.json()).toEqual({ code: 'IN_USE', detail });
      expect((await app.inject({ method: 'GET', url: `${base}${path}`, headers: owner.auth })).statusCode, path).toBe(
        200,
      );
    }
  });
});
