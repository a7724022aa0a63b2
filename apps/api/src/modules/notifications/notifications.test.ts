import { recordSaleInput, type PermissionKey } from '@mostrador/shared';
import { describe, expect, it } from 'vitest';
import { enNegocio } from '../../db/tenant.js';
import { addDays } from '../../lib/dates.js';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { recordSale } from '../sales/record-sale.js';
import { voidSale } from '../sales/sales.service.js';

// 23:00 of 15 March 2026 in Buenos Aires, already 16 March in UTC: "today" is the 15th.
const clock = new Date('2026-03-16T02:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;

const owner = await registerUser(app, 'Duenia');
const biz = await createBusiness(app, owner, 'Almacén Avisos');
// Room for more than the trial's 5 users.
await ctx.sql(`UPDATE businesses SET plan = 'empresarial' WHERE id = $1`, [biz]);
const notifications = async (u: TestUser, id = biz) => {
  const res = await app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/notificaciones`, headers: u.auth });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    id: string;
    tipo: string;
    titulo: string;
    mensaje: string;
    severidad: string;
    fecha: string;
    enlace: string;
  }[];
};

async function member(nombre: string, flags: PermissionKey[], extra: Record<string, unknown> = {}) {
  const u = await registerUser(app, nombre);
  await addMember(ctx, biz, owner, u, flags, extra);
  return u;
}

async function product(nombre: string, stock: string, minimo: string, activo = true, businessId = biz) {
  const [r] = await ctx.sql<{ id: string }>(
    `INSERT INTO products (business_id, nombre, precio_venta, stock_actual, stock_minimo, activo, actualizado_en)
     VALUES ($1, $2, 1000, $3, $4, $5, $6) RETURNING id`,
    [businessId, nombre, stock, minimo, activo, clock],
  );
  return r.id;
}

async function account(opts: {
  vence: string;
  tipo?: 'por_cobrar' | 'por_pagar';
  descripcion?: string;
  pagada?: boolean;
  clienteId?: string;
  proveedor?: string;
}) {
  const pagada = opts.pagada ?? false;
  const [r] = await ctx.sql<{ id: string }>(
    `INSERT INTO finance_accounts (business_id, tipo, cliente_id, proveedor_nombre, monto, fecha_emision,
       fecha_vencimiento, estado, descripcion, fecha_pago, pagado_en)
     VALUES ($1, $2, $3, $4, 15000.5, '2026-01-01', $5, $6, $7, $8, $9) RETURNING id`,
    [
      biz,
      opts.tipo ?? 'por_pagar',
      opts.clienteId ?? null,
      opts.proveedor ?? null,
      opts.vence,
      pagada ? 'pagado' : 'pendiente',
      opts.descripcion ?? 'Factura',
      pagada ? '2026-03-01' : null,
      pagada ? clock : null,
    ],
  );
  return r.id;
}

const [cliente] = await ctx.sql<{ id: string }>(
  `INSERT INTO customers (business_id, nombre, apellido) VALUES ($1, 'María', 'González') RETURNING id`,
  [biz],
);

const ids = {
  sinStock: await product('Yerba mate 1 kg', '0', '5'),
  bajo: await product('Azúcar 1 kg', '3', '10'),
  justo: await product('Harina 000', '10.000', '10'),
  fraccion: await product('Queso por kg', '2.5', '4.25'),
  sobra: await product('Arroz', '11', '10'),
  sinMinimo: await product('Sal', '0', '0'),
  inactivo: await product('Fideos viejos', '0', '5', false),
  vencida: await account({ vence: '2026-03-10', proveedor: 'Distribuidora Sur', descripcion: 'Mercadería' }),
  ayer: await account({ vence: '2026-03-14', tipo: 'por_cobrar', clienteId: cliente.id, descripcion: 'Fiado' }),
  hoy: await account({ vence: '2026-03-15', proveedor: 'Edesur', descripcion: 'Luz' }),
  semana: await account({ vence: '2026-03-22', tipo: 'por_cobrar', descripcion: 'Cuota' }),
  lejos: await account({ vence: '2026-03-23', descripcion: 'Alquiler' }),
  pagada: await account({ vence: '2026-03-01', descripcion: 'Pagada', pagada: true }),
};

const pendiente = await registerUser(app, 'Luis');
await ctx.sql(
  `INSERT INTO business_members (business_id, user_id, estado, permisos, creada_en) VALUES ($1, $2, 'pendiente', '{}', $3)`,
  [biz, pendiente.id, clock],
);

// Sales recorded through the sales service on past days, as sales-drop-route.test.ts does.
const TZ = 'America/Argentina/Buenos_Aires';
const yerba = await app.inject({
  method: 'POST',
  url: `/api/v1/businesses/${biz}/products`,
  headers: owner.auth,
  payload: { nombre: 'Yerba suelta', precio_venta: 1, stock_actual: 1_000_000 },
});
/** One sale of `amount` pesos at 12:00 local time of `day`. */
async function sellOn(day: string, amount: number): Promise<string> {
  const input = recordSaleInput.parse({
    metodo_pago: 'efectivo',
    items: [{ id: yerba.json().id, tipo: 'producto', cantidad: amount }],
  });
  const now = new Date(`${day}T15:00:00Z`);
  const sale = await enNegocio(biz, () =>
    recordSale(ctx.database, { businessId: biz, userId: owner.id, timezone: TZ, now }, input),
  );
  return sale.body.id;
}
const voidOn = (id: string) =>
  enNegocio(biz, () =>
    voidSale(ctx.database.db, { businessId: biz, userId: owner.id, timezone: TZ, now: clock }, id, 'Prueba'),
  );

describe('notificaciones', () => {
  it('lists every kind for an admin, by severity then newest first, with stable ids and links', async () => {
    const list = await notifications(owner);
    expect(list.map((n) => n.id)).toEqual([
      // critica, newest first: the product out of stock (updated now), then the overdue accounts
      `stock_bajo:${ids.sinStock}`,
      `cuenta_vencida:${ids.ayer}`,
      `cuenta_vencida:${ids.vencida}`,
      // advertencia, newest first: due in 7 days, low stock (updated now; same fecha: by id), due today
      `cuenta_por_vencer:${ids.semana}`,
      ...[ids.bajo, ids.justo, ids.fraccion].map((id) => `stock_bajo:${id}`).sort(),
      `cuenta_por_vencer:${ids.hoy}`,
      // info
      `usuario_pendiente:${pendiente.id}`,
    ]);
    const byId = Object.fromEntries(list.map((n) => [n.id, n]));
    expect(byId[`stock_bajo:${ids.bajo}`]).toEqual({
      id: `stock_bajo:${ids.bajo}`,
      tipo: 'stock_bajo',
      titulo: 'Stock bajo: Azúcar 1 kg',
      mensaje: 'Quedan 3 (mínimo 10).',
      severidad: 'advertencia',
      fecha: clock.toISOString(),
      enlace: '/products-and-services',
    });
    expect(byId[`stock_bajo:${ids.sinStock}`]).toMatchObject({
      titulo: 'Sin stock: Yerba mate 1 kg',
      mensaje: 'Quedan 0 (mínimo 5).',
      severidad: 'critica',
    });
    expect(byId[`stock_bajo:${ids.fraccion}`].mensaje).toBe('Quedan 2,5 (mínimo 4,25).');
    expect(byId[`cuenta_vencida:${ids.vencida}`]).toEqual({
      id: `cuenta_vencida:${ids.vencida}`,
      tipo: 'cuenta_vencida',
      titulo: 'Cuenta por pagar vencida',
      mensaje: 'Distribuidora Sur · Mercadería: $\u00a015.000,50. Venció hace 5 días (10/03/2026).',
      severidad: 'critica',
      fecha: '2026-03-10T03:00:00.000Z',
      enlace: '/finanzas',
    });
    expect(byId[`cuenta_vencida:${ids.ayer}`]).toMatchObject({
      titulo: 'Cuenta por cobrar vencida',
      mensaje: 'María González · Fiado: $\u00a015.000,50. Venció hace 1 día (14/03/2026).',
    });
    // "Today" is the 15th in Buenos Aires although it is already the 16th in UTC.
    expect(byId[`cuenta_por_vencer:${ids.hoy}`]).toMatchObject({
      tipo: 'cuenta_por_vencer',
      titulo: 'Cuenta por pagar por vencer',
      mensaje: 'Edesur · Luz: $\u00a015.000,50. Vence hoy.',
      severidad: 'advertencia',
      enlace: '/finanzas',
    });
    expect(byId[`cuenta_por_vencer:${ids.semana}`].mensaje).toBe(
      'Cuota: $\u00a015.000,50. Vence en 7 días (22/03/2026).',
    );
    expect(byId[`usuario_pendiente:${pendiente.id}`]).toEqual({
      id: `usuario_pendiente:${pendiente.id}`,
      tipo: 'usuario_pendiente',
      titulo: 'Usuario pendiente de aprobación',
      mensaje: `Luis Prueba (${pendiente.email}) espera que apruebes su acceso al negocio.`,
      severidad: 'info',
      fecha: clock.toISOString(),
      enlace: '/business-users',
    });
    for (const excluded of [ids.sobra, ids.sinMinimo, ids.inactivo, ids.lejos, ids.pagada]) {
      expect(list.some((n) => n.id.endsWith(excluded))).toBe(false);
    }
  });

  it('filters each kind by the caller flags', async () => {
    const onlyStock = await member('Stock', ['puede_ver_productos']);
    const onlyFinance = await member('Finanzas', ['puede_ver_finanzas', 'puede_editar_finanzas']);
    const nothing = await member('Nada', ['puede_editar_productos', 'puede_ver_clientes']);
    const fullAccess = await member('Total', [], { acceso_total: true });

    const kinds = async (u: TestUser) => [...new Set((await notifications(u)).map((n) => n.tipo))].sort();
    expect(await kinds(onlyStock)).toEqual(['stock_bajo']);
    expect(await kinds(onlyFinance)).toEqual(['cuenta_por_vencer', 'cuenta_vencida']);
    expect(await kinds(nothing)).toEqual([]);
    // Full access sees every module but pending users are for administrators.
    expect(await kinds(fullAccess)).toEqual(['cuenta_por_vencer', 'cuenta_vencida', 'stock_bajo']);
    expect(await kinds(owner)).toEqual(['cuenta_por_vencer', 'cuenta_vencida', 'stock_bajo', 'usuario_pendiente']);
    // A pending member and a stranger get no notifications at all.
    const pend = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${biz}/notificaciones`,
      headers: pendiente.auth,
    });
    expect(pend.json().code).toBe('MEMBERSHIP_PENDING');
  });

  it('raises the sales drop from the daily totals for members who may see sales', async () => {
    // 100 a day over the 30 model days (6 Feb – 7 Mar), 80 a day over the last 7 (8 – 14 Mar);
    // the first sale long before. The days just outside both windows (5 Feb, and today the 15th,
    // which is not over) change the 20 % below if they are counted.
    const first = await sellOn('2025-11-20', 100);
    const before = await sellOn('2026-02-05', 50_000);
    const sixth = await sellOn('2026-02-06', 100);
    for (let d = '2026-02-07'; d <= '2026-03-14'; d = addDays(d, 1)) await sellOn(d, d >= '2026-03-08' ? 80 : 100);
    await sellOn('2026-03-15', 50_000);
    const seller = await member('Vendedor', ['puede_ver_ventas']);
    const list = await notifications(seller);
    expect(list).toEqual([
      {
        id: 'caida_ventas:2026-03-15',
        tipo: 'caida_ventas',
        titulo: 'Caída de ventas',
        mensaje: 'Las ventas de los últimos 7 días cayeron un 20% respecto del promedio de los 30 días anteriores.',
        severidad: 'advertencia',
        fecha: '2026-03-15T03:00:00.000Z',
        enlace: '/reports',
      },
    ]);

    // The business's sensitivity: 30 % (Baja) does not fire on a 20 % drop.
    const settings = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/tenant-settings`,
      headers: owner.auth,
      payload: { sales_drop_threshold: 30 },
    });
    expect(settings.statusCode).toBeLessThan(300);
    expect((await notifications(seller)).some((n) => n.tipo === 'caida_ventas')).toBe(false);
    await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/tenant-settings`,
      headers: owner.auth,
      payload: { sales_drop_threshold: 15 },
    });
    expect((await notifications(seller)).some((n) => n.tipo === 'caida_ventas')).toBe(true);

    // Without ventas/ver the alert is not shown, while the seller still sees it.
    const noSales = await member('SinVentas', ['puede_ver_clientes']);
    expect(await notifications(noSales)).toEqual([]);
    expect((await notifications(seller)).map((n) => n.tipo)).toEqual(['caida_ventas']);

    // Too young a history (first sale 36 days ago, the earlier ones voided) is not evaluated.
    for (const id of [first, before, sixth]) await voidOn(id);
    expect((await notifications(seller)).some((n) => n.tipo === 'caida_ventas')).toBe(false);
  });

  it('returns at most 50, the most severe first', async () => {
    const boss = await registerUser(app, 'Muchos');
    const id = await createBusiness(app, boss, 'Muchos productos');
    for (let i = 0; i < 55; i++) await product(`Producto ${String(i).padStart(2, '0')}`, '1', '5', true, id);
    const empty = await product('Agotado', '0', '5', true, id);
    const list = await notifications(boss, id);
    expect(list).toHaveLength(50);
    expect(list[0].id).toBe(`stock_bajo:${empty}`);
    // Another business's notifications never leak.
    expect((await notifications(owner)).some((n) => n.titulo.includes('Producto'))).toBe(false);
  });
});
