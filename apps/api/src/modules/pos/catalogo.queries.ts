import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rows } from '../caja/rows.js';

/*
 * The POS catalogue's statements (decision 0044): every function takes the business first; the
 * catalogue sends them together (one round trip each, in parallel). `since` is the cursor of the
 * previous answer, undefined for the whole catalogue.
 */

const changed = (alias: string, since: string | undefined) =>
  since === undefined ? sql`` : sql` AND ${sql.raw(alias)}.cambio_xid >= ${since}::xid8`;

/**
 * The request's first snapshot's xmin (the next cursor) and xmax. Read from the business's own
 * row so that, distributed (decision 0019), it runs on the node holding the business's rows.
 */
export async function catalogoSnapshot(businessId: string, ex: Executor) {
  const [snap] = await rows(
    ex,
    sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS cursor,
               pg_snapshot_xmax(pg_current_snapshot())::text AS siguiente
          FROM businesses WHERE id = ${businessId}`,
  );
  return snap;
}

/** The active products (changed since the cursor) as one JSON array, with costs when asked. */
export function catalogoProductos(businessId: string, since: string | undefined, costos: boolean, ex: Executor) {
  return rows(
    ex,
    sql`SELECT json_agg(json_build_object(
               'id', p.id, 'nombre', p.nombre, 'codigo', p.codigo, 'codigo_barras', p.codigo_barras,
               'precio_venta', p.precio_venta${costos ? sql`, 'precio_compra', p.precio_compra` : sql``},
               'stock_actual', p.stock_actual, 'controla_stock', p.controla_stock, 'unidad', p.unidad)
             ORDER BY p.id)::text AS l
          FROM products p WHERE p.business_id = ${businessId} AND p.activo${changed('p', since)}`,
  );
}

/** The active services (changed since the cursor) as one JSON array, with costs when asked. */
export function catalogoServicios(businessId: string, since: string | undefined, costos: boolean, ex: Executor) {
  return rows(
    ex,
    sql`SELECT json_agg(json_build_object('id', s.id, 'nombre', s.nombre, 'precio', s.precio
               ${costos ? sql`, 'costo', s.costo` : sql``}) ORDER BY s.id)::text AS l
          FROM services s WHERE s.business_id = ${businessId} AND s.activo${changed('s', since)}`,
  );
}

/** The customers (changed since the cursor) as one JSON array. */
export function catalogoClientes(businessId: string, since: string | undefined, ex: Executor) {
  return rows(
    ex,
    sql`SELECT json_agg(json_build_object(
               'id', c.id, 'nombre', c.nombre, 'apellido', c.apellido, 'documento_tipo', c.documento_tipo,
               'documento_numero', c.documento_numero, 'telefono', c.telefono, 'email', c.email,
               'condicion_iva', c.condicion_iva, 'limite_credito', c.limite_credito) ORDER BY c.id)::text AS l
          FROM customers c WHERE c.business_id = ${businessId}${changed('c', since)}`,
  );
}

/** What left the POS since the cursor: deleted rows, and deactivated products and services. */
export function catalogoEliminados(businessId: string, since: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT entidad, id FROM pos_eliminados WHERE business_id = ${businessId} AND cambio_xid >= ${since}::xid8
        UNION ALL
        SELECT 'producto', id FROM products WHERE business_id = ${businessId} AND NOT activo AND cambio_xid >= ${since}::xid8
        UNION ALL
        SELECT 'servicio', id FROM services WHERE business_id = ${businessId} AND NOT activo AND cambio_xid >= ${since}::xid8`,
  );
}

/** The settings the counter works with. */
export function catalogoSettings(businessId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT balanza, vender_sin_stock, caja_requiere_turno FROM tenant_settings WHERE business_id = ${businessId}`,
  );
}

/** The open turnos, newest first. */
export function openTurnos(businessId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, abierto_por FROM turnos WHERE business_id = ${businessId} AND estado = 'abierto' ORDER BY abierto_en DESC`,
  );
}
