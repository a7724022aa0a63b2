import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { todayIn, addDays } from '../../lib/dates.js';

/** Cheques (issue 37, decision 0057): the cartera, own cheques, and what each change does to the money. */
const ctx = await createTestApp();
const { app } = ctx;
type Method = 'GET' | 'POST' | 'PUT';
const owner = await registerUser(app, 'Ferretera');
const biz = await createBusiness(app, owner, 'Ferretería Cheques');
const base = `/api/v1/businesses/${biz}`;
const req = (u: TestUser, method: Method, url: string, payload?: object) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });
const ok = async (u: TestUser, method: Method, url: string, payload?: object, status = 200) => {
  const res = await req(u, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json();
};

const today = todayIn('America/Argentina/Buenos_Aires');
const clavo = await ok(
  owner,
  'POST',
  `${base}/products`,
  { nombre: 'Clavos', precio_venta: 10000, stock_actual: 100 },
  201,
);
const medios = (await ok(owner, 'GET', `${base}/medios-pago`)) as { id: string; tipo: string }[];
const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
const caja = (await ok(owner, 'GET', `${base}/cajas`))[0];
const turno = await ok(owner, 'POST', `${base}/cajas/${caja.id}/turnos`, { fondo_inicial: 500 }, 201);
const constructora = await ok(owner, 'POST', `${base}/clientes`, { nombre: 'Constructora', apellido: 'Sur' }, 201);
const proveedor = await ok(owner, 'POST', `${base}/proveedores`, { nombre: 'Aceros del Plata' }, 201);

const datos = (numero: string, extra: object = {}) => ({
  banco: 'Banco Nación',
  numero,
  fecha_emision: today,
  fecha_pago: addDays(today, 30),
  librador_nombre: 'Constructora Sur SA',
  librador_cuit: '30-71234567-1',
  ...extra,
});
const sell = (cantidad: number, pagos: object[], cliente: string | null = constructora.id) =>
  req(owner, 'POST', '/api/v1/ventas/record-sale', {
    negocio_id: biz,
    cliente_id: cliente,
    turno_id: turno.id,
    items: [{ id: clavo.id, cantidad }],
    pagos,
  });
const saldo = async () => (await ok(owner, 'GET', `${base}/clientes/${constructora.id}/cuenta-corriente`)).saldo;
const deudaProveedor = async () =>
  (await ok(owner, 'GET', `${base}/proveedores/${proveedor.id}/cuenta-corriente`)).saldo;
const payable = (monto: number) =>
  ok(
    owner,
    'POST',
    `${base}/finanzas/cuentas`,
    {
      tipo: 'por_pagar',
      proveedor_id: proveedor.id,
      monto,
      fecha_vencimiento: addDays(today, 10),
      descripcion: 'Compra de acero',
    },
    201,
  );
const movements = (chequeId: string) =>
  ctx.sql<{ tipo: string; monto: string; metodo_pago: string; anulado: boolean; cuenta: boolean }>(
    `SELECT tipo, monto::text, metodo_pago, anulado, cuenta_id IS NOT NULL AS cuenta FROM finance_movements
      WHERE business_id = $1 AND cheque_id = $2 ORDER BY creado_en, tipo`,
    [biz, chequeId],
  );
const chequesOfSale = async (ventaId: string) =>
  (await ok(owner, 'GET', `${base}/cheques?estado=en_cartera&cliente_id=${constructora.id}`)).cheques.filter(
    (c: { venta: { id: string } | null }) => c.venta?.id === ventaId,
  );

describe('a cheque received in a sale', () => {
  it('needs its data and the customer (422), and goes to the cartera without income until credited', async () => {
    const sinDatos = await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000 }]);
    expect(sinDatos.statusCode).toBe(422);
    expect(sinDatos.json().errors[0]).toMatchObject({
      field: 'pagos.0.cheque',
      message: 'Completá los datos del cheque (banco, número, fecha de pago, librador y CUIT).',
    });
    const sinCliente = await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('1001') }], null);
    expect(sinCliente.statusCode).toBe(422);
    const cuitMalo = await sell(1, [
      { medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('1001', { librador_cuit: '30-71234567-2' }) },
    ]);
    expect(cuitMalo.statusCode).toBe(422);
    expect(cuitMalo.json().errors[0].message).toBe('CUIT no válido: revisá el dígito verificador.');
    // Nothing of the refused sales stayed.
    expect(await ctx.sql('SELECT 1 FROM cheques WHERE business_id = $1', [biz])).toEqual([]);

    // Split: cash and a cheque.
    const venta = await sell(3, [
      { medio_pago_id: medio('efectivo'), monto: 5000 },
      { medio_pago_id: medio('cheque'), monto: 25000, cheque: datos('1001', { electronico: true }) },
    ]);
    expect(venta.statusCode, venta.body).toBe(201);
    const [cheque] = await chequesOfSale(venta.json().id);
    expect(cheque).toMatchObject({
      tipo: 'tercero',
      electronico: true,
      banco: 'Banco Nación',
      numero: '1001',
      monto: 25000,
      estado: 'en_cartera',
      librador_cuit: '30-71234567-1',
      cliente: { id: constructora.id, nombre: 'Constructora Sur' },
      venta: { id: venta.json().id },
      dias: 30,
      acciones: ['depositar', 'endosar', 'anular'],
    });
    // Only the cash is income today; the cheque's is not yet.
    const income = await ctx.sql<{ metodo_pago: string; monto: string }>(
      `SELECT metodo_pago, monto::text FROM finance_movements WHERE business_id = $1 AND venta_id = $2`,
      [biz, venta.json().id],
    );
    expect(income).toEqual([{ metodo_pago: 'efectivo', monto: '5000.00' }]);
    const detalle = await ok(owner, 'GET', `${base}/cheques/${cheque.id}`);
    expect(detalle.eventos).toEqual([expect.objectContaining({ estado: 'en_cartera', anterior: null, fecha: today })]);
  });

  it('is counted apart from cash in the turno: its own line, and the drawer holds only the cash', async () => {
    const t = await ok(owner, 'GET', `${base}/turnos/${turno.id}`);
    const line = (tipo: string) => t.cuadre.find((c: { tipo: string }) => c.tipo === tipo);
    expect(line('cheque')).toMatchObject({ ventas: 25000, esperado: 25000, fondo: 0 });
    expect(line('efectivo')).toMatchObject({ fondo: 500, ventas: 5000, esperado: 5500 });
    expect(t.a_contar.map((a: { tipo: string }) => a.tipo)).toContain('cheque');
  });
});

describe('a cheque received in a cobro', () => {
  it('needs its data (422), lowers the debt and goes to the cartera, with no income yet', async () => {
    expect((await sell(2, [{ medio_pago_id: medio('cuenta_corriente'), monto: 20000 }])).statusCode).toBe(201);
    expect(await saldo()).toBe(20000);
    const sinDatos = await req(owner, 'POST', `${base}/clientes/${constructora.id}/cobros`, {
      monto: 15000,
      medio_pago_id: medio('cheque'),
    });
    expect(sinDatos.statusCode).toBe(422);
    expect(sinDatos.json().errors[0].field).toBe('cheque');
    const cobro = await ok(
      owner,
      'POST',
      `${base}/clientes/${constructora.id}/cobros`,
      { monto: 15000, medio_pago_id: medio('cheque'), cheque: datos('2002', { fecha_pago: addDays(today, 2) }) },
      201,
    );
    expect(await saldo()).toBe(5000);
    const list = await ok(owner, 'GET', `${base}/cheques?estado=en_cartera`);
    const c = list.cheques.find((x: { numero: string }) => x.numero === '2002');
    expect(c).toMatchObject({ monto: 15000, cobro: { id: cobro.id, numero: cobro.numero }, venta: null, dias: 2 });
    // Sorted by due date: this one falls due before the sale's.
    expect(list.cheques.map((x: { numero: string }) => x.numero)).toEqual(['2002', '1001']);
    expect(list).toMatchObject({ total: 2, monto_total: 40000 });
    expect(await movements(c.id)).toEqual([]);
    const cobroIncome = await ctx.sql('SELECT 1 FROM finance_movements WHERE business_id = $1 AND cobro_id = $2', [
      biz,
      cobro.id,
    ]);
    expect(cobroIncome).toEqual([]);
  });

  it('is notified when it falls due within 3 days', async () => {
    const n = (await ok(owner, 'GET', `${base}/notificaciones`)) as { tipo: string; mensaje: string }[];
    const cheques = n.filter((x) => x.tipo === 'cheque_por_vencer');
    expect(cheques).toHaveLength(1);
    expect(cheques[0].mensaje).toContain('N° 2002 (Banco Nación) de Constructora Sur SA');
    expect(cheques[0].mensaje).toContain('Vence en 2 días');
  });
});

describe('deposit, credit and rejection', () => {
  it('deposits and credits: the income comes in by transfer; refused steps are 409 in Spanish', async () => {
    const [c] = (await ok(owner, 'GET', `${base}/cheques?estado=en_cartera`)).cheques;
    const early = await req(owner, 'POST', `${base}/cheques/${c.id}/cobrar`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toBe('No se puede marcar como acreditado un cheque en cartera.');
    const dep = await ok(owner, 'POST', `${base}/cheques/${c.id}/depositar`, {});
    expect(dep).toMatchObject({ estado: 'depositado', acciones: ['cobrar', 'rechazar'] });
    const again = await req(owner, 'POST', `${base}/cheques/${c.id}/depositar`);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('No se puede depositar un cheque depositado.');
    const cobrado = await ok(owner, 'POST', `${base}/cheques/${c.id}/cobrar`, { fecha: today });
    expect(cobrado).toMatchObject({ estado: 'cobrado', acciones: [] });
    expect(cobrado.eventos.map((e: { estado: string }) => e.estado)).toEqual(['en_cartera', 'depositado', 'cobrado']);
    expect(await movements(c.id)).toEqual([
      { tipo: 'ingreso', monto: '15000.00', metodo_pago: 'transferencia', anulado: false, cuenta: false },
    ]);
    expect((await req(owner, 'POST', `${base}/cheques/${c.id}/rechazar`, { motivo: 'Sin fondos' })).statusCode).toBe(
      409,
    );
  });

  it('a deposited cheque rejected: the customer owes it again plus the fee, and the fee is an expense', async () => {
    const venta = await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('3003') }]);
    const [c] = await chequesOfSale(venta.json().id);
    await ok(owner, 'POST', `${base}/cheques/${c.id}/depositar`, {});
    const antes = await saldo();
    const sinMotivo = await req(owner, 'POST', `${base}/cheques/${c.id}/rechazar`, { gastos_bancarios: 850.5 });
    expect(sinMotivo.statusCode).toBe(422);
    const r = await ok(owner, 'POST', `${base}/cheques/${c.id}/rechazar`, {
      gastos_bancarios: '850.50',
      motivo: 'Sin fondos suficientes',
    });
    expect(r.estado).toBe('rechazado');
    expect(r.eventos.at(-1)).toMatchObject({
      estado: 'rechazado',
      anterior: 'depositado',
      gastos_bancarios: 850.5,
      deuda: 10850.5,
      motivo: 'Sin fondos suficientes',
    });
    expect(await saldo()).toBe(antes + 10850.5);
    const cuenta = await ok(owner, 'GET', `${base}/clientes/${constructora.id}/cuenta-corriente`);
    expect(cuenta.movimientos.at(-1)).toMatchObject({
      tipo: 'cheque_rechazado',
      numero: 3003,
      debe: 10850.5,
      haber: 0,
    });
    expect(cuenta.movimientos.at(-1).saldo).toBe(cuenta.saldo);
    expect(await movements(c.id)).toEqual([
      { tipo: 'egreso', monto: '850.50', metodo_pago: 'transferencia', anulado: false, cuenta: false },
    ]);
    // The customers who owe count it, aged from the rejection.
    const deudores = await ok(owner, 'GET', `${base}/finanzas/cuentas-corrientes`);
    const d = deudores.find((x: { cliente_id: string }) => x.cliente_id === constructora.id);
    expect(d.saldo).toBe(cuenta.saldo);
    expect(Object.values(d.antiguedad as Record<string, number>).reduce((a, b) => a + b, 0)).toBeCloseTo(d.saldo, 2);
  });
});

describe('endorsed to a supplier', () => {
  it('pays the supplier’s payables oldest first; more than owed or an unknown supplier is refused', async () => {
    const venta = await sell(5, [{ medio_pago_id: medio('cheque'), monto: 50000, cheque: datos('4004') }]);
    const [c] = await chequesOfSale(venta.json().id);
    const sinDeuda = await req(owner, 'POST', `${base}/cheques/${c.id}/endosar`, { proveedor_id: proveedor.id });
    expect(sinDeuda.statusCode).toBe(409);
    expect(sinDeuda.json().detail).toBe(
      'No le debés nada a Aceros del Plata: registrá la compra antes de pagarla con el cheque.',
    );
    await payable(30000);
    await payable(40000);
    const otro = await req(owner, 'POST', `${base}/cheques/${c.id}/endosar`, { proveedor_id: constructora.id });
    expect(otro.statusCode).toBe(422);
    expect(await deudaProveedor()).toBe(70000);
    const e = await ok(owner, 'POST', `${base}/cheques/${c.id}/endosar`, { proveedor_id: proveedor.id });
    expect(e).toMatchObject({ estado: 'endosado', proveedor: { id: proveedor.id, nombre: 'Aceros del Plata' } });
    expect(await deudaProveedor()).toBe(20000);
    // The customer's payment is income now, and the two payments are expenses paid with the cheque.
    expect(await movements(c.id)).toEqual([
      { tipo: 'egreso', monto: '30000.00', metodo_pago: 'cheque', anulado: false, cuenta: true },
      { tipo: 'egreso', monto: '20000.00', metodo_pago: 'cheque', anulado: false, cuenta: true },
      { tipo: 'ingreso', monto: '50000.00', metodo_pago: 'cheque', anulado: false, cuenta: false },
    ]);
    const cuenta = await ok(owner, 'GET', `${base}/proveedores/${proveedor.id}/cuenta-corriente`);
    const pagos = cuenta.movimientos.filter((m: { tipo: string }) => m.tipo === 'pago');
    // Both written by one transaction (same instant): their order between them is not kept.
    expect(pagos.map((m: { haber: number }) => m.haber).sort()).toEqual([20000, 30000]);

    const mucho = await sell(3, [{ medio_pago_id: medio('cheque'), monto: 30000, cheque: datos('4005') }]);
    const [grande] = await chequesOfSale(mucho.json().id);
    const over = await req(owner, 'POST', `${base}/cheques/${grande.id}/endosar`, { proveedor_id: proveedor.id });
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toContain('El cheque supera lo que le debés al proveedor ($ 20.000,00)');
    expect(await deudaProveedor()).toBe(20000);
  });

  it('rejected after endorsing: the supplier is owed again, the movements are voided, the customer owes it with the fee', async () => {
    const [c] = (await ok(owner, 'GET', `${base}/cheques?estado=endosado`)).cheques;
    const antes = await saldo();
    await ok(owner, 'POST', `${base}/cheques/${c.id}/rechazar`, {
      gastos_bancarios: 1200,
      motivo: 'Firma no registrada',
    });
    expect(await deudaProveedor()).toBe(70000);
    expect(await saldo()).toBe(antes + 51200);
    const m = await movements(c.id);
    expect(m.filter((x) => !x.anulado)).toEqual([
      { tipo: 'egreso', monto: '1200.00', metodo_pago: 'transferencia', anulado: false, cuenta: false },
    ]);
    expect(m.filter((x) => x.anulado)).toHaveLength(3);
    const pendientes = await ok(
      owner,
      'GET',
      `${base}/finanzas/cuentas-pagar?proveedor_id=${proveedor.id}&estado=pendiente`,
    );
    expect(pendientes.map((p: { monto_pagado: number }) => p.monto_pagado)).toEqual([0, 0]);
  });

  it('two at once on the same cheque: one wins, the other is refused and changes nothing', async () => {
    const venta = await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('5005') }]);
    const [c] = await chequesOfSale(venta.json().id);
    const answers = await Promise.all([
      req(owner, 'POST', `${base}/cheques/${c.id}/depositar`, {}),
      req(owner, 'POST', `${base}/cheques/${c.id}/depositar`, {}),
      req(owner, 'POST', `${base}/cheques/${c.id}/endosar`, { proveedor_id: proveedor.id }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const detalle = await ok(owner, 'GET', `${base}/cheques/${c.id}`);
    expect(detalle.eventos).toHaveLength(2);
    const won = answers.find((a) => a.statusCode === 200)!.json().estado;
    expect(detalle.estado).toBe(won);
    expect(await deudaProveedor()).toBe(won === 'endosado' ? 60000 : 70000);
  });
});

describe('own cheques', () => {
  it('given to a supplier pays what is owed; debited, it is an expense; voided, the debt is back', async () => {
    const deuda = await deudaProveedor();
    const propio = await ok(
      owner,
      'POST',
      `${base}/cheques`,
      {
        tipo: 'propio',
        banco: 'Banco Galicia',
        numero: '90001',
        fecha_pago: addDays(today, 45),
        monto: 10000,
        proveedor_id: proveedor.id,
      },
      201,
    );
    expect(propio).toMatchObject({
      estado: 'entregado',
      acciones: ['cobrar', 'anular'],
      proveedor: { id: proveedor.id },
    });
    expect(await deudaProveedor()).toBe(deuda - 10000);
    const cuenta = await ok(owner, 'GET', `${base}/proveedores/${proveedor.id}/cuenta-corriente`);
    expect(cuenta.movimientos.at(-1)).toMatchObject({
      tipo: 'pago',
      haber: 10000,
      descripcion: 'Cheque propio N° 90001 (Banco Galicia)',
    });
    expect(cuenta.movimientos.at(-1).saldo).toBe(cuenta.saldo);
    expect(await movements(propio.id)).toEqual([]);
    expect((await req(owner, 'POST', `${base}/cheques/${propio.id}/depositar`, {})).statusCode).toBe(409);
    await ok(owner, 'POST', `${base}/cheques/${propio.id}/cobrar`, {});
    expect(await movements(propio.id)).toEqual([
      { tipo: 'egreso', monto: '10000.00', metodo_pago: 'transferencia', anulado: false, cuenta: false },
    ]);

    const otro = await ok(
      owner,
      'POST',
      `${base}/cheques`,
      {
        tipo: 'propio',
        banco: 'Banco Galicia',
        numero: '90002',
        fecha_pago: addDays(today, 5),
        monto: 5000,
        proveedor_id: proveedor.id,
      },
      201,
    );
    expect(await deudaProveedor()).toBe(deuda - 15000);
    await ok(owner, 'POST', `${base}/cheques/${otro.id}/anular`, { motivo: 'Mal confeccionado' });
    expect(await deudaProveedor()).toBe(deuda - 10000);
    // Listed by due date.
    const propios = await ok(owner, 'GET', `${base}/cheques?tipo=propio`);
    expect(propios.cheques.map((c: { numero: string }) => c.numero)).toEqual(['90002', '90001']);
  });

  it('validates the input: kinds, CUIT, dates, number', async () => {
    const bad = async (body: object, field: string) => {
      const res = await req(owner, 'POST', `${base}/cheques`, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    const t = { tipo: 'tercero', ...datos('777'), monto: 100 };
    await bad({ ...t, librador_cuit: '' }, 'librador_cuit');
    await bad({ ...t, numero: '12A' }, 'numero');
    await bad({ ...t, fecha_emision: addDays(today, 40) }, 'fecha_pago');
    await bad({ ...t, proveedor_id: proveedor.id }, 'proveedor_id');
    await bad({ ...t, monto: 0 }, 'monto');
    await bad({ ...t, tipo: 'ajeno' }, 'tipo');
    const manual = await ok(owner, 'POST', `${base}/cheques`, { ...t, cliente_id: constructora.id }, 201);
    expect(manual).toMatchObject({ estado: 'en_cartera', cliente: { id: constructora.id }, monto: 100 });
    // Came in by hand: it may be voided while in the cartera.
    expect((await ok(owner, 'POST', `${base}/cheques/${manual.id}/anular`)).estado).toBe('anulado');
  });
});

describe('a sale voided', () => {
  it('gives back its cheques still in the cartera; a deposited one stops the void', async () => {
    const a = await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('6006') }]);
    const [c] = await chequesOfSale(a.json().id);
    expect((await req(owner, 'POST', `${base}/cheques/${c.id}/anular`, {})).json().detail).toBe(
      'El cheque vino en una venta o un cobro: anulá la venta, o registrá el rechazo si el banco no lo pagó.',
    );
    await ok(owner, 'POST', `${base}/ventas/${a.json().id}/anular`, { motivo: 'Error' });
    expect((await ok(owner, 'GET', `${base}/cheques/${c.id}`)).estado).toBe('anulado');

    const b = await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('6007') }]);
    const [d] = await chequesOfSale(b.json().id);
    await ok(owner, 'POST', `${base}/cheques/${d.id}/depositar`, {});
    const refused = await req(owner, 'POST', `${base}/ventas/${b.json().id}/anular`, { motivo: 'Error' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('El cheque N° 6007 de esta venta ya salió de la cartera');
  });
});

describe('the same cheque twice', () => {
  const count = async (table: string) =>
    (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [biz]))[0].n;
  const DUPLICADO =
    'Ese cheque ya está en el negocio (mismo banco, número y CUIT del librador): revisá los datos, o anulá el anterior si se cargó por error.';

  it('is refused (409) by hand, in a sale and in a cobro, unless the earlier one is anulado; nothing is saved', async () => {
    const t = { tipo: 'tercero', ...datos('7007'), monto: 1000, cliente_id: constructora.id };
    const first = await ok(owner, 'POST', `${base}/cheques`, t, 201);
    // The bank as typed: case and outer spaces aside.
    const twice = await req(owner, 'POST', `${base}/cheques`, { ...t, banco: '  banco nación ', monto: 2000 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'DUPLICATE', detail: DUPLICADO });
    const before = { sales: await count('sales'), cheques: await count('cheques'), stock: await count('stock_movements') };
    const venta = await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('7007') }]);
    expect(venta.statusCode).toBe(409);
    expect(venta.json().detail).toBe(DUPLICADO);
    const cobro = await req(owner, 'POST', `${base}/clientes/${constructora.id}/cobros`, {
      monto: 100,
      medio_pago_id: medio('cheque'),
      cheque: datos('7007'),
    });
    expect(cobro.statusCode).toBe(409);
    expect({ sales: await count('sales'), cheques: await count('cheques'), stock: await count('stock_movements') }).toEqual(
      before,
    );
    // Another librador (CUIT) or another bank with that number is another cheque.
    await ok(owner, 'POST', `${base}/cheques`, { ...t, librador_cuit: '20-12345678-6' }, 201);
    await ok(owner, 'POST', `${base}/cheques`, { ...t, banco: 'Banco Galicia' }, 201);
    // Once the first is anulado, it may come in again.
    await ok(owner, 'POST', `${base}/cheques/${first.id}/anular`, { motivo: 'Cargado dos veces' });
    expect((await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('7007') }])).statusCode).toBe(
      201,
    );
  });

  it('two sales with the same cheque at once: one wins, the other gets 409 and leaves nothing', async () => {
    const before = { sales: await count('sales'), cheques: await count('cheques') };
    const stockBefore = (await ok(owner, 'GET', `${base}/products/${clavo.id}`)).stock_actual as number;
    const answers = await Promise.all([
      sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('7008') }]),
      sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('7008') }]),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect({ sales: await count('sales'), cheques: await count('cheques') }).toEqual({
      sales: before.sales + 1,
      cheques: before.cheques + 1,
    });
    expect((await ok(owner, 'GET', `${base}/products/${clavo.id}`)).stock_actual).toBe(stockBefore - 1);
  });
});

describe('a return of a sale paid by cheque', () => {
  const devolver = (ventaId: string, body: object) =>
    req(owner, 'POST', `${base}/ventas/${ventaId}/devoluciones`, { turno_id: turno.id, ...body });
  const lineOf = async (ventaId: string) =>
    (await ok(owner, 'GET', `${base}/ventas/sales/${ventaId}`)).items[0].id as string;

  it('gives the cheque itself back while in the cartera: anulado, "devuelto al cliente", no money moves', async () => {
    const venta = (await sell(2, [{ medio_pago_id: medio('cheque'), monto: 20000, cheque: datos('8008') }])).json();
    const [c] = await chequesOfSale(venta.id);
    const item = await lineOf(venta.id);
    // Not the cheque medio, part of the amount, another sale's cheque: 422; nothing saved.
    const otroMedio = await devolver(venta.id, {
      items: [{ item_id: item, cantidad: 2 }],
      medio_pago_id: medio('efectivo'),
      cheque_id: c.id,
    });
    expect(otroMedio.statusCode).toBe(422);
    expect(otroMedio.json().detail).toBe('Para devolver el cheque, elegí el medio de tipo cheque.');
    const parcial = await devolver(venta.id, {
      items: [{ item_id: item, cantidad: 1 }],
      medio_pago_id: medio('cheque'),
      cheque_id: c.id,
    });
    expect(parcial.statusCode).toBe(422);
    expect(parcial.json().detail).toBe(
      'El cheque es de $ 20.000,00 y la devolución, de $ 10.000,00: el cheque se devuelve solo por su monto completo. Devolvé el dinero con otro medio.',
    );
    const otra = (await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('8009') }])).json();
    const [ajeno] = await chequesOfSale(otra.id);
    const noEs = await devolver(venta.id, {
      items: [{ item_id: item, cantidad: 2 }],
      medio_pago_id: medio('cheque'),
      cheque_id: ajeno.id,
    });
    expect(noEs.statusCode).toBe(422);
    expect(noEs.json().detail).toBe('Ese cheque no vino en esta venta.');
    expect((await ok(owner, 'GET', `${base}/ventas/${venta.id}/devoluciones`)).length).toBe(0);
    expect((await ok(owner, 'GET', `${base}/cheques/${c.id}`)).estado).toBe('en_cartera');

    const stockBefore = (await ok(owner, 'GET', `${base}/products/${clavo.id}`)).stock_actual as number;
    const res = await devolver(venta.id, {
      items: [{ item_id: item, cantidad: 2 }],
      medio_pago_id: medio('cheque'),
      cheque_id: c.id,
      motivo: 'No le sirvieron',
    });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d).toMatchObject({ monto: 20000, medio_tipo: 'cheque' });
    const detalle = await ok(owner, 'GET', `${base}/cheques/${c.id}`);
    expect(detalle.estado).toBe('anulado');
    expect(detalle.eventos.at(-1)).toMatchObject({
      estado: 'anulado',
      anterior: 'en_cartera',
      motivo: `Devuelto al cliente (devolución #${d.numero})`,
    });
    // The cheque never was income, so giving it back is no expense; the goods are back in stock.
    const money = await ctx.sql('SELECT 1 FROM finance_movements WHERE business_id = $1 AND devolucion_id = $2', [
      biz,
      d.id,
    ]);
    expect(money).toEqual([]);
    expect((await ok(owner, 'GET', `${base}/products/${clavo.id}`)).stock_actual).toBe(stockBefore + 2);
    // The same cheque may come in again (it was anulado).
    expect((await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('8008') }])).statusCode).toBe(
      201,
    );
  });

  it('once the cheque left the cartera it is not given back (409): money goes back by another medio', async () => {
    const venta = (await sell(1, [{ medio_pago_id: medio('cheque'), monto: 10000, cheque: datos('8010') }])).json();
    const [c] = await chequesOfSale(venta.id);
    await ok(owner, 'POST', `${base}/cheques/${c.id}/depositar`, {});
    const item = await lineOf(venta.id);
    const refused = await devolver(venta.id, {
      items: [{ item_id: item, cantidad: 1 }],
      medio_pago_id: medio('cheque'),
      cheque_id: c.id,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(
      'El cheque N° 8010 está depositado: ya salió de la cartera, devolvé el dinero con otro medio.',
    );
    const cash = await devolver(venta.id, { items: [{ item_id: item, cantidad: 1 }], medio_pago_id: medio('efectivo') });
    expect(cash.statusCode, cash.body).toBe(201);
    expect((await ok(owner, 'GET', `${base}/cheques/${c.id}`)).estado).toBe('depositado');
  });
});

describe('permissions and tenancy', () => {
  it('reads with finanzas ver, changes with finanzas editar, nothing without', async () => {
    const [c] = (await ok(owner, 'GET', `${base}/cheques?estado=en_cartera`)).cheques;
    const lector = await registerUser(app, 'LectorCheques');
    await addMember(ctx, biz, owner, lector, ['puede_ver_finanzas']);
    const cajero = await registerUser(app, 'CajeroCheques');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas']);
    expect((await req(lector, 'GET', `${base}/cheques`)).statusCode).toBe(200);
    expect((await req(lector, 'GET', `${base}/cheques/${c.id}`)).statusCode).toBe(200);
    expect((await req(lector, 'GET', `${base}/cheques/exportar`)).statusCode).toBe(200);
    expect((await req(lector, 'POST', `${base}/cheques/${c.id}/depositar`, {})).statusCode).toBe(403);
    expect(
      (await req(lector, 'POST', `${base}/cheques`, { tipo: 'tercero', ...datos('1'), monto: 1 })).statusCode,
    ).toBe(403);
    expect((await req(cajero, 'GET', `${base}/cheques`)).statusCode).toBe(403);
    expect((await ok(owner, 'GET', `${base}/cheques/${c.id}`)).estado).toBe('en_cartera');
  });

  it("another business's cheques are not found, nor its customers and suppliers usable", async () => {
    const [c] = (await ok(owner, 'GET', `${base}/cheques?estado=en_cartera`)).cheques;
    const beto = await registerUser(app, 'BetoCheques');
    const otro = await createBusiness(app, beto, 'Kiosco Beto');
    const b = `/api/v1/businesses/${otro}`;
    expect((await req(beto, 'GET', `${b}/cheques/${c.id}`)).statusCode).toBe(404);
    for (const accion of ['depositar', 'endosar', 'cobrar', 'rechazar', 'anular']) {
      const res = await req(beto, 'POST', `${b}/cheques/${c.id}/${accion}`, {
        proveedor_id: proveedor.id,
        motivo: 'x',
        gastos_bancarios: 0,
      });
      expect(res.statusCode, `${accion}: ${res.body}`).toBe(404);
    }
    expect((await ok(beto, 'GET', `${b}/cheques`)).cheques).toEqual([]);
    expect((await req(beto, 'GET', `${b}/cheques?cliente_id=${constructora.id}`)).statusCode).toBe(422);
    const ajeno = await req(beto, 'POST', `${b}/cheques`, {
      tipo: 'tercero',
      ...datos('1'),
      monto: 1,
      cliente_id: constructora.id,
    });
    expect(ajeno.statusCode).toBe(422);
    const ajenoProveedor = await req(beto, 'POST', `${b}/cheques`, {
      tipo: 'propio',
      banco: 'X',
      numero: '1',
      fecha_pago: today,
      monto: 1,
      proveedor_id: proveedor.id,
    });
    expect(ajenoProveedor.statusCode).toBe(422);
    expect((await ok(owner, 'GET', `${base}/cheques/${c.id}`)).estado).toBe('en_cartera');
  });
});

describe('the export', () => {
  it('is a spreadsheet of the filtered list', async () => {
    const res = await req(owner, 'GET', `${base}/cheques/exportar?tipo=propio`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('cheques.xlsx');
  });
});
