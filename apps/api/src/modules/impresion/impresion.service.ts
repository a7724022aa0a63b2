import {
  CAJA_MESSAGES,
  IMPRESION_MESSAGES,
  type AnchoPapel,
  type DocumentoTipo,
  type Impresion,
} from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { todayIn } from '../../lib/dates.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { getCobro, getCuenta } from '../caja/cuenta.service.js';
import { getTurno, impresoraDeCaja } from '../caja/turnos.service.js';
import { getDevolucion } from '../devoluciones/devoluciones.service.js';
import { getComprobante, saleComprobante } from '../facturacion/facturacion.service.js';
import { getSale } from '../sales/sales.service.js';
import { getPresupuesto } from '../presupuestos/presupuestos.service.js';
import { getRemito } from '../remitos/remitos.service.js';
import { getTransferencia } from '../depositos/transferencias.service.js';
import { aEscpos, type Documento } from './documento.js';
import {
  cierreDoc,
  cobroDoc,
  devolucionDoc,
  estadoCuentaDoc,
  facturaDoc,
  negocioDe,
  presupuestoDoc,
  remitoDoc,
  ticketDoc,
  transferenciaDoc,
  type Formato,
} from './documentos.js';
import { cajaDeVenta, negocioImpreso } from './impresion.queries.js';
import { FallaImpresora, imprimirEnRed, type TiemposImpresora } from './impresora-red.js';

/*
 * Printing documents on a caja's printer (issue 35, decision 0054). Nothing here writes: a failed
 * print leaves what was printed (a sale, a cobro) exactly as it was recorded.
 */

export interface Negocio extends Formato {
  id: string;
  now: Date;
}

export interface DocumentoListo {
  tipo: DocumentoTipo;
  doc: Documento;
  /** The customer it belongs to (the wa.me and e-mail of a shared document). */
  clienteId: string | null;
  /** A sale paid (partly) in cash: its drawer may open. */
  efectivo: boolean;
}

async function negocio(ex: Executor, businessId: string) {
  const n = await negocioImpreso(businessId, ex);
  if (!n) throw notFound('Negocio no encontrado.');
  return negocioDe(n);
}

/** A sale as it prints: its invoice when it has an authorised one, else its ticket. */
export async function documentoDeVenta(ex: Executor, b: Negocio, ventaId: string): Promise<DocumentoListo> {
  const sale = await getSale(ex, b.id, ventaId);
  const efectivo = sale.estado === 'completada' && sale.pagos.some((p) => p.tipo === 'efectivo');
  const resumen = await saleComprobante(ex, b.id, ventaId);
  if (resumen?.estado === 'autorizado') {
    const c = await getComprobante(ex, b.id, resumen.id);
    return { tipo: 'factura', doc: facturaDoc(c, b), clienteId: sale.cliente_id, efectivo };
  }
  return { tipo: 'ticket', doc: ticketDoc(sale, await negocio(ex, b.id), b), clienteId: sale.cliente_id, efectivo };
}

/** Any printable document by its tipo and id (404 when it is not the business's). */
export async function documentoDe(ex: Executor, b: Negocio, tipo: DocumentoTipo, id: string): Promise<DocumentoListo> {
  const hoy = todayIn(b.timezone, b.now);
  switch (tipo) {
    case 'ticket': {
      const sale = await getSale(ex, b.id, id);
      return { tipo, doc: ticketDoc(sale, await negocio(ex, b.id), b), clienteId: sale.cliente_id, efectivo: false };
    }
    case 'factura': {
      const c = await getComprobante(ex, b.id, id);
      const sale = await getSale(ex, b.id, c.venta_id);
      return { tipo, doc: facturaDoc(c, b), clienteId: sale.cliente_id, efectivo: false };
    }
    case 'cobro': {
      const k = await getCobro(ex, b.id, id, hoy);
      return { tipo, doc: cobroDoc(k, await negocio(ex, b.id), b), clienteId: k.cliente_id, efectivo: false };
    }
    case 'devolucion': {
      const d = await getDevolucion(ex, b.id, id);
      return { tipo, doc: devolucionDoc(d, await negocio(ex, b.id), b), clienteId: d.cliente_id, efectivo: false };
    }
    case 'cierre': {
      const t = await getTurno(ex, b.id, id);
      if (t.estado !== 'cerrado') throw conflict('INVALID_STATE', IMPRESION_MESSAGES.turnoAbierto);
      return { tipo, doc: cierreDoc(t, await negocio(ex, b.id), b), clienteId: null, efectivo: false };
    }
    case 'estado_cuenta': {
      const c = await getCuenta(ex, b.id, id, hoy);
      return { tipo, doc: estadoCuentaDoc(c, await negocio(ex, b.id), b, hoy), clienteId: id, efectivo: false };
    }
    case 'presupuesto': {
      const pr = await getPresupuesto(ex, b.id, id, hoy);
      return { tipo, doc: presupuestoDoc(pr, await negocio(ex, b.id), b), clienteId: pr.cliente_id, efectivo: false };
    }
    case 'remito': {
      const r = await getRemito(ex, b.id, id);
      return { tipo, doc: remitoDoc(r, await negocio(ex, b.id), b), clienteId: r.cliente_id, efectivo: false };
    }
    case 'transferencia': {
      const tr = await getTransferencia(ex, b.id, id);
      return { tipo, doc: transferenciaDoc(tr, await negocio(ex, b.id), b), clienteId: null, efectivo: false };
    }
  }
}

/** The caja a sale prints on: the one named, else its turno's (409 when it has none). */
export async function cajaParaVenta(ex: Executor, businessId: string, ventaId: string, cajaId?: string) {
  if (cajaId) return cajaId;
  const caja = await cajaDeVenta(businessId, ventaId, ex);
  if (!caja) throw conflict('INVALID_STATE', IMPRESION_MESSAGES.sinCaja);
  return caja;
}

/**
 * Prints `d` on the caja's printer. A network printer is reached from here (502 with what failed
 * when it cannot print); a printer attached to the counter's browser gets the bytes to send.
 * The drawer opens only when asked, on a cash sale, and when the caja's printer says so.
 */
export async function imprimir(
  ex: Executor,
  businessId: string,
  cajaId: string,
  d: DocumentoListo,
  o: { abrirCajon: boolean; tiempos: TiemposImpresora },
): Promise<Impresion> {
  const caja = await impresoraDeCaja(ex, businessId, cajaId);
  if (!caja) throw notFound(CAJA_MESSAGES.cajaNotFound);
  const imp = caja.impresora;
  if (!imp) throw conflict('INVALID_STATE', IMPRESION_MESSAGES.sinImpresora);
  const cajon = o.abrirCajon && d.efectivo && imp.abrir_cajon;
  const bytes = aEscpos(d.doc, imp.ancho as AnchoPapel, { cajon });
  if (imp.tipo === 'navegador') {
    return {
      impreso: false,
      destino: 'navegador',
      documento: d.tipo,
      cajon,
      escpos: Buffer.from(bytes).toString('base64'),
    };
  }
  try {
    await imprimirEnRed({ host: imp.host, puerto: imp.puerto, nombre: caja.nombre }, bytes, o.tiempos);
  } catch (e) {
    if (e instanceof FallaImpresora) throw new AppError(502, 'PRINTER_FAILED', e.message, { motivo: e.motivo });
    throw e;
  }
  return { impreso: true, destino: 'red', documento: d.tipo, cajon, escpos: null };
}
