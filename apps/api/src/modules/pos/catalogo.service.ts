import type { PosCatalogo, ScaleLayout } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { listMedios } from '../caja/medios.service.js';
import { counterTurno } from '../caja/rows.js';
import { getTurno } from '../caja/turnos.service.js';
import {
  catalogoClientes,
  catalogoEliminados,
  catalogoProductos,
  catalogoServicios,
  catalogoSettings,
  catalogoSnapshot,
  openTurnos,
} from './catalogo.queries.js';

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
  const snap = await catalogoSnapshot(o.businessId, ex);
  const cursor = snap.cursor as string;
  // A cursor from the future (the database was restored to an earlier point): start over.
  const since = o.desde !== undefined && BigInt(o.desde) <= BigInt(snap.siguiente as string) ? o.desde : undefined;
  const productos = o.productos ? catalogoProductos(o.businessId, since, o.costos, ex) : Promise.resolve([{ l: null }]);
  const servicios = catalogoServicios(o.businessId, since, o.costos, ex);
  const clientes = o.clientes ? catalogoClientes(o.businessId, since, ex) : Promise.resolve([{ l: null }]);
  // Deactivated products and services leave the POS as deleted ones do.
  const eliminados = since === undefined ? Promise.resolve([]) : catalogoEliminados(o.businessId, since, ex);
  const settings = catalogoSettings(o.businessId, ex);
  const open = openTurnos(o.businessId, ex);
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
