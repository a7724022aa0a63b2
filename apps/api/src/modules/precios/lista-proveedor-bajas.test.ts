import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { multipartBody } from '../imports/test-files.js';

/*
 * A supplier's list whose costs rise 8–12 % may still lower a sale price through a stored margin
 * rule (issue 33, point 6; decision 0051): those changes come flagged (`baja`), «No bajar precios»
 * keeps their price, and the rows that matched no product are listed, not only counted.
 */
const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Beto');
const biz = await createBusiness(app, owner, 'Pinturería Bajas');
const base = `/api/v1/businesses/${biz}`;

async function created(url: string, payload: object): Promise<{ id: string }> {
  const res = await app.inject({ method: 'POST', url, headers: owner.auth, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}
const price = async (id: string) => {
  const p = (await app.inject({ method: 'GET', url: `${base}/products/${id}`, headers: owner.auth })).json();
  return [p.precio_compra, p.precio_venta];
};

const pinturas = await created(`${base}/categories`, { nombre: 'Pinturas' });
const rule = await app.inject({
  method: 'PUT',
  url: `${base}/reglas-margen`,
  headers: owner.auth,
  payload: { categoria_id: pinturas.id, margen: 30 },
});
expect(rule.statusCode, rule.body).toBe(200);
const product = (nombre: string, codigo: string, costo: number, precio: number, categoria_id: string | null) =>
  created(`${base}/products`, {
    nombre,
    codigo,
    categoria_id,
    precio_compra: costo,
    precio_venta: precio,
    stock_actual: 3,
  });
// Sold at 60 % over its cost: the category's 30 % over the new cost lowers it.
const latex = await product('Látex interior 4 L', 'LAT-4', 1000, 1600, pinturas.id);
// Sold at 20 %: the rule raises it.
const esmalte = await product('Esmalte sintético 1 L', 'ESM-1', 500, 600, pinturas.id);
// No rule: it keeps its 50 % margin, so it rises with the cost.
const lija = await product('Lija al agua 120', 'LIJ-120', 200, 300, null);

// Costs up 10 %, 8 % and 12 %; one row names a product the shop does not have.
const lista = Buffer.from(
  'Código;Descripción;Costo\nLAT-4;LATEX INT 4L;1100\nESM-1;ESMALTE 1L;540\nLIJ-120;LIJA 120;224\nROD-22;RODILLO 22 CM;850,50\n',
  'utf8',
);
const send = (path: string, fields: Record<string, string>, u: TestUser = owner) => {
  const { payload, headers } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename: 'pintureria.csv', content: lista },
  ]);
  return app.inject({
    method: 'POST',
    url: `${base}/listas-proveedor/${path}`,
    headers: { ...u.auth, ...headers },
    payload,
  });
};
const unmatched = [{ fila: 5, codigo: 'ROD-22', descripcion: 'RODILLO 22 CM', costo: 850.5 }];

describe('supplier lists: price decreases and unmatched rows', () => {
  it('flags the changes that lower a sale price apart from the rises, and lists the unmatched rows', async () => {
    const res = await send('previsualizar', { clave: 'codigo' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      productos_afectados: 3,
      bajas: 1,
      no_bajar_precios: false,
      sin_coincidencia: [5],
      sin_coincidencia_total: 1,
      filas_sin_coincidencia: unmatched,
    });
    const byName = Object.fromEntries(
      (body.cambios as { nombre: string }[]).map((c) => [c.nombre, c as Record<string, unknown>]),
    );
    // 1100 × 1.30 = 1430 < 1600
    expect(byName['Látex interior 4 L']).toMatchObject({
      baja: true,
      precio_anterior: 1600,
      precio_calculado: 1430,
      precio_nuevo: 1430,
      regla: 'categoria',
    });
    // 540 × 1.30 = 702; 300 × 224 / 200 = 336
    expect(byName['Esmalte sintético 1 L']).toMatchObject({ baja: false, precio_nuevo: 702, precio_calculado: 702 });
    expect(byName['Lija al agua 120']).toMatchObject({ baja: false, precio_nuevo: 336, regla: 'actual' });
    // A preview writes nothing.
    expect(await price(latex.id)).toEqual([1000, 1600]);
  });

  it('with «No bajar precios» a product whose price would go down keeps it (its cost still changes), as previewed', async () => {
    const fields = { clave: 'codigo', no_bajar_precios: 'true' };
    const preview = await send('previsualizar', fields);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ productos_afectados: 3, bajas: 1, no_bajar_precios: true });
    const kept = (preview.json().cambios as Record<string, unknown>[]).find((c) => c.producto_id === latex.id);
    // The margin shown is the one the kept price has over the new cost: 1600 / 1100.
    expect(kept).toMatchObject({
      baja: true,
      precio_anterior: 1600,
      precio_calculado: 1430,
      precio_nuevo: 1600,
      costo_nuevo: 1100,
      margen: 45.45,
    });

    const applied = await send('aplicar', fields);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({
      aplicada: true,
      bajas: 1,
      no_bajar_precios: true,
      filas_sin_coincidencia: unmatched,
    });
    expect(applied.json().cambios).toEqual(preview.json().cambios);
    expect(await price(latex.id)).toEqual([1100, 1600]);
    expect(await price(esmalte.id)).toEqual([540, 702]);
    expect(await price(lija.id)).toEqual([224, 336]);
    const log = await app.inject({
      method: 'GET',
      url: `${base}/auditoria?entidad_id=${applied.json().id}`,
      headers: owner.auth,
    });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json()[0]).toMatchObject({
      entidad: 'lista_proveedor',
      accion: 'aplicar',
      despues: { bajas: 1, no_bajar_precios: true },
    });

    // Undone, every product goes back as it was.
    const undo = await app.inject({
      method: 'POST',
      url: `${base}/listas-proveedor/${applied.json().id}/deshacer`,
      headers: owner.auth,
    });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await price(latex.id)).toEqual([1000, 1600]);
    expect(await price(esmalte.id)).toEqual([500, 600]);
  });

  it('without the option the decrease is applied, as before', async () => {
    const applied = await send('aplicar', { clave: 'codigo', no_bajar_precios: 'false' });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ bajas: 1, no_bajar_precios: false });
    expect(await price(latex.id)).toEqual([1100, 1430]);
    const undo = await app.inject({
      method: 'POST',
      url: `${base}/listas-proveedor/${applied.json().id}/deshacer`,
      headers: owner.auth,
    });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await price(latex.id)).toEqual([1000, 1600]);
  });

  it('refuses an option that is not true or false, and writes nothing', async () => {
    const res = await send('aplicar', { clave: 'codigo', no_bajar_precios: 'quizás' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail ?? res.body).toContain('No bajar precios');
    expect(await price(latex.id)).toEqual([1000, 1600]);
  });

  it('a member without ver_costos sees the decreases and the unmatched rows without any cost; without productos editar, 403', async () => {
    const repositor = await registerUser(app, 'Repositora');
    await addMember(ctx, biz, owner, repositor, ['puede_ver_productos', 'puede_editar_productos']);
    const res = await send('previsualizar', { clave: 'codigo', no_bajar_precios: 'true' }, repositor);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ bajas: 1, no_bajar_precios: true });
    expect(res.json().filas_sin_coincidencia).toEqual([{ fila: 5, codigo: 'ROD-22', descripcion: 'RODILLO 22 CM' }]);
    expect(res.json().cambios.find((c: { producto_id: string }) => c.producto_id === latex.id)).toMatchObject({
      baja: true,
      precio_nuevo: 1600,
    });
    expect(res.body).not.toMatch(/margen|costo/);

    const mirona = await registerUser(app, 'Mirona');
    await addMember(ctx, biz, owner, mirona, ['puede_ver_productos']);
    const refused = await send('aplicar', { clave: 'codigo', no_bajar_precios: 'true' }, mirona);
    expect(refused.statusCode).toBe(403);
    expect(await price(latex.id)).toEqual([1000, 1600]);
    // The applied lists still hide the margin from her (GET needs only productos ver).
    const list = await app.inject({ method: 'GET', url: `${base}/listas-proveedor`, headers: mirona.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json().length).toBeGreaterThan(0);
    expect(list.body).not.toContain('margen');
  });
});
