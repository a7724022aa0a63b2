import { afterAll, describe, expect, it } from 'vitest';
import { API_PREFIX, type RouteEntry } from './access.js';
import { createTestApp } from '../test/app.js';
import { addMember, createBusiness, registerUser, uniqueEmail, type TestUser } from '../test/fixtures.js';
import { FakeArca } from '../modules/facturacion/fake/fake-arca.js';
import { FakeMercadoPago } from '../modules/mercadopago/fake/fake-mp.js';
import { registrarEnArca } from '../test/arca.js';
import { multipartBody, xlsx } from '../modules/imports/test-files.js';

/**
 * Issue 30 (decision 0036), generated from the route table: business B's owner calls every route
 * that takes an id (besides the business's own `:id`) on B's path with business A's ids, and every
 * route whose body accepts an id made by the client with A's id of that kind. None may answer a
 * 2xx that shows A's data, and A's rows (every table with business_id = A, its business row and
 * its users) hash the same before and after each route.
 */
const fake = new FakeArca();
await fake.listen(0);
const fakeMp = new FakeMercadoPago();
await fakeMp.listen(0);
const ctx = await createTestApp({
  arca: { urls: fake.urls, timeoutMs: 700, waitMs: 3000, workerMs: 0, concurrency: 2 },
  mercadopago: { apiUrl: fakeMp.url, timeoutMs: 3000, workerMs: 0 },
});
const { app } = ctx;
afterAll(() => fake.close());
afterAll(() => fakeMp.close());

/** Every text of business A carries it: a 2xx answer that contains it shows A's data. */
const MARK = 'Zafiro';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (u: TestUser, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { ...u.auth, ...headers }, ...(payload ? { payload } : {}) });

/** A request of a fixture: must succeed. */
async function made<T = { id: string }>(u: TestUser, method: Method, url: string, payload?: object): Promise<T> {
  const res = await call(u, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

async function upload(u: TestUser, url: string, content: Buffer, fields: Record<string, string> = {}) {
  const { payload, headers } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename: 'lista.xlsx', content },
  ]);
  const res = await app.inject({ method: 'POST', url, headers: { ...u.auth, ...headers }, payload });
  if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string };
}

/* ------------------------------------------------------------------ business A: one row of each kind */

const ana = await registerUser(app, 'Ana');
const A = await createBusiness(app, ana, `${MARK} Almacén`);
const a = `/api/v1/businesses/${A}`;
const eva = await registerUser(app, 'Eva');
await addMember(ctx, A, ana, eva, ['puede_ver_ventas']);
const pepe = await registerUser(app, 'Pepe');
await ctx.sql(
  `INSERT INTO business_members (business_id, user_id, rol, estado, acceso_total, permisos)
   VALUES ($1, $2, 'empleado', 'pendiente', false, '{}')`,
  [A, pepe.id],
);

const cliente = await made(ana, 'POST', `${a}/clientes`, {
  nombre: `${MARK} Cliente`,
  notas: `${MARK} notas`,
  limite_credito: 1_000_000,
});
const categoria = await made(ana, 'POST', `${a}/categories`, { nombre: `${MARK} Bebidas` });
const proveedor = await made(ana, 'POST', `${a}/proveedores`, { nombre: `${MARK} Distribuidora` });
const producto = await made(ana, 'POST', `${a}/products`, {
  nombre: `${MARK} Yerba`,
  codigo_barras: '7790000000011',
  precio_venta: 1000,
  precio_compra: 500,
  stock_actual: 100,
  categoria_id: categoria.id,
});
const servicio = await made(ana, 'POST', `${a}/services`, { nombre: `${MARK} Service`, precio: 500 });
await made(ana, 'POST', `${a}/products/${producto.id}/ajuste-stock`, { cantidad: 1, motivo: `${MARK} ajuste` });
await made(ana, 'PUT', `${a}/products/${producto.id}/codigos-proveedor`, {
  codigos: [{ proveedor_id: proveedor.id, codigo: 'ZAF-1' }],
});
const lista = await made(ana, 'POST', `${a}/listas-precios`, { nombre: `${MARK} Mayorista`, tipo: 'fija' });
await made(ana, 'PUT', `${a}/listas-precios/${lista.id}/precios`, {
  precios: [{ producto_id: producto.id, precio: 900 }],
});
const regla = await made(ana, 'PUT', `${a}/reglas-margen`, { producto_id: producto.id, margen: 10 });

const medios = await made<{ id: string; tipo: string }[]>(ana, 'GET', `${a}/medios-pago`);
const efectivoA = medios.find((m) => m.tipo === 'efectivo')!.id;
const cuentaCorrienteA = medios.find((m) => m.tipo === 'cuenta_corriente')!.id;
const medio = await made(ana, 'POST', `${a}/medios-pago`, { nombre: `${MARK} Vale`, tipo: 'otro' });
const caja = (await made<{ id: string }[]>(ana, 'GET', `${a}/cajas`))[0];
const turno = await made(ana, 'POST', `${a}/cajas/${caja.id}/turnos`, { fondo_inicial: 1000 });
await made(ana, 'POST', `${a}/turnos/${turno.id}/movimientos`, { tipo: 'ingreso', monto: 100, motivo: MARK });
// Mercado Pago (decision 0052): A's account at the fake MP, and an order.
fakeMp.cuenta('APP_USR-zafiro', { pos: ['ZAFIRO1'] });
await made(ana, 'PUT', `${a}/mercadopago/config`, {
  access_token: 'APP_USR-zafiro',
  cajas: [{ caja_id: caja.id, pos_id: 'ZAFIRO1' }],
});
const ordenMp = await app.inject({
  method: 'POST',
  url: `${a}/mercadopago/ordenes`,
  headers: { ...ana.auth, 'idempotency-key': 'zafiro-orden-1' },
  payload: { caja_id: caja.id, monto: 100, tipo: 'qr' },
});
if (ordenMp.statusCode !== 201) throw new Error(`orden MP ${ordenMp.statusCode} ${ordenMp.body}`);

const CUIT_A = '30-71234567-1';
const csr = await made<{ csr_pem: string }>(ana, 'POST', `${a}/facturacion/csr`, {
  cuit: CUIT_A,
  razon_social: `${MARK} SA`,
});
registrarEnArca(fake, { cuit: CUIT_A, punto_venta: 3 });
await made(ana, 'PUT', `${a}/facturacion/config`, {
  cuit: CUIT_A,
  razon_social: `${MARK} SA`,
  condicion_iva: 'responsable_inscripto',
  punto_venta: 3,
  domicilio_fiscal: `${MARK} 742`,
  certificado_pem: fake.certificateFor(csr.csr_pem),
  facturar: 'elegir',
});
fake.cuits.set(CUIT_A, { condicion: 'responsable_inscripto', puntos_venta: [{ nro: 3 }] });
const venta = (extra: object) =>
  made<{ id: string; comprobante?: { id: string } | null }>(ana, 'POST', `${a}/ventas`, {
    turno_id: turno.id,
    cliente_id: cliente.id,
    observaciones: MARK,
    items: [{ id: producto.id, cantidad: 2 }],
    ...extra,
  });
const facturada = await venta({ metodo_pago: 'efectivo', facturar: true });
const fiada = await venta({ pagos: [{ medio_pago_id: cuentaCorrienteA, monto: 2000 }] });
const devuelta = await venta({ metodo_pago: 'efectivo' });
await app.facturacion.idle();
const lineas = await made<{ items: { id: string }[] }>(ana, 'GET', `${a}/ventas/sales/${devuelta.id}`);
const devolucion = await made(ana, 'POST', `${a}/ventas/${devuelta.id}/devoluciones`, {
  items: [{ item_id: lineas.items[0].id, cantidad: 1 }],
  medio_pago_id: efectivoA,
});
await made(ana, 'POST', `${a}/clientes/${cliente.id}/cobros`, { monto: 500, medio_pago_id: efectivoA });
const anulada = await venta({ metodo_pago: 'efectivo' });
await made(ana, 'POST', `${a}/ventas/${anulada.id}/anular`, { motivo: MARK });

const compra = await made<{ id: string; items: { id: string }[] }>(ana, 'POST', `${a}/compras`, {
  proveedor_id: proveedor.id,
  items: [{ producto_id: producto.id, cantidad: 10, precio_unitario: 600 }],
});
const recepcion = await made<{ recepcion: { id: string } }>(ana, 'POST', `${a}/compras/${compra.id}/recepciones`, {
  lineas: [{ linea_id: compra.items[0].id, cantidad: 4 }],
});

// A cheque in the cartera (issue 37).
const cheque = await made(ana, 'POST', `${a}/cheques`, {
  tipo: 'tercero',
  banco: `${MARK} Banco`,
  numero: '123456',
  fecha_pago: '2099-01-01',
  monto: 100,
  librador_nombre: `${MARK} Librador`,
  librador_cuit: '30-71234567-1',
  cliente_id: cliente.id,
});

const finCategoria = await made(ana, 'POST', `${a}/finanzas/categorias`, {
  nombre: `${MARK} Alquiler`,
  tipo: 'egreso',
});
const movimiento = await made(ana, 'POST', `${a}/finanzas/movimientos`, {
  tipo: 'egreso',
  monto: 10,
  metodo_pago: 'efectivo',
  descripcion: MARK,
  categoria_id: finCategoria.id,
});
const cuenta = await made(ana, 'POST', `${a}/finanzas/cuentas`, {
  tipo: 'por_pagar',
  proveedor_nombre: MARK,
  monto: 10,
  fecha_vencimiento: '2099-01-01',
  descripcion: MARK,
});
const tarea = await made(ana, 'POST', `${a}/tareas`, { titulo: `${MARK} contar` });
const suscripcion = await made(ana, 'POST', `${a}/subscriptions`, {
  cliente_id: cliente.id,
  servicio_id: servicio.id,
  frecuencia: 'mensual',
  nombre: MARK,
  precio: 100,
});
const invitacion = await made<{ invitacion: { id: string } }>(ana, 'POST', `${a}/invitaciones`, {
  email: uniqueEmail('zafiro'),
  mensaje: MARK,
});
const ajustes = await made(ana, 'POST', `${a}/tenant-settings`, { sales_drop_threshold: 20 });
await upload(
  ana,
  `${a}/import/upload`,
  await xlsx([
    {
      name: 'Lista',
      rows: [
        ['Nombre', 'Precio'],
        [`${MARK} importado`, 100],
      ],
    },
  ]),
);
const temporal = (await made<{ id: string }[]>(ana, 'GET', `${a}/import/productos-temporales`))[0];
const aplicada = await upload(
  ana,
  `${a}/listas-proveedor/aplicar`,
  await xlsx([
    {
      name: 'Lista',
      rows: [
        ['EAN', 'Costo'],
        ['7790000000011', 650],
      ],
    },
  ]),
  { clave: 'codigo_barras' },
);

const presupuesto = await made(ana, 'POST', `${a}/presupuestos`, {
  cliente_id: cliente.id,
  items: [{ id: producto.id, cantidad: 1 }],
  notas: MARK,
});
const remito = await made(ana, 'POST', `${a}/remitos`, {
  cliente_id: cliente.id,
  items: [{ id: producto.id, cantidad: 1 }],
  notas: MARK,
});
const sucursal = await made(ana, 'POST', `${a}/sucursales`, { nombre: `${MARK} Sucursal`, direccion: MARK });
const deposito = await made(ana, 'POST', `${a}/depositos`, { nombre: `${MARK} Depósito`, sucursal_id: sucursal.id });
const transferencia = await made<{ id: string }>(ana, 'POST', `${a}/transferencias`, {
  origen_id: (await made<{ id: string }[]>(ana, 'GET', `${a}/depositos`))[0].id,
  destino_id: deposito.id,
  observaciones: MARK,
  items: [{ producto_id: producto.id, cantidad: 1 }],
});

/** A's ids by kind: the kind a path parameter names is the path segment before it. */
const ids: Record<string, string | undefined> = {
  usuarios: eva.id,
  'usuarios-pendientes': pepe.id,
  invitaciones: invitacion.invitacion.id,
  'tenant-settings': ajustes.id,
  categorias: finCategoria.id,
  movimientos: movimiento.id,
  cuentas: cuenta.id,
  clientes: cliente.id,
  categories: categoria.id,
  products: producto.id,
  services: servicio.id,
  subscriptions: suscripcion.id,
  'productos-temporales': temporal.id,
  'listas-proveedor': aplicada.id,
  tareas: tarea.id,
  proveedores: proveedor.id,
  compras: compra.id,
  recepciones: recepcion.recepcion.id,
  sales: devuelta.id,
  ventas: fiada.id,
  devoluciones: devolucion.id,
  comprobantes: facturada.comprobante?.id,
  'listas-precios': lista.id,
  'reglas-margen': regla.id,
  'medios-pago': medio.id,
  cajas: caja.id,
  turnos: turno.id,
  ordenes: ordenMp.json().id,
  presupuestos: presupuesto.id,
  remitos: remito.id,
  cheques: cheque.id,
  sucursales: sucursal.id,
  depositos: deposito.id,
  transferencias: transferencia.id,
};
/** Parameters that name no row: A's value of them. */
const keys: Record<string, string> = { padron: CUIT_A, email: ana.email };
/** Everything of A a request could name: each is tried in every id parameter. */
const allIds = [
  ...new Set([
    ...Object.values(ids).filter((v): v is string => !!v),
    A,
    ana.id,
    facturada.id,
    anulada.id,
    compra.items[0].id,
    lineas.items[0].id,
    efectivoA,
    ana.email,
  ]),
];

/** Text of A that must never come back to B. */
const secrets = [...allIds, MARK];

/* ------------------------------------------------------------------ business B */

const beto = await registerUser(app, 'Beto');
const B = await createBusiness(app, beto, 'Kiosco Beto');
const b = `/api/v1/businesses/${B}`;
const efectivoB = (await made<{ id: string; tipo: string }[]>(beto, 'GET', `${b}/medios-pago`)).find(
  (m) => m.tipo === 'efectivo',
)!.id;
// B invoices too, so that its invoice routes get as far as the id.
const csrB = await made<{ csr_pem: string }>(beto, 'POST', `${b}/facturacion/csr`, {
  cuit: '20-30000000-3',
  razon_social: 'Beto',
});
registrarEnArca(fake, { cuit: '20-30000000-3', punto_venta: 3, condicion_iva: 'monotributo' });
await made(beto, 'PUT', `${b}/facturacion/config`, {
  cuit: '20-30000000-3',
  razon_social: 'Beto',
  condicion_iva: 'monotributo',
  punto_venta: 3,
  domicilio_fiscal: 'Calle 1',
  certificado_pem: fake.certificateFor(csrB.csr_pem),
});
fake.cuits.set('20-30000000-3', { condicion: 'monotributo', puntos_venta: [{ nro: 3 }] });
const productoB = await made(beto, 'POST', `${b}/products`, { nombre: 'Alfajor', precio_venta: 800 });
const proveedorB = await made(beto, 'POST', `${b}/proveedores`, { nombre: 'Golosinas Sur' });
const clienteB = await made(beto, 'POST', `${b}/clientes`, { nombre: 'Cliente de Beto' });

/**
 * A plausible body per write route, so that the request reaches the id (an empty body would stop
 * at validation). Ids in the body are B's own unless they belong to the resource in the path.
 */
const BODIES: Record<string, () => object> = {
  'PUT /businesses/:id/usuarios/:uid/permisos': () => ({ puede_ver_ventas: true }),
  'POST /businesses/:id/usuarios-pendientes/:uid/aprobar': () => ({ puede_ver_ventas: true }),
  'POST /businesses/:id/usuarios-pendientes/:uid/rechazar': () => ({}),
  'PUT /businesses/:id/tenant-settings/:sid': () => ({ sales_drop_threshold: 40 }),
  'PUT /businesses/:id/finanzas/categorias/:cid': () => ({ descripcion: 'Cambiada por B' }),
  'PUT /businesses/:id/finanzas/movimientos/:mid': () => ({ descripcion: 'Cambiado por B' }),
  'PUT /businesses/:id/finanzas/cuentas/:cid': () => ({ descripcion: 'Cambiada por B' }),
  'PUT /businesses/:id/finanzas/cuentas/:cid/marcar-pagado': () => ({}),
  'PUT /businesses/:id/clientes/:cid': () => ({ notas: 'Cambiadas por B', limite_credito: 1 }),
  'PUT /businesses/:id/categories/:cid': () => ({ nombre: 'Cambiada por B' }),
  'PUT /businesses/:id/products/:pid': () => ({ precio_venta: 1 }),
  'POST /businesses/:id/products/:pid/ajuste-stock': () => ({ cantidad: -1, motivo: 'Rotura' }),
  'PUT /businesses/:id/services/:sid': () => ({ precio: 1 }),
  'PUT /businesses/:id/subscriptions/:sid': () => ({ precio: 1 }),
  'PATCH /businesses/:id/subscriptions/:sid/estado': () => ({ estado: 'cancelada' }),
  'PUT /businesses/:id/import/productos-temporales/:tid': () => ({ precio_venta: 1 }),
  'POST /businesses/:id/listas-proveedor/:aplicadaId/deshacer': () => ({}),
  'PUT /businesses/:id/tareas/:tid': () => ({ titulo: 'Cambiada por B' }),
  'PUT /businesses/:id/proveedores/:pid': () => ({ nombre: 'Cambiado por B' }),
  'PUT /businesses/:id/compras/:pid': () => ({ estado: 'cancelada' }),
  'POST /businesses/:id/compras/:pid/recepciones': () => ({ lineas: [{ linea_id: compra.items[0].id, cantidad: 1 }] }),
  'POST /businesses/:id/compras/:pid/recepciones/:rid/precios': () => ({ producto_ids: [producto.id] }),
  'POST /businesses/:id/ventas/:vid/anular': () => ({ motivo: 'Anulada por B' }),
  'POST /businesses/:id/ventas/:vid/devoluciones': () => ({
    items: [{ item_id: lineas.items[0].id, cantidad: 1 }],
    medio_pago_id: efectivoB,
  }),
  'POST /businesses/:id/facturacion/comprobantes/:comprobanteId/reintentar': () => ({}),
  'PATCH /businesses/:id/listas-precios/:listaId': () => ({ nombre: 'Cambiada por B' }),
  'PUT /businesses/:id/listas-precios/:listaId/precios': () => ({
    precios: [{ producto_id: productoB.id, precio: 1 }],
  }),
  'PUT /businesses/:id/products/:pid/codigos-proveedor': () => ({
    codigos: [{ proveedor_id: proveedorB.id, codigo: 'B-1' }],
  }),
  'PUT /businesses/:id/medios-pago/:medioId': () => ({ ajuste_porcentaje: 5 }),
  'POST /businesses/:id/clientes/:clienteId/cobros': () => ({ monto: 1, medio_pago_id: efectivoB }),
  'PATCH /businesses/:id/cajas/:cajaId': () => ({ nombre: 'Cambiada por B' }),
  'POST /businesses/:id/cajas/:cajaId/turnos': () => ({ fondo_inicial: 0 }),
  'POST /businesses/:id/turnos/:turnoId/movimientos': () => ({ tipo: 'ingreso', monto: 1, motivo: 'De B' }),
  'POST /businesses/:id/turnos/:turnoId/cerrar': () => ({ contado: [] }),
  'PUT /businesses/:id/presupuestos/:presupuestoId': () => ({
    cliente_id: clienteB.id,
    items: [{ id: productoB.id, cantidad: 1 }],
  }),
  'POST /businesses/:id/presupuestos/:presupuestoId/estado': () => ({ estado: 'anulado' }),
  'POST /businesses/:id/presupuestos/:presupuestoId/convertir': () => ({ destino: 'venta', metodo_pago: 'efectivo' }),
  'POST /businesses/:id/remitos/:remitoId/anular': () => ({ motivo: 'Anulado por B' }),
  'POST /businesses/:id/cheques/:chequeId/endosar': () => ({ proveedor_id: proveedorB.id }),
  'POST /businesses/:id/cheques/:chequeId/rechazar': () => ({ gastos_bancarios: 1, motivo: 'De B' }),
  'PUT /businesses/:id/sucursales/:sucursalId': () => ({ nombre: 'Cambiada por B' }),
  'PUT /businesses/:id/depositos/:depositoId': () => ({ nombre: 'Cambiado por B' }),
  'POST /businesses/:id/transferencias/:transferenciaId/recibir': () => ({ items: [] }),
};

/* ------------------------------------------------------------------ the route table */

const key = (r: RouteEntry) => `${r.method} ${r.url.slice(API_PREFIX.length)}`;
const BUSINESS = `${API_PREFIX}/businesses/:id`;
const underBusiness = (r: RouteEntry) => r.url.startsWith(`${BUSINESS}/`) || r.url === BUSINESS;

/** The path parameters that name something (the business's own `:id` is B's). */
function idParams(r: RouteEntry): { name: string; kind: string }[] {
  const segments = r.url.split('/');
  return segments.flatMap((s, i) =>
    s.startsWith(':') && !(underBusiness(r) && i === 4) ? [{ name: s.slice(1), kind: segments[i - 1] }] : [],
  );
}

const routes = app.routeTable.filter((r) => r.url.startsWith(API_PREFIX) && r.access.kind !== 'public');
const swept = routes.filter((r) => idParams(r).length > 0);
const global = (r: RouteEntry) => !underBusiness(r) && ['member', 'admin', 'module'].includes(r.access.kind);

/** The value of each parameter for one call: A's id of its kind, and every other id of A in each place. */
function tuples(r: RouteEntry): string[][] {
  const params = idParams(r);
  const natural = params.map((p) => keys[p.name] ?? keys[p.kind] ?? ids[p.kind] ?? allIds[0]);
  const out = [natural];
  params.forEach((_p, i) => {
    for (const v of allIds) out.push(natural.map((n, j) => (j === i ? v : n)));
  });
  return out;
}

function urlFor(r: RouteEntry, values: string[]): string {
  let i = 0;
  const url = r.url
    .split('/')
    .map((s, n) => (s.startsWith(':') ? (underBusiness(r) && n === 4 ? B : encodeURIComponent(values[i++])) : s))
    .join('/');
  return global(r) ? `${url}?negocio_id=${B}` : url;
}

/** A hash of each of A's tables (its rows only), its business row and its users, read as the owner. */
async function hashOfA(): Promise<Record<string, string>> {
  const tables = await ctx.sql<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND c.column_name = 'business_id' AND t.table_type = 'BASE TABLE'
      ORDER BY 1`,
  );
  const of = (name: string, where: string) =>
    `SELECT '${name}' AS t, count(*)::int AS n,
            md5(coalesce(string_agg(x, E'\\n' ORDER BY x), '')) AS h
       FROM (SELECT row_to_json(r)::text AS x FROM "${name}" r WHERE ${where}) s`;
  const rows = await ctx.sql<{ t: string; n: number; h: string }>(
    [
      ...tables.map((t) => of(t.table_name, 'business_id = $1')),
      of('businesses', 'id = $1'),
      of('users', 'id = ANY($2::uuid[])'),
    ].join('\nUNION ALL\n'),
    [A, [ana.id, eva.id, pepe.id]],
  );
  return Object.fromEntries(rows.map((r) => [r.t, `${r.n}:${r.h}`]));
}

/** The tables whose rows of A differ from `before`. */
async function changedSince(before: Record<string, string>): Promise<string[]> {
  const now = await hashOfA();
  return Object.keys({ ...before, ...now }).filter((t) => now[t] !== before[t]);
}

const start = await hashOfA();
/** Answers of the call with A's ids of the right kind, by route: proof the sweep reached the ids. */
const naturalStatus = new Map<string, number>();

describe('the sweep', () => {
  it('covers every route that takes an id, with A holding rows of many kinds', () => {
    expect(swept.length).toBeGreaterThanOrEqual(80);
    expect(Object.values(ids).filter(Boolean).length).toBeGreaterThanOrEqual(27);
    // The hash reads A's rows: most of its tables hold some.
    expect(Object.values(start).filter((h) => !h.startsWith('0:')).length).toBeGreaterThanOrEqual(35);
    // Every kind of id a route names has a row of A (a new route needs one here).
    const missing = swept.flatMap((r) => idParams(r).filter((p) => !keys[p.name] && !keys[p.kind] && !ids[p.kind]));
    expect(missing).toEqual([]);
  });
});

/** Routes whose JSON body takes an `id` made by the client (the offline POS), from the OpenAPI document. */
type Schema = { properties?: Record<string, unknown>; anyOf?: Schema[]; allOf?: Schema[] };
const spec = app.swagger() as {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
};
const bodyHasId = (s: Schema | undefined): boolean =>
  !!s && (!!s.properties?.id || !!s.anyOf?.some(bodyHasId) || !!s.allOf?.some(bodyHasId));
/**
 * Routes whose body's `id` names an existing document of the business ({tipo, id}), not a row the
 * client makes: another business's id is 404 there (impresion.test.ts, compartir.test.ts).
 */
const REFERENCE_ID_ROUTES = ['POST /businesses/:id/documentos/imprimir', 'POST /businesses/:id/documentos/compartir'];
const clientIdRoutes = routes.filter((r) => {
  const op = spec.paths[r.url.replace(/:([a-zA-Z_]+)/g, '{$1}')]?.[r.method.toLowerCase()];
  return bodyHasId(op?.requestBody?.content?.['application/json']?.schema) && !REFERENCE_ID_ROUTES.includes(key(r));
});

/**
 * Before the sweep: a business that could take A's id for a row of its own would then reach A's
 * row through its own path (issue 30: B's PUT and DELETE changed A's customer). The statuses are
 * soft, so that the moves that follow are tried and A's hash tells what they did.
 */
describe('client-made ids', () => {
  it('finds the routes that take one (the customers of the offline POS at least)', () => {
    expect(clientIdRoutes.map(key)).toContain('POST /businesses/:id/clientes');
    expect(routes.map(key)).toEqual(expect.arrayContaining(REFERENCE_ID_ROUTES));
  });

  it.each(clientIdRoutes.map((r) => [key(r), r] as const))(
    '%s with the id of A’s row of that kind is 409 on id; then the routes of that id reach nothing of A',
    async (_k, r) => {
      const kind = r.url.split('/').at(-1)!;
      const id = ids[kind];
      expect(id, `A has no row of kind ${kind}`).toBeDefined();
      const before = await hashOfA();
      const res = await call(beto, r.method as Method, urlFor(r, []), { nombre: 'Intruso', id });
      expect.soft(res.statusCode, res.body).toBe(409);
      expect.soft(res.json()).toMatchObject({ code: 'DUPLICATE', field: 'id' });
      // The routes of one such row: GET, PUT, DELETE … /<id>.
      const depth = r.url.split('/').length + 1;
      const ofOne = swept.filter((s) => s.url.startsWith(`${r.url}/:`) && s.url.split('/').length === depth);
      expect(ofOne.length).toBeGreaterThan(0);
      const answers = [res];
      for (const s of ofOne) {
        const hasBody = ['POST', 'PUT', 'PATCH'].includes(s.method);
        const one = await call(beto, s.method as Method, urlFor(s, [id!]), hasBody ? BODIES[key(s)]?.() : undefined);
        expect.soft(one.statusCode, `${key(s)}: ${one.body}`).toBe(404);
        answers.push(one);
      }
      expect
        .soft(answers.flatMap((x) => (x.statusCode < 300 ? secrets.filter((t) => x.body.includes(t)) : [])))
        .toEqual([]);
      expect(await changedSince(before)).toEqual([]);
    },
  );
});

describe.each(swept.map((r) => [key(r), r] as const))('%s with A’s ids', (_k, r) => {
  it('never answers 2xx with A’s data nor changes A’s rows', async () => {
    const before = await hashOfA();
    const body = BODIES[key(r)];
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
    const shown: string[] = [];
    const all = tuples(r);
    // A few at a time: they are all refusals, so their order does not matter.
    for (let from = 0; from < all.length; from += 6) {
      const batch = all.slice(from, from + 6);
      const answers = await Promise.all(
        batch.map((values) =>
          call(beto, r.method as Method, urlFor(r, values), hasBody ? (body?.() ?? {}) : undefined),
        ),
      );
      answers.forEach((res, i) => {
        const url = urlFor(r, batch[i]);
        if (from + i === 0) naturalStatus.set(key(r), res.statusCode);
        const leaked = res.statusCode < 300 ? secrets.filter((s) => res.body.includes(s)) : [];
        if (leaked.length) shown.push(`${url} → ${res.statusCode} with ${leaked.join(', ')}`);
        expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(500);
      });
    }
    expect.soft(shown).toEqual([]);
    expect(await changedSince(before)).toEqual([]);
  });
});

describe('after the sweep', () => {
  it('reached the ids: the call with A’s id of the right kind is refused as not found (or forbidden), not as a bad body', () => {
    expect(naturalStatus.size).toBe(swept.length);
    const unexpected = [...naturalStatus].filter(([, s]) => s === 422 || s < 300);
    expect(unexpected).toEqual([]);
  });

  it('left every row of A as it was', async () => {
    expect(await changedSince(start)).toEqual([]);
  });
});
