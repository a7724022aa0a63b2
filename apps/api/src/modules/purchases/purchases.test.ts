import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;

const api = (path: string, b = biz) => `/api/v1/businesses/${b}${path}`;
const url = (path = '', b = biz) => api(`/compras${path}`, b);
const get = (path = '', u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url('', b), headers: u.auth, payload: payload as object });
const put = (id: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(`/${id}`, b), headers: u.auth, payload: payload as object });
const del = (id: string, u = owner, b = biz) =>
  app.inject({ method: 'DELETE', url: url(`/${id}`, b), headers: u.auth });

interface Item {
  producto_id: string;
  producto_nombre: string;
  cantidad: number;
  precio_unitario: number;
  subtotal: number;
  precio_compra_anterior: number | null;
}
interface C {
  id: string;
  numero: number;
  estado: string;
  total: number;
  proveedor_nombre: string | null;
  movimiento_id: string | null;
  cuenta_id: string | null;
  cuenta_estado: string | null;
  fecha_vencimiento: string | null;
  items: Item[];
}
interface P {
  id: string;
  nombre: string;
  stock_actual: number;
  precio_compra: number | null;
}

async function product(nombre: string, extra: object = {}, b = biz, u = owner): Promise<P> {
  const res = await app.inject({
    method: 'POST',
    url: api('/products', b),
    headers: u.auth,
    payload: { nombre, precio_venta: 1000, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const productNow = async (id: string, b = biz, u = owner): Promise<P> =>
  (await app.inject({ method: 'GET', url: api(`/products/${id}`, b), headers: u.auth })).json();

async function supplier(nombre: string, b = biz, u = owner) {
  const res = await app.inject({ method: 'POST', url: api('/proveedores', b), headers: u.auth, payload: { nombre } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; nombre: string };
}

async function compra(payload: object, b = biz, u = owner): Promise<C> {
  const res = await post(payload, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function counts() {
  const [r] = await ctx.sql<Record<string, number>>(`SELECT
    (SELECT count(*)::int FROM purchases) AS compras,
    (SELECT count(*)::int FROM purchase_items) AS lineas,
    (SELECT count(*)::int FROM finance_movements) AS movimientos,
    (SELECT count(*)::int FROM finance_accounts) AS cuentas,
    (SELECT count(*)::int FROM stock_movements) AS stock`);
  return r;
}

const movement = async (id: string) =>
  (
    await ctx.sql<{
      tipo: string;
      monto: string;
      fecha: string;
      metodo_pago: string;
      descripcion: string;
      origen: string;
      anulado: boolean;
      categoria: string | null;
      compra_id: string;
    }>(
      `SELECT m.tipo, m.monto, m.fecha, m.metodo_pago, m.descripcion, m.origen, m.anulado, m.compra_id, c.nombre AS categoria
         FROM finance_movements m LEFT JOIN finance_categories c ON c.id = m.categoria_id WHERE m.id = $1`,
      [id],
    )
  )[0];

const account = async (id: string) =>
  (await app.inject({ method: 'GET', url: api('/finanzas/cuentas-pagar?limit=500'), headers: owner.auth }))
    .json()
    .find((a: { id: string }) => a.id === id);

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
});

describe('purchases: create', () => {
  it('creates a cash purchase: exact total, lines, an egreso in "Compras", no stock change, audit', async () => {
    const sur = await supplier('Distribuidora Sur');
    const yerba = await product('Yerba 1 kg', { precio_compra: 2500, stock_actual: 10 });
    const queso = await product('Queso por kg', { unidad: 'kg' });
    const res = await post({
      proveedor_id: sur.id,
      proveedor_nombre: 'ignorado',
      fecha: '2026-03-10',
      metodo_pago: 'Transferencia',
      observaciones: ' Entregar por la mañana ',
      items: [
        { producto_id: yerba.id, cantidad: 40, precio_unitario: '2800' },
        { producto_id: queso.id, cantidad: '1.5', precio_unitario: 333.33 },
      ],
      total: 1,
      business_id: otherBiz,
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      proveedor_id: sur.id,
      proveedor_nombre: 'Distribuidora Sur',
      fecha: '2026-03-10',
      fecha_entrega: null,
      estado: 'pendiente',
      condicion_pago: 'contado',
      metodo_pago: 'transferencia',
      fecha_vencimiento: null,
      observaciones: 'Entregar por la mañana',
      // 40 × 2800 + round(1.5 × 333.33 = 499.995) = 112000 + 500
      total: 112500,
      cantidad_items: 2,
      cuenta_id: null,
      cuenta_estado: null,
      recibida_en: null,
      creado_por: owner.id,
    });
    expect(c.numero).toBeGreaterThan(0);
    expect(c.items).toEqual([
      expect.objectContaining({
        producto_id: yerba.id,
        producto_nombre: 'Yerba 1 kg',
        cantidad: 40,
        precio_unitario: 2800,
        subtotal: 112000,
        precio_compra_anterior: null,
      }),
      expect.objectContaining({
        producto_id: queso.id,
        unidad: 'kg',
        cantidad: 1.5,
        precio_unitario: 333.33,
        subtotal: 500,
      }),
    ]);
    expect(await movement(c.movimiento_id)).toEqual({
      tipo: 'egreso',
      monto: '112500.00',
      fecha: '2026-03-10',
      metodo_pago: 'transferencia',
      descripcion: 'Compra a Distribuidora Sur',
      origen: 'compra',
      anulado: false,
      categoria: 'Compras',
      compra_id: c.id,
    });
    expect((await productNow(yerba.id)).stock_actual).toBe(10);
    const audit = await ctx.sql('SELECT accion FROM audit_log WHERE entidad = $1 AND entidad_id = $2', [
      'compra',
      c.id,
    ]);
    expect(audit).toEqual([{ accion: 'crear' }]);
    expect((await get(`/${c.id}`)).json()).toEqual(c);
    // Numbers count per business.
    const next = await compra({ items: [{ producto_id: yerba.id, cantidad: 1, precio_unitario: 1 }] });
    expect(next.numero).toBe(c.numero + 1);
  });

  it('creates a purchase on credit: a por_pagar account for the supplier, no movement', async () => {
    const s = await supplier('Lácteos del Oeste');
    const leche = await product('Leche 1 l');
    const c = await compra({
      proveedor_id: s.id,
      fecha: '2026-03-12',
      condicion_pago: 'cuenta_corriente',
      metodo_pago: 'cheque',
      fecha_vencimiento: '2026-04-11',
      items: [{ producto_id: leche.id, cantidad: 24, precio_unitario: 950 }],
    });
    expect(c).toMatchObject({
      condicion_pago: 'cuenta_corriente',
      metodo_pago: null,
      fecha_vencimiento: '2026-04-11',
      total: 22800,
      movimiento_id: null,
      cuenta_estado: 'pendiente',
    });
    expect(await account(c.cuenta_id!)).toMatchObject({
      tipo: 'por_pagar',
      proveedor_id: s.id,
      proveedor_nombre: 'Lácteos del Oeste',
      monto: 22800,
      fecha_emision: '2026-03-12',
      fecha_vencimiento: '2026-04-11',
      estado: 'pendiente',
      descripcion: 'Compra a Lácteos del Oeste',
      compra_id: c.id,
    });
    const m = await ctx.sql('SELECT 1 FROM finance_movements WHERE compra_id = $1', [c.id]);
    expect(m).toHaveLength(0);
  });

  it('writes no movement or account when the total is 0, and accepts a free-text supplier', async () => {
    const p = await product('Muestra gratis');
    const before = await counts();
    const c = await compra({
      proveedor_nombre: 'Visitador',
      items: [{ producto_id: p.id, cantidad: 3, precio_unitario: 0 }],
    });
    expect(c).toMatchObject({ total: 0, proveedor_id: null, proveedor_nombre: 'Visitador', fecha: '2026-03-15' });
    expect(c.movimiento_id).toBeNull();
    expect(c.cuenta_id).toBeNull();
    const after = await counts();
    expect(after.movimientos).toBe(before.movimientos);
    expect(after.cuentas).toBe(before.cuentas);
  });

  it('creates an already received purchase (estado entregado) with its stock and cost', async () => {
    const p = await product('Arroz', { precio_compra: 1000, stock_actual: 2 });
    const c = await compra({ estado: 'entregado', items: [{ producto_id: p.id, cantidad: 5, precio_unitario: 1300 }] });
    expect(c.estado).toBe('recibida');
    expect(c.items[0].precio_compra_anterior).toBe(1000);
    expect(await productNow(p.id)).toMatchObject({ stock_actual: 7, precio_compra: 1300 });
  });
});

describe('purchases: validation stores nothing', () => {
  let mine: P;
  let foreignProduct: P;
  let foreignSupplier: { id: string };
  beforeAll(async () => {
    mine = await product('Fideos');
    foreignProduct = await product('De Beto', {}, otherBiz, otherOwner);
    foreignSupplier = await supplier('Proveedor de Beto', otherBiz, otherOwner);
  });
  // it.each rows are built before beforeAll runs: MINE stands for the product's id.
  const MINE = '11111111-1111-4111-8111-111111111111';
  const line = (extra: object = {}) => ({ producto_id: MINE, cantidad: 1, precio_unitario: 10, ...extra });
  const withMine = (payload: object) => JSON.parse(JSON.stringify(payload).replaceAll(MINE, mine.id)) as object;

  it.each([
    ['no lines', { items: [] }, 'items', 'La compra debe tener al menos un producto.'],
    ['missing lines', {}, 'items', 'La compra debe tener al menos un producto.'],
    ['zero quantity', { items: [line({ cantidad: 0 })] }, 'items.0.cantidad', 'Debe ser mayor a 0.'],
    ['negative quantity', { items: [line({ cantidad: -2 })] }, 'items.0.cantidad', 'Debe ser mayor a 0.'],
    ['4 decimals', { items: [line({ cantidad: 1.2345 })] }, 'items.0.cantidad', 'Admite como máximo 3 decimales.'],
    [
      'negative price',
      { items: [line({ precio_unitario: -1 })] },
      'items.0.precio_unitario',
      'Debe ser mayor o igual a 0.',
    ],
    [
      '3-decimal price',
      { items: [line({ precio_unitario: 1.234 })] },
      'items.0.precio_unitario',
      'Admite como máximo 2 decimales.',
    ],
    ['bad product id', { items: [line({ producto_id: 'x' })] }, 'items.0.producto_id', 'Identificador no válido.'],
    [
      'the same product twice',
      { items: [line(), line({ cantidad: 2 })] },
      'items.1.producto_id',
      'El producto ya está en otra línea de la compra.',
    ],
    [
      'credit without supplier',
      { condicion_pago: 'cuenta_corriente', fecha_vencimiento: '2026-04-01', items: [line()] },
      'proveedor_id',
      'Una compra en cuenta corriente necesita un proveedor.',
    ],
    ['a cancelled state', { estado: 'cancelada', items: [line()] }, 'estado', 'Estado no válido.'],
    ['an unknown state', { estado: 'perdida', items: [line()] }, 'estado', 'Estado no válido.'],
    [
      'a bad method',
      { metodo_pago: 'bitcoin', items: [line()] },
      'metodo_pago',
      expect.stringContaining('Valor no válido'),
    ],
    ['a bad date', { fecha: '2026-02-30', items: [line()] }, 'fecha', 'Fecha no válida (formato AAAA-MM-DD).'],
    [
      'long notes',
      { observaciones: 'x'.repeat(501), items: [line()] },
      'observaciones',
      'Debe tener como máximo 500 caracteres.',
    ],
  ])('refuses %s (422)', async (_name, payload, field, message) => {
    const before = await counts();
    const res = await post(withMine(payload));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await counts()).toEqual(before);
  });

  it('refuses credit without a due date, or one before the purchase date (today by default)', async () => {
    const s = await supplier('Con crédito');
    const before = await counts();
    const noDue = await post(withMine({ proveedor_id: s.id, condicion_pago: 'cuenta_corriente', items: [line()] }));
    expect(noDue.json().errors).toContainEqual({
      field: 'fecha_vencimiento',
      message: 'Indicá la fecha de vencimiento de la cuenta corriente.',
    });
    const early = await post(
      withMine({
        proveedor_id: s.id,
        condicion_pago: 'cuenta_corriente',
        fecha_vencimiento: '2026-03-14',
        items: [line()],
      }),
    );
    expect(early.statusCode).toBe(422);
    expect(early.json().detail).toBe('La fecha de vencimiento no puede ser anterior a la fecha de la compra.');
    expect(await counts()).toEqual(before);
  });

  it("refuses another business's product or supplier, and an unknown one (422), storing nothing", async () => {
    const before = await counts();
    const p = await post(
      withMine({ items: [line(), { producto_id: foreignProduct.id, cantidad: 1, precio_unitario: 5 }] }),
    );
    expect(p.statusCode).toBe(422);
    expect(p.json()).toMatchObject({
      detail: 'Producto no encontrado en este negocio.',
      errors: [{ field: 'items.1.producto_id', message: 'Producto no encontrado en este negocio.' }],
    });
    for (const id of [foreignSupplier.id, '00000000-0000-4000-8000-000000000000']) {
      const s = await post(withMine({ proveedor_id: id, items: [line()] }));
      expect(s.statusCode).toBe(422);
      expect(s.json().errors).toEqual([{ field: 'proveedor_id', message: 'Proveedor no encontrado en este negocio.' }]);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('purchases: receiving', () => {
  it('receives once: stock in by line, cost updated (previous kept), stock movements, recibida_en', async () => {
    const a = await product('Azúcar', { precio_compra: 800, stock_actual: 3 });
    const b = await product('Harina', { stock_actual: 0 });
    const c = await compra({
      items: [
        { producto_id: a.id, cantidad: 10, precio_unitario: 850 },
        { producto_id: b.id, cantidad: 2.5, precio_unitario: 700 },
      ],
    });
    const res = await put(c.id, { estado: 'recibida' });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.estado).toBe('recibida');
    expect(r.recibida_en).toBe('2026-03-15T15:00:00.000Z');
    expect(r.items.map((i: Item) => i.precio_compra_anterior)).toEqual([800, null]);
    expect(await productNow(a.id)).toMatchObject({ stock_actual: 13, precio_compra: 850 });
    expect(await productNow(b.id)).toMatchObject({ stock_actual: 2.5, precio_compra: 700 });
    const hist = await app.inject({
      method: 'GET',
      url: api(`/products/${a.id}/movimientos-stock`),
      headers: owner.auth,
    });
    expect(hist.json()[0]).toMatchObject({ cantidad: 10, stock_resultante: 13, origen: 'compra', referencia_id: c.id });
    expect(hist.json()[0].motivo).toBe(`Compra #${c.numero}`);

    const stockRows = (await counts()).stock;
    const again = await put(c.id, { estado: 'entregado', observaciones: 'Llegó completo' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ estado: 'recibida', observaciones: 'Llegó completo' });
    expect((await productNow(a.id)).stock_actual).toBe(13);
    expect((await counts()).stock).toBe(stockRows);
  });

  it('lets two concurrent receive requests raise the stock once', async () => {
    const p = await product('Gaseosa', { stock_actual: 1 });
    const c = await compra({ items: [{ producto_id: p.id, cantidad: 12, precio_unitario: 2100 }] });
    const results = await Promise.all(Array.from({ length: 4 }, () => put(c.id, { estado: 'recibida' })));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await productNow(p.id)).stock_actual).toBe(13);
    const moves = await ctx.sql('SELECT 1 FROM stock_movements WHERE referencia_id = $1', [c.id]);
    expect(moves).toHaveLength(1);
  });

  it('reverts to pendiente: stock out, cost back when unchanged since, previous cost cleared', async () => {
    const a = await product('Aceite', { precio_compra: 2500, stock_actual: 4 });
    const b = await product('Vinagre', { precio_compra: 500, stock_actual: 0 });
    const c = await compra({
      items: [
        { producto_id: a.id, cantidad: 6, precio_unitario: 2600 },
        { producto_id: b.id, cantidad: 1, precio_unitario: 550 },
      ],
    });
    await put(c.id, { estado: 'recibida' });
    // Somebody set the vinegar's cost by hand after the reception: it stays.
    await app.inject({
      method: 'PUT',
      url: api(`/products/${b.id}`),
      headers: owner.auth,
      payload: { precio_compra: 600 },
    });
    const res = await put(c.id, { estado: 'no_entregado' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ estado: 'pendiente', recibida_en: null });
    expect(res.json().items.map((i: Item) => i.precio_compra_anterior)).toEqual([null, null]);
    expect(await productNow(a.id)).toMatchObject({ stock_actual: 4, precio_compra: 2500 });
    expect(await productNow(b.id)).toMatchObject({ stock_actual: 0, precio_compra: 600 });
  });

  it('refuses the revert when the stock was already used (409), changing nothing', async () => {
    const p = await product('Galletitas', { precio_compra: 900, stock_actual: 0 });
    const c = await compra({ items: [{ producto_id: p.id, cantidad: 10, precio_unitario: 950 }] });
    await put(c.id, { estado: 'recibida' });
    const adj = await app.inject({
      method: 'POST',
      url: api(`/products/${p.id}/ajuste-stock`),
      headers: owner.auth,
      payload: { cantidad: -4, motivo: 'Vendidas' },
    });
    expect(adj.statusCode).toBe(200);
    const before = await counts();
    for (const estado of ['pendiente', 'cancelada']) {
      const res = await put(c.id, { estado });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        detail: 'No hay stock suficiente de Galletitas para revertir la recepción.',
        code: 'INSUFFICIENT_STOCK',
      });
    }
    expect(await counts()).toEqual(before);
    expect(await productNow(p.id)).toMatchObject({ stock_actual: 6, precio_compra: 950 });
    expect((await get(`/${c.id}`)).json().estado).toBe('recibida');
  });
});

describe('purchases: cancel, edit and delete', () => {
  it('cancels a cash purchase: the movement stays, voided, and leaves the totals', async () => {
    const p = await product('Detergente');
    const c = await compra({ fecha: '2026-03-02', items: [{ producto_id: p.id, cantidad: 2, precio_unitario: 1500 }] });
    const resumen = async () =>
      (await app.inject({ method: 'GET', url: api('/finanzas/resumen?mes=3&anio=2026'), headers: owner.auth })).json()
        .total_egresos as number;
    const egresos = await resumen();
    const res = await put(c.id, { estado: 'cancelada' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ estado: 'cancelada', cancelada_en: '2026-03-15T15:00:00.000Z' });
    expect((await movement(c.movimiento_id!)).anulado).toBe(true);
    expect(await resumen()).toBe(egresos - 3000);
    const final = await put(c.id, { observaciones: 'otra cosa' });
    expect(final.statusCode).toBe(409);
    expect(final.json()).toEqual({ detail: 'Una compra cancelada no se puede modificar.', code: 'INVALID_STATE' });
    expect((await put(c.id, { estado: 'pendiente' })).statusCode).toBe(409);
  });

  it('cancels a received purchase on credit: stock and cost back, the unpaid payable deleted', async () => {
    const s = await supplier('Bebidas Norte');
    const p = await product('Agua 2 l', { precio_compra: 650, stock_actual: 5 });
    const c = await compra({
      proveedor_id: s.id,
      condicion_pago: 'cuenta_corriente',
      fecha_vencimiento: '2026-04-15',
      estado: 'recibida',
      items: [{ producto_id: p.id, cantidad: 36, precio_unitario: 700 }],
    });
    expect(await productNow(p.id)).toMatchObject({ stock_actual: 41, precio_compra: 700 });
    const res = await put(c.id, { estado: 'cancelada' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ estado: 'cancelada', recibida_en: null, cuenta_id: null });
    expect(await productNow(p.id)).toMatchObject({ stock_actual: 5, precio_compra: 650 });
    expect(await ctx.sql('SELECT 1 FROM finance_accounts WHERE id = $1', [c.cuenta_id])).toHaveLength(0);
  });

  it('refuses cancelling, editing or deleting once the payable is paid; the payment reaches the cash flow', async () => {
    const s = await supplier('Mayorista Sur');
    const p = await product('Yerba 500 g', { stock_actual: 0 });
    const c = await compra({
      proveedor_id: s.id,
      fecha: '2026-03-05',
      condicion_pago: 'cuenta_corriente',
      fecha_vencimiento: '2026-03-20',
      items: [{ producto_id: p.id, cantidad: 10, precio_unitario: 1500 }],
    });
    const pay = await app.inject({
      method: 'PUT',
      url: api(`/finanzas/cuentas/${c.cuenta_id}/marcar-pagado`),
      headers: owner.auth,
      payload: { metodo_pago: 'transferencia' },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    expect(pay.json().movimiento).toMatchObject({
      tipo: 'egreso',
      monto: 15000,
      categoria_nombre: 'Compras',
      descripcion: 'Pago: Compra a Mayorista Sur',
      fecha: '2026-03-15',
    });
    const flujo = await app.inject({
      method: 'GET',
      url: api('/finanzas/flujo-caja?mes=3&anio=2026'),
      headers: owner.auth,
    });
    expect(
      flujo.json().flujo_diario.find((d: { fecha: string }) => d.fecha === '2026-03-15').egresos,
    ).toBeGreaterThanOrEqual(15000);
    expect((await get(`/${c.id}`)).json().cuenta_estado).toBe('pagado');

    const cancel = await put(c.id, { estado: 'cancelada' });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json()).toEqual({
      detail: 'La cuenta por pagar de esta compra ya está pagada; no se puede cancelar.',
      code: 'ALREADY_PAID',
    });
    const edit = await put(c.id, { items: [{ producto_id: p.id, cantidad: 11, precio_unitario: 1500 }] });
    expect(edit.statusCode).toBe(409);
    expect(edit.json()).toEqual({
      detail: 'Solo se pueden modificar los ítems y condiciones de una compra pendiente.',
      code: 'INVALID_STATE',
    });
    const d = await del(c.id);
    expect(d.statusCode).toBe(409);
    expect(d.json().code).toBe('ALREADY_PAID');
    // Receiving a paid purchase is still allowed.
    expect((await put(c.id, { estado: 'recibida', observaciones: 'Pagada y recibida' })).statusCode).toBe(200);
    expect((await productNow(p.id)).stock_actual).toBe(10);
  });

  it('rewrites the movement or the payable when a pending purchase changes', async () => {
    const s1 = await supplier('Primero');
    const s2 = await supplier('Segundo');
    const p = await product('Lavandina');
    const q = await product('Esponja');
    const c = await compra({ proveedor_id: s1.id, items: [{ producto_id: p.id, cantidad: 10, precio_unitario: 650 }] });
    const movId = c.movimiento_id!;

    // Lines and method: the same movement, rewritten.
    let r = await put(c.id, {
      metodo_pago: 'mercado_pago',
      fecha: '2026-03-14',
      items: [
        { producto_id: q.id, cantidad: 3, precio_unitario: 300 },
        { producto_id: p.id, cantidad: 12, precio_unitario: 640 },
      ],
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ total: 8580, cantidad_items: 2, movimiento_id: movId });
    expect(r.json().items.map((i: Item) => i.producto_nombre)).toEqual(['Esponja', 'Lavandina']);
    expect(await movement(movId)).toMatchObject({ monto: '8580.00', metodo_pago: 'mercado_pago', fecha: '2026-03-14' });

    // To credit: the movement goes, a payable comes.
    r = await put(c.id, { condicion_pago: 'cuenta_corriente', fecha_vencimiento: '2026-04-14' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ movimiento_id: null, metodo_pago: null, fecha_vencimiento: '2026-04-14' });
    expect(await ctx.sql('SELECT 1 FROM finance_movements WHERE id = $1', [movId])).toHaveLength(0);
    const cuentaId = r.json().cuenta_id;
    expect(await account(cuentaId)).toMatchObject({
      monto: 8580,
      proveedor_nombre: 'Primero',
      fecha_emision: '2026-03-14',
    });

    // Another supplier: the payable follows.
    r = await put(c.id, { proveedor_id: s2.id });
    expect(r.json()).toMatchObject({ proveedor_nombre: 'Segundo', cuenta_id: cuentaId });
    expect(await account(cuentaId)).toMatchObject({
      proveedor_id: s2.id,
      proveedor_nombre: 'Segundo',
      descripcion: 'Compra a Segundo',
    });

    // The payable's due date moved in Cuentas Pendientes shows on the purchase; its amount cannot move there.
    const due = await app.inject({
      method: 'PUT',
      url: api(`/finanzas/cuentas/${cuentaId}`),
      headers: owner.auth,
      payload: { fecha_vencimiento: '2026-04-30' },
    });
    expect(due.statusCode).toBe(200);
    expect((await get(`/${c.id}`)).json().fecha_vencimiento).toBe('2026-04-30');
    const amount = await app.inject({
      method: 'PUT',
      url: api(`/finanzas/cuentas/${cuentaId}`),
      headers: owner.auth,
      payload: { monto: 1 },
    });
    expect(amount.statusCode).toBe(409);
    expect(amount.json().code).toBe('GENERATED_RECORD');

    // A total of 0: the payable goes.
    r = await put(c.id, { items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 0 }] });
    expect(r.json()).toMatchObject({ total: 0, cuenta_id: null });

    // Back to cash: a new movement.
    r = await put(c.id, {
      condicion_pago: 'contado',
      items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 99.99 }],
    });
    expect(r.json()).toMatchObject({ total: 99.99, metodo_pago: 'efectivo', fecha_vencimiento: null, cuenta_id: null });
    expect(await movement(r.json().movimiento_id)).toMatchObject({ monto: '99.99', descripcion: 'Compra a Segundo' });
  });

  it('changes only notes and delivery date once received; the whole form echoed back is not a change', async () => {
    const p = await product('Pan dulce');
    const c = await compra({ items: [{ producto_id: p.id, cantidad: 5, precio_unitario: 3500 }] });
    const received = (await put(c.id, { estado: 'recibida' })).json();
    const refused = await put(c.id, { items: [{ producto_id: p.id, cantidad: 6, precio_unitario: 3500 }] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Solo se pueden modificar los ítems y condiciones de una compra pendiente.');
    expect((await put(c.id, { fecha: '2026-01-01' })).statusCode).toBe(409);
    const echoed = await put(c.id, {
      proveedor_id: null,
      fecha: received.fecha,
      condicion_pago: 'contado',
      metodo_pago: 'efectivo',
      items: received.items.map((i: Item) => ({
        producto_id: i.producto_id,
        cantidad: i.cantidad,
        precio_unitario: i.precio_unitario,
      })),
      observaciones: 'Llegó',
      fecha_entrega: '2026-03-15',
    });
    expect(echoed.statusCode, echoed.body).toBe(200);
    expect(echoed.json()).toMatchObject({ estado: 'recibida', observaciones: 'Llegó', fecha_entrega: '2026-03-15' });
    // Reverting and changing the lines in one request works: the lines change while pendiente.
    const both = await put(c.id, {
      estado: 'pendiente',
      items: [{ producto_id: p.id, cantidad: 4, precio_unitario: 3500 }],
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json()).toMatchObject({ estado: 'pendiente', total: 14000 });
    expect((await productNow(p.id)).stock_actual).toBe(0);
    expect((await put(c.id, {})).statusCode).toBe(422);
  });

  it('deletes a pending purchase with its lines and movement; refuses a received one', async () => {
    const p = await product('Chicles');
    const c = await compra({ items: [{ producto_id: p.id, cantidad: 20, precio_unitario: 300 }] });
    const d = await del(c.id);
    expect(d.statusCode).toBe(204);
    expect(await ctx.sql('SELECT 1 FROM purchases WHERE id = $1', [c.id])).toHaveLength(0);
    expect(await ctx.sql('SELECT 1 FROM purchase_items WHERE compra_id = $1', [c.id])).toHaveLength(0);
    expect(await ctx.sql('SELECT 1 FROM finance_movements WHERE id = $1', [c.movimiento_id])).toHaveLength(0);
    expect((await get(`/${c.id}`)).statusCode).toBe(404);

    const r = await compra({ estado: 'recibida', items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 300 }] });
    const refused = await del(r.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail: 'Una compra recibida no se puede eliminar: cancelala primero.',
      code: 'INVALID_STATE',
    });
    expect((await put(r.id, { estado: 'cancelada' })).statusCode).toBe(200);
    expect((await del(r.id)).statusCode).toBe(204);

    // A product that was bought cannot be deleted.
    const prodDel = await app.inject({ method: 'DELETE', url: api(`/products/${p.id}`), headers: owner.auth });
    expect(prodDel.statusCode).toBe(409);
  });

  it('keeps the generated movement read-only in finance', async () => {
    const p = await product('Fernet');
    const c = await compra({ items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 9800 }] });
    const res = await app.inject({
      method: 'PUT',
      url: api(`/finanzas/movimientos/${c.movimiento_id}`),
      headers: owner.auth,
      payload: { monto: 1 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'Este movimiento lo generó una compra: cancelá la compra en lugar de modificarlo.',
      code: 'GENERATED_RECORD',
    });
  });
});

describe('purchases: list, export, isolation, permissions', () => {
  let b: string;
  let s1: { id: string };
  let ids: Record<string, C>;
  beforeAll(async () => {
    b = await createBusiness(app, owner, 'Listado');
    s1 = await supplier('Uno', b);
    const s2 = await supplier('Dos', b);
    const p = await product('Producto', {}, b);
    const mk = (fecha: string, extra: object) =>
      compra({ fecha, items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 100 }], ...extra }, b);
    ids = {
      a: await mk('2026-01-10', { proveedor_id: s1.id }),
      b: await mk('2026-02-10', { proveedor_id: s2.id, estado: 'recibida' }),
      c: await mk('2026-03-01', { proveedor_id: s1.id, estado: 'recibida' }),
      d: await mk('2026-03-01', { proveedor_nombre: '=CMD()' }),
    };
  });
  const nums = (res: { json(): unknown }) => (res.json() as C[]).map((c) => c.numero);

  it('lists newest first without lines, with filters, aliases and X-Total-Count', async () => {
    const all = await get('', owner, b);
    expect(all.headers['x-total-count']).toBe('4');
    expect(nums(all)).toEqual([ids.d.numero, ids.c.numero, ids.b.numero, ids.a.numero]);
    expect(all.json()[0].items).toBeUndefined();
    expect(all.json()[0].cantidad_items).toBe(1);
    expect(nums(await get(`?proveedor_id=${s1.id}`, owner, b))).toEqual([ids.c.numero, ids.a.numero]);
    expect(nums(await get('?estado=entregado', owner, b))).toEqual([ids.c.numero, ids.b.numero]);
    expect(nums(await get('?estado=pendiente', owner, b))).toEqual([ids.d.numero, ids.a.numero]);
    expect(nums(await get('?desde=2026-02-01&hasta=2026-02-28', owner, b))).toEqual([ids.b.numero]);
    expect(nums(await get('?fecha_desde=2026-03-01', owner, b))).toEqual([ids.d.numero, ids.c.numero]);
    const page = await get('?limit=1&offset=1', owner, b);
    expect(page.headers['x-total-count']).toBe('4');
    expect(nums(page)).toEqual([ids.c.numero]);
    expect((await get('?limit=1000', owner, b)).statusCode).toBe(200);
    for (const bad of ['?estado=x', '?fecha_desde=ayer', '?proveedor_id=1', '?offset=-1']) {
      expect((await get(bad, owner, b)).statusCode, bad).toBe(422);
    }
  });

  it('sorts by fecha, número, proveedor, total and estado on request; refuses an unknown order', async () => {
    const { a, b: bb, c, d } = ids;
    expect(nums(await get('?orden=numero', owner, b))).toEqual([a.numero, bb.numero, c.numero, d.numero]);
    expect(nums(await get('?orden=numero&direccion=desc', owner, b))).toEqual([
      d.numero,
      c.numero,
      bb.numero,
      a.numero,
    ]);
    expect(nums(await get('?orden=fecha', owner, b))).toEqual([a.numero, bb.numero, c.numero, d.numero]);
    // Same total: ties newest first.
    expect(nums(await get('?orden=total', owner, b))).toEqual([d.numero, c.numero, bb.numero, a.numero]);
    expect(nums(await get('?orden=estado', owner, b))).toEqual([d.numero, a.numero, c.numero, bb.numero]);
    // By supplier name (the free-text one too): "Dos" before "Uno", ties newest first.
    const named = (res: { json(): unknown }) => nums(res).filter((n) => n !== d.numero);
    expect(named(await get('?orden=proveedor', owner, b))).toEqual([bb.numero, c.numero, a.numero]);
    expect(named(await get('?orden=PROVEEDOR&direccion=desc', owner, b))).toEqual([c.numero, a.numero, bb.numero]);
    for (const bad of ['?orden=color', '?direccion=arriba']) {
      const res = await get(bad, owner, b);
      expect(res.statusCode, bad).toBe(422);
      expect(res.body, bad).toMatch(/Valor no válido/);
    }
  });

  it('exports the list and one order as .xlsx (text neutralised)', async () => {
    const list = await get('/exportar', owner, b);
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-disposition']).toBe('attachment; filename="compras-2026-03-15.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(list.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0].rowCount).toBe(5);
    expect(wb.worksheets[0].getRow(2).getCell(3).value).toBe("'=CMD()");

    const one = await get(`/${ids.d.id}/exportar`, owner, b);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-disposition']).toBe(`attachment; filename="orden-de-compra-${ids.d.numero}.xlsx"`);
    const order = new ExcelJS.Workbook();
    await order.xlsx.load(one.rawPayload as unknown as ArrayBuffer);
    const ws = order.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe(`Orden de compra #${ids.d.numero}`);
    expect(ws.getRow(2).values).toEqual([undefined, 'Proveedor', "'=CMD()"]);
    const last = ws.getRow(ws.rowCount);
    expect([last.getCell(5).value, last.getCell(6).value]).toEqual(['Total', 100]);
  });

  it("never shows another business's purchases: 404 on every route, never listed", async () => {
    const p = await product('Ajeno', {}, otherBiz, otherOwner);
    const foreign = await compra(
      { items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 1 }] },
      otherBiz,
      otherOwner,
    );
    for (const id of [foreign.id, 'nope', '00000000-0000-4000-8000-000000000000']) {
      const res = await get(`/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Compra no encontrada.', code: 'NOT_FOUND' });
      expect((await put(id, { estado: 'recibida' })).statusCode).toBe(404);
      expect((await del(id)).statusCode).toBe(404);
      expect((await get(`/${id}/exportar`)).statusCode).toBe(404);
    }
    expect(((await get('?limit=200')).json() as C[]).some((c) => c.id === foreign.id)).toBe(false);
    expect((await get(`?proveedor_id=${foreign.id}`)).statusCode).toBe(422);
    expect((await productNow(p.id, otherBiz, otherOwner)).stock_actual).toBe(0);
  });

  it('checks the stock permission flags per action', async () => {
    const p = await product('Permisos');
    const c = await compra({ items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 1 }] });
    const viewer = await registerUser(app, 'Vera');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_stock']);
    expect((await get('', viewer)).statusCode).toBe(200);
    expect((await get(`/${c.id}/exportar`, viewer)).statusCode).toBe(200);
    const res = await put(c.id, { estado: 'recibida' }, viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', modulo: 'stock', accion: 'editar' });
    expect((await del(c.id, viewer)).statusCode).toBe(403);
    const editor = await registerUser(app, 'Edu');
    await addMember(ctx, biz, owner, editor, ['puede_editar_stock']);
    expect((await put(c.id, { observaciones: 'ok' }, editor)).statusCode).toBe(200);
    expect((await del(c.id, editor)).statusCode).toBe(403);
  });
});
