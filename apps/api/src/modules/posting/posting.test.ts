import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { multipartBody } from '../imports/test-files.js';
import { MOVEMENT_SNAPSHOT } from './finance.js';

/*
 * Each business action, through HTTP, leaves its finance movements, stock movements and audit
 * rows in the one shape the posting module writes (decision 0038).
 */

const ctx = await createTestApp();
const { app } = ctx;

let owner: TestUser;
let biz: string;
let medio: (tipo: string) => string;
let juan: string;
let yerba: string;

type Method = 'GET' | 'POST' | 'PUT';
const call = async (method: Method, path: string, payload?: object, status = method === 'POST' ? 201 : 200) => {
  const url = path.startsWith('/api/') ? path : `/api/v1/businesses/${biz}${path}`;
  const res = await app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};
const sell = (body: object) => call('POST', '/api/v1/ventas/record-sale', { negocio_id: biz, ...body });

type Row = Record<string, unknown>;
interface Left {
  fm: Row[];
  sm: Row[];
  au: Row[];
}

const TABLES = { fm: 'finance_movements', sm: 'stock_movements', au: 'audit_log' } as const;

/** Every row of the business in the three ledgers, as JSON (dates and amounts as the API reads them). */
async function ledgers(): Promise<Left> {
  const read = async (t: string) =>
    (await ctx.sql<{ r: Row }>(`SELECT to_jsonb(t) AS r FROM ${t} t WHERE business_id = $1`, [biz])).map((x) => x.r);
  return { fm: await read(TABLES.fm), sm: await read(TABLES.sm), au: await read(TABLES.au) };
}

/** The rows an action left in each ledger. */
async function left(action: () => Promise<unknown>): Promise<Left> {
  const before = await ledgers();
  const seen = new Set([...before.fm, ...before.sm, ...before.au].map((r) => r.id));
  await action();
  const after = await ledgers();
  const fresh = (rows: Row[]) => rows.filter((r) => !seen.has(r.id));
  return { fm: fresh(after.fm), sm: fresh(after.sm), au: fresh(after.au) };
}

const filled = (r: Row) =>
  Object.keys(r)
    .filter((k) => r[k] !== null)
    .sort();

/** What every finance movement fills; `extra` the links and optional fields of the action. */
const MOVEMENT_ALWAYS = [
  'id',
  'business_id',
  'tipo',
  'monto',
  'fecha',
  'metodo_pago',
  'descripcion',
  'origen',
  'anulado',
  'creado_por',
  'creado_en',
  'actualizado_en',
];

/** A movement of the canonical shape, with exactly one audit row 'movimiento'/'crear' snapshotting it. */
function expectMovement(l: Left, m: Row, origen: string, extra: string[]) {
  expect(m.origen).toBe(origen);
  expect(filled(m)).toEqual([...MOVEMENT_ALWAYS, ...extra].sort());
  expect(m.creado_por).toBe(owner.id);
  const audits = l.au.filter((a) => a.entidad === 'movimiento' && a.entidad_id === m.id);
  expect(audits).toHaveLength(1);
  expect(audits[0]).toMatchObject({ accion: 'crear', user_id: owner.id, antes: null });
  expect(Object.keys(audits[0].despues as Row).sort()).toEqual([...MOVEMENT_SNAPSHOT].sort());
  expect(audits[0].despues).toEqual(Object.fromEntries(MOVEMENT_SNAPSHOT.map((k) => [k, m[k]])));
}

/** A stock movement of the canonical shape (`referencia_id` only when a record is behind it; always its depósito). */
function expectStock(s: Row, origen: string, withReference: boolean) {
  expect(s.origen).toBe(origen);
  expect(filled(s)).toEqual(
    [
      'id',
      'business_id',
      'producto_id',
      'origen',
      'cantidad',
      'stock_resultante',
      'motivo',
      'usuario_id',
      'fecha',
      // The depósito it entered or left (decision 0059).
      'deposito_id',
      ...(withReference ? ['referencia_id'] : []),
    ].sort(),
  );
  expect(s.usuario_id).toBe(owner.id);
}

/** The audit row of a stock change no other audit row of the action covers. */
function expectStockAudit(l: Left, s: Row, accion: string) {
  const audits = l.au.filter((a) => a.entidad === 'stock' && a.entidad_id === s.producto_id);
  expect(audits).toHaveLength(1);
  expect(audits[0]).toMatchObject({
    accion,
    user_id: owner.id,
    antes: { stock_actual: (s.stock_resultante as number) - (s.cantidad as number) },
    despues: { stock_actual: s.stock_resultante, cantidad: s.cantidad, origen: s.origen, motivo: s.motivo },
  });
}

const entities = (l: Left) => l.au.map((a) => `${a.entidad as string}/${a.accion as string}`).sort();

beforeAll(async () => {
  owner = await registerUser(app, 'Posteo');
  biz = await createBusiness(app, owner, 'Almacén del Posteo');
  let medios = (await call('GET', '/medios-pago')) as { id: string; tipo: string }[];
  if (!medios.some((m) => m.tipo === 'cuenta_corriente')) {
    await call('POST', '/medios-pago', { nombre: 'Libreta', tipo: 'cuenta_corriente' });
    medios = await call('GET', '/medios-pago');
  }
  medio = (tipo) => medios.find((m) => m.tipo === tipo)!.id;
  juan = (await call('POST', '/clientes', { nombre: 'Juan', apellido: 'Cliente' })).id;
  yerba = (await call('POST', '/products', { nombre: 'Yerba', precio_venta: 1000, stock_actual: 100 })).id;
});

describe('one shape of record per business action', () => {
  it('a cash sale: its income movement with its audit row, the stock out, and the sale audited once', async () => {
    const l = await left(() => sell({ metodo_pago: 'efectivo', items: [{ id: yerba, cantidad: 2 }] }));
    expect(l.fm).toHaveLength(1);
    expectMovement(l, l.fm[0], 'venta', ['categoria_id', 'medio_pago_id', 'venta_id']);
    expect(l.fm[0]).toMatchObject({ tipo: 'ingreso', monto: 2000 });
    expect(l.sm).toHaveLength(1);
    expectStock(l.sm[0], 'venta', true);
    expect(l.sm[0]).toMatchObject({ cantidad: -2, stock_resultante: 98, referencia_id: l.fm[0].venta_id });
    expect(entities(l)).toEqual(['movimiento/crear', 'venta/crear']);
  });

  it('a split sale with a customer: one movement per medio, each of the same shape', async () => {
    const l = await left(() =>
      sell({
        cliente_id: juan,
        items: [{ id: yerba, cantidad: 3 }],
        pagos: [
          { medio_pago_id: medio('efectivo'), monto: 1000 },
          { medio_pago_id: medio('debito'), monto: 2000 },
        ],
      }),
    );
    expect(l.fm).toHaveLength(2);
    for (const m of l.fm) expectMovement(l, m, 'venta', ['categoria_id', 'medio_pago_id', 'venta_id', 'cliente_id']);
    expect(l.fm.map((m) => m.monto).sort()).toEqual([1000, 2000]);
    expect(entities(l)).toEqual(['movimiento/crear', 'movimiento/crear', 'venta/crear']);
  });

  it('a sale on the customer account: no money in, the stock out, the sale audited', async () => {
    const l = await left(() =>
      sell({
        cliente_id: juan,
        items: [{ id: yerba, cantidad: 1 }],
        pagos: [{ medio_pago_id: medio('cuenta_corriente'), monto: 1000 }],
      }),
    );
    expect(l.fm).toEqual([]);
    expect(l.sm).toHaveLength(1);
    expectStock(l.sm[0], 'venta', true);
    expect(entities(l)).toEqual(['venta/crear']);
  });

  it('a void: the stock back with its reference, the movements marked void, each change audited', async () => {
    const sale = await sell({ metodo_pago: 'efectivo', items: [{ id: yerba, cantidad: 4 }] });
    const l = await left(() => call('POST', `/ventas/${sale.id}/anular`, { motivo: 'Error de carga' }, 200));
    expect(l.fm).toEqual([]);
    expect(l.sm).toHaveLength(1);
    expectStock(l.sm[0], 'anulacion', true);
    expect(l.sm[0]).toMatchObject({ cantidad: 4, referencia_id: sale.id });
    expect(entities(l)).toEqual(['movimiento/anular', 'venta/anular']);
  });

  it('a devolución by a medio: the egreso of the canonical shape, the stock back, the return audited', async () => {
    const sale = await sell({ cliente_id: juan, metodo_pago: 'efectivo', items: [{ id: yerba, cantidad: 2 }] });
    const item = (await call('GET', `/ventas/sales/${sale.id}`)).items[0].id as string;
    const l = await left(() =>
      call('POST', `/ventas/${sale.id}/devoluciones`, {
        items: [{ item_id: item, cantidad: 1 }],
        medio_pago_id: medio('efectivo'),
      }),
    );
    expect(l.fm).toHaveLength(1);
    expectMovement(l, l.fm[0], 'devolucion', ['medio_pago_id', 'venta_id', 'devolucion_id', 'cliente_id']);
    expect(l.fm[0]).toMatchObject({ tipo: 'egreso', monto: 1000, venta_id: sale.id });
    expect(l.sm).toHaveLength(1);
    expectStock(l.sm[0], 'devolucion', true);
    expect(l.sm[0].referencia_id).toBe(l.fm[0].devolucion_id);
    expect(entities(l)).toEqual(['devolucion/crear', 'movimiento/crear']);
  });

  it('a cobro: the income of the canonical shape, linked to its receipt, and the receipt audited', async () => {
    const l = await left(() =>
      call('POST', `/clientes/${juan}/cobros`, { monto: 500, medio_pago_id: medio('efectivo') }),
    );
    expect(l.fm).toHaveLength(1);
    expectMovement(l, l.fm[0], 'cobro', ['categoria_id', 'medio_pago_id', 'cobro_id', 'cliente_id']);
    expect(l.fm[0]).toMatchObject({ tipo: 'ingreso', monto: 500, cliente_id: juan });
    expect(l.sm).toEqual([]);
    expect(entities(l)).toEqual(['cobro/crear', 'movimiento/crear']);
    expect(l.au.find((a) => a.entidad === 'cobro')!.entidad_id).toBe(l.fm[0].cobro_id);
  });

  it('a manual movement: the canonical shape, with what the user typed', async () => {
    const categoria = ((await call('GET', '/finanzas/categorias')) as { id: string; tipo: string }[]).find(
      (c) => c.tipo === 'egreso',
    )!.id;
    const l = await left(() =>
      call('POST', '/finanzas/movimientos', {
        tipo: 'egreso',
        categoria_id: categoria,
        monto: 1234.56,
        metodo_pago: 'efectivo',
        descripcion: 'Flete',
        observaciones: 'Pagado al chofer',
      }),
    );
    expect(l.fm).toHaveLength(1);
    expectMovement(l, l.fm[0], 'manual', ['categoria_id', 'observaciones']);
    expect(l.fm[0]).toMatchObject({ monto: 1234.56, observaciones: 'Pagado al chofer' });
    expect(entities(l)).toEqual(['movimiento/crear']);
  });

  it('an account payment: the movement of the canonical shape, linked to the account', async () => {
    const cuenta = await call('POST', '/finanzas/cuentas', {
      tipo: 'por_cobrar',
      cliente_id: juan,
      monto: 1500,
      fecha_vencimiento: '2030-01-31',
      descripcion: 'Fiado',
    });
    const l = await left(() =>
      call('PUT', `/finanzas/cuentas/${cuenta.id}/marcar-pagado`, { monto: 600, metodo_pago: 'transferencia' }),
    );
    expect(l.fm).toHaveLength(1);
    expectMovement(l, l.fm[0], 'cuenta', ['cuenta_id', 'cliente_id']);
    expect(l.fm[0]).toMatchObject({ tipo: 'ingreso', monto: 600, cuenta_id: cuenta.id });
  });

  it('a purchase paid cash and received: the egreso of the canonical shape, the stock in audited', async () => {
    const bought = await left(() =>
      call('POST', '/compras', { items: [{ producto_id: yerba, cantidad: 10, precio_unitario: 400 }] }),
    );
    expect(bought.fm).toHaveLength(1);
    expectMovement(bought, bought.fm[0], 'compra', ['categoria_id', 'compra_id']);
    expect(bought.fm[0]).toMatchObject({ tipo: 'egreso', monto: 4000 });
    expect(bought.sm).toEqual([]);

    const compra = bought.fm[0].compra_id as string;
    const received = await left(() =>
      call('POST', `/compras/${compra}/recepciones`, { lineas: [{ producto_id: yerba, cantidad: 10 }] }),
    );
    expect(received.fm).toEqual([]);
    expect(received.sm).toHaveLength(1);
    expectStock(received.sm[0], 'compra', true);
    expect(received.sm[0]).toMatchObject({ cantidad: 10, referencia_id: compra });
    expectStockAudit(received, received.sm[0], 'actualizar');
  });

  it('a stock adjustment: the movement without a reference, and its stock audit row', async () => {
    const l = await left(() =>
      call('POST', `/products/${yerba}/ajuste-stock`, { cantidad: -1.5, motivo: 'Rotura' }, 200),
    );
    expect(l.fm).toEqual([]);
    expect(l.sm).toHaveLength(1);
    expectStock(l.sm[0], 'ajuste', false);
    expect(l.sm[0]).toMatchObject({ cantidad: -1.5, motivo: 'Rotura' });
    expectStockAudit(l, l.sm[0], 'ajustar');
    expect(entities(l)).toEqual(['stock/ajustar']);
  });

  it('an import with stock: one movement per product with stock, each product audited as imported', async () => {
    const csv = 'Producto;Precio de venta;Stock\nFideos;900;12\nArroz;800;\n';
    const { payload, headers } = multipartBody([
      { name: 'file', filename: 'lista.csv', content: Buffer.from(csv, 'utf8') },
    ]);
    const l = await left(async () => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/businesses/${biz}/products/importar-excel`,
        headers: { ...owner.auth, ...headers },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(l.fm).toEqual([]);
    expect(l.sm).toHaveLength(1);
    expectStock(l.sm[0], 'importacion', false);
    expect(l.sm[0]).toMatchObject({ cantidad: 12, stock_resultante: 12, motivo: 'Importación' });
    // The two products, and the import itself.
    expect(entities(l)).toEqual(['importacion/importar', 'producto/importar', 'producto/importar']);
    for (const a of l.au) expect(a).toMatchObject({ user_id: owner.id, antes: null });
  });
});
