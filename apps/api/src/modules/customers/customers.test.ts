import { randomUUID } from 'node:crypto';
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

const url = (path = '', b = biz) => `/api/v1/businesses/${b}/clientes${path}`;
const get = (path = '', u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url('', b), headers: u.auth, payload: payload as object });
const put = (id: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(`/${id}`, b), headers: u.auth, payload: payload as object });
const del = (id: string, u = owner, b = biz) =>
  app.inject({ method: 'DELETE', url: url(`/${id}`, b), headers: u.auth });

async function customer(payload: object, u = owner, b = biz) {
  const res = await post(payload, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; nombre: string; documento_numero: string | null };
}

const count = async () => (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM customers'))[0].n;

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
});

describe('customers', () => {
  it('creates a customer with every field, trimmed and normalised, ignoring unknown properties', async () => {
    const res = await post({
      nombre: '  Ana ',
      apellido: 'Pérez',
      email: ' Ana@Ejemplo.com ',
      telefono: '+54 9 11 5555-0000',
      direccion: 'Av. Corrientes 1234',
      documento_tipo: 'dni',
      documento_numero: '30.111.222',
      condicion_iva: 'monotributista',
      notas: '',
      business_id: otherBiz,
      id: randomUUID(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      nombre: 'Ana',
      apellido: 'Pérez',
      email: 'ana@ejemplo.com',
      telefono: '+54 9 11 5555-0000',
      direccion: 'Av. Corrientes 1234',
      documento_tipo: 'DNI',
      documento_numero: '30111222',
      condicion_iva: 'monotributista',
      notas: null,
    });
    expect(Object.keys(c).sort()).toEqual(
      [
        'id',
        'nombre',
        'apellido',
        'email',
        'telefono',
        'direccion',
        'documento_tipo',
        'documento_numero',
        'condicion_iva',
        'notas',
        'limite_credito',
        'lista_precios_id',
        'creado_en',
        'actualizado_en',
      ].sort(),
    );
    const [row] = await ctx.sql('SELECT business_id FROM customers WHERE id = $1', [c.id]);
    expect(row.business_id).toBe(biz);
    const audit = await ctx.sql('SELECT entidad, accion FROM audit_log WHERE entidad_id = $1', [c.id]);
    expect(audit).toEqual([{ entidad: 'cliente', accion: 'crear' }]);
  });

  it('defaults condicion_iva to consumidor_final and accepts a CUIT with or without hyphens', async () => {
    const c = await customer({
      nombre: 'Distribuidora Norte',
      documento_tipo: 'CUIT',
      documento_numero: '30712345671',
    });
    expect(c).toMatchObject({ documento_numero: '30-71234567-1', condicion_iva: 'consumidor_final', apellido: null });
    const cuil = await customer({ nombre: 'Luis', documento_tipo: 'CUIL', documento_numero: '20 12345678 6' });
    expect(cuil.documento_numero).toBe('20-12345678-6');
  });

  it.each([
    [{}, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: '   ' }, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: 'x'.repeat(101) }, 'nombre', 'Debe tener como máximo 100 caracteres.'],
    [{ nombre: 'A', apellido: 'x'.repeat(101) }, 'apellido', 'Debe tener como máximo 100 caracteres.'],
    [{ nombre: 'A', email: 'no-es-mail' }, 'email', 'El e-mail no es válido.'],
    [{ nombre: 'A', telefono: '1'.repeat(31) }, 'telefono', 'Debe tener como máximo 30 caracteres.'],
    [{ nombre: 'A', direccion: 'x'.repeat(201) }, 'direccion', 'Debe tener como máximo 200 caracteres.'],
    [
      { nombre: 'A', documento_tipo: 'cédula' },
      'documento_tipo',
      'Valor no válido. Opciones: DNI, CUIT, CUIL, CDI, LE, LC, Pasaporte, otro.',
    ],
    [{ nombre: 'A', documento_numero: '30111222' }, 'documento_tipo', 'Indicá el tipo de documento.'],
    [
      { nombre: 'A', documento_tipo: 'DNI', documento_numero: '123' },
      'documento_numero',
      'El DNI debe tener 7 u 8 dígitos.',
    ],
    [
      { nombre: 'A', documento_tipo: 'CUIT', documento_numero: '30-71234567-2' },
      'documento_numero',
      'CUIT/CUIL no válido.',
    ],
    [
      { nombre: 'A', documento_tipo: 'otro', documento_numero: 'x'.repeat(21) },
      'documento_numero',
      'Debe tener como máximo 20 caracteres.',
    ],
    [
      { nombre: 'A', condicion_iva: 'rico' },
      'condicion_iva',
      'Valor no válido. Opciones: consumidor_final, responsable_inscripto, monotributista, exento, no_alcanzado.',
    ],
    [{ nombre: 'A', notas: 'x'.repeat(1001) }, 'notas', 'Debe tener como máximo 1000 caracteres.'],
  ])('refuses %j with 422 on %s and stores nothing', async (payload, field, message) => {
    const before = await count();
    const res = await post(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(res.json().errors).toContainEqual({ field, message });
    expect(res.json().detail).toBe(res.json().errors[0].message);
    expect(await count()).toBe(before);
  });

  it('refuses a second customer with the same document (409), also written differently; other businesses are separate', async () => {
    await customer({ nombre: 'Primera', documento_tipo: 'DNI', documento_numero: '25111222' });
    const res = await post({ nombre: 'Segunda', documento_tipo: 'DNI', documento_numero: '25.111.222' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: 'Ya existe un cliente con ese documento.', code: 'DUPLICATE' });
    await customer({ nombre: 'Ajena', documento_tipo: 'DNI', documento_numero: '25111222' }, otherOwner, otherBiz);
  });

  it('lists sorted by apellido then nombre the Spanish way, with search, filters, paging and X-Total-Count', async () => {
    const b = await createBusiness(app, owner, 'Lista');
    for (const p of [
      { nombre: 'Zoe', apellido: 'Álvarez' },
      { nombre: 'Ñandú SRL' },
      { nombre: 'Carlos', apellido: 'Núñez', email: 'carlos@correo.com' },
      { nombre: 'Beatriz', apellido: 'Alvarez' },
      { nombre: 'Mario', apellido: 'Zapata', documento_tipo: 'CUIT', documento_numero: '20-12345678-6' },
      { nombre: 'Ana', apellido: 'Núñez' },
    ]) {
      await customer(p, owner, b);
    }
    const all = await get('', owner, b);
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe('6');
    expect(all.json().map((c: { nombre: string }) => c.nombre)).toEqual([
      'Beatriz',
      'Zoe',
      'Ana',
      'Carlos',
      'Ñandú SRL',
      'Mario',
    ]);
    const search = async (q: string) =>
      (await get(`?q=${encodeURIComponent(q)}`, owner, b)).json().map((c: { nombre: string }) => c.nombre);
    expect(await search('nunez')).toEqual(['Ana', 'Carlos']);
    expect(await search('ÁLVAREZ')).toEqual(['Beatriz', 'Zoe']);
    expect(await search('correo.com')).toEqual(['Carlos']);
    expect(await search('20123456786')).toEqual(['Mario']);
    expect(await search('nandu')).toEqual(['Ñandú SRL']);
    expect(await search('ana nunez')).toEqual(['Ana']);
    expect(await search('100%')).toEqual([]);
    const cuits = await get('?documento_tipo=cuit', owner, b);
    expect(cuits.json().map((c: { nombre: string }) => c.nombre)).toEqual(['Mario']);
    const page = await get('?limit=2&offset=2', owner, b);
    expect(page.headers['x-total-count']).toBe('6');
    expect(page.json().map((c: { nombre: string }) => c.nombre)).toEqual(['Ana', 'Carlos']);
    expect((await get('?limit=100000', owner, b)).statusCode).toBe(200);
    for (const bad of ['?limit=-1', '?limit=abc', '?offset=-2', '?limit=1.5', '?documento_tipo=x']) {
      expect((await get(bad, owner, b)).statusCode, bad).toBe(422);
    }
  });

  it('caps limit at 500 (finance asks for 100)', async () => {
    const b = await createBusiness(app, owner, 'Muchos');
    await ctx.sql(
      `INSERT INTO customers (business_id, nombre) SELECT $1, 'Cliente ' || g FROM generate_series(1, 510) g`,
      [b],
    );
    const hundred = await get('?limit=100', owner, b);
    expect(hundred.json()).toHaveLength(100);
    expect(hundred.headers['x-total-count']).toBe('510');
    expect((await get('?limit=1000', owner, b)).json()).toHaveLength(500);
    expect((await get('', owner, b)).json()).toHaveLength(100);
  });

  it('gets one customer; a missing, malformed or foreign id is 404', async () => {
    const c = await customer({ nombre: 'Visible' });
    const res = await get(`/${c.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: c.id, nombre: 'Visible' });
    const foreign = await customer({ nombre: 'De Beto' }, otherOwner, otherBiz);
    for (const id of [randomUUID(), 'no-es-un-id', foreign.id]) {
      const r = await get(`/${id}`);
      expect(r.statusCode, id).toBe(404);
      expect(r.json()).toEqual({ detail: 'Cliente no encontrado.', code: 'NOT_FOUND' });
    }
  });

  it('updates only the given fields, revalidates the document pair, and audits the change', async () => {
    const c = await customer({ nombre: 'Juan', apellido: 'Sosa', documento_tipo: 'DNI', documento_numero: '31789456' });
    const res = await put(c.id, { telefono: '4444-5555', apellido: null, business_id: otherBiz });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      nombre: 'Juan',
      apellido: null,
      telefono: '4444-5555',
      documento_numero: '31789456',
    });
    // Changing the type alone revalidates the stored number.
    const badType = await put(c.id, { documento_tipo: 'CUIT' });
    expect(badType.statusCode).toBe(422);
    expect(badType.json().errors).toEqual([{ field: 'documento_numero', message: 'CUIT/CUIL no válido.' }]);
    const both = await put(c.id, { documento_tipo: 'CUIT', documento_numero: '20123456786' });
    expect(both.json()).toMatchObject({ documento_tipo: 'CUIT', documento_numero: '20-12345678-6' });
    // Clearing the type while keeping the number is refused.
    expect((await put(c.id, { documento_tipo: null })).json().errors).toEqual([
      { field: 'documento_tipo', message: 'Indicá el tipo de documento.' },
    ]);
    expect((await put(c.id, { documento_tipo: null, documento_numero: null })).json()).toMatchObject({
      documento_tipo: null,
      documento_numero: null,
    });
    expect((await put(c.id, {})).json()).toMatchObject({ detail: 'No hay datos para actualizar.' });
    expect((await put(c.id, { nombre: null })).statusCode).toBe(422);
    expect((await put(c.id, { email: 'x' })).statusCode).toBe(422);
    const rows = await ctx.sql<{ accion: string; antes: unknown; despues: unknown }>(
      'SELECT accion, antes, despues FROM audit_log WHERE entidad_id = $1 ORDER BY fecha',
      [c.id],
    );
    expect(rows.map((r) => r.accion)).toEqual(['crear', 'actualizar', 'actualizar', 'actualizar']);
    expect(rows[1]).toMatchObject({
      antes: { apellido: 'Sosa', telefono: null },
      despues: { apellido: null, telefono: '4444-5555' },
    });
  });

  it('refuses a PUT onto another customer document (409)', async () => {
    await customer({ nombre: 'Dueño', documento_tipo: 'DNI', documento_numero: '40111222' });
    const c = await customer({ nombre: 'Otro' });
    const res = await put(c.id, { documento_tipo: 'DNI', documento_numero: '40111222' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('DUPLICATE');
  });

  it('deletes a customer without references (204) and audits it', async () => {
    const c = await customer({ nombre: 'Borrable' });
    expect((await del(c.id)).statusCode).toBe(204);
    expect((await get(`/${c.id}`)).statusCode).toBe(404);
    expect((await del(c.id)).statusCode).toBe(404);
    const audit = await ctx.sql('SELECT accion FROM audit_log WHERE entidad_id = $1 ORDER BY fecha', [c.id]);
    expect(audit.map((r) => r.accion)).toEqual(['crear', 'eliminar']);
  });

  it('refuses to delete a customer referenced by a finance movement or a receivable (409 IN_USE)', async () => {
    const withMovement = await customer({ nombre: 'Con movimiento' });
    const m = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/finanzas/movimientos`,
      headers: owner.auth,
      payload: { tipo: 'ingreso', monto: 100, metodo_pago: 'efectivo', cliente_id: withMovement.id },
    });
    expect(m.statusCode, m.body).toBe(201);
    const withAccount = await customer({ nombre: 'Con cuenta' });
    const a = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${biz}/finanzas/cuentas`,
      headers: owner.auth,
      payload: {
        tipo: 'por_cobrar',
        cliente_id: withAccount.id,
        monto: 500,
        fecha_vencimiento: '2026-04-01',
        descripcion: 'Fiado',
      },
    });
    expect(a.statusCode, a.body).toBe(201);
    for (const c of [withMovement, withAccount]) {
      const res = await del(c.id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        detail: 'No se puede eliminar el cliente porque tiene ventas, suscripciones o cuentas asociadas.',
        code: 'IN_USE',
      });
      expect((await get(`/${c.id}`)).statusCode).toBe(200);
    }
  });

  it('turns a foreign-key refusal from any other referencing table into 409 IN_USE', async () => {
    const c = await customer({ nombre: 'Con venta' });
    // Stands in for the sales table of the next module: any restricting reference is enough.
    await ctx.sql(`CREATE TABLE test_sales (business_id uuid, cliente_id uuid,
      FOREIGN KEY (business_id, cliente_id) REFERENCES customers (business_id, id))`);
    await ctx.sql('INSERT INTO test_sales VALUES ($1, $2)', [biz, c.id]);
    const res = await del(c.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('IN_USE');
    await ctx.sql('DROP TABLE test_sales');
  });

  it("never shows, changes or deletes another business's customers", async () => {
    const foreign = await customer({ nombre: 'Secreto', apellido: 'Ajeno' }, otherOwner, otherBiz);
    const list = await get('?q=secreto&limit=500');
    expect(list.json()).toEqual([]);
    expect(list.headers['x-total-count']).toBe('0');
    expect((await put(foreign.id, { nombre: 'Hackeado' })).statusCode).toBe(404);
    expect((await del(foreign.id)).statusCode).toBe(404);
    const [row] = await ctx.sql('SELECT nombre FROM customers WHERE id = $1', [foreign.id]);
    expect(row.nombre).toBe('Secreto');
  });

  it("refuses a device-made id that is another business's customer (409 on id), then nothing of it is reachable", async () => {
    const foreign = await customer({ nombre: 'Ajena', notas: 'de Beto', limite_credito: 5000 }, otherOwner, otherBiz);
    const before = await ctx.sql('SELECT * FROM customers WHERE id = $1', [foreign.id]);
    const res = await post({ id: foreign.id, nombre: 'Copia' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({
      detail: 'Ese identificador de cliente ya está en uso.',
      code: 'DUPLICATE',
      field: 'id',
    });
    // Nothing was created, so the id leads nowhere in this business.
    expect((await get(`/${foreign.id}`)).statusCode).toBe(404);
    expect((await put(foreign.id, { limite_credito: 100, notas: 'cambiado' })).statusCode).toBe(404);
    expect((await del(foreign.id)).statusCode).toBe(404);
    expect(await ctx.sql('SELECT * FROM customers WHERE id = $1', [foreign.id])).toEqual(before);
    // The business that owns it still gets its own customer back when its device sends it again.
    const replay = await post({ id: foreign.id, nombre: 'Otro nombre' }, otherOwner, otherBiz);
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toMatchObject({ id: foreign.id, nombre: 'Ajena', notas: 'de Beto' });
  });

  it("refuses another business's id though row-level security hides that business's rows (decision 0031)", async () => {
    const foreign = await customer({ nombre: 'Oculta' }, otherOwner, otherBiz);
    const [{ rls }] = await ctx.sql<{ rls: boolean }>(
      `SELECT relrowsecurity AS rls FROM pg_class WHERE oid = 'customers'::regclass`,
    );
    expect(rls).toBe(true);
    // Ana's requests do not see Beto's customer…
    expect((await get(`/${foreign.id}`)).statusCode).toBe(404);
    // …yet the check (a function with its owner's rights) still finds the id taken.
    const res = await post({ id: foreign.id, nombre: 'Copia' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'DUPLICATE', field: 'id' });
    expect(await ctx.sql('SELECT business_id FROM customers WHERE id = $1', [foreign.id])).toEqual([
      { business_id: otherBiz },
    ]);
  });

  it('changes and deletes only its own row when two businesses hold the same id', async () => {
    // Rows written before the refusal existed (or by hand): the key is (id, business_id).
    const id = randomUUID();
    await ctx.sql(`INSERT INTO customers (id, business_id, nombre, notas) VALUES ($1, $2, 'De Beto', 'intacta')`, [
      id,
      otherBiz,
    ]);
    await ctx.sql(`INSERT INTO customers (id, business_id, nombre) VALUES ($1, $2, 'De Ana')`, [id, biz]);
    const res = await put(id, { notas: 'cambiada', limite_credito: 100 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, nombre: 'De Ana', notas: 'cambiada' });
    expect((await del(id)).statusCode).toBe(204);
    const rows = await ctx.sql('SELECT business_id, nombre, notas, limite_credito FROM customers WHERE id = $1', [id]);
    expect(rows).toEqual([{ business_id: otherBiz, nombre: 'De Beto', notas: 'intacta', limite_credito: null }]);
  });

  it('gives a new device-made id to one business only when two send it at once', async () => {
    for (let round = 0; round < 5; round++) {
      const id = randomUUID();
      const [a, b] = await Promise.all([
        post({ id, nombre: 'Carrera A' }),
        post({ id, nombre: 'Carrera B' }, otherOwner, otherBiz),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
      const rows = await ctx.sql('SELECT business_id FROM customers WHERE id = $1', [id]);
      expect(rows).toEqual([{ business_id: a.statusCode === 201 ? biz : otherBiz }]);
    }
    // Two sends of one business at once: one customer, the same answer twice.
    const id = randomUUID();
    const [x, y] = await Promise.all([post({ id, nombre: 'Doble' }), post({ id, nombre: 'Doble' })]);
    expect([x.statusCode, y.statusCode]).toEqual([201, 201]);
    expect(x.json()).toEqual(y.json());
    expect(await ctx.sql('SELECT count(*)::int AS n FROM customers WHERE id = $1', [id])).toEqual([{ n: 1 }]);
  });

  it('exports the filtered list to .xlsx, neutralising formula-like text, without other businesses', async () => {
    const b = await createBusiness(app, owner, 'Export');
    await customer(
      { nombre: 'Ana', apellido: 'Pérez', telefono: '+54 11 1234', notas: '=HYPERLINK("http://x")' },
      owner,
      b,
    );
    await customer(
      { nombre: '@Raro', apellido: 'Zeta', documento_tipo: 'CUIT', documento_numero: '20123456786' },
      owner,
      b,
    );
    await customer({ nombre: 'Ajeno', apellido: 'Pérez' }, otherOwner, otherBiz);
    const res = await app.inject({ method: 'GET', url: url('/exportar', b), headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toBe('attachment; filename="clientes-2026-03-15.xlsx"');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual([
      'Nombre',
      'Apellido',
      'E-mail',
      'Teléfono',
      'Dirección',
      'Tipo de documento',
      'Número de documento',
      'Condición IVA',
      'Notas',
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual([
      'Ana',
      'Pérez',
      undefined,
      "'+54 11 1234",
      undefined,
      undefined,
      undefined,
      'Consumidor final',
      `'=HYPERLINK("http://x")`,
    ]);
    expect(rows[2].slice(0, 2)).toEqual(["'@Raro", 'Zeta']);
    const filtered = await app.inject({ method: 'GET', url: url('/exportar?q=zeta', b), headers: owner.auth });
    expect(await readXlsx(filtered.rawPayload)).toHaveLength(2);
  });

  it('checks the clientes permission flags per action', async () => {
    const viewer = await registerUser(app, 'Vera');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_clientes']);
    expect((await get('', viewer)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: url('/exportar'), headers: viewer.auth })).statusCode).toBe(200);
    const res = await post({ nombre: 'No' }, viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', modulo: 'clientes', accion: 'editar' });
    const c = await customer({ nombre: 'Protegido' });
    expect((await del(c.id, viewer)).statusCode).toBe(403);
    const editor = await registerUser(app, 'Edu');
    await addMember(ctx, biz, owner, editor, ['puede_editar_clientes']);
    expect((await get('', editor)).statusCode).toBe(403);
    expect((await put(c.id, { nombre: 'Cambiado' }, editor)).statusCode).toBe(200);
    expect((await del(c.id, editor)).statusCode).toBe(403);
    const deleter = await registerUser(app, 'Dora');
    await addMember(ctx, biz, owner, deleter, ['puede_eliminar_clientes']);
    expect((await del(c.id, deleter)).statusCode).toBe(204);
  });
});

describe('customers: sorting the list', () => {
  it('sorts by name either way, by document with the undocumented last, and refuses an unknown column', async () => {
    const b = await createBusiness(app, owner, 'Orden Clientes');
    await customer({ nombre: 'Zulma', documento_tipo: 'dni', documento_numero: '30111222' }, owner, b);
    await customer({ nombre: 'Álvaro' }, owner, b);
    await customer({ nombre: 'Mirta', documento_tipo: 'dni', documento_numero: '20111222' }, owner, b);
    const names = async (qs: string) => ((await get(qs, owner, b)).json() as { nombre: string }[]).map((c) => c.nombre);
    expect(await names('')).toEqual(['Álvaro', 'Mirta', 'Zulma']);
    expect(await names('?orden=nombre&direccion=desc')).toEqual(['Zulma', 'Mirta', 'Álvaro']);
    expect(await names('?orden=documento')).toEqual(['Mirta', 'Zulma', 'Álvaro']);
    expect(await names('?orden=documento&direccion=desc')).toEqual(['Zulma', 'Mirta', 'Álvaro']);
    expect((await get('?orden=telefono', owner, b)).statusCode).toBe(422);
  });
});

describe('customers: the credit limit and the price list need the counter controls', () => {
  const MSG_LIMITE =
    'No tenés permiso para cambiar el límite de crédito de un cliente: pedile a un administrador que te habilite «Vender en cuenta corriente por encima del límite de crédito».';
  const MSG_LISTA =
    'No tenés permiso para asignarle una lista de precios a un cliente: pedile a un administrador que te habilite «Cambiar precios».';
  let b: string;
  let duenia: TestUser;
  /** clientes · ver and editar, no counter controls (each test sets the ones it needs). */
  let cajero: TestUser;
  let lista: string;
  let otraLista: string;

  const priceList = async (nombre: string) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${b}/listas-precios`,
      headers: duenia.auth,
      payload: { nombre, tipo: 'porcentaje', porcentaje: -10 },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };
  const controls = async (payload: object) => {
    const res = await app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${b}/usuarios/${cajero.id}/permisos`,
      headers: duenia.auth,
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const stored = async (id: string) => (await get(`/${id}`, duenia, b)).json();
  const refused = (res: { statusCode: number; json: () => unknown }, detail: string, field: string) => {
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', detail, field });
  };

  beforeAll(async () => {
    duenia = await registerUser(app, 'Duenia');
    b = await createBusiness(app, duenia, 'Almacén Controles');
    cajero = await registerUser(app, 'CajeroClientes');
    await addMember(ctx, b, duenia, cajero, ['puede_ver_clientes', 'puede_editar_clientes']);
    lista = await priceList('Mayorista');
    otraLista = await priceList('Gremio');
  });

  it('refuses a member without exceder_credito or cambiar_precios a customer created with a limit or a list, nothing stored', async () => {
    const before = await count();
    refused(await post({ nombre: 'Con límite', limite_credito: 5000 }, cajero, b), MSG_LIMITE, 'limite_credito');
    refused(await post({ nombre: 'Con lista', lista_precios_id: lista }, cajero, b), MSG_LISTA, 'lista_precios_id');
    expect(await count()).toBe(before);
    // Without either (or with them empty, as the form sends them) the customer is created.
    const ok = await post(
      { nombre: 'Sin nada', telefono: '4444-5555', limite_credito: null, lista_precios_id: '' },
      cajero,
      b,
    );
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ nombre: 'Sin nada', telefono: '4444-5555', limite_credito: null });
    expect(ok.json().lista_precios_id ?? null).toBeNull();
  });

  it('refuses changing the limit or the list on PUT, but lets the other fields change with them sent back as they were', async () => {
    const c = await customer({ nombre: 'Fiado', limite_credito: 10000, lista_precios_id: lista }, duenia, b);
    refused(await put(c.id, { limite_credito: 20000 }, cajero, b), MSG_LIMITE, 'limite_credito');
    refused(await put(c.id, { nombre: 'Otro', limite_credito: null }, cajero, b), MSG_LIMITE, 'limite_credito');
    refused(await put(c.id, { lista_precios_id: otraLista }, cajero, b), MSG_LISTA, 'lista_precios_id');
    refused(await put(c.id, { lista_precios_id: null }, cajero, b), MSG_LISTA, 'lista_precios_id');
    expect(await stored(c.id)).toMatchObject({ nombre: 'Fiado', limite_credito: 10000, lista_precios_id: lista });

    const res = await put(
      c.id,
      { nombre: 'Fiado SRL', notas: 'Paga los viernes', limite_credito: 10000, lista_precios_id: lista },
      cajero,
      b,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      nombre: 'Fiado SRL',
      notas: 'Paga los viernes',
      limite_credito: 10000,
      lista_precios_id: lista,
    });
  });

  it('lets exceder_credito change the limit only, cambiar_precios the list only, and full access and admins both', async () => {
    const c = await customer({ nombre: 'Permisos', limite_credito: 1000 }, duenia, b);
    await controls({ exceder_credito: true });
    expect((await put(c.id, { limite_credito: 2500.5 }, cajero, b)).json()).toMatchObject({ limite_credito: 2500.5 });
    refused(await put(c.id, { lista_precios_id: lista }, cajero, b), MSG_LISTA, 'lista_precios_id');
    expect((await post({ nombre: 'Nuevo con límite', limite_credito: 300 }, cajero, b)).statusCode).toBe(201);

    await controls({ exceder_credito: false, cambiar_precios: true });
    expect((await put(c.id, { lista_precios_id: lista }, cajero, b)).json()).toMatchObject({ lista_precios_id: lista });
    refused(await put(c.id, { limite_credito: 9999 }, cajero, b), MSG_LIMITE, 'limite_credito');
    expect((await post({ nombre: 'Nuevo con lista', lista_precios_id: lista }, cajero, b)).statusCode).toBe(201);

    await controls({ cambiar_precios: false, acceso_total: true });
    const full = await put(c.id, { limite_credito: 7000, lista_precios_id: otraLista }, cajero, b);
    expect(full.statusCode, full.body).toBe(200);
    expect(await stored(c.id)).toMatchObject({ limite_credito: 7000, lista_precios_id: otraLista });

    await controls({ acceso_total: false, rol: 'admin' });
    const admin = await put(c.id, { limite_credito: null, lista_precios_id: null }, cajero, b);
    expect(admin.statusCode, admin.body).toBe(200);
    expect(await stored(c.id)).toMatchObject({ limite_credito: null });
    expect((await stored(c.id)).lista_precios_id ?? null).toBeNull();

    const own = await post({ nombre: 'De la dueña', limite_credito: 1, lista_precios_id: lista }, duenia, b);
    expect(own.statusCode).toBe(201);
  });
});
