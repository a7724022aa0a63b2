import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

// 13:00 of 15 March 2026 in Buenos Aires.
let clock = new Date('2026-03-15T16:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;

interface Created {
  id: string;
  nombre: string;
}

async function post(url: string, payload: unknown, u: TestUser = owner, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: { ...u.auth, ...headers },
    payload: payload as object,
  });
}
async function get(url: string, u: TestUser = owner, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { ...u.auth, ...headers } });
}

async function product(payload: object, b = biz, u = owner): Promise<Created> {
  const res = await post(`/businesses/${b}/products`, { precio_venta: 100, stock_actual: 10, ...payload }, u);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function service(payload: object, b = biz, u = owner): Promise<Created> {
  const res = await post(`/businesses/${b}/services`, { precio: 1000, ...payload }, u);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function customer(payload: object, b = biz, u = owner): Promise<Created> {
  const res = await post(`/businesses/${b}/clientes`, payload, u);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const stockOf = async (id: string) =>
  Number((await ctx.sql<{ s: string }>('SELECT stock_actual AS s FROM products WHERE id = $1', [id]))[0].s);
const count = async (table: string, b = biz) =>
  Number((await ctx.sql<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE business_id = $1`, [b]))[0].n);
const snapshotCounts = async (b = biz) => ({
  sales: await count('sales', b),
  items: await count('sale_items', b),
  stock: await count('stock_movements', b),
  movements: await count('finance_movements', b),
  audit: Number(
    (
      await ctx.sql<{ n: string }>(`SELECT count(*) AS n FROM audit_log WHERE business_id = $1 AND entidad = 'venta'`, [
        b,
      ])
    )[0].n,
  ),
});

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
});

describe('record-sale', () => {
  it('records a sale atomically: number, lines, stock, income movement in Ventas, audit', async () => {
    const yerba = await product({
      nombre: 'Yerba mate 1 kg',
      precio_venta: 4000,
      precio_compra: 2800,
      stock_actual: 35,
    });
    const queso = await product({
      nombre: 'Queso cremoso',
      precio_venta: '9800',
      precio_compra: 6500,
      stock_actual: '4.35',
      unidad: 'kg',
    });
    const envio = await service({ nombre: 'Envío a domicilio', precio: 1500, costo: 500 });
    const cliente = await customer({ nombre: 'María', apellido: 'González' });
    const res = await post('/ventas/record-sale', {
      cliente_id: cliente.id,
      metodo_pago: 'Efectivo',
      observaciones: '  Pagó justo ',
      descuento: '100.50',
      items: [
        { id: yerba.id, tipo: 'producto', cantidad: 2 },
        { id: queso.id, tipo: 'producto', cantidad: '0.333', precio: 9800 },
        { id: envio.id, tipo: 'servicio', cantidad: 1 },
        { id: yerba.id, tipo: 'producto', cantidad: 1, precio: 3999.99 },
      ],
      business_id: biz,
      numero: 999,
      total: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    // 2 × 4000 + round(0.333 × 9800 = 3263.4) + 1500 + 3999.99 = 16763.39 − 100.50
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(String),
      numero: 1,
      total: 16662.89,
      fecha: '2026-03-15T16:00:00.000Z',
      mensaje: 'Venta registrada exitosamente',
    });

    expect(await stockOf(yerba.id)).toBe(32);
    expect(await stockOf(queso.id)).toBe(4.017);

    const detail = await get(`/businesses/${biz}/ventas/sales/${body.id}`);
    expect(detail.statusCode).toBe(200);
    const sale = detail.json();
    expect(sale).toMatchObject({
      id: body.id,
      numero: 1,
      fecha: '2026-03-15T16:00:00.000Z',
      fecha_venta: '2026-03-15T16:00:00.000Z',
      estado: 'completada',
      cliente_id: cliente.id,
      cliente_nombre: 'María González',
      metodo_pago: 'efectivo',
      medio_pago: 'efectivo',
      subtotal: 16763.39,
      descuento: 100.5,
      total: 16662.89,
      // 3 × 2800 + round(0.333 × 6500 = 2164.5 → 2164.5) + 500
      costo_estimado: 11064.5,
      observaciones: 'Pagó justo',
      vendedor: { id: owner.id, nombre: 'Ana Prueba' },
      anulada_en: null,
      motivo_anulacion: null,
    });
    expect(sale.items).toEqual([
      expect.objectContaining({
        tipo: 'producto',
        producto_id: yerba.id,
        servicio_id: null,
        nombre: 'Yerba mate 1 kg',
        cantidad: 2,
        precio_unitario: 4000,
        subtotal: 8000,
        costo_unitario: 2800,
      }),
      expect.objectContaining({
        tipo: 'producto',
        producto_id: queso.id,
        cantidad: 0.333,
        precio_unitario: 9800,
        subtotal: 3263.4,
      }),
      expect.objectContaining({
        tipo: 'servicio',
        producto_id: null,
        servicio_id: envio.id,
        nombre: 'Envío a domicilio',
        cantidad: 1,
        subtotal: 1500,
        costo_unitario: 500,
      }),
      expect.objectContaining({ producto_id: yerba.id, cantidad: 1, precio_unitario: 3999.99, subtotal: 3999.99 }),
    ]);
    expect(sale.venta_detalle).toEqual(sale.items);

    // Repeated lines of a product are one stock movement.
    const movs = (await get(`/businesses/${biz}/products/${yerba.id}/movimientos-stock`)).json();
    expect(movs[0]).toMatchObject({
      cantidad: -3,
      stock_resultante: 32,
      origen: 'venta',
      referencia_id: body.id,
      motivo: 'Venta #1',
    });

    const fin = (await get(`/businesses/${biz}/finanzas/movimientos?origen=venta`)).json();
    expect(fin).toEqual([
      expect.objectContaining({
        tipo: 'ingreso',
        categoria_nombre: 'Ventas',
        monto: 16662.89,
        fecha: '2026-03-15',
        metodo_pago: 'efectivo',
        descripcion: 'Venta #1',
        cliente_id: cliente.id,
        origen: 'venta',
        venta_id: body.id,
        anulado: false,
      }),
    ]);
    const [auditRow] = await ctx.sql<{ accion: string; despues: { numero: number } }>(
      `SELECT accion, despues FROM audit_log WHERE business_id = $1 AND entidad = 'venta' AND entidad_id = $2`,
      [biz, body.id],
    );
    expect(auditRow).toMatchObject({ accion: 'crear', despues: { numero: 1 } });
    // The income movement's audit row says what the movement says.
    const [movAudit] = await ctx.sql<{ accion: string; despues: Record<string, unknown> }>(
      `SELECT accion, despues FROM audit_log WHERE business_id = $1 AND entidad = 'movimiento' AND entidad_id = $2`,
      [biz, fin[0].id],
    );
    expect(movAudit).toMatchObject({
      accion: 'crear',
      despues: { tipo: 'ingreso', monto: 16662.89, descripcion: 'Venta #1', metodo_pago: 'efectivo' },
    });
  });

  it('uses the business in the path, and refuses a different body business', async () => {
    const p = await product({ nombre: 'Galletitas', precio_venta: 900 });
    const ok = await post(`/businesses/${biz}/ventas`, {
      metodo_pago: 'tarjeta',
      items: [{ id: p.id, tipo: 'producto', cantidad: 1 }],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ numero: 2, total: 900 });
    const sale = (await get(`/ventas/sales/${ok.json().id}?negocio_id=${biz}`)).json();
    expect(sale.metodo_pago).toBe('tarjeta_debito');
    const bad = await post(`/businesses/${biz}/ventas`, {
      negocio_id: otherBiz,
      metodo_pago: 'efectivo',
      items: [{ id: p.id, tipo: 'producto', cantidad: 1 }],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBe('El negocio indicado no coincide con el de la ruta.');
  });

  it('a sale with total 0 writes no movement', async () => {
    const p = await product({ nombre: 'Muestra gratis', precio_venta: 0 });
    const before = await count('finance_movements');
    const res = await post('/ventas/record-sale', {
      metodo_pago: 'otro',
      items: [{ id: p.id, tipo: 'producto', cantidad: 1 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().total).toBe(0);
    expect(await count('finance_movements')).toBe(before);
  });
});

describe('record-sale: business resolution (§1.5)', () => {
  it('needs an explicit business when the caller has several, from the body, query or header', async () => {
    const multi = await registerUser(app, 'Multi');
    const b1 = await createBusiness(app, multi, 'Uno');
    const b2 = await createBusiness(app, multi, 'Dos');
    const p2 = await product({ nombre: 'Pan', precio_venta: 500 }, b2, multi);
    const payload = { metodo_pago: 'efectivo', items: [{ id: p2.id, tipo: 'producto', cantidad: 1 }] };

    const none = await post('/ventas/record-sale', payload, multi);
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({
      code: 'BUSINESS_REQUIRED',
      detail: 'Indicá el negocio (negocio_id): pertenecés a más de un negocio.',
    });

    const body = await post('/ventas/record-sale', { ...payload, negocio_id: b2 }, multi);
    expect(body.statusCode, body.body).toBe(201);
    const alias = await post('/ventas/record-sale', { ...payload, business_id: b2 }, multi);
    expect(alias.statusCode, alias.body).toBe(201);
    const header = await post('/ventas/record-sale', payload, multi, { 'x-business-id': b2 });
    expect(header.statusCode, header.body).toBe(201);
    const query = await post(`/ventas/record-sale?negocio_id=${b2}`, payload, multi);
    expect(query.statusCode, query.body).toBe(201);
    expect([body, alias, header, query].map((r) => r.json().numero)).toEqual([1, 2, 3, 4]);

    const ambiguous = await post('/ventas/record-sale', { ...payload, negocio_id: b2 }, multi, { 'x-business-id': b1 });
    expect(ambiguous.statusCode).toBe(422);
    expect(ambiguous.json().detail).toBe('El negocio indicado es ambiguo.');

    // The product belongs to b2: selling it in b1 names no product of b1.
    const wrong = await post('/ventas/record-sale', { ...payload, negocio_id: b1 }, multi);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      detail: 'Producto no encontrado en este negocio.',
      errors: [{ field: 'items.0.id' }],
    });

    const foreign = await post('/ventas/record-sale', { ...payload, negocio_id: otherBiz }, multi);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('NOT_MEMBER');

    const noToken = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      payload: { ...payload, negocio_id: b2 },
    });
    expect(noToken.statusCode).toBe(401);
  });

  it('checks the ventas/editar permission of the resolved business', async () => {
    const p = await product({ nombre: 'Alfajor', precio_venta: 700 });
    const viewer = await registerUser(app, 'Mirona');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_ventas']);
    const payload = { negocio_id: biz, metodo_pago: 'efectivo', items: [{ id: p.id, tipo: 'producto', cantidad: 1 }] };
    const refused = await post('/ventas/record-sale', payload, viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', modulo: 'ventas', accion: 'editar' });
    const cashier = await registerUser(app, 'Cajera');
    await addMember(ctx, biz, owner, cashier, ['puede_editar_ventas']);
    const ok = await post('/ventas/record-sale', payload, cashier);
    expect(ok.statusCode, ok.body).toBe(201);
    // The cashier has one business: it is inferred.
    const inferred = await post('/ventas/record-sale', { ...payload, negocio_id: undefined }, cashier);
    expect(inferred.statusCode, inferred.body).toBe(201);
  });
});

describe('record-sale: validation stores nothing', () => {
  it('refuses bad carts with 422 and the right field', async () => {
    const p = await product({ nombre: 'Fideos', precio_venta: 1350 });
    const inactive = await product({ nombre: 'Pan dulce', precio_venta: 5000, activo: false });
    const inactiveService = await service({ nombre: 'Armado de regalo', activo: false });
    const foreignProduct = await product({ nombre: 'Ajeno', precio_venta: 10 }, otherBiz, otherOwner);
    const foreignCustomer = await customer({ nombre: 'Cliente ajeno' }, otherBiz, otherOwner);
    const before = await snapshotCounts();
    const stockBefore = await stockOf(p.id);
    const line = (extra: object = {}) => ({ id: p.id, tipo: 'producto', cantidad: 1, ...extra });
    const cases: [object, number, string, string?][] = [
      [{ metodo_pago: 'efectivo', items: [] }, 422, 'La venta debe tener al menos un ítem.', 'items'],
      [{ metodo_pago: 'efectivo' }, 422, 'La venta debe tener al menos un ítem.', 'items'],
      [{ metodo_pago: 'efectivo', items: [line({ cantidad: 0 })] }, 422, 'Debe ser mayor a 0.', 'items.0.cantidad'],
      [{ metodo_pago: 'efectivo', items: [line({ cantidad: -2 })] }, 422, 'Debe ser mayor a 0.', 'items.0.cantidad'],
      [
        { metodo_pago: 'efectivo', items: [line({ cantidad: '1.2345' })] },
        422,
        'Admite como máximo 3 decimales.',
        'items.0.cantidad',
      ],
      [{ metodo_pago: 'efectivo', items: [line({ cantidad: 'dos' })] }, 422, 'Debe ser un número.', 'items.0.cantidad'],
      [
        { metodo_pago: 'efectivo', items: [line({ precio: -1 })] },
        422,
        'Debe ser mayor o igual a 0.',
        'items.0.precio',
      ],
      [
        { metodo_pago: 'efectivo', items: [line({ precio: '1.234' })] },
        422,
        'Admite como máximo 2 decimales.',
        'items.0.precio',
      ],
      [
        { metodo_pago: 'bitcoin', items: [line()] },
        422,
        'Valor no válido. Opciones: efectivo, tarjeta_debito, tarjeta_credito, transferencia, mercado_pago, cheque, otro.',
        'metodo_pago',
      ],
      [{ items: [line()] }, 422, 'Este campo es obligatorio.', 'metodo_pago'],
      [
        { metodo_pago: 'efectivo', items: [line({ id: randomUUID() })] },
        422,
        'Producto no encontrado en este negocio.',
        'items.0.id',
      ],
      [
        { metodo_pago: 'efectivo', items: [line(), line({ id: foreignProduct.id })] },
        422,
        'Producto no encontrado en este negocio.',
        'items.1.id',
      ],
      [
        { metodo_pago: 'efectivo', items: [line({ id: p.id, tipo: 'servicio' })] },
        422,
        'Servicio no encontrado en este negocio.',
        'items.0.id',
      ],
      [
        { metodo_pago: 'efectivo', items: [line({ id: inactive.id })] },
        422,
        'El producto «Pan dulce» está inactivo.',
        'items.0.id',
      ],
      [
        { metodo_pago: 'efectivo', items: [line({ id: inactiveService.id, tipo: 'servicio' })] },
        422,
        'El servicio «Armado de regalo» está inactivo.',
        'items.0.id',
      ],
      [
        { metodo_pago: 'efectivo', items: [line({ id: 'no-es-un-id' })] },
        422,
        'Identificador no válido.',
        'items.0.id',
      ],
      [
        { metodo_pago: 'efectivo', descuento: 1350.01, items: [line()] },
        422,
        'El descuento no puede superar el subtotal.',
        'descuento',
      ],
      [
        { metodo_pago: 'efectivo', cliente_id: foreignCustomer.id, items: [line()] },
        422,
        'Cliente no encontrado en este negocio.',
        'cliente_id',
      ],
      [
        { metodo_pago: 'efectivo', cliente_id: randomUUID(), items: [line()] },
        422,
        'Cliente no encontrado en este negocio.',
        'cliente_id',
      ],
      [
        { metodo_pago: 'efectivo', observaciones: 'x'.repeat(501), items: [line()] },
        422,
        'Debe tener como máximo 500 caracteres.',
        'observaciones',
      ],
    ];
    for (const [payload, status, detail, field] of cases) {
      const res = await post(`/ventas/record-sale?negocio_id=${biz}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().detail, JSON.stringify(payload)).toBe(detail);
      if (field) expect(res.json().errors?.[0]?.field, JSON.stringify(payload)).toBe(field);
    }
    expect(await snapshotCounts()).toEqual(before);
    expect(await stockOf(p.id)).toBe(stockBefore);
  });

  it('insufficient stock → 409 naming the product, and nothing stored', async () => {
    const a = await product({ nombre: 'Aceite 1,5 l', precio_venta: 3650, stock_actual: 5 });
    const b = await product({ nombre: 'Arroz 1 kg', precio_venta: 1890, stock_actual: '2.5' });
    const before = await snapshotCounts();
    const res = await post('/ventas/record-sale', {
      metodo_pago: 'efectivo',
      items: [
        { id: a.id, tipo: 'producto', cantidad: 2 },
        { id: b.id, tipo: 'producto', cantidad: 2 },
        { id: b.id, tipo: 'producto', cantidad: 1 },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'INSUFFICIENT_STOCK',
      detail: 'Stock insuficiente para Arroz 1 kg. Disponible: 2,5.',
    });
    expect(await snapshotCounts()).toEqual(before);
    expect(await stockOf(a.id)).toBe(5);
    expect(await stockOf(b.id)).toBe(2.5);
    // The next sale takes the next number: the failed one left no gap.
    const [{ n }] = await ctx.sql<{ n: number }>('SELECT max(numero) AS n FROM sales WHERE business_id = $1', [biz]);
    const ok = await post('/ventas/record-sale', {
      metodo_pago: 'efectivo',
      items: [{ id: a.id, tipo: 'producto', cantidad: 5 }],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().numero).toBe(n + 1);
    expect(await stockOf(a.id)).toBe(0);
  });
});

describe('concurrency', () => {
  it('20 concurrent sales of a product with 5 units: exactly 5 succeed and stock ends at 0', async () => {
    const p = await product({ nombre: 'Última unidad', precio_venta: 1000, stock_actual: 5 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/ventas/record-sale', { metodo_pago: 'efectivo', items: [{ id: p.id, tipo: 'producto', cantidad: 1 }] }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(15);
    expect(results.find((r) => r.statusCode === 409)!.json().detail).toBe(
      'Stock insuficiente para Última unidad. Disponible: 0.',
    );
    expect(await stockOf(p.id)).toBe(0);
    const sold = await ctx.sql<{ n: string }>(`SELECT count(*) AS n FROM sale_items WHERE producto_id = $1`, [p.id]);
    expect(Number(sold[0].n)).toBe(5);
  });

  it('numbers are consecutive from 1 without gaps under concurrency, per business', async () => {
    const p = await product({ nombre: 'Caramelo', precio_venta: 50, stock_actual: 1000 });
    const q = await product({ nombre: 'Chicle', precio_venta: 60, stock_actual: 1000 }, otherBiz, otherOwner);
    await Promise.all([
      ...Array.from({ length: 15 }, () =>
        post('/ventas/record-sale', { metodo_pago: 'efectivo', items: [{ id: p.id, tipo: 'producto', cantidad: 1 }] }),
      ),
      ...Array.from({ length: 15 }, () =>
        post(
          '/ventas/record-sale',
          { metodo_pago: 'efectivo', items: [{ id: q.id, tipo: 'producto', cantidad: 1 }] },
          otherOwner,
        ),
      ),
    ]);
    for (const b of [biz, otherBiz]) {
      const rows = await ctx.sql<{ numero: number }>(
        'SELECT numero FROM sales WHERE business_id = $1 ORDER BY numero',
        [b],
      );
      expect(rows.map((r) => r.numero)).toEqual(rows.map((_, i) => i + 1));
    }
  });

  it('the same Idempotency-Key sent 10 times concurrently records one sale and answers the same', async () => {
    const p = await product({ nombre: 'Gaseosa', precio_venta: 3100, stock_actual: 100 });
    const key = randomUUID();
    const payload = { metodo_pago: 'efectivo', items: [{ id: p.id, tipo: 'producto', cantidad: 2 }] };
    const before = await count('sales');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post('/ventas/record-sale', payload, owner, { 'idempotency-key': key })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body)).size).toBe(1);
    expect(await count('sales')).toBe(before + 1);
    expect(await stockOf(p.id)).toBe(98);

    // Later retries too; a different body with the same key is refused.
    const again = await post('/ventas/record-sale', payload, owner, { 'idempotency-key': key });
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(results[0].body);
    const other = await post('/ventas/record-sale', { ...payload, metodo_pago: 'transferencia' }, owner, {
      'idempotency-key': key,
    });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      code: 'IDEMPOTENCY_MISMATCH',
      detail: 'Esta clave de idempotencia ya se usó con otra venta.',
    });
    expect(await count('sales')).toBe(before + 1);

    // Another user with the same key records their own sale.
    const cashier = await registerUser(app, 'Caja2');
    await addMember(ctx, biz, owner, cashier, ['puede_editar_ventas']);
    const theirs = await post('/ventas/record-sale', payload, cashier, { 'idempotency-key': key });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(results[0].json().id);

    // After 24 hours the key is forgotten.
    const saved = clock;
    clock = new Date(clock.getTime() + 24 * 3600_000 + 1000);
    try {
      const relogin = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: owner.email, password: 'clave-segura-123' },
      });
      const auth = { authorization: `Bearer ${relogin.json().access_token}` };
      const late = await app.inject({
        method: 'POST',
        url: '/api/v1/ventas/record-sale',
        headers: { ...auth, 'idempotency-key': key },
        payload,
      });
      expect(late.statusCode).toBe(201);
      expect(late.json().id).not.toBe(results[0].json().id);
    } finally {
      clock = saved;
    }
    const bad = await post('/ventas/record-sale', payload, owner, { 'idempotency-key': 'ñ'.repeat(3) });
    expect(bad.statusCode).toBe(422);
  });
});

describe('references and plan state', () => {
  it('products, services and customers with sales cannot be deleted; the business can, with its sales', async () => {
    const owner2 = await registerUser(app, 'Borra');
    const b2 = await createBusiness(app, owner2, 'Negocio que cierra');
    const p = await product({ nombre: 'Vendido', precio_venta: 10 }, b2, owner2);
    const s = await service({ nombre: 'Servicio vendido', precio: 10 }, b2, owner2);
    const c = await customer({ nombre: 'Comprador' }, b2, owner2);
    const sold = await post(
      '/ventas/record-sale',
      {
        metodo_pago: 'efectivo',
        cliente_id: c.id,
        items: [
          { id: p.id, tipo: 'producto', cantidad: 1 },
          { id: s.id, tipo: 'servicio', cantidad: 1 },
        ],
      },
      owner2,
    );
    expect(sold.statusCode, sold.body).toBe(201);
    const del = (path: string) =>
      app.inject({ method: 'DELETE', url: `/api/v1/businesses/${b2}/${path}`, headers: owner2.auth });
    expect((await del(`products/${p.id}`)).json()).toMatchObject({ code: 'IN_USE' });
    expect((await del(`services/${s.id}`)).json()).toMatchObject({ code: 'IN_USE' });
    expect((await del(`clientes/${c.id}`)).json()).toMatchObject({ code: 'IN_USE' });
    const gone = await app.inject({ method: 'DELETE', url: `/api/v1/businesses/${b2}`, headers: owner2.auth });
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await ctx.sql('SELECT 1 FROM sales WHERE business_id = $1', [b2])).toHaveLength(0);
  });

  it('a read-only business (trial over) cannot record or void sales, but still reads and exports them', async () => {
    const owner3 = await registerUser(app, 'Vencida');
    const b3 = await createBusiness(app, owner3, 'Prueba vencida');
    const p = await product({ nombre: 'Algo', precio_venta: 10 }, b3, owner3);
    const sold = await post(
      '/ventas/record-sale',
      { metodo_pago: 'efectivo', items: [{ id: p.id, cantidad: 1 }] },
      owner3,
    );
    expect(sold.statusCode, sold.body).toBe(201);
    await ctx.sql(`UPDATE businesses SET trial_ends_at = $2 WHERE id = $1`, [
      b3,
      new Date(clock.getTime() - 86_400_000),
    ]);
    const again = await post(
      '/ventas/record-sale',
      { metodo_pago: 'efectivo', items: [{ id: p.id, cantidad: 1 }] },
      owner3,
    );
    expect(again.statusCode).toBe(402);
    expect(again.json().code).toBe('READ_ONLY');
    const v = await post(`/businesses/${b3}/ventas/${sold.json().id}/anular`, {}, owner3);
    expect(v.statusCode).toBe(402);
    expect((await get(`/ventas/sales`, owner3)).json().total_ventas).toBe(1);
    expect((await get(`/businesses/${b3}/ventas/reporte?formato=xlsx`, owner3)).statusCode).toBe(200);
  });
});

describe('sales list: sorting', () => {
  it('sorts by date, number and total either way; a bad value is a 422 in Spanish', async () => {
    const o = await registerUser(app, 'Ordena');
    const b = await createBusiness(app, o, 'Ventas ordenadas');
    const p = await product({ nombre: 'Caramelo', precio_venta: 10, stock_actual: 100 }, b, o);
    for (const cantidad of [3, 1, 2]) {
      clock = new Date(clock.getTime() + 60_000);
      const sold = await post('/ventas/record-sale', { metodo_pago: 'efectivo', items: [{ id: p.id, cantidad }] }, o);
      expect(sold.statusCode, sold.body).toBe(201);
    }
    const numbers = async (qs: string) =>
      ((await get(`/businesses/${b}/ventas/sales${qs}`, o)).json().ventas as { numero: number }[]).map((s) => s.numero);
    expect(await numbers('')).toEqual([3, 2, 1]);
    expect(await numbers('?orden=fecha')).toEqual([1, 2, 3]);
    expect(await numbers('?orden=numero&direccion=desc')).toEqual([3, 2, 1]);
    expect(await numbers('?orden=total')).toEqual([2, 3, 1]);
    expect(await numbers('?orden=total&direccion=desc')).toEqual([1, 3, 2]);
    for (const bad of ['?orden=cliente', '?direccion=abajo']) {
      const res = await get(`/businesses/${b}/ventas/sales${bad}`, o);
      expect(res.statusCode, bad).toBe(422);
      expect(res.body, bad).toMatch(/Valor no válido/);
    }
  });
});
