import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

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

const url = (path: string, b = biz) => `/api/v1/businesses/${b}/finanzas/${path}`;
const get = (path: string, u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (path: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url(path, b), headers: u.auth, payload: payload as object });
const put = (path: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(path, b), headers: u.auth, payload: payload as object });
const del = (path: string, u = owner, b = biz) => app.inject({ method: 'DELETE', url: url(path, b), headers: u.auth });

async function category(nombre: string, tipo: 'ingreso' | 'egreso', extra: object = {}, b = biz, u = owner) {
  const res = await post('categorias', { nombre, tipo, ...extra }, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; nombre: string; tipo: string; activo: boolean; sistema: boolean };
}

async function customer(b: string, nombre: string, apellido: string | null = null) {
  const [row] = await ctx.sql<{ id: string }>(
    'INSERT INTO customers (business_id, nombre, apellido) VALUES ($1, $2, $3) RETURNING id',
    [b, nombre, apellido],
  );
  return row.id;
}

const auditRows = (entidadId: string) =>
  ctx.sql<{ entidad: string; accion: string; antes: unknown; despues: unknown }>(
    'SELECT entidad, accion, antes, despues FROM audit_log WHERE entidad_id = $1 ORDER BY fecha, accion',
    [entidadId],
  );

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
  clock = new Date('2026-03-15T15:00:00Z');
});

describe('finance categories', () => {
  it('lists the system categories Ventas and Compras of a new business, by tipo and nombre', async () => {
    const res = await get('categorias');
    expect(res.statusCode).toBe(200);
    const cats = res.json() as { nombre: string; tipo: string; sistema: boolean; activo: boolean }[];
    expect(cats.map((c) => [c.nombre, c.tipo, c.sistema, c.activo])).toEqual([
      ['Compras', 'egreso', true, true],
      ['Ventas', 'ingreso', true, true],
    ]);
  });

  it('creates a category with defaults, trims, audits, and sorts names the Spanish way', async () => {
    const res = await post('categorias', {
      nombre: '  Ñoquis del 29  ',
      tipo: 'egreso',
      descripcion: '',
      business_id: 'x',
    });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      nombre: 'Ñoquis del 29',
      tipo: 'egreso',
      descripcion: null,
      activo: true,
      sistema: false,
    });
    expect(Object.keys(c).sort()).toEqual(
      ['activo', 'actualizado_en', 'creado_en', 'descripcion', 'id', 'nombre', 'sistema', 'tipo'].sort(),
    );
    await category('Alquiler', 'egreso');
    await category('Zapatería', 'egreso');
    const names = (await get('categorias?tipo=egreso')).json().map((x: { nombre: string }) => x.nombre);
    expect(names).toEqual(['Alquiler', 'Compras', 'Ñoquis del 29', 'Zapatería']);
    expect(await auditRows(c.id)).toEqual([
      {
        entidad: 'categoria_financiera',
        accion: 'crear',
        antes: null,
        despues: { nombre: 'Ñoquis del 29', descripcion: null, tipo: 'egreso', activo: true },
      },
    ]);
  });

  it('filters by tipo and activo', async () => {
    await category('Vieja', 'ingreso', { activo: false });
    const inactive = (await get('categorias?activo=false')).json();
    expect(inactive.map((c: { nombre: string }) => c.nombre)).toEqual(['Vieja']);
    const ingresosActivos = (await get('categorias?tipo=ingreso&activo=1')).json();
    expect(ingresosActivos.map((c: { nombre: string }) => c.nombre)).toEqual(['Ventas']);
    expect((await get('categorias?tipo=otro')).statusCode).toBe(422);
  });

  it.each([
    [{ tipo: 'ingreso' }, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: '   ', tipo: 'ingreso' }, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: 'x'.repeat(101), tipo: 'ingreso' }, 'nombre', 'Debe tener como máximo 100 caracteres.'],
    [{ nombre: 'Sin tipo' }, 'tipo', 'Este campo es obligatorio.'],
    [{ nombre: 'Mal tipo', tipo: 'gasto' }, 'tipo', 'Valor no válido. Opciones: ingreso, egreso.'],
    [
      { nombre: 'Desc', tipo: 'ingreso', descripcion: 'x'.repeat(501) },
      'descripcion',
      'Debe tener como máximo 500 caracteres.',
    ],
    [{ nombre: 'Act', tipo: 'ingreso', activo: 'quizas' }, 'activo', 'Debe ser verdadero o falso.'],
  ])('refuses %j with 422 on %s', async (payload, field, message) => {
    const before = await ctx.sql('SELECT id FROM finance_categories');
    const res = await post('categorias', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await ctx.sql('SELECT id FROM finance_categories')).toHaveLength(before.length);
  });

  it('refuses a duplicate name for the same tipo in any case (409), allows it for the other tipo', async () => {
    const res = await post('categorias', { nombre: 'alquiler', tipo: 'egreso' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: 'Ya existe una categoría con este nombre y tipo.', code: 'DUPLICATE' });
    expect((await post('categorias', { nombre: 'Alquiler', tipo: 'ingreso' })).statusCode).toBe(201);
    // The same name in another business is another category.
    expect((await post('categorias', { nombre: 'Alquiler', tipo: 'egreso' }, otherOwner, otherBiz)).statusCode).toBe(
      201,
    );
  });

  it('updates fields partially, refuses renaming onto a duplicate, and audits only changes', async () => {
    const c = await category('Luz', 'egreso');
    const res = await put(`categorias/${c.id}`, { descripcion: 'Edenor', activo: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ nombre: 'Luz', descripcion: 'Edenor', activo: false });
    const dup = await put(`categorias/${c.id}`, { nombre: 'ALQUILER' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('DUPLICATE');
    // Sending the same values (the client sends the whole form) changes nothing.
    expect((await put(`categorias/${c.id}`, { nombre: 'Luz', tipo: 'egreso' })).statusCode).toBe(200);
    const rows = await auditRows(c.id);
    expect(rows.map((r) => r.accion)).toEqual(['crear', 'actualizar']);
    expect(rows[1]).toMatchObject({
      antes: { descripcion: null, activo: true },
      despues: { descripcion: 'Edenor', activo: false },
    });
    expect((await put(`categorias/${c.id}`, {})).json()).toMatchObject({ detail: 'No hay datos para actualizar.' });
    expect((await put(`categorias/${c.id}`, { nombre: null })).statusCode).toBe(422);
  });

  it('protects the system categories: only the description changes (409 INVALID_STATE)', async () => {
    const ventas = (await get('categorias?tipo=ingreso')).json().find((c: { nombre: string }) => c.nombre === 'Ventas');
    for (const payload of [{ nombre: 'Ventas POS' }, { activo: false }, { tipo: 'egreso' }]) {
      const res = await put(`categorias/${ventas.id}`, payload);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        detail: 'Las categorías del sistema no se pueden renombrar, desactivar ni eliminar.',
        code: 'INVALID_STATE',
      });
    }
    const ok = await put(`categorias/${ventas.id}`, { nombre: 'Ventas', descripcion: 'Ventas del mostrador' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ nombre: 'Ventas', descripcion: 'Ventas del mostrador', sistema: true });
    const d = await del(`categorias/${ventas.id}`);
    expect(d.statusCode).toBe(409);
    expect(d.json().code).toBe('INVALID_STATE');
  });

  it('refuses changing the tipo or deleting a category with movements (409 IN_USE); without them both work', async () => {
    const c = await category('Fletes', 'egreso');
    const m = await post('movimientos', { tipo: 'egreso', categoria_id: c.id, monto: 1000, metodo_pago: 'efectivo' });
    expect(m.statusCode).toBe(201);
    const t = await put(`categorias/${c.id}`, { tipo: 'ingreso' });
    expect(t.statusCode).toBe(409);
    expect(t.json()).toEqual({
      detail: 'No se puede cambiar el tipo: la categoría tiene movimientos.',
      code: 'IN_USE',
    });
    const d = await del(`categorias/${c.id}`);
    expect(d.statusCode).toBe(409);
    expect(d.json()).toEqual({
      detail: 'No se puede eliminar la categoría porque tiene movimientos asociados.',
      code: 'IN_USE',
    });
    expect(await ctx.sql('SELECT 1 FROM finance_categories WHERE id = $1', [c.id])).toHaveLength(1);

    const free = await category('Libre', 'egreso');
    expect((await put(`categorias/${free.id}`, { tipo: 'ingreso' })).json().tipo).toBe('ingreso');
    expect((await del(`categorias/${free.id}`)).statusCode).toBe(204);
    expect(await ctx.sql('SELECT 1 FROM finance_categories WHERE id = $1', [free.id])).toHaveLength(0);
    expect((await auditRows(free.id)).map((r) => r.accion)).toEqual(['crear', 'actualizar', 'eliminar']);
  });

  it('answers 404 for missing, malformed and foreign category ids', async () => {
    const foreign = await category('Ajena', 'ingreso', {}, otherBiz, otherOwner);
    for (const id of [foreign.id, '00000000-0000-4000-8000-000000000000', 'no-es-uuid']) {
      const p = await put(`categorias/${id}`, { descripcion: 'x' });
      expect(p.statusCode).toBe(404);
      expect(p.json()).toEqual({ detail: 'Categoría financiera no encontrada.', code: 'NOT_FOUND' });
      expect((await del(`categorias/${id}`)).statusCode).toBe(404);
    }
    expect((await get('categorias')).json().map((c: { id: string }) => c.id)).not.toContain(foreign.id);
    expect(await ctx.sql('SELECT descripcion FROM finance_categories WHERE id = $1', [foreign.id])).toEqual([
      { descripcion: null },
    ]);
  });
});

describe('finance movements', () => {
  it('creates a movement with the defaults (ingreso, today in the business time zone), exact money and the client name', async () => {
    const cli = await customer(biz, 'María', 'González');
    const ventas = (await get('categorias?tipo=ingreso')).json().find((c: { nombre: string }) => c.nombre === 'Ventas');
    // 02:30 UTC on March 16 is still March 15 in Buenos Aires.
    clock = new Date('2026-03-16T02:30:00Z');
    const res = await post('movimientos', {
      monto: '1234.5',
      metodo_pago: 'Tarjeta de Débito',
      categoria_id: ventas.id,
      cliente_id: cli,
      descripcion: '  Venta mostrador ',
      observaciones: '',
      origen: 'venta',
      anulado: true,
      creado_por: owner.id,
    });
    clock = new Date('2026-03-15T15:00:00Z');
    expect(res.statusCode).toBe(201);
    const m = res.json();
    expect(m).toMatchObject({
      tipo: 'ingreso',
      categoria_id: ventas.id,
      categoria_nombre: 'Ventas',
      monto: 1234.5,
      fecha: '2026-03-15',
      metodo_pago: 'tarjeta_debito',
      descripcion: 'Venta mostrador',
      observaciones: null,
      cliente_id: cli,
      cliente_nombre: 'María González',
      origen: 'manual',
      venta_id: null,
      compra_id: null,
      cuenta_id: null,
      anulado: false,
      creado_por: owner.id,
    });
    const [row] = await ctx.sql<{ monto: string }>('SELECT monto::text FROM finance_movements WHERE id = $1', [m.id]);
    expect(row.monto).toBe('1234.50');
    const audit = await auditRows(m.id);
    expect(audit).toEqual([
      expect.objectContaining({
        entidad: 'movimiento',
        accion: 'crear',
        antes: null,
        despues: expect.objectContaining({ monto: 1234.5 }),
      }),
    ]);
  });

  it.each([
    ['efectivo', 'efectivo'],
    ['TARJETA', 'tarjeta_debito'],
    ['tarjeta de credito', 'tarjeta_credito'],
    ['Mercado Pago', 'mercado_pago'],
    ['Transferencia', 'transferencia'],
    ['Cheque', 'cheque'],
    ['otro', 'otro'],
  ])('accepts the payment method %s as %s', async (input, code) => {
    const res = await post('movimientos', { tipo: 'egreso', monto: 1, metodo_pago: input, fecha: '2026-03-01' });
    expect(res.statusCode).toBe(201);
    expect(res.json().metodo_pago).toBe(code);
  });

  it.each([
    [{ metodo_pago: 'efectivo' }, 'monto', 'Este campo es obligatorio.'],
    [{ monto: 0, metodo_pago: 'efectivo' }, 'monto', 'Debe ser mayor a 0.'],
    [{ monto: -5, metodo_pago: 'efectivo' }, 'monto', 'Debe ser mayor a 0.'],
    [{ monto: 'mucho', metodo_pago: 'efectivo' }, 'monto', 'Debe ser un número.'],
    [{ monto: 10.123, metodo_pago: 'efectivo' }, 'monto', 'Admite como máximo 2 decimales.'],
    [{ monto: '1000000000000', metodo_pago: 'efectivo' }, 'monto', 'Debe ser menor o igual a 999999999999.99.'],
    [{ monto: 10 }, 'metodo_pago', 'Este campo es obligatorio.'],
    [
      { monto: 10, metodo_pago: 'bitcoin' },
      'metodo_pago',
      'Valor no válido. Opciones: efectivo, tarjeta_debito, tarjeta_credito, transferencia, mercado_pago, cheque, otro.',
    ],
    [{ monto: 10, metodo_pago: 'efectivo', tipo: 'gasto' }, 'tipo', 'Valor no válido. Opciones: ingreso, egreso.'],
    [{ monto: 10, metodo_pago: 'efectivo', fecha: '2026-02-30' }, 'fecha', 'Fecha no válida (formato AAAA-MM-DD).'],
    [{ monto: 10, metodo_pago: 'efectivo', categoria_id: 'abc' }, 'categoria_id', 'Identificador no válido.'],
    [{ monto: 10, metodo_pago: 'efectivo', cliente_id: 'abc' }, 'cliente_id', 'Identificador no válido.'],
    [
      { monto: 10, metodo_pago: 'efectivo', descripcion: 'x'.repeat(501) },
      'descripcion',
      'Debe tener como máximo 500 caracteres.',
    ],
    [
      { monto: 10, metodo_pago: 'efectivo', observaciones: 'x'.repeat(1001) },
      'observaciones',
      'Debe tener como máximo 1000 caracteres.',
    ],
  ])('refuses %j with 422 on %s and stores nothing', async (payload, field, message) => {
    const before = await ctx.sql('SELECT id FROM finance_movements');
    const res = await post('movimientos', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await ctx.sql('SELECT id FROM finance_movements')).toHaveLength(before.length);
  });

  it('checks the category (same business, same tipo, active) and the client (same business)', async () => {
    const egreso = await category('Sueldos', 'egreso');
    const inactiva = await category('Inactiva', 'ingreso', { activo: false });
    const ajena = await category('De Beto', 'ingreso', {}, otherBiz, otherOwner);
    const clienteAjeno = await customer(otherBiz, 'Cliente', 'Ajeno');
    const before = await ctx.sql('SELECT id FROM finance_movements');
    const cases: [object, string, string][] = [
      [{ categoria_id: egreso.id }, 'categoria_id', 'El tipo de la categoría no coincide con el tipo de movimiento.'],
      [{ categoria_id: inactiva.id }, 'categoria_id', 'La categoría está inactiva.'],
      [{ categoria_id: ajena.id }, 'categoria_id', 'Categoría financiera no encontrada en este negocio.'],
      [{ cliente_id: clienteAjeno }, 'cliente_id', 'Cliente no encontrado en este negocio.'],
      [{ cliente_id: '00000000-0000-4000-8000-000000000000' }, 'cliente_id', 'Cliente no encontrado en este negocio.'],
    ];
    for (const [extra, field, message] of cases) {
      const res = await post('movimientos', { tipo: 'ingreso', monto: 10, metodo_pago: 'efectivo', ...extra });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ detail: message, errors: [{ field, message }] });
    }
    expect(await ctx.sql('SELECT id FROM finance_movements')).toHaveLength(before.length);
    // Empty category and client arrive as null or "" from the forms: none.
    const ok = await post('movimientos', { monto: 10, metodo_pago: 'efectivo', categoria_id: '', cliente_id: null });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      categoria_id: null,
      categoria_nombre: null,
      cliente_id: null,
      cliente_nombre: null,
    });
  });

  it('lists newest date first then newest created, with filters, paging and X-Total-Count', async () => {
    const { u: o, b } = await newOwner('Lista');
    const luz = await category('Luz', 'egreso', {}, b, o);
    const mk = async (p: object) => {
      const r = await post('movimientos', { metodo_pago: 'efectivo', ...p }, o, b);
      expect(r.statusCode, r.body).toBe(201);
      return r.json().id as string;
    };
    const a = await mk({ monto: 100, fecha: '2026-03-01', descripcion: 'a' });
    const bb = await mk({ monto: 200, fecha: '2026-03-10', descripcion: 'b' });
    const c = await mk({ monto: 300, fecha: '2026-03-10', descripcion: 'c', tipo: 'egreso', categoria_id: luz.id });
    const d = await mk({ monto: 400, fecha: '2026-02-28', descripcion: 'd', tipo: 'egreso' });
    const voided = await mk({ monto: 999, fecha: '2026-03-05', descripcion: 'anulado' });
    await ctx.sql(`UPDATE finance_movements SET anulado = true, origen = 'venta' WHERE id = $1`, [voided]);

    const ids = async (q: string) => {
      const r = await get(`movimientos${q}`, o, b);
      expect(r.statusCode, r.body).toBe(200);
      return { ids: r.json().map((m: { id: string }) => m.id), total: Number(r.headers['x-total-count']) };
    };
    expect(await ids('')).toEqual({ ids: [c, bb, a, d], total: 4 });
    expect(await ids('?incluir_anulados=true')).toEqual({ ids: [c, bb, voided, a, d], total: 5 });
    expect(await ids('?tipo=egreso')).toEqual({ ids: [c, d], total: 2 });
    expect(await ids(`?categoria_id=${luz.id}`)).toEqual({ ids: [c], total: 1 });
    expect(await ids('?fecha_desde=2026-03-01&fecha_hasta=2026-03-10')).toEqual({ ids: [c, bb, a], total: 3 });
    expect(await ids('?fecha_hasta=2026-02-28')).toEqual({ ids: [d], total: 1 });
    expect(await ids('?origen=manual')).toEqual({ ids: [c, bb, a, d], total: 4 });
    expect(await ids('?origen=venta&incluir_anulados=1')).toEqual({ ids: [voided], total: 1 });
    expect(await ids('?limit=2&offset=1')).toEqual({ ids: [bb, a], total: 4 });
    expect(await ids('?limit=5000')).toEqual({ ids: [c, bb, a, d], total: 4 });
    expect(await ids('?tipo=&categoria_id=')).toEqual({ ids: [c, bb, a, d], total: 4 });
    for (const q of [
      '?limit=-1',
      '?limit=1.5',
      '?offset=-3',
      '?tipo=otro',
      '?fecha_desde=ayer',
      '?categoria_id=abc',
      '?origen=x',
      '?incluir_anulados=tal vez',
    ]) {
      const r = await get(`movimientos${q}`, o, b);
      expect(r.statusCode, q).toBe(422);
    }
  });

  it('exports the filtered movements to .xlsx (amounts as numbers, formula-like text neutralised), never another business', async () => {
    const { u: o, b } = await newOwner('Exporta');
    const luz = await category('Luz', 'egreso', {}, b, o);
    const ana = await customer(b, 'Ana', 'Pérez');
    const mk = async (p: object) => {
      const r = await post('movimientos', { metodo_pago: 'efectivo', ...p }, o, b);
      expect(r.statusCode, r.body).toBe(201);
    };
    await mk({
      monto: 1234.56,
      fecha: '2026-03-10',
      descripcion: 'Cobro',
      cliente_id: ana,
      metodo_pago: 'transferencia',
    });
    await mk({ monto: 300, fecha: '2026-03-02', descripcion: '=SUM(A1)', tipo: 'egreso', categoria_id: luz.id });
    await post('movimientos', { monto: 77, descripcion: 'Ajeno', metodo_pago: 'efectivo' }, otherOwner, otherBiz);

    const res = await get('movimientos/exportar', o, b);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toBe('attachment; filename="movimientos-2026-03-15.xlsx"');
    const rows = await readXlsx(res.rawPayload, 'Movimientos');
    expect(rows).toEqual([
      [
        'Fecha',
        'Tipo',
        'Categoría',
        'Descripción',
        'Monto',
        'Medio de pago',
        'Cliente',
        'Origen',
        'Anulado',
        'Observaciones',
      ],
      [new Date('2026-03-10T00:00:00Z'), 'Ingreso', undefined, 'Cobro', 1234.56, 'Transferencia', 'Ana Pérez', 'Manual', 'No'],
      [new Date('2026-03-02T00:00:00Z'), 'Egreso', 'Luz', "'=SUM(A1)", 300, 'Efectivo', undefined, 'Manual', 'No'],
    ]);
    // The list's filters, without paging.
    const egresos = await readXlsx((await get('movimientos/exportar?tipo=egreso&limit=1', o, b)).rawPayload);
    expect(egresos.map((r) => r[3])).toEqual(['Descripción', "'=SUM(A1)"]);
    expect((await get('movimientos/exportar?categoria_id=abc', o, b)).statusCode).toBe(422);

    // finanzas/ver is enough; without it, 403.
    const viewer = await registerUser(app, 'Vista');
    await addMember(ctx, b, o, viewer, ['puede_ver_finanzas']);
    expect((await get('movimientos/exportar', viewer, b)).statusCode).toBe(200);
    const outsider = await registerUser(app, 'SinFinanzas');
    await addMember(ctx, b, o, outsider, ['puede_ver_clientes']);
    expect((await get('movimientos/exportar', outsider, b)).json()).toMatchObject({
      code: 'FORBIDDEN',
      modulo: 'finanzas',
    });
  });

  it('updates a manual movement partially; the category must match the resulting tipo', async () => {
    const ing = await category('Propinas', 'ingreso');
    const egr = await category('Varios', 'egreso');
    const created = (
      await post('movimientos', { monto: '50.10', metodo_pago: 'efectivo', categoria_id: ing.id, fecha: '2026-03-02' })
    ).json();

    const mismatch = await put(`movimientos/${created.id}`, { tipo: 'egreso' });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().detail).toBe('El tipo de la categoría no coincide con el tipo de movimiento.');

    const res = await put(`movimientos/${created.id}`, {
      tipo: 'egreso',
      categoria_id: egr.id,
      monto: 75.25,
      metodo_pago: 'Transferencia',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      tipo: 'egreso',
      categoria_id: egr.id,
      categoria_nombre: 'Varios',
      monto: 75.25,
      metodo_pago: 'transferencia',
      fecha: '2026-03-02',
    });

    const cleared = await put(`movimientos/${created.id}`, { categoria_id: null, descripcion: 'Sin categoría' });
    expect(cleared.json()).toMatchObject({ categoria_id: null, categoria_nombre: null, descripcion: 'Sin categoría' });

    for (const [payload, field] of [
      [{ monto: null }, 'monto'],
      [{ fecha: null }, 'fecha'],
      [{ tipo: null }, 'tipo'],
      [{ metodo_pago: '' }, 'metodo_pago'],
    ] as const) {
      const r = await put(`movimientos/${created.id}`, payload);
      expect(r.statusCode).toBe(422);
      expect(r.json().errors).toContainEqual({ field, message: 'Este campo es obligatorio.' });
    }
    expect((await put(`movimientos/${created.id}`, { nada: 1 })).json().detail).toBe('No hay datos para actualizar.');

    const audit = await auditRows(created.id);
    expect(audit.map((a) => a.accion)).toEqual(['crear', 'actualizar', 'actualizar']);
    expect(audit[1]).toMatchObject({
      antes: { tipo: 'ingreso', categoria_id: ing.id, monto: 50.1, metodo_pago: 'efectivo' },
      despues: { tipo: 'egreso', categoria_id: egr.id, monto: 75.25, metodo_pago: 'transferencia' },
    });
  });

  it('keeps a movement whose category became inactive editable, but refuses choosing an inactive one', async () => {
    const c = await category('Temporal', 'ingreso');
    const m = (await post('movimientos', { monto: 10, metodo_pago: 'efectivo', categoria_id: c.id })).json();
    await put(`categorias/${c.id}`, { activo: false });
    const ok = await put(`movimientos/${m.id}`, { monto: 20, categoria_id: c.id });
    expect(ok.statusCode).toBe(200);
    const other = (await post('movimientos', { monto: 10, metodo_pago: 'efectivo' })).json();
    const bad = await put(`movimientos/${other.id}`, { categoria_id: c.id });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBe('La categoría está inactiva.');
  });

  it('deletes a manual movement with an audit row', async () => {
    const m = (await post('movimientos', { monto: 10, metodo_pago: 'efectivo' })).json();
    expect((await del(`movimientos/${m.id}`)).statusCode).toBe(204);
    expect(await ctx.sql('SELECT 1 FROM finance_movements WHERE id = $1', [m.id])).toHaveLength(0);
    expect((await auditRows(m.id)).map((a) => a.accion)).toEqual(['crear', 'eliminar']);
    expect((await del(`movimientos/${m.id}`)).statusCode).toBe(404);
  });

  it.each([
    ['venta', 'Este movimiento lo generó una venta: anula la venta en lugar de modificarlo.'],
    ['compra', 'Este movimiento lo generó una compra: cancelá la compra en lugar de modificarlo.'],
    ['cuenta', 'Este movimiento lo generó el pago de una cuenta y no se puede modificar.'],
  ])('refuses changing or deleting a movement generated by a %s (409 GENERATED_RECORD)', async (origen, message) => {
    const m = (await post('movimientos', { monto: 10, metodo_pago: 'efectivo', descripcion: 'original' })).json();
    await ctx.sql('UPDATE finance_movements SET origen = $2 WHERE id = $1', [m.id, origen]);
    const p = await put(`movimientos/${m.id}`, { descripcion: 'cambiada' });
    expect(p.statusCode).toBe(409);
    expect(p.json()).toEqual({ detail: message, code: 'GENERATED_RECORD' });
    const d = await del(`movimientos/${m.id}`);
    expect(d.statusCode).toBe(409);
    expect(d.json()).toEqual({ detail: message, code: 'GENERATED_RECORD' });
    expect(await ctx.sql('SELECT descripcion FROM finance_movements WHERE id = $1', [m.id])).toEqual([
      { descripcion: 'original' },
    ]);
  });

  it("answers 404 for another business's movement and never lists it", async () => {
    const foreign = (
      await post('movimientos', { monto: 777, metodo_pago: 'efectivo', descripcion: 'de Beto' }, otherOwner, otherBiz)
    ).json();
    for (const id of [foreign.id, 'xyz', '00000000-0000-4000-8000-000000000000']) {
      const p = await put(`movimientos/${id}`, { descripcion: 'robada' });
      expect(p.statusCode).toBe(404);
      expect(p.json()).toEqual({ detail: 'Movimiento no encontrado.', code: 'NOT_FOUND' });
      expect((await del(`movimientos/${id}`)).statusCode).toBe(404);
    }
    const mine = (await get('movimientos?limit=500')).json();
    expect(mine.map((m: { id: string }) => m.id)).not.toContain(foreign.id);
    expect(await ctx.sql('SELECT descripcion FROM finance_movements WHERE id = $1', [foreign.id])).toEqual([
      { descripcion: 'de Beto' },
    ]);
  });
});
