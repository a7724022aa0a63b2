import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

// Users log in on the real clock (sessions expire in real time); "today" is then fixed.
let clock: Date | null = null;
const ctx = await createTestApp({ now: () => clock ?? new Date() });
const { app } = ctx;

/** A new owner and business, registered on the real clock so the session outlives any test date. */
async function newOwner(nombre: string) {
  const saved = clock;
  clock = null;
  try {
    const u = await registerUser(app, nombre);
    return { u, b: await createBusiness(app, u, `${nombre} SA`) };
  } finally {
    clock = saved;
  }
}

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;
let cliente: string;

const url = (path: string, b = biz) => `/api/v1/businesses/${b}/finanzas/${path}`;
const get = (path: string, u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (path: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url(path, b), headers: u.auth, payload: payload as object });
const put = (path: string, payload?: unknown, u = owner, b = biz) =>
  app.inject({
    method: 'PUT',
    url: url(path, b),
    headers: u.auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const del = (path: string, u = owner, b = biz) => app.inject({ method: 'DELETE', url: url(path, b), headers: u.auth });

async function customer(b: string, nombre: string, apellido: string | null = null) {
  const [row] = await ctx.sql<{ id: string }>(
    'INSERT INTO customers (business_id, nombre, apellido) VALUES ($1, $2, $3) RETURNING id',
    [b, nombre, apellido],
  );
  return row.id;
}

const receivable = (extra: object = {}) => ({
  tipo: 'por_cobrar',
  cliente_id: cliente,
  monto: 15000,
  fecha_vencimiento: '2026-03-20',
  descripcion: 'Fiado de la quincena',
  ...extra,
});
const payable = (extra: object = {}) => ({
  tipo: 'por_pagar',
  proveedor_nombre: 'Distribuidora Sur',
  monto: '120000.50',
  fecha_emision: '2026-03-01',
  fecha_vencimiento: '2026-04-10',
  descripcion: 'Compra a Distribuidora Sur',
  ...extra,
});

async function create(body: object, u = owner, b = biz) {
  const res = await post('cuentas', body, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const count = async (table: string) => (await ctx.sql(`SELECT id FROM ${table}`)).length;

/** A supplier of the business, through its route. */
async function supplier(nombre: string, u = owner, b = biz): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${b}/proveedores`,
    headers: u.auth,
    payload: { nombre },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** The payable of a purchase on credit, made through the purchases route. */
async function purchaseAccount(): Promise<string> {
  const producto = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${biz}/products`,
    headers: owner.auth,
    payload: { nombre: `Producto ${Math.random()}`, precio_venta: 100 },
  });
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${biz}/compras`,
    headers: owner.auth,
    payload: {
      proveedor_id: await supplier(`Proveedor ${Math.random()}`),
      fecha: '2026-03-01',
      condicion_pago: 'cuenta_corriente',
      fecha_vencimiento: '2026-04-10',
      items: [{ producto_id: producto.json().id, cantidad: 2, precio_unitario: 500 }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().cuenta_id;
}

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
  cliente = await customer(biz, 'María', 'González');
  // 01:00 UTC on March 16 is 22:00 of March 15 in Buenos Aires.
  clock = new Date('2026-03-16T01:00:00Z');
});

describe('creating accounts', () => {
  it('creates a receivable with the defaults: issued today (business time zone), pendiente, days to due', async () => {
    const a = await create(
      receivable({ estado: 'vencido', compra_id: '00000000-0000-4000-8000-000000000000', movimiento_id: null }),
    );
    expect(a).toMatchObject({
      tipo: 'por_cobrar',
      cliente_id: cliente,
      cliente_nombre: 'María González',
      proveedor_id: null,
      proveedor_nombre: null,
      monto: 15000,
      fecha_emision: '2026-03-15',
      fecha_vencimiento: '2026-03-20',
      estado: 'pendiente',
      dias_vencimiento: 5,
      descripcion: 'Fiado de la quincena',
      observaciones: null,
      compra_id: null,
      movimiento_id: null,
      fecha_pago: null,
      pagado_en: null,
    });
    const [audit] = await ctx.sql<{ entidad: string; accion: string }>(
      'SELECT entidad, accion FROM audit_log WHERE entidad_id = $1',
      [a.id],
    );
    expect(audit).toEqual({ entidad: 'cuenta', accion: 'crear' });
  });

  it('creates a payable naming its supplier, with exact cents', async () => {
    const a = await create(payable());
    expect(a).toMatchObject({
      tipo: 'por_pagar',
      cliente_id: null,
      proveedor_nombre: 'Distribuidora Sur',
      monto: 120000.5,
      dias_vencimiento: 26,
    });
    const [row] = await ctx.sql<{ monto: string }>('SELECT monto::text FROM finance_accounts WHERE id = $1', [a.id]);
    expect(row.monto).toBe('120000.50');
  });

  it.each([
    [{ tipo: undefined }, 'tipo', 'Este campo es obligatorio.'],
    [{ tipo: 'a_cobrar' }, 'tipo', 'Valor no válido. Opciones: por_cobrar, por_pagar.'],
    [{ monto: undefined }, 'monto', 'Este campo es obligatorio.'],
    [{ monto: 0 }, 'monto', 'Debe ser mayor a 0.'],
    [{ monto: '12.345' }, 'monto', 'Admite como máximo 2 decimales.'],
    [{ fecha_vencimiento: undefined }, 'fecha_vencimiento', 'Este campo es obligatorio.'],
    [{ fecha_vencimiento: '' }, 'fecha_vencimiento', 'Este campo es obligatorio.'],
    [{ fecha_vencimiento: '20/03/2026' }, 'fecha_vencimiento', 'Fecha no válida (formato AAAA-MM-DD).'],
    [{ fecha_emision: '2026-13-01' }, 'fecha_emision', 'Fecha no válida (formato AAAA-MM-DD).'],
    [{ descripcion: '' }, 'descripcion', 'Este campo es obligatorio.'],
    [{ descripcion: 'x'.repeat(501) }, 'descripcion', 'Debe tener como máximo 500 caracteres.'],
    [{ observaciones: 'x'.repeat(1001) }, 'observaciones', 'Debe tener como máximo 1000 caracteres.'],
    [{ estado: 'pagado' }, 'estado', 'Para registrar el pago usá «Marcar como pagada».'],
    [{ estado: 'cancelado' }, 'estado', 'Valor no válido. Opciones: pendiente, pagado, vencido.'],
    [{ proveedor_nombre: 'Sur' }, 'proveedor_nombre', 'Una cuenta por cobrar no lleva proveedor.'],
    [
      { fecha_emision: '2026-03-21' },
      'fecha_vencimiento',
      'La fecha de vencimiento no puede ser anterior a la fecha de emisión.',
    ],
    // Without fecha_emision the issue date is today (March 15), after this due date.
    [
      { fecha_vencimiento: '2026-03-14' },
      'fecha_vencimiento',
      'La fecha de vencimiento no puede ser anterior a la fecha de emisión.',
    ],
    [{ cliente_id: '00000000-0000-4000-8000-000000000000' }, 'cliente_id', 'Cliente no encontrado en este negocio.'],
  ])('refuses a receivable with %j (422 on %s) and stores nothing', async (extra, field, message) => {
    const before = await count('finance_accounts');
    const res = await post('cuentas', receivable(extra));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await count('finance_accounts')).toBe(before);
  });

  it.each([
    [{ proveedor_nombre: null }, 'proveedor_nombre', 'Indicá el proveedor.'],
    [{ proveedor_nombre: '   ' }, 'proveedor_nombre', 'Indicá el proveedor.'],
    [{ proveedor_nombre: 'x'.repeat(201) }, 'proveedor_nombre', 'Debe tener como máximo 200 caracteres.'],
    [{ cliente_id: '00000000-0000-4000-8000-000000000000' }, 'cliente_id', 'Una cuenta por pagar no lleva cliente.'],
    [
      { proveedor_nombre: null, proveedor_id: '00000000-0000-4000-8000-000000000000' },
      'proveedor_id',
      'Proveedor no encontrado en este negocio.',
    ],
  ])('refuses a payable with %j (422 on %s)', async (extra, field, message) => {
    const before = await count('finance_accounts');
    const res = await post('cuentas', payable(extra));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await count('finance_accounts')).toBe(before);
  });

  it('takes a supplier of the business by id, with its name unless one is given, and moves to another', async () => {
    const sur = await supplier('Distribuidora Sur SRL');
    const a = await create(payable({ proveedor_nombre: null, proveedor_id: sur }));
    expect(a).toMatchObject({ proveedor_id: sur, proveedor_nombre: 'Distribuidora Sur SRL' });
    const named = await create(payable({ proveedor_nombre: 'Sur (sucursal)', proveedor_id: sur }));
    expect(named).toMatchObject({ proveedor_id: sur, proveedor_nombre: 'Sur (sucursal)' });
    const norte = await supplier('Norte SA');
    const moved = await put(`cuentas/${a.id}`, { proveedor_id: norte });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ proveedor_id: norte, proveedor_nombre: 'Norte SA' });
    const listed = await get(`cuentas-pagar?proveedor_id=${norte}`);
    expect(listed.json().map((x: { id: string }) => x.id)).toEqual([a.id]);
    const ajeno = await supplier('Ajeno', otherOwner, otherBiz);
    const foreign = await put(`cuentas/${a.id}`, { proveedor_id: ajeno });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().detail).toBe('Proveedor no encontrado en este negocio.');
  });

  it("refuses another business's customer", async () => {
    const ajeno = await customer(otherBiz, 'Cliente', 'Ajeno');
    const res = await post('cuentas', receivable({ cliente_id: ajeno }));
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('Cliente no encontrado en este negocio.');
  });
});

describe('listing accounts', () => {
  let b: string;
  let o: TestUser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ u: o, b } = await newOwner('Lista'));
    const c1 = await customer(b, 'Lucía', 'Martínez');
    const c2 = await customer(b, 'Ramiro');
    const mk = async (key: string, body: object) => {
      const r = await post('cuentas', body, o, b);
      expect(r.statusCode, r.body).toBe(201);
      ids[key] = r.json().id;
    };
    await mk('vencida', {
      tipo: 'por_cobrar',
      cliente_id: c1,
      monto: 100,
      fecha_emision: '2026-03-01',
      fecha_vencimiento: '2026-03-14',
      descripcion: 'v',
    });
    await mk('hoy', {
      tipo: 'por_cobrar',
      cliente_id: c2,
      monto: 200,
      fecha_emision: '2026-03-01',
      fecha_vencimiento: '2026-03-15',
      descripcion: 'h',
    });
    await mk('pronto', {
      tipo: 'por_cobrar',
      monto: 300,
      fecha_emision: '2026-03-01',
      fecha_vencimiento: '2026-03-22',
      descripcion: 'p',
    });
    await mk('lejos', {
      tipo: 'por_cobrar',
      cliente_id: c1,
      monto: 400,
      fecha_emision: '2026-03-01',
      fecha_vencimiento: '2026-04-30',
      descripcion: 'l',
    });
    await mk('pagada', {
      tipo: 'por_cobrar',
      cliente_id: c1,
      monto: 500,
      fecha_emision: '2026-03-01',
      fecha_vencimiento: '2026-03-02',
      descripcion: 'pg',
    });
    await mk('pagar', {
      tipo: 'por_pagar',
      proveedor_nombre: 'Sur',
      monto: 600,
      fecha_emision: '2026-03-01',
      fecha_vencimiento: '2026-03-10',
      descripcion: 'x',
    });
    expect((await put(`cuentas/${ids.pagada}/marcar-pagado`, {}, o, b)).statusCode).toBe(200);
    ids.c1 = c1;
  });

  const list = async (path: string) => {
    const r = await get(path, o, b);
    expect(r.statusCode, r.body).toBe(200);
    return {
      rows: r.json() as { id: string; estado: string; dias_vencimiento: number }[],
      total: Number(r.headers['x-total-count']),
    };
  };

  it('computes estado and dias_vencimiento in the business time zone, earliest due first', async () => {
    const { rows, total } = await list('cuentas-cobrar');
    expect(total).toBe(5);
    expect(rows.map((r) => [r.id, r.estado, r.dias_vencimiento])).toEqual([
      [ids.pagada, 'pagado', -13],
      [ids.vencida, 'vencido', -1],
      [ids.hoy, 'pendiente', 0],
      [ids.pronto, 'pendiente', 7],
      [ids.lejos, 'pendiente', 46],
    ]);
    // Three hours later it is March 16 in Buenos Aires: "hoy" is now overdue.
    clock = new Date('2026-03-16T04:00:00Z');
    const later = await list('cuentas-cobrar?estado=vencido');
    clock = new Date('2026-03-16T01:00:00Z');
    expect(later.rows.map((r) => [r.id, r.dias_vencimiento])).toEqual([
      [ids.vencida, -2],
      [ids.hoy, -1],
    ]);
  });

  it('filters by computed estado, due date range (and its aliases), client, with paging', async () => {
    const only = async (q: string) => (await list(`cuentas-cobrar${q}`)).rows.map((r) => r.id);
    expect(await only('?estado=vencido')).toEqual([ids.vencida]);
    expect(await only('?estado=pendiente')).toEqual([ids.hoy, ids.pronto, ids.lejos]);
    expect(await only('?estado=pagado')).toEqual([ids.pagada]);
    expect(await only('?fecha_desde=2026-03-15&fecha_hasta=2026-03-22')).toEqual([ids.hoy, ids.pronto]);
    expect(await only('?vencimiento_desde=2026-03-15&vencimiento_hasta=2026-03-22')).toEqual([ids.hoy, ids.pronto]);
    expect(await only(`?cliente_id=${ids.c1}`)).toEqual([ids.pagada, ids.vencida, ids.lejos]);
    const page = await list('cuentas-cobrar?limit=2&offset=1');
    expect([page.rows.map((r) => r.id), page.total]).toEqual([[ids.vencida, ids.hoy], 5]);
    expect((await list('cuentas-pagar')).rows.map((r) => [r.id, r.estado])).toEqual([[ids.pagar, 'vencido']]);
    for (const q of ['?estado=x', '?fecha_desde=mañana', '?limit=0', '?cliente_id=1', '?proveedor_id=zz']) {
      expect((await get(`cuentas-cobrar${q}`, o, b)).statusCode, q).toBe(422);
    }
  });

  it("never lists another business's accounts", async () => {
    const mine = (await get('cuentas-cobrar', owner, biz)).json().map((a: { id: string }) => a.id);
    for (const id of Object.values(ids)) expect(mine).not.toContain(id);
  });
});

describe('updating and deleting accounts', () => {
  it('updates fields partially, re-checking the rules on the resulting account', async () => {
    const a = await create(receivable());
    const res = await put(`cuentas/${a.id}`, { monto: 16000.75, fecha_vencimiento: '2026-03-25', estado: 'pendiente' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ monto: 16000.75, fecha_vencimiento: '2026-03-25', dias_vencimiento: 10 });

    const early = await put(`cuentas/${a.id}`, { fecha_vencimiento: '2026-03-01' });
    expect(early.statusCode).toBe(422);
    expect(early.json().detail).toBe('La fecha de vencimiento no puede ser anterior a la fecha de emisión.');
    // Turning a receivable into a payable needs the client gone and a supplier.
    const toPayable = await put(`cuentas/${a.id}`, { tipo: 'por_pagar', proveedor_nombre: 'Sur' });
    expect(toPayable.json().detail).toBe('Una cuenta por pagar no lleva cliente.');
    const noSupplier = await put(`cuentas/${a.id}`, { tipo: 'por_pagar', cliente_id: null });
    expect(noSupplier.json().detail).toBe('Indicá el proveedor.');
    const ok = await put(`cuentas/${a.id}`, { tipo: 'por_pagar', cliente_id: null, proveedor_nombre: 'Sur' });
    expect(ok.json()).toMatchObject({
      tipo: 'por_pagar',
      cliente_id: null,
      cliente_nombre: null,
      proveedor_nombre: 'Sur',
    });
    expect((await put(`cuentas/${a.id}`, { estado: 'pagado' })).json().detail).toBe(
      'Para registrar el pago usá «Marcar como pagada».',
    );
    expect((await put(`cuentas/${a.id}`, { descripcion: null })).statusCode).toBe(422);
    expect((await put(`cuentas/${a.id}`, {})).json().detail).toBe('No hay datos para actualizar.');
    const audit = await ctx.sql<{ accion: string }>(
      'SELECT accion FROM audit_log WHERE entidad_id = $1 ORDER BY fecha',
      [a.id],
    );
    expect(audit.map((r) => r.accion)).toEqual(['crear', 'actualizar', 'actualizar']);
  });

  it('deletes an unpaid account', async () => {
    const a = await create(payable());
    expect((await del(`cuentas/${a.id}`)).statusCode).toBe(204);
    expect(await ctx.sql('SELECT 1 FROM finance_accounts WHERE id = $1', [a.id])).toHaveLength(0);
    expect((await del(`cuentas/${a.id}`)).json()).toEqual({ detail: 'Cuenta no encontrada.', code: 'NOT_FOUND' });
  });

  it('allows only descripcion and observaciones on a paid account, and refuses deleting it (409 ALREADY_PAID)', async () => {
    const a = await create(receivable());
    const paidRes = await put(`cuentas/${a.id}/marcar-pagado`);
    expect(paidRes.statusCode, paidRes.body).toBe(200);
    const res = await put(`cuentas/${a.id}`, { monto: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'La cuenta ya está pagada; solo podés editar la descripción y las observaciones.',
      code: 'ALREADY_PAID',
    });
    const ok = await put(`cuentas/${a.id}`, {
      descripcion: 'Fiado cobrado',
      observaciones: 'Pagó en efectivo',
      monto: 15000,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      descripcion: 'Fiado cobrado',
      observaciones: 'Pagó en efectivo',
      estado: 'pagado',
    });
    const d = await del(`cuentas/${a.id}`);
    expect(d.statusCode).toBe(409);
    expect(d.json()).toEqual({ detail: 'No se puede eliminar una cuenta pagada.', code: 'ALREADY_PAID' });
  });

  it('lets a purchase account change only its due date and texts, and never be deleted here', async () => {
    const a = { id: await purchaseAccount() };
    const res = await put(`cuentas/${a.id}`, { monto: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'Esta cuenta la generó una compra: modifica la compra.',
      code: 'GENERATED_RECORD',
    });
    expect(
      (await put(`cuentas/${a.id}`, { fecha_vencimiento: '2026-04-20', descripcion: 'Compra #12' })).statusCode,
    ).toBe(200);
    const d = await del(`cuentas/${a.id}`);
    expect(d.json()).toEqual({
      detail: 'Esta cuenta la generó una compra: cancelá la compra para eliminarla.',
      code: 'GENERATED_RECORD',
    });
  });

  it("answers 404 for another business's account, on every route", async () => {
    const foreign = await create(payable({ descripcion: 'de Beto' }), otherOwner, otherBiz);
    for (const id of [foreign.id, 'nope', '00000000-0000-4000-8000-000000000000']) {
      expect((await put(`cuentas/${id}`, { descripcion: 'x' })).json()).toEqual({
        detail: 'Cuenta no encontrada.',
        code: 'NOT_FOUND',
      });
      expect((await del(`cuentas/${id}`)).statusCode).toBe(404);
      expect((await put(`cuentas/${id}/marcar-pagado`, {})).statusCode).toBe(404);
    }
    expect(await ctx.sql('SELECT estado, descripcion FROM finance_accounts WHERE id = $1', [foreign.id])).toEqual([
      { estado: 'pendiente', descripcion: 'de Beto' },
    ]);
  });
});

describe('marcar-pagado', () => {
  it('marks a receivable paid and records the income movement in one go', async () => {
    const a = await create(receivable({ monto: '15000.25' }));
    const res = await put(`cuentas/${a.id}/marcar-pagado`, {
      metodo_pago: 'Transferencia',
      observaciones: 'CBU terminado en 123',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Cuenta marcada como pagada');
    expect(body.cuenta).toMatchObject({
      id: a.id,
      estado: 'pagado',
      fecha_pago: '2026-03-15',
      movimiento_id: body.movimiento.id,
    });
    expect(body.cuenta.pagado_en).toBe('2026-03-16T01:00:00.000Z');
    expect(body.movimiento).toMatchObject({
      tipo: 'ingreso',
      monto: 15000.25,
      fecha: '2026-03-15',
      metodo_pago: 'transferencia',
      descripcion: 'Cobro: Fiado de la quincena',
      observaciones: 'CBU terminado en 123',
      cliente_id: cliente,
      cliente_nombre: 'María González',
      origen: 'cuenta',
      cuenta_id: a.id,
      categoria_id: null,
    });
    const audit = await ctx.sql<{ entidad: string; accion: string }>(
      'SELECT entidad, accion FROM audit_log WHERE entidad_id IN ($1, $2) ORDER BY fecha, entidad',
      [a.id, body.movimiento.id],
    );
    expect(audit).toEqual(
      expect.arrayContaining([
        { entidad: 'cuenta', accion: 'pagar' },
        { entidad: 'movimiento', accion: 'crear' },
      ]),
    );
    // The payment movement is read-only.
    const edit = await put(`movimientos/${body.movimiento.id}`, { monto: 1 });
    expect(edit.json()).toEqual({
      detail: 'Este movimiento lo generó el pago de una cuenta y no se puede modificar.',
      code: 'GENERATED_RECORD',
    });
  });

  it('marks a payable paid as an expense, with the given date and category', async () => {
    const cat = await post('categorias', { nombre: 'Proveedores', tipo: 'egreso' });
    const ing = await post('categorias', { nombre: 'Cobros varios', tipo: 'ingreso' });
    const a = await create(payable());
    const bad = await put(`cuentas/${a.id}/marcar-pagado`, { categoria_id: ing.json().id });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBe('El tipo de la categoría no coincide con el tipo de movimiento.');
    expect((await put(`cuentas/${a.id}/marcar-pagado`, { fecha_pago: '2026-31-01' })).statusCode).toBe(422);
    expect((await put(`cuentas/${a.id}/marcar-pagado`, { metodo_pago: 'trueque' })).statusCode).toBe(422);
    expect(await ctx.sql(`SELECT estado FROM finance_accounts WHERE id = $1`, [a.id])).toEqual([
      { estado: 'pendiente' },
    ]);

    const res = await put(`cuentas/${a.id}/marcar-pagado`, { fecha_pago: '2026-03-10', categoria_id: cat.json().id });
    expect(res.statusCode).toBe(200);
    expect(res.json().movimiento).toMatchObject({
      tipo: 'egreso',
      monto: 120000.5,
      fecha: '2026-03-10',
      metodo_pago: 'efectivo',
      descripcion: 'Pago: Compra a Distribuidora Sur',
      categoria_nombre: 'Proveedores',
      cliente_id: null,
    });
    expect(res.json().cuenta.fecha_pago).toBe('2026-03-10');
  });

  it('defaults the category of a purchase account payment to "Compras"', async () => {
    const a = { id: await purchaseAccount() };
    const res = await put(`cuentas/${a.id}/marcar-pagado`, {});
    expect(res.json().movimiento.categoria_nombre).toBe('Compras');
  });

  it('answers 409 ALREADY_PAID to a second call and writes nothing more', async () => {
    const a = await create(receivable());
    expect((await put(`cuentas/${a.id}/marcar-pagado`, {})).statusCode).toBe(200);
    const movements = await count('finance_movements');
    const again = await put(`cuentas/${a.id}/marcar-pagado`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'La cuenta ya está marcada como pagada.', code: 'ALREADY_PAID' });
    expect(await count('finance_movements')).toBe(movements);
  });

  it('lets exactly one of several concurrent calls pay the account', async () => {
    const a = await create(payable({ monto: 999.99 }));
    const results = await Promise.all(Array.from({ length: 6 }, () => put(`cuentas/${a.id}/marcar-pagado`, {})));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409]);
    const rows = await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM finance_movements WHERE cuenta_id = $1', [
      a.id,
    ]);
    expect(rows[0].n).toBe(1);
    const audit = await ctx.sql(`SELECT 1 FROM audit_log WHERE entidad_id = $1 AND accion = 'pagar'`, [a.id]);
    expect(audit).toHaveLength(1);
  });
});

describe('deleting a business', () => {
  it('removes its movements, categories and accounts, paid ones included', async () => {
    const { u, b } = await newOwner('Cierra');
    const cat = await post('categorias', { nombre: 'Cobros', tipo: 'ingreso' }, u, b);
    await post('movimientos', { monto: 5, metodo_pago: 'efectivo', categoria_id: cat.json().id }, u, b);
    const a = await create(receivable({ cliente_id: await customer(b, 'Cliente') }), u, b);
    expect((await put(`cuentas/${a.id}/marcar-pagado`, {}, u, b)).statusCode).toBe(200);
    const res = await app.inject({ method: 'DELETE', url: `/api/v1/businesses/${b}`, headers: u.auth });
    expect(res.statusCode).toBe(204);
    for (const table of ['finance_movements', 'finance_accounts', 'finance_categories']) {
      expect(await ctx.sql(`SELECT 1 FROM ${table} WHERE business_id = $1`, [b])).toHaveLength(0);
    }
  });
});
