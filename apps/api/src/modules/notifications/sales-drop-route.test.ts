import { describe, expect, it } from 'vitest';
import { recordSaleInput } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { addDays } from '../../lib/dates.js';
import { recordSale } from '../sales/record-sale.js';
import { voidSale } from '../sales/sales.service.js';
import { enNegocio } from '../../db/tenant.js';

/*
 * The caida_ventas notification over a real sales history (the sales table, not a mock):
 * sales recorded through the sales service on past days, read by the notifications route.
 */

// 23:00 of 15 March 2026 in Buenos Aires (already the 16th in UTC): today is the 15th.
const clock = new Date('2026-03-16T02:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;
const TZ = 'America/Argentina/Buenos_Aires';

async function setup(nombre: string) {
  const owner = await registerUser(app, nombre);
  const biz = await createBusiness(app, owner, `Negocio ${nombre}`);
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${biz}/products`,
    headers: owner.auth,
    payload: { nombre: 'Yerba', precio_venta: 100, stock_actual: 100000 },
  });
  return { owner, biz, productId: res.json().id as string };
}

/** One sale of `amount` pesos at 12:00 local time of `day`. */
async function sellOn(s: { owner: TestUser; biz: string; productId: string }, day: string, amount: number) {
  const input = recordSaleInput.parse({
    metodo_pago: 'efectivo',
    items: [{ id: s.productId, tipo: 'producto', cantidad: amount / 100 }],
  });
  const now = new Date(`${day}T15:00:00Z`);
  return enNegocio(s.biz, () =>
    recordSale(ctx.database, { businessId: s.biz, userId: s.owner.id, timezone: TZ, now }, input),
  );
}

const notifications = async (u: TestUser, biz: string) => {
  const res = await app.inject({ method: 'GET', url: `/api/v1/businesses/${biz}/notificaciones`, headers: u.auth });
  expect(res.statusCode).toBe(200);
  return (res.json() as { id: string; tipo: string; mensaje: string; enlace: string }[]).filter(
    (n) => n.tipo === 'caida_ventas',
  );
};

describe('caida_ventas over recorded sales', () => {
  it('raises the alert when the last 7 days fall below the average of the 30 before, voided sales left out', async () => {
    const s = await setup('Caida');
    // Previous window (30 days, 6 Feb – 7 Mar): 10.000 a day. Recent window (8–14 Mar): 5.000 a day.
    for (let d = '2026-02-06'; d <= '2026-03-07'; d = addDays(d, 1)) await sellOn(s, d, 10000);
    for (let d = '2026-03-08'; d <= '2026-03-14'; d = addDays(d, 1)) await sellOn(s, d, 5000);
    // A large sale in the recent window that was voided does not hide the drop.
    const big = await sellOn(s, '2026-03-10', 500000);
    await enNegocio(s.biz, () =>
      voidSale(
        ctx.database.db,
        { businessId: s.biz, userId: s.owner.id, timezone: TZ, now: clock },
        big.body.id,
        'Error de carga',
      ),
    );
    // Today's sales (incomplete day) do not count either.
    await sellOn(s, '2026-03-15', 900000);

    const alerts = await notifications(s.owner, s.biz);
    expect(alerts).toEqual([
      expect.objectContaining({
        id: 'caida_ventas:2026-03-15',
        tipo: 'caida_ventas',
        mensaje: 'Las ventas de los últimos 7 días cayeron un 50% respecto del promedio de los 30 días anteriores.',
        enlace: '/reports',
      }),
    ]);

    // Only for members who may see sales.
    const clerk = await registerUser(app, 'SinVentas');
    await addMember(ctx, s.biz, s.owner, clerk, ['puede_ver_productos']);
    expect(await notifications(clerk, s.biz)).toEqual([]);
  });

  it('stays quiet with steady sales, and while the history is shorter than 7 + min_days', async () => {
    const steady = await setup('Estable');
    for (let d = '2026-02-06'; d <= '2026-03-14'; d = addDays(d, 1)) await sellOn(steady, d, 10000);
    expect(await notifications(steady.owner, steady.biz)).toEqual([]);

    const young = await setup('Nuevo');
    // First sale on 7 Feb: one day too late for a 30-day model.
    for (let d = '2026-02-07'; d <= '2026-03-07'; d = addDays(d, 1)) await sellOn(young, d, 10000);
    await sellOn(young, '2026-03-08', 100);
    expect(await notifications(young.owner, young.biz)).toEqual([]);
  });
});
