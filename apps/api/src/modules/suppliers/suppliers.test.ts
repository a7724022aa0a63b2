import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { readXlsx } from '../../test/xlsx.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;

const url = (path = '', b = biz) => `/api/v1/businesses/${b}/proveedores${path}`;
const get = (path = '', u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url('', b), headers: u.auth, payload: payload as object });
const put = (id: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(`/${id}`, b), headers: u.auth, payload: payload as object });
const del = (id: string, u = owner, b = biz) =>
  app.inject({ method: 'DELETE', url: url(`/${id}`, b), headers: u.auth });

interface S {
  id: string;
  nombre: string;
  cuit: string | null;
  estado: string;
  deuda: number;
}

async function supplier(payload: object, u = owner, b = biz): Promise<S> {
  const res = await post(payload, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function product(nombre: string, b = biz, u = owner) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${b}/products`,
    headers: u.auth,
    payload: { nombre, precio_venta: 100 },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

const count = async () => (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM suppliers'))[0].n;

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
});

describe('suppliers: create, read, update', () => {
  it('creates a supplier with every field (aliases included), normalised, ignoring unknown properties', async () => {
    const res = await post({
      nombre: '  Distribuidora Sur ',
      cuit_cuil: '30712345671',
      email: ' Ventas@Sur.com.ar ',
      telefono: '0341 555-0000',
      direccion: 'Bv. Oroño 100',
      ciudad: 'Rosario',
      provincia: 'Santa Fe',
      pais: 'Argentina',
      contacto: 'Luis',
      condiciones_pago: '30 días',
      estado: 'ACTIVO',
      observaciones: 'Entrega los martes',
      business_id: otherBiz,
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({
      nombre: 'Distribuidora Sur',
      cuit: '30-71234567-1',
      cuit_cuil: '30-71234567-1',
      email: 'ventas@sur.com.ar',
      telefono: '0341 555-0000',
      direccion: 'Bv. Oroño 100',
      ciudad: 'Rosario',
      provincia: 'Santa Fe',
      pais: 'Argentina',
      contacto: 'Luis',
      condiciones_pago: '30 días',
      estado: 'activo',
      notas: 'Entrega los martes',
      observaciones: 'Entrega los martes',
      deuda: 0,
      deuda_vencida: 0,
      compras: { cantidad: 0, total: 0, pendientes_recepcion: 0, ultima_fecha: null },
    });
    expect(s.id).not.toBe('00000000-0000-4000-8000-000000000000');
    const one = await get(`/${s.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ nombre: 'Distribuidora Sur', cuit: '30-71234567-1' });
    const audit = await ctx.sql('SELECT accion FROM audit_log WHERE entidad = $1 AND entidad_id = $2', [
      'proveedor',
      s.id,
    ]);
    expect(audit).toEqual([{ accion: 'crear' }]);
  });

  it.each([
    [{}, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: '   ' }, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: 'x'.repeat(151) }, 'nombre', 'Debe tener como máximo 150 caracteres.'],
    [{ nombre: 'A', cuit: '30-71234567-2' }, 'cuit', 'CUIT/CUIL no válido.'],
    [{ nombre: 'A', cuit: '123' }, 'cuit', 'CUIT/CUIL no válido.'],
    [{ nombre: 'A', email: 'no-es-mail' }, 'email', 'El e-mail no es válido.'],
    [{ nombre: 'A', telefono: '1'.repeat(31) }, 'telefono', 'Debe tener como máximo 30 caracteres.'],
    [{ nombre: 'A', estado: 'borrado' }, 'estado', 'Valor no válido. Opciones: activo, inactivo.'],
    [{ nombre: 'A', notas: 'x'.repeat(1001) }, 'notas', 'Debe tener como máximo 1000 caracteres.'],
  ])('refuses %j (422 on %s) and stores nothing', async (payload, field, message) => {
    const before = await count();
    const res = await post(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(res.json().detail).toBe(res.json().errors[0].message);
    expect(await count()).toBe(before);
  });

  it('refuses a second supplier with the same CUIT in the business (409), not in another business', async () => {
    await supplier({ nombre: 'Lácteos del Oeste', cuit: '30-70987654-2' });
    const dup = await post({ nombre: 'Otro', cuit: '30709876542' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ detail: 'Ya existe un proveedor con ese CUIT.', code: 'DUPLICATE' });
    await supplier({ nombre: 'Lácteos del Oeste', cuit: '30-70987654-2' }, otherOwner, otherBiz);
  });

  it('updates only the given fields, clears with null, audits the change and refuses an empty PUT', async () => {
    const s = await supplier({ nombre: 'Bebidas Norte', telefono: '011 4444-0000', contacto: 'Marta' });
    const res = await put(s.id, { telefono: null, estado: 'inactivo', cuit_cuil: '30-50001122-6' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      nombre: 'Bebidas Norte',
      telefono: null,
      contacto: 'Marta',
      estado: 'inactivo',
      cuit: '30-50001122-6',
    });
    const audit = await ctx.sql<{ antes: unknown; despues: unknown }>(
      `SELECT antes, despues FROM audit_log WHERE entidad = 'proveedor' AND entidad_id = $1 AND accion = 'actualizar'`,
      [s.id],
    );
    expect(audit).toEqual([
      {
        antes: { telefono: '011 4444-0000', estado: 'activo', cuit: null },
        despues: { telefono: null, estado: 'inactivo', cuit: '30-50001122-6' },
      },
    ]);
    const empty = await put(s.id, { desconocido: 1 });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toBe('No hay datos para actualizar.');
    expect((await put(s.id, { nombre: null })).statusCode).toBe(422);
    const dup = await put(s.id, { cuit: '30-71234567-1' });
    expect(dup.statusCode).toBe(409);
  });

  it('lists sorted by name the Spanish way, searches without accents or hyphens, filters and pages', async () => {
    const b = await createBusiness(app, owner, 'Lista');
    for (const nombre of ['Zapallos SA', 'Ñandú Distribuciones', 'Árbol Verde', 'abasto central']) {
      await supplier({ nombre, contacto: nombre === 'Zapallos SA' ? 'José Pérez' : null }, owner, b);
    }
    await supplier({ nombre: 'Baja', estado: 'inactivo', cuit: '30-71112223-7' }, owner, b);
    const all = await get('', owner, b);
    expect(all.headers['x-total-count']).toBe('5');
    expect(all.json().map((s: S) => s.nombre)).toEqual([
      'abasto central',
      'Árbol Verde',
      'Baja',
      'Ñandú Distribuciones',
      'Zapallos SA',
    ]);
    expect((await get('?q=arbol', owner, b)).json().map((s: S) => s.nombre)).toEqual(['Árbol Verde']);
    expect((await get('?q=perez', owner, b)).json().map((s: S) => s.nombre)).toEqual(['Zapallos SA']);
    expect((await get('?q=71112223', owner, b)).json().map((s: S) => s.nombre)).toEqual(['Baja']);
    expect((await get('?estado=inactivo', owner, b)).json().map((s: S) => s.nombre)).toEqual(['Baja']);
    const page = await get('?limit=2&offset=2', owner, b);
    expect(page.headers['x-total-count']).toBe('5');
    expect(page.json().map((s: S) => s.nombre)).toEqual(['Baja', 'Ñandú Distribuciones']);
    expect((await get('?limit=-1', owner, b)).statusCode).toBe(422);
    expect((await get('?estado=x', owner, b)).statusCode).toBe(422);
  });

  it('exports the filtered list as .xlsx with numeric debts and neutralised text', async () => {
    const b = await createBusiness(app, owner, 'Export');
    await supplier({ nombre: '=HYPERLINK("x")', telefono: '+54 11 1234' }, owner, b);
    await supplier({ nombre: 'Zeta', cuit: '30-71555000-4' }, owner, b);
    const res = await get('/exportar', owner, b);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="proveedores-2026-03-15.xlsx"');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual([
      'Nombre',
      'CUIT',
      'E-mail',
      'Teléfono',
      'Contacto',
      'Dirección',
      'Ciudad',
      'Provincia',
      'País',
      'Condiciones de pago',
      'Estado',
      'Deuda',
      'Deuda vencida',
      'Notas',
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[1][0]).toBe(`'=HYPERLINK("x")`);
    expect(rows[1][3]).toBe("'+54 11 1234");
    expect(rows[1][11]).toBe(0);
    const filtered = await get('/exportar?q=zeta', owner, b);
    expect(await readXlsx(filtered.rawPayload)).toHaveLength(2);
  });
});

describe('suppliers: what is owed, delete and isolation', () => {
  it('shows the unpaid payables of the supplier (overdue part included) and its purchases', async () => {
    const s = await supplier({ nombre: 'Mayorista Oeste' });
    const p = await product('Harina 000');
    const compra = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/compras`,
      headers: owner.auth,
      payload: {
        proveedor_id: s.id,
        fecha: '2026-03-01',
        condicion_pago: 'cuenta_corriente',
        fecha_vencimiento: '2026-03-10',
        items: [{ producto_id: p.id, cantidad: 10, precio_unitario: 700 }],
      },
    });
    expect(compra.statusCode, compra.body).toBe(201);
    // A manual payable that names the supplier by id takes its name.
    const manual = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/finanzas/cuentas`,
      headers: owner.auth,
      payload: {
        tipo: 'por_pagar',
        proveedor_id: s.id,
        monto: 1500.5,
        fecha_vencimiento: '2026-04-01',
        descripcion: 'Flete',
      },
    });
    expect(manual.statusCode, manual.body).toBe(201);
    expect(manual.json()).toMatchObject({ proveedor_id: s.id, proveedor_nombre: 'Mayorista Oeste' });
    const detail = (await get(`/${s.id}`)).json();
    expect(detail).toMatchObject({
      deuda: 8500.5,
      deuda_vencida: 7000,
      cuentas_pendientes: 2,
      compras: { cantidad: 1, total: 7000, pendientes_recepcion: 1, ultima_fecha: '2026-03-01' },
    });
    const listed = (await get('?q=mayorista')).json()[0];
    expect(listed).toMatchObject({ deuda: 8500.5, deuda_vencida: 7000 });
    const mine = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${biz}/finanzas/cuentas-pagar?proveedor_id=${s.id}`,
      headers: owner.auth,
    });
    expect(mine.headers['x-total-count']).toBe('2');

    // Renaming the supplier renames its pending payables.
    await put(s.id, { nombre: 'Mayorista del Oeste' });
    const renamed = await ctx.sql<{ proveedor_nombre: string }>(
      'SELECT DISTINCT proveedor_nombre FROM finance_accounts WHERE proveedor_id = $1',
      [s.id],
    );
    expect(renamed).toEqual([{ proveedor_nombre: 'Mayorista del Oeste' }]);
  });

  it('refuses deleting a supplier referenced by purchases or payables (409 IN_USE) and deletes a free one', async () => {
    const used = await supplier({ nombre: 'Con compras' });
    const p = await product('Azúcar');
    const compra = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/compras`,
      headers: owner.auth,
      payload: { proveedor_id: used.id, items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 0 }] },
    });
    expect(compra.statusCode).toBe(201);
    const res = await del(used.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'No se puede eliminar el proveedor porque tiene compras asociadas.',
      code: 'IN_USE',
    });
    expect((await get(`/${used.id}`)).statusCode).toBe(200);

    const withAccount = await supplier({ nombre: 'Con cuenta' });
    await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/finanzas/cuentas`,
      headers: owner.auth,
      payload: {
        tipo: 'por_pagar',
        proveedor_id: withAccount.id,
        monto: 10,
        fecha_vencimiento: '2026-04-01',
        descripcion: 'x',
      },
    });
    const res2 = await del(withAccount.id);
    expect(res2.statusCode).toBe(409);
    expect(res2.json().code).toBe('IN_USE');

    const free = await supplier({ nombre: 'Libre' });
    expect((await del(free.id)).statusCode).toBe(204);
    expect((await get(`/${free.id}`)).statusCode).toBe(404);
    const audit = await ctx.sql('SELECT accion FROM audit_log WHERE entidad_id = $1 ORDER BY fecha', [free.id]);
    expect(audit).toEqual([{ accion: 'crear' }, { accion: 'eliminar' }]);
  });

  it("answers 404 for another business's supplier on every route and never lists it", async () => {
    const foreign = await supplier({ nombre: 'Proveedor de Beto' }, otherOwner, otherBiz);
    for (const id of [foreign.id, 'no-es-id', '00000000-0000-4000-8000-000000000000']) {
      const res = await get(`/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Proveedor no encontrado.', code: 'NOT_FOUND' });
      expect((await put(id, { nombre: 'Robado' })).statusCode).toBe(404);
      expect((await del(id)).statusCode).toBe(404);
    }
    const list = (await get('?limit=500')).json() as S[];
    expect(list.some((s) => s.id === foreign.id)).toBe(false);
    const exp = await readXlsx((await get('/exportar')).rawPayload);
    expect(exp.some((r) => r[0] === 'Proveedor de Beto')).toBe(false);
    // Nor can a payable of this business name it.
    const acc = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/finanzas/cuentas`,
      headers: owner.auth,
      payload: {
        tipo: 'por_pagar',
        proveedor_id: foreign.id,
        proveedor_nombre: 'Igual',
        monto: 10,
        fecha_vencimiento: '2026-04-01',
        descripcion: 'x',
      },
    });
    expect(acc.statusCode).toBe(422);
    expect(acc.json().errors).toContainEqual({
      field: 'proveedor_id',
      message: 'Proveedor no encontrado en este negocio.',
    });
  });

  it('checks the stock permission flags per action', async () => {
    const viewer = await registerUser(app, 'Vera');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_stock']);
    expect((await get('', viewer)).statusCode).toBe(200);
    expect((await get('/exportar', viewer)).statusCode).toBe(200);
    const res = await post({ nombre: 'No' }, viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', modulo: 'stock', accion: 'editar' });
    const s = await supplier({ nombre: 'Protegido' });
    expect((await del(s.id, viewer)).statusCode).toBe(403);
    const editor = await registerUser(app, 'Edu');
    await addMember(ctx, biz, owner, editor, ['puede_editar_stock']);
    expect((await get('', editor)).statusCode).toBe(403);
    expect((await put(s.id, { nombre: 'Cambiado' }, editor)).statusCode).toBe(200);
    expect((await del(s.id, editor)).statusCode).toBe(403);
    const deleter = await registerUser(app, 'Dora');
    await addMember(ctx, biz, owner, deleter, ['puede_eliminar_stock']);
    expect((await del(s.id, deleter)).statusCode).toBe(204);
  });
});

describe('suppliers: sorting the list', () => {
  it('sorts by name either way and by CUIT with the ones without last', async () => {
    const b = await createBusiness(app, owner, 'Orden Proveedores');
    await supplier({ nombre: 'Zeta SA', cuit: '30709876542' }, owner, b);
    await supplier({ nombre: 'Ñandú SRL' }, owner, b);
    await supplier({ nombre: 'Alfa SA', cuit: '30712345671' }, owner, b);
    const names = async (qs: string) => ((await get(qs, owner, b)).json() as { nombre: string }[]).map((s) => s.nombre);
    expect(await names('')).toEqual(['Alfa SA', 'Ñandú SRL', 'Zeta SA']);
    expect(await names('?orden=nombre&direccion=desc')).toEqual(['Zeta SA', 'Ñandú SRL', 'Alfa SA']);
    expect(await names('?orden=cuit')).toEqual(['Zeta SA', 'Alfa SA', 'Ñandú SRL']);
  });
});
