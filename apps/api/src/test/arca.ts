import { expect } from 'vitest';
import type { App } from '../app.js';
import type { FakeArca } from '../modules/facturacion/fake/fake-arca.js';
import type { CondicionFake, PuntoVentaFake } from '../modules/facturacion/fake/cuits.js';
import { createBusiness, type TestUser } from './fixtures.js';

/**
 * What ARCA's portal holds for a shop about to be configured against the fake ARCA (decision
 * 0039): its CUIT, with its IVA condition, and the puntos de venta of the config enabled for web
 * services. The tests that set up facturación call it with the config they PUT.
 */
export function registrarEnArca(
  fake: FakeArca,
  cfg: { cuit: string; punto_venta: number; puntos_venta?: number[]; condicion_iva?: string },
) {
  const condicion = (
    cfg.condicion_iva === 'monotributo' || cfg.condicion_iva === 'exento' ? cfg.condicion_iva : 'responsable_inscripto'
  ) as CondicionFake;
  return fake.registrar(cfg.cuit, { condicion, puntos_venta: [cfg.punto_venta, ...(cfg.puntos_venta ?? [])] });
}

/** A valid CUIT ("30-71000001-x") from its first 10 digits, the check digit computed. */
export function cuitDe(base: string): string {
  const w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const s = [...base].reduce((acc, d, i) => acc + Number(d) * w[i], 0);
  const dv = 11 - (s % 11);
  if (dv === 10) return cuitDe(String(Number(base) + 1));
  return `${base.slice(0, 2)}-${base.slice(2)}-${dv === 11 ? 0 : dv}`;
}

type Method = 'GET' | 'POST' | 'PUT';

/**
 * A business invoicing against the fake ARCA, as the tests of facturación set one up: the CUIT
 * registered in ARCA's portal with its puntos de venta (`puntos_venta_arca` adds more, e.g. a
 * CAEA one), a CSR made in the app, the certificate the portal gives for it, and the config PUT.
 * `headers` is read on every request (a test that moves the clock logs in again).
 */
export async function tiendaArca(
  app: App,
  fake: FakeArca,
  owner: TestUser,
  o: {
    nombre: string;
    cuit: string;
    punto_venta: number;
    condicion_iva?: 'responsable_inscripto' | 'monotributo' | 'exento';
    /** The POS mode; tests ask for invoices one by one unless they say otherwise. */
    facturar?: 'elegir' | 'siempre' | 'nunca';
    puntos_venta_arca?: (number | Partial<PuntoVentaFake>)[];
    headers?: () => Record<string, string>;
  },
) {
  const headers = o.headers ?? (() => owner.auth);
  const condicion_iva = o.condicion_iva ?? 'responsable_inscripto';
  registrarEnArca(fake, { cuit: o.cuit, punto_venta: o.punto_venta, condicion_iva });
  if (o.puntos_venta_arca) fake.registrar(o.cuit, { puntos_venta: o.puntos_venta_arca });
  const id = await createBusiness(app, { ...owner, auth: headers() as TestUser['auth'] }, o.nombre);
  const r = (method: Method, url: string, payload?: object) =>
    app.inject({ method, url: `/api/v1/businesses/${id}${url}`, headers: headers(), ...(payload ? { payload } : {}) });
  const config = {
    cuit: o.cuit,
    razon_social: o.nombre,
    condicion_iva,
    punto_venta: o.punto_venta,
    facturar: o.facturar ?? 'elegir',
  };
  const csr = await r('POST', '/facturacion/csr', { cuit: o.cuit, razon_social: o.nombre });
  const put = await r('PUT', '/facturacion/config', {
    ...config,
    certificado_pem: fake.certificateFor(csr.json().csr_pem),
  });
  expect(put.statusCode, put.body).toBe(200);
  const producto = async (nombre: string, precio_venta: number, iva = '21') =>
    (await r('POST', '/products', { nombre, precio_venta, stock_actual: 100, iva })).json() as { id: string };
  const servicio = async (nombre: string, precio: number, iva = '21') =>
    (await r('POST', '/services', { nombre, precio, iva })).json() as { id: string };
  /** A sale through the POS route (record-sale), cash unless the body says otherwise. */
  const vender = async (body: object) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: headers(),
      payload: { negocio_id: id, metodo_pago: 'efectivo', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; total: number; comprobante?: { id: string } | null };
  };
  const emitir = (venta_id: string, body: object = {}) => r('POST', '/facturacion/comprobantes', { venta_id, ...body });
  return { id, cuit: o.cuit, digits: o.cuit.replace(/-/g, ''), config, r, producto, servicio, vender, emitir };
}
export type TiendaArca = Awaited<ReturnType<typeof tiendaArca>>;
