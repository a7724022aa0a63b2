import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duenia');
const biz = await createBusiness(app, owner, 'Ferretería Control');
const base = `/api/v1/businesses/${biz}`;

const post = (u: TestUser, url: string, payload: object) =>
  app.inject({ method: 'POST', url, headers: u.auth, payload });
const get = (u: TestUser, url: string) => app.inject({ method: 'GET', url, headers: u.auth });

const martillo = (
  await post(owner, `${base}/products`, {
    nombre: 'Martillo',
    precio_venta: 15487.06,
    precio_compra: 9000,
    stock_actual: 50,
    unidad: 'unidad',
  })
).json();
const flete = (await post(owner, `${base}/services`, { nombre: 'Flete', precio: 2000, costo: 1200 })).json();

/** A cashier: sells and sees products and customers, nothing else (new members start without costs). */
const cajero = await registerUser(app, 'Cajero');
await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas', 'puede_ver_productos']);
const sale = (u: TestUser, body: object) =>
  post(u, '/api/v1/ventas/record-sale', { negocio_id: biz, metodo_pago: 'efectivo', ...body });
const countSales = async () =>
  (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [biz]))[0].n;

describe('what a cashier may do at the counter', () => {
  it('refuses a price changed by a cashier without cambiar_precios (403, nothing stored), as the issue tried', async () => {
    const before = await countSales();
    const res = await sale(cajero, {
      descuento: 50,
      items: [{ id: martillo.id, tipo: 'producto', cantidad: 1, precio: 100 }],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PRICE_CHANGE_FORBIDDEN' });
    expect(res.json().detail).toContain('No tenés permiso para cambiar el precio de «Martillo»');
    expect(await countSales()).toBe(before);
    expect((await get(owner, `${base}/products/${martillo.id}`)).json().stock_actual).toBe(50);
  });

  it('refuses any discount by default and a discount over the member maximum, exact at the boundary', async () => {
    const line = [{ id: flete.id, tipo: 'servicio', cantidad: 1 }];
    const none = await sale(cajero, { descuento: 0.01, items: line });
    expect(none.statusCode).toBe(403);
    expect(none.json()).toMatchObject({ code: 'DISCOUNT_OVER_MAX' });
    expect(none.json().detail).toContain('(0 %)');

    const set = await app.inject({
      method: 'PUT',
      url: `${base}/usuarios/${cajero.id}/permisos`,
      headers: owner.auth,
      payload: { descuento_maximo: 10 },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ descuento_maximo: 10, ver_costos: false, cambiar_precios: false });

    const over = await sale(cajero, { descuento: 200.01, items: line });
    expect(over.statusCode).toBe(403);
    expect(over.json().detail).toContain('(10 %)');
    const atMax = await sale(cajero, { descuento: 200, items: line });
    expect(atMax.statusCode).toBe(201);
    expect(atMax.json().total).toBe(1800);
  });

  it('lets a member with cambiar_precios change a price, keeping the list price on the line and in the audit log', async () => {
    const vendedor = await registerUser(app, 'Vendedor');
    await addMember(ctx, biz, owner, vendedor, ['puede_ver_ventas', 'puede_editar_ventas'], { cambiar_precios: true });
    const perms = (await get(vendedor, `${base}/permissions`)).json();
    expect(perms).toMatchObject({ cambiar_precios: true, ver_costos: false, descuento_maximo: null });
    expect(Object.keys(perms.permissions)).toHaveLength(40);

    const res = await sale(vendedor, {
      descuento: 5000,
      items: [{ id: martillo.id, tipo: 'producto', cantidad: 2, precio: 14000 }],
    });
    expect(res.statusCode).toBe(201);
    const [line] = await ctx.sql<{ precio_unitario: string; precio_lista: string }>(
      `SELECT i.precio_unitario::text, i.precio_lista::text FROM sale_items i WHERE i.venta_id = $1`,
      [res.json().id],
    );
    expect(line).toEqual({ precio_unitario: '14000.00', precio_lista: '15487.06' });
    const [row] = await ctx.sql<{
      despues: { descuento: number; items: { precio_unitario: number; precio_lista: number }[] };
    }>(`SELECT despues FROM audit_log WHERE business_id = $1 AND entidad = 'venta' AND entidad_id = $2`, [
      biz,
      res.json().id,
    ]);
    expect(row.despues.descuento).toBe(5000);
    expect(row.despues.items[0]).toMatchObject({ precio_unitario: 14000, precio_lista: 15487.06 });
  });

  it('leaves costs, margins and profit out of every answer to a member without ver_costos, field by field against the owner', async () => {
    const strip = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(strip)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .filter(
                  ([k]) =>
                    ![
                      'precio_compra',
                      'costo',
                      'costo_unitario',
                      'costo_total',
                      'costo_estimado',
                      'ganancia',
                      'ganancias_netas',
                      'estimated_profit',
                      'precio_compra_anterior',
                    ].includes(k),
                )
                .map(([k, x]) => [k, strip(x)]),
            )
          : v;
    const reader = await registerUser(app, 'Lector');
    await addMember(ctx, biz, owner, reader, ['puede_ver_ventas', 'puede_ver_productos', 'puede_ver_stock']);
    const urls = [
      `${base}/products`,
      `${base}/products/${martillo.id}`,
      `${base}/services`,
      `${base}/services/${flete.id}`,
      `${base}/ventas/sales`,
      `${base}/ventas/reporte`,
      `/api/v1/ventas/dashboard-stats-v2?negocio_id=${biz}`,
    ];
    for (const url of urls) {
      const mine = await get(owner, url);
      const theirs = await get(reader, url);
      expect(theirs.statusCode, url).toBe(200);
      const text = theirs.body;
      for (const field of ['precio_compra', '"costo', 'ganancia', 'estimated_profit'])
        expect(text, url).not.toContain(field);
      expect(theirs.json(), url).toEqual(strip(mine.json()));
      // The owner does see them.
      expect(mine.body, url).toMatch(/precio_compra|costo|ganancia|estimated_profit/);
    }

    const xlsx = async (u: TestUser, url: string, sheet?: string) =>
      JSON.stringify(await readXlsx((await get(u, url)).rawPayload, sheet));
    expect(await xlsx(owner, `${base}/products/exportar`)).toContain('Precio de compra');
    expect(await xlsx(reader, `${base}/products/exportar`)).not.toContain('Precio de compra');
    const report = `${base}/ventas/reporte?formato=xlsx`;
    for (const sheet of ['Resumen', 'Ventas', 'Productos', 'Por día']) {
      expect(await xlsx(owner, report, sheet), sheet).toMatch(/Costo estimado|Ganancia/);
      expect(await xlsx(reader, report, sheet), sheet).not.toMatch(/Costo estimado|Ganancia/);
    }
    expect(await xlsx(reader, report, 'Resumen')).toContain('Total de ingresos');

    // Given ver_costos, the same member sees what the owner sees.
    const grant = await app.inject({
      method: 'PUT',
      url: `${base}/usuarios/${reader.id}/permisos`,
      headers: owner.auth,
      payload: { ver_costos: true },
    });
    expect(grant.json().ver_costos).toBe(true);
    expect((await get(reader, `${base}/products/${martillo.id}`)).json()).toEqual(
      (await get(owner, `${base}/products/${martillo.id}`)).json(),
    );
  });

  it('keeps the cost when a member who cannot see it saves the product', async () => {
    const repositor = await registerUser(app, 'Repositor');
    await addMember(ctx, biz, owner, repositor, ['puede_ver_productos', 'puede_editar_productos']);
    const res = await app.inject({
      method: 'PUT',
      url: `${base}/products/${martillo.id}`,
      headers: repositor.auth,
      payload: { nombre: 'Martillo carpintero', precio_compra: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('precio_compra');
    const p = (await get(owner, `${base}/products/${martillo.id}`)).json();
    expect(p).toMatchObject({ nombre: 'Martillo carpintero', precio_compra: 9000 });
  });

  it('refuses bad counter controls with nothing saved', async () => {
    for (const payload of [
      { descuento_maximo: 101 },
      { descuento_maximo: -1 },
      { descuento_maximo: 'diez' },
      { descuento_maximo: 1.234 },
      { ver_costos: 'si' },
    ]) {
      const res = await app.inject({
        method: 'PUT',
        url: `${base}/usuarios/${cajero.id}/permisos`,
        headers: owner.auth,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
    }
    const members = (await get(owner, `${base}/usuarios`)).json() as {
      usuario_id: string;
      descuento_maximo: number | null;
    }[];
    expect(members.find((m) => m.usuario_id === cajero.id)!.descuento_maximo).toBe(10);
  });
});

/* A second business for the attempts (the first one is at the plan's 5 users). */
const duenio = await registerUser(app, 'Duenio');
const kiosco = await createBusiness(app, duenio, 'Kiosco Intentos');
const kb = `/api/v1/businesses/${kiosco}`;
const alfajor = (
  await post(duenio, `${kb}/products`, {
    nombre: 'Alfajor',
    precio_venta: 1000,
    precio_compra: 600,
    stock_actual: 20,
  })
).json();
const cliente = (
  await post(duenio, `${kb}/clientes`, { nombre: 'Rita', apellido: 'Fiado', limite_credito: 5000 })
).json();
const medios = (await get(duenio, `${kb}/medios-pago`)).json() as { id: string; tipo: string }[];
const cc = medios.find((m) => m.tipo === 'cuenta_corriente')!.id;
const vendedora = await registerUser(app, 'Vendedora');
await addMember(ctx, kiosco, duenio, vendedora, ['puede_ver_ventas', 'puede_editar_ventas'], {
  descuento_maximo: 5,
});
const vender = (u: TestUser, body: object, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/ventas/record-sale',
    headers: { ...u.auth, ...headers },
    payload: { negocio_id: kiosco, ...body },
  });
const alfajores = (cantidad: number, extra: object = {}) => [{ id: alfajor.id, tipo: 'producto', cantidad, ...extra }];

describe('refused attempts at the counter, in the change log', () => {
  /** Everything a sale writes, and every other audit row: a refused sale changes none of it. */
  const traces = async () =>
    (
      await ctx.sql(
        `SELECT (SELECT count(*) FROM sales WHERE business_id = $1)::int AS ventas,
                (SELECT count(*) FROM sale_items WHERE business_id = $1)::int AS lineas,
                (SELECT count(*) FROM sale_payments WHERE business_id = $1)::int AS pagos,
                (SELECT count(*) FROM stock_movements WHERE business_id = $1)::int AS movimientos_stock,
                (SELECT count(*) FROM finance_movements WHERE business_id = $1)::int AS movimientos,
                (SELECT count(*) FROM sale_idempotency_keys WHERE business_id = $1)::int AS claves,
                (SELECT coalesce(max(ultimo_numero), 0) FROM sale_counters WHERE business_id = $1)::int AS numero,
                (SELECT stock_actual::text FROM products WHERE business_id = $1 AND id = $2) AS stock,
                (SELECT count(*) FROM audit_log WHERE business_id = $1 AND accion <> 'intento_rechazado')::int AS auditoria`,
        [kiosco, alfajor.id],
      )
    )[0];
  const intentos = async () => {
    const res = await get(duenio, `${kb}/auditoria?accion=intento_rechazado`);
    expect(res.statusCode).toBe(200);
    return res.json() as {
      usuario: { id: string; email: string } | null;
      entidad: string;
      entidad_id: string | null;
      accion: string;
      despues: Record<string, unknown>;
      nombres: Record<string, string>;
    }[];
  };

  it('records who tried a discount over the maximum, a changed price and a sale over the credit limit, and nothing else', async () => {
    // A sale within the rules first, so the tables are not empty.
    expect((await vender(vendedora, { metodo_pago: 'efectivo', items: alfajores(1) })).statusCode).toBe(201);
    const before = await traces();

    const descuento = await vender(
      vendedora,
      { metodo_pago: 'efectivo', descuento: 200, items: alfajores(2) },
      { 'Idempotency-Key': 'intento-1' },
    );
    expect(descuento.statusCode).toBe(403);
    expect(descuento.json().code).toBe('DISCOUNT_OVER_MAX');
    const precio = await vender(vendedora, { metodo_pago: 'efectivo', items: alfajores(3, { precio: 800 }) });
    expect(precio.json().code).toBe('PRICE_CHANGE_FORBIDDEN');
    const fiado = await vender(vendedora, {
      cliente_id: cliente.id,
      pagos: [{ medio_pago_id: cc, monto: 6000 }],
      items: alfajores(6),
    });
    expect(fiado.statusCode).toBe(403);
    expect(fiado.json().code).toBe('CREDIT_LIMIT');

    expect(await traces()).toEqual(before);
    const rows = await intentos();
    expect(rows.map((r) => [r.accion, r.entidad, r.entidad_id, r.usuario?.id, r.usuario?.email])).toEqual(
      Array(3).fill(['intento_rechazado', 'venta', null, vendedora.id, vendedora.email]),
    );
    // Newest first.
    expect(rows.map((r) => r.despues)).toEqual([
      {
        motivo: 'Venta sobre el límite de crédito',
        cliente_id: cliente.id,
        limite_credito: 5000,
        saldo: 0,
        monto: 6000,
      },
      {
        motivo: 'Cambio de precio sin permiso',
        producto_id: alfajor.id,
        nombre: 'Alfajor',
        cantidad: 3,
        precio_lista: 1000,
        precio: 800,
      },
      { motivo: 'Descuento mayor al máximo permitido', subtotal: 2000, descuento: 200, descuento_maximo: 5 },
    ]);
    expect(rows[0].nombres[cliente.id]).toBe('Rita Fiado');
    expect(rows[1].nombres[alfajor.id]).toBe('Alfajor');
    // The member who tried cannot read the log (admins only).
    expect((await get(vendedora, `${kb}/auditoria`)).statusCode).toBe(403);
  });

  it('records nothing when the sale is allowed: within the maximum, or by the owner over the limit', async () => {
    const before = (await intentos()).length;
    const ok = await vender(vendedora, { metodo_pago: 'efectivo', descuento: 100, items: alfajores(2) });
    expect(ok.statusCode, ok.body).toBe(201);
    const owner = await vender(duenio, {
      cliente_id: cliente.id,
      descuento: 3000,
      pagos: [{ medio_pago_id: cc, monto: 6000 }],
      items: alfajores(9, { precio: 1000 }),
    });
    expect(owner.statusCode, owner.body).toBe(201);
    // Granted exceder_credito, the member may sell over the limit too.
    const grant = await app.inject({
      method: 'PUT',
      url: `${kb}/usuarios/${vendedora.id}/permisos`,
      headers: duenio.auth,
      payload: { exceder_credito: true },
    });
    expect(grant.statusCode).toBe(200);
    const fiado = await vender(vendedora, {
      cliente_id: cliente.id,
      pagos: [{ medio_pago_id: cc, monto: 1000 }],
      items: alfajores(1),
    });
    expect(fiado.statusCode, fiado.body).toBe(201);
    expect((await intentos()).length).toBe(before);
  });
});
