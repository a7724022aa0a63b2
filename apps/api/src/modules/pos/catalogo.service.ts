import { sql } from 'drizzle-orm';
import type { PosCatalogo, ScaleLayout } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { listMedios } from '../caja/medios.service.js';
import { counterTurno, rows } from '../caja/rows.js';
import { getTurno } from '../caja/turnos.service.js';

export interface CatalogoOptions {
  businessId: string;
  userId: string;
  /** The cursor of the previous answer; undefined: the whole catalogue. */
  desde?: string;
  productos: boolean;
  clientes: boolean;
  costos: boolean;
}

const list = (v: unknown) => JSON.parse((v as string | null) ?? '[]') as never[];

/**
 * The POS catalogue, whole or since a cursor (decision 0014). The cursor is the xmin of this
 * request's first snapshot, taken before anything is read: every transaction below it had ended,
 * so anything written later, or by a transaction still running then (and committed after, in any
 * order), has cambio_xid >= cursor and is sent by the next refresh. Rows committed between the
 * cursor and the reads are sent twice at most; the device replaces them by id.
 */
export async function getCatalogo(ex: Executor, o: CatalogoOptions): Promise<PosCatalogo> {
  // Read from the business's own row so that, distributed (decision 0019), the statement runs on
  // the node holding the business's rows, whose transaction ids the rows carry.
  const [snap] = await rows(
    ex,
    sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS cursor,
               pg_snapshot_xmax(pg_current_snapshot())::text AS siguiente
          FROM businesses WHERE id = ${o.businessId}`,
  );
  const cursor = snap.cursor as string;
  // A cursor from the future (the database was restored to an earlier point): start over.
  const since = o.desde !== undefined && BigInt(o.desde) <= BigInt(snap.siguiente as string) ? o.desde : undefined;
  const changed = (alias: string) =>
    since === undefined ? sql`` : sql` AND ${sql.raw(alias)}.cambio_xid >= ${since}::xid8`;

  const productos = o.productos
    ? rows(
        ex,
        sql`SELECT json_agg(json_build_object(
                   'id', p.id, 'nombre', p.nombre, 'codigo', p.codigo, 'codigo_barras', p.codigo_barras,
                   'precio_venta', p.precio_venta${o.costos ? sql`, 'precio_compra', p.precio_compra` : sql``},
                   'stock_actual', p.stock_actual, 'controla_stock', p.controla_stock, 'unidad', p.unidad)
                 ORDER BY p.id)::text AS l
              FROM products p WHERE p.business_id = ${o.businessId} AND p.activo${changed('p')}`,
      )
    : Promise.resolve([{ l: null }]);
  const servicios = rows(
    ex,
    sql`SELECT json_agg(json_build_object('id', s.id, 'nombre', s.nombre, 'precio', s.precio
               ${o.costos ? sql`, 'costo', s.costo` : sql``}) ORDER BY s.id)::text AS l
          FROM services s WHERE s.business_id = ${o.businessId} AND s.activo${changed('s')}`,
  );
  const clientes = o.clientes
    ? rows(
        ex,
        sql`SELECT json_agg(json_build_object(
                   'id', c.id, 'nombre', c.nombre, 'apellido', c.apellido, 'documento_tipo', c.documento_tipo,
                   'documento_numero', c.documento_numero, 'telefono', c.telefono, 'email', c.email,
                   'condicion_iva', c.condicion_iva, 'limite_credito', c.limite_credito) ORDER BY c.id)::text AS l
              FROM customers c WHERE c.business_id = ${o.businessId}${changed('c')}`,
      )
    : Promise.resolve([{ l: null }]);
  // Deactivated products and services leave the POS as deleted ones do.
  const eliminados =
    since === undefined
      ? Promise.resolve([])
      : rows(
          ex,
          sql`SELECT entidad, id FROM pos_eliminados WHERE business_id = ${o.businessId} AND cambio_xid >= ${since}::xid8
              UNION ALL
              SELECT 'producto', id FROM products WHERE business_id = ${o.businessId} AND NOT activo AND cambio_xid >= ${since}::xid8
              UNION ALL
              SELECT 'servicio', id FROM services WHERE business_id = ${o.businessId} AND NOT activo AND cambio_xid >= ${since}::xid8`,
        );
  const settings = rows(
    ex,
    sql`SELECT balanza, vender_sin_stock, caja_requiere_turno FROM tenant_settings WHERE business_id = ${o.businessId}`,
  );
  const open = rows(
    ex,
    sql`SELECT id, abierto_por FROM turnos WHERE business_id = ${o.businessId} AND estado = 'abierto' ORDER BY abierto_en DESC`,
  );
  const [p, s, c, e, [cfg], turnos, medios] = await Promise.all([
    productos,
    servicios,
    clientes,
    eliminados,
    settings,
    open,
    listMedios(ex, o.businessId),
  ]);
  const turnoId = counterTurno(turnos, o.userId);
  const gone = (entidad: string) => e.filter((r) => r.entidad === entidad).map((r) => r.id as string);
  return {
    cursor,
    completo: since === undefined,
    productos: list(p[0].l),
    servicios: list(s[0].l),
    clientes: list(c[0].l),
    medios_pago: medios,
    turno: turnoId ? await getTurno(ex, o.businessId, turnoId) : null,
    configuracion: {
      balanza: (cfg?.balanza as ScaleLayout | null) ?? null,
      vender_sin_stock: cfg?.vender_sin_stock === true,
      caja_requiere_turno: cfg ? cfg.caja_requiere_turno !== false : true,
    },
    eliminados: {
      productos: o.productos ? gone('producto') : [],
      servicios: gone('servicio'),
      clientes: o.clientes ? gone('cliente') : [],
    },
  };
}
