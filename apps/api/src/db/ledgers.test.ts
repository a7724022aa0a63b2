import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestApp } from '../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../test/fixtures.js';
import { FakeArca } from '../modules/facturacion/fake/fake-arca.js';
import { registrarEnArca } from '../test/arca.js';
import { LEDGER_TABLES } from './roles.js';
import { todosLosNegocios } from './tenant.js';

/**
 * The ledgers are append-only for the app role (decision 0032): it reads them and adds rows, may
 * UPDATE only their state columns, and DELETE none (finance_movements aside: the contract lets the
 * user edit and delete manual movements). Checked here through the app's own pool, and the flows
 * that change those state columns through the routes.
 */
const fake = new FakeArca();
await fake.listen(0);
const ctx = await createTestApp({
  arca: { urls: fake.urls, timeoutMs: 700, waitMs: 3000, workerMs: 0, concurrency: 2 },
});
afterAll(() => fake.close());
const { app } = ctx;
const { appRole } = inject('pg');

/** Runs `text` through the app's own pool: what a request could do. */
// As the app role, seeing every business (row-level security is decision 0031's test; here the grants).
const asApp = (text: string, values: unknown[] = []) =>
  todosLosNegocios('pruebas de los privilegios de los libros', () => ctx.database.pool.query(text, values));
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );

/**
 * What the app role may do on each ledger: its table privileges, the only columns it may UPDATE,
 * and a column whose change would rewrite history.
 */
const LEDGERS: Record<string, { table: string; update: string[]; history: string }> = {
  sales: {
    table: 'INSERT,SELECT',
    update: ['anulada_en', 'anulada_por', 'anulada_turno_id', 'conciliar', 'estado', 'motivo_anulacion'],
    history: 'total',
  },
  sale_items: { table: 'INSERT,SELECT', update: ['anulada'], history: 'cantidad' },
  sale_payments: { table: 'INSERT,SELECT', update: [], history: 'monto' },
  cobros: { table: 'INSERT,SELECT', update: [], history: 'monto' },
  devoluciones: { table: 'INSERT,SELECT', update: [], history: 'monto' },
  devolucion_items: { table: 'INSERT,SELECT', update: [], history: 'cantidad' },
  turnos: {
    table: 'INSERT,SELECT',
    update: ['cerrado_en', 'cerrado_por', 'estado', 'observaciones'],
    history: 'fondo_inicial',
  },
  turno_movimientos: { table: 'INSERT,SELECT', update: [], history: 'monto' },
  turno_arqueos: { table: 'INSERT,SELECT', update: [], history: 'contado' },
  stock_movements: { table: 'INSERT,SELECT', update: [], history: 'cantidad' },
  comprobantes: {
    table: 'INSERT,SELECT',
    update: [
      'actualizado_en',
      'alicuotas',
      'cae',
      'cae_vencimiento',
      'caea_generado_en',
      'caea_informe',
      'concepto',
      'emision',
      'emisor',
      'emisor_cuit',
      'entorno',
      'enviado_en',
      'error_codigo',
      'error_mensaje',
      'estado',
      'exento',
      'fecha',
      'intentos',
      'iva',
      'lineas',
      'neto',
      'no_gravado',
      'numero',
      'proximo_intento',
      'punto_venta',
      'receptor_condicion_iva',
      'receptor_doc_nro',
      'receptor_doc_tipo',
      'receptor_domicilio',
      'receptor_nombre',
      'servicio_desde',
      'servicio_hasta',
      'tipo',
      'total',
      'tributos',
      'vencimiento_pago',
    ],
    history: 'venta_id',
  },
  precios_historial: { table: 'INSERT,SELECT', update: [], history: 'precio_nuevo' },
  cotizaciones: { table: 'INSERT,SELECT', update: [], history: 'valor' },
  listas_proveedor_aplicadas: { table: 'INSERT,SELECT', update: ['deshecha_en'], history: 'cambios' },
  purchase_receptions: { table: 'INSERT,SELECT', update: ['revertida_en'], history: 'compra_id' },
  purchase_reception_items: { table: 'INSERT,SELECT', update: [], history: 'cantidad' },
  mercadopago_reembolsos: { table: 'INSERT,SELECT', update: [], history: 'monto' },
  remitos: {
    table: 'INSERT,SELECT',
    update: ['anulado_en', 'anulado_por', 'estado', 'facturado_en', 'motivo_anulacion', 'venta_id'],
    history: 'cliente_id',
  },
  remito_items: { table: 'INSERT,SELECT', update: [], history: 'cantidad' },
  remito_eventos: { table: 'INSERT,SELECT', update: [], history: 'venta_id' },
  cheques: { table: 'INSERT,SELECT', update: ['actualizado_en', 'estado', 'proveedor_id'], history: 'monto' },
  cheque_eventos: { table: 'INSERT,SELECT', update: [], history: 'deuda' },
  cheque_pagos: { table: 'INSERT,SELECT', update: [], history: 'monto' },
  finance_movements: {
    table: 'DELETE,INSERT,SELECT',
    update: [
      'actualizado_en',
      'anulado',
      'categoria_id',
      'cliente_id',
      'descripcion',
      'fecha',
      'metodo_pago',
      'monto',
      'observaciones',
      'tipo',
    ],
    history: 'origen',
  },
};
const TABLES = Object.keys(LEDGERS);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const owner = await registerUser(app, 'Libros');
const call = (u: TestUser, method: Method, url: string, payload?: object) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

const RI = '30-71234567-1';

/** How many rows of the business each ledger holds (read as the owner). */
async function counts(biz: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const [r] = await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} WHERE business_id = $1`, [biz]);
    out[t] = r.n;
  }
  return out;
}

/**
 * A business that went through every flow that writes a ledger, through the routes: an invoiced
 * sale voided (nota de crédito), a sale on account with a return, a cobro, a rejected invoice sent
 * again, a turno with a cash movement closed, a price change, a cotización, a purchase received,
 * reverted and received again, another cancelled, and manual movements edited and deleted.
 */
async function shop(nombre: string) {
  const id = await createBusiness(app, owner, nombre);
  const base = `/api/v1/businesses/${id}`;
  const r = async (method: Method, url: string, payload?: object, status = 200) => {
    const res = await call(owner, method, `${base}${url}`, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    return res.statusCode === 204 ? null : res.json();
  };
  const settle = () => app.facturacion.idle();

  const csr = await r('POST', '/facturacion/csr', { cuit: RI, razon_social: nombre });
  registrarEnArca(fake, { cuit: RI, punto_venta: 3 });
  await r('PUT', '/facturacion/config', {
    cuit: RI,
    razon_social: nombre,
    condicion_iva: 'responsable_inscripto',
    punto_venta: 3,
    domicilio_fiscal: 'Av. Siempreviva 742',
    certificado_pem: fake.certificateFor(csr.csr_pem),
    facturar: 'elegir',
  });
  fake.cuits.set(RI, { condicion: 'responsable_inscripto', puntos_venta: [{ nro: 3 }] });
  const yerba = await r('POST', '/products', { nombre: 'Yerba', precio_venta: 1210, stock_actual: 100 }, 201);
  await r('PUT', `/products/${yerba.id}`, { precio_venta: 1331 });
  const juan = await r('POST', '/clientes', { nombre: 'Juan', apellido: 'Fiado', limite_credito: 100000 }, 201);
  const medios = (await r('GET', '/medios-pago')) as { id: string; tipo: string }[];
  const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
  const caja = (await r('GET', '/cajas'))[0];
  const turno = await r('POST', `/cajas/${caja.id}/turnos`, { fondo_inicial: 1000 }, 201);
  const sell = async (body: object) => {
    const res = await call(owner, 'POST', '/api/v1/ventas/record-sale', {
      negocio_id: id,
      turno_id: turno.id,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; comprobante?: { id: string } | null };
  };

  // A remito delivered (its stock out), still to invoice.
  const cal = await r('POST', '/products', { nombre: 'Cal', precio_venta: 100, stock_actual: 5 }, 201);
  await r('POST', '/remitos', { cliente_id: juan.id, items: [{ id: cal.id, cantidad: 1 }] }, 201);
  // Another one invoiced (its event, migration 0071).
  const entregado = await r('POST', '/remitos', { cliente_id: juan.id, items: [{ id: cal.id, cantidad: 1 }] }, 201);
  await r(
    'POST',
    '/remitos/facturar',
    { remito_ids: [entregado.id], metodo_pago: 'transferencia', turno_id: turno.id, facturar: false },
    201,
  );

  // An invoiced sale, voided: its nota de crédito.
  const voided = await sell({ facturar: true, items: [{ id: yerba.id, cantidad: 1 }], metodo_pago: 'efectivo' });
  await settle();
  expect((await r('POST', `/ventas/${voided.id}/anular`, { motivo: 'Error de carga' })).estado).toBe('anulada');
  await settle();
  // The sweep clears the marks the after-steps settled.
  await app.facturacion.sweep();
  // On account, then part of it returned.
  const fiado = await sell({
    cliente_id: juan.id,
    items: [{ id: yerba.id, cantidad: 3 }],
    pagos: [{ medio_pago_id: medio('cuenta_corriente'), monto: 3993 }],
  });
  const detalle = await r('GET', `/ventas/sales/${fiado.id}`);
  await r(
    'POST',
    `/ventas/${fiado.id}/devoluciones`,
    { items: [{ item_id: detalle.items[0].id, cantidad: 1 }], medio_pago_id: medio('cuenta_corriente') },
    201,
  );
  await r('POST', `/clientes/${juan.id}/cobros`, { monto: 1000, medio_pago_id: medio('efectivo') }, 201);
  // A rejected invoice is sent again with its values computed anew.
  const rechazada = await sell({ items: [{ id: yerba.id, cantidad: 1 }], metodo_pago: 'efectivo' });
  fake.setFaults({ reject_code: '10242' });
  const emitida = await r('POST', '/facturacion/comprobantes', { venta_id: rechazada.id }, 201);
  fake.setFaults({ reject_code: null });
  expect(emitida.estado).toBe('rechazado');
  expect(await r('POST', `/facturacion/comprobantes/${emitida.id}/reintentar`)).toMatchObject({
    estado: 'autorizado',
    venta_id: rechazada.id,
  });

  // The turno: a cash withdrawal, then closed counting what was expected.
  await r('POST', `/turnos/${turno.id}/movimientos`, { tipo: 'retiro', monto: 100, motivo: 'Proveedor' }, 201);
  const abierto = await r('GET', `/turnos/${turno.id}`);
  const cerrado = await r('POST', `/turnos/${turno.id}/cerrar`, {
    contado: abierto.esperado.map((e: { medio_pago_id: string; monto: number }) => ({
      medio_pago_id: e.medio_pago_id,
      monto: e.monto,
    })),
    observaciones: 'Sin diferencias',
  });
  expect(cerrado).toMatchObject({ estado: 'cerrado', diferencia: 0 });

  await r('POST', '/cotizaciones', { fecha: '2025-03-10', valor: '1050.25' }, 201);

  // A purchase received, reverted (its reception stays, marked) and received again; another cancelled.
  const compra = await r(
    'POST',
    '/compras',
    { proveedor_nombre: 'Distribuidora', items: [{ producto_id: yerba.id, cantidad: 10, precio_unitario: 500 }] },
    201,
  );
  await r('PUT', `/compras/${compra.id}`, { estado: 'recibida' });
  expect((await r('PUT', `/compras/${compra.id}`, { estado: 'pendiente' })).estado).toBe('pendiente');
  await r('PUT', `/compras/${compra.id}`, { estado: 'recibida' });
  const cancelada = await r(
    'POST',
    '/compras',
    { proveedor_nombre: 'Otra', items: [{ producto_id: yerba.id, cantidad: 1, precio_unitario: 400 }] },
    201,
  );
  await r('PUT', `/compras/${cancelada.id}`, { estado: 'cancelada' });

  // A cheque received, endorsed to a supplier it pays, and one of ours given (decision 0057).
  const aceros = await r('POST', '/proveedores', { nombre: 'Aceros' }, 201);
  await r(
    'POST',
    '/finanzas/cuentas',
    { tipo: 'por_pagar', proveedor_id: aceros.id, monto: 900, fecha_vencimiento: '2099-01-01', descripcion: 'Acero' },
    201,
  );
  const cheque = await r(
    'POST',
    '/cheques',
    {
      tipo: 'tercero',
      banco: 'Nación',
      numero: '1',
      fecha_pago: '2099-01-01',
      monto: 500,
      librador_nombre: 'Juan',
      librador_cuit: '30-71234567-1',
      cliente_id: juan.id,
    },
    201,
  );
  expect((await r('POST', `/cheques/${cheque.id}/endosar`, { proveedor_id: aceros.id })).estado).toBe('endosado');

  // Manual movements: one edited, one deleted (API-CONTRACT §10.2).
  const luz = await r(
    'POST',
    '/finanzas/movimientos',
    { tipo: 'egreso', monto: 500, metodo_pago: 'efectivo', descripcion: 'Luz' },
    201,
  );
  expect(await r('PUT', `/finanzas/movimientos/${luz.id}`, { monto: 650 })).toMatchObject({ id: luz.id, monto: 650 });
  const error = await r('POST', '/finanzas/movimientos', { monto: 10, metodo_pago: 'efectivo' }, 201);
  await r('DELETE', `/finanzas/movimientos/${error.id}`, undefined, 204);
  await r('DELETE', `/finanzas/movimientos/${error.id}`, undefined, 404);
  const listed = (await r('GET', '/finanzas/movimientos?origen=manual')) as { id: string; monto: number }[];
  expect(listed.map((m) => [m.id, m.monto])).toEqual([[luz.id, 650]]);

  // Money given back through Mercado Pago (the routes, against the fake MP: mercadopago-venta.test).
  const {
    rows: [orden],
  } = await asApp(
    `INSERT INTO mercadopago_ordenes (business_id, caja_id, tipo, monto, estado, referencia, clave, mp_orden_id, mp_estado)
     VALUES ($1, $2, 'qr', 100, 'aprobada', 'MOS-libro', 'clave-libro', $3, 'processed') RETURNING id`,
    [id, caja.id, `ORD01LIBRO${id}`],
  );
  await asApp(
    `INSERT INTO mercadopago_reembolsos (business_id, orden_id, origen, monto, clave)
     VALUES ($1, $2, 'anulacion', 100, 'reembolso-libro')`,
    [id, (orden as { id: string }).id],
  );

  // A supplier's list applied (the app adds it; undone through the route in lista-proveedor.test).
  await asApp(
    `INSERT INTO listas_proveedor_aplicadas (business_id, archivo, clave, cambios, productos)
     VALUES ($1, 'lista.csv', 'codigo', '[]', 0)`,
    [id],
  );
  return { id, base, r, yerba, voided, compra, cancelada };
}

const s = await shop('Libros Contables');

describe('the ledgers for the app role', () => {
  it('grants exactly read and insert, UPDATE of the state columns only, and DELETE on none but finance_movements', async () => {
    // The same ledgers as roles.ts names (roles.test.ts checks every other table).
    expect(Object.keys(LEDGER_TABLES).sort()).toEqual([...TABLES].sort());
    for (const t of TABLES) {
      const [g] = await ctx.sql<{ table: string; update: string[] }>(
        `SELECT coalesce((SELECT string_agg(g.privilege_type, ',' ORDER BY g.privilege_type)
                            FROM information_schema.role_table_grants g
                           WHERE g.grantee = $1 AND g.table_schema = 'public' AND g.table_name = $2), '') AS table,
                coalesce((SELECT array_agg(a.attname::text ORDER BY a.attname)
                            FROM pg_attribute a
                           WHERE a.attrelid = $2::regclass AND a.attnum > 0 AND NOT a.attisdropped
                             AND has_column_privilege($1, $2::regclass, a.attnum, 'UPDATE')), '{}') AS update`,
        [appRole, t],
      );
      expect({ t, ...g }).toEqual({ t, table: LEDGERS[t].table, update: LEDGERS[t].update });
    }
  });

  it('refuses DELETE, TRUNCATE and UPDATE of a history column (42501) on every ledger, and the rows stay', async () => {
    const before = await counts(s.id);
    // The shop's flows wrote every ledger.
    for (const t of TABLES) expect(`${t}: ${before[t] > 0}`).toBe(`${t}: true`);
    const snapshot = async () =>
      Promise.all(TABLES.map((t) => ctx.sql(`SELECT * FROM ${t} WHERE business_id = $1 ORDER BY 1, 2, 3`, [s.id])));
    const rowsBefore = await snapshot();
    for (const t of TABLES) {
      const { history } = LEDGERS[t];
      if (t !== 'finance_movements') {
        expect(`${t}: ${await codeOf(asApp(`DELETE FROM ${t} WHERE business_id = $1`, [s.id]))}`).toBe(`${t}: 42501`);
      }
      expect(`${t}: ${await codeOf(asApp(`TRUNCATE ${t}`))}`).toBe(`${t}: 42501`);
      expect(
        `${t}.${history}: ${await codeOf(asApp(`UPDATE ${t} SET ${history} = ${history} WHERE business_id = $1`, [s.id]))}`,
      ).toBe(`${t}.${history}: 42501`);
    }
    // What made a finance movement and when it was made never change either.
    for (const col of ['venta_id', 'compra_id', 'cobro_id', 'devolucion_id', 'creado_en', 'business_id']) {
      expect(await codeOf(asApp(`UPDATE finance_movements SET ${col} = ${col} WHERE business_id = $1`, [s.id]))).toBe(
        '42501',
      );
    }
    expect(await snapshot()).toEqual(rowsBefore);
  });

  it('allows the state updates: each permitted column, and nothing else in the same statement', async () => {
    for (const t of TABLES) {
      for (const col of LEDGERS[t].update) {
        const code = await codeOf(asApp(`UPDATE ${t} SET ${col} = ${col} WHERE business_id = $1`, [s.id]));
        expect(`${t}.${col}: ${code}`).toBe(`${t}.${col}: ok`);
      }
    }
    expect(
      await codeOf(asApp(`UPDATE sales SET conciliar = conciliar, total = total WHERE business_id = $1`, [s.id])),
    ).toBe('42501');
    // A row lock needs UPDATE on some column: the flows that lock these rows keep working.
    expect(await codeOf(asApp(`SELECT 1 FROM sales WHERE business_id = $1 FOR UPDATE`, [s.id]))).toBe('ok');
    expect(await codeOf(asApp(`SELECT 1 FROM turnos WHERE business_id = $1 FOR SHARE`, [s.id]))).toBe('ok');
  });

  it('the flows record corrections as new rows: the void and the reversal leave the original rows as they were', async () => {
    const [sale] = await ctx.sql<{ estado: string; total: string; conciliar: boolean }>(
      'SELECT estado, total::text, conciliar FROM sales WHERE business_id = $1 AND id = $2',
      [s.id, s.voided.id],
    );
    expect(sale).toEqual({ estado: 'anulada', total: '1331.00', conciliar: false });
    // The stock the sale took is still recorded, and its return is a new movement.
    expect(
      await ctx.sql(
        'SELECT origen, cantidad::text FROM stock_movements WHERE business_id = $1 AND referencia_id = $2 ORDER BY fecha, origen DESC',
        [s.id, s.voided.id],
      ),
    ).toEqual([
      { origen: 'venta', cantidad: '-1.000' },
      { origen: 'anulacion', cantidad: '1.000' },
    ]);
    // The invoice stays, with its nota de crédito beside it.
    expect(
      await ctx.sql(
        'SELECT tipo, estado FROM comprobantes WHERE business_id = $1 AND venta_id = $2 ORDER BY creado_en',
        [s.id, s.voided.id],
      ),
    ).toEqual([
      { tipo: 'factura_b', estado: 'autorizado' },
      { tipo: 'nota_credito_b', estado: 'autorizado' },
    ]);
    // The reverted reception stays, marked, beside the new one.
    expect(
      await ctx.sql(
        'SELECT numero, revertida_en IS NOT NULL AS revertida FROM purchase_receptions WHERE business_id = $1 AND compra_id = $2 ORDER BY numero',
        [s.id, s.compra.id],
      ),
    ).toEqual([
      { numero: 1, revertida: true },
      { numero: 2, revertida: false },
    ]);
    expect(
      await ctx.sql('SELECT anulado FROM finance_movements WHERE business_id = $1 AND compra_id = $2', [
        s.id,
        s.cancelada.id,
      ]),
    ).toEqual([{ anulado: true }]);
  });

  it('deleting a product or a pending purchase still takes its history along (the cascade acts as the owner)', async () => {
    const compra = await s.r(
      'POST',
      '/compras',
      { proveedor_nombre: 'Ferretería', items: [{ producto_id: s.yerba.id, cantidad: 2, precio_unitario: 5 }] },
      201,
    );
    await s.r('PUT', `/compras/${compra.id}`, { estado: 'recibida' });
    await s.r('PUT', `/compras/${compra.id}`, { estado: 'pendiente' });
    const receptions = () =>
      ctx.sql('SELECT 1 FROM purchase_receptions WHERE business_id = $1 AND compra_id = $2', [s.id, compra.id]);
    expect(await receptions()).toHaveLength(1);
    await s.r('DELETE', `/compras/${compra.id}`, undefined, 204);
    expect(await receptions()).toHaveLength(0);

    // A product never sold nor bought: its own history goes with it (stock and prices).
    const clavo = await s.r('POST', '/products', { nombre: 'Clavo', precio_venta: 10, stock_actual: 5 }, 201);
    await s.r('PUT', `/products/${clavo.id}`, { precio_venta: 12, precio_compra: 6 });
    await s.r('PUT', `/products/${clavo.id}`, { precio_venta: 13 });
    const history = async () =>
      (
        await ctx.sql<{ n: number }>(
          `SELECT (SELECT count(*) FROM stock_movements WHERE business_id = $1 AND producto_id = $2)
                + (SELECT count(*) FROM precios_historial WHERE business_id = $1 AND producto_id = $2) AS n`,
          [s.id, clavo.id],
        )
      )[0].n;
    expect(Number(await history())).toBeGreaterThanOrEqual(3);
    await s.r('DELETE', `/products/${clavo.id}`, undefined, 204);
    expect(Number(await history())).toBe(0);
  });

  it('deleting the business removes every ledger row it had', async () => {
    const before = await counts(s.id);
    for (const t of TABLES) expect(`${t}: ${before[t] > 0}`).toBe(`${t}: true`);
    const other = await createBusiness(app, owner, 'Otro Negocio');
    await call(owner, 'POST', `/api/v1/businesses/${other}/products`, {
      nombre: 'Queda',
      precio_venta: 1,
      stock_actual: 1,
    });
    const otherBefore = await counts(other);
    expect(otherBefore.stock_movements).toBe(1);

    const del = await call(owner, 'DELETE', `/api/v1/businesses/${s.id}`);
    expect(del.statusCode, del.body).toBe(204);
    expect(Object.values(await counts(s.id))).toEqual(TABLES.map(() => 0));
    expect(await counts(other)).toEqual(otherBefore);
  });
});
