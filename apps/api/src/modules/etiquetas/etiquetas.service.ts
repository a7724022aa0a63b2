import {
  CAJA_MESSAGES,
  codigoInterno,
  ETIQUETA_MESSAGES,
  ETIQUETA_PLANTILLA_LABELS,
  ETIQUETAS_MAX,
  PRODUCT_MESSAGES,
  precioPorUnidad,
  precioSinIva,
  type ContenidoUnidad,
  type EtiquetasImpresion,
  type EtiquetasQuery,
  type IvaRate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { todayIn } from '../../lib/dates.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { impresoraDeCaja } from '../caja/turnos.service.js';
import { ESTADO_ZPL, trabajoZpl } from './zpl.js';
import { FallaImpresora, imprimirEnRed, type TiemposImpresora } from '../impresion/impresora-red.js';
import { toCents } from '../products/common.js';
import { etiquetasPdf, type Etiqueta } from './etiquetas-pdf.js';
import { condicionIva, lockSinCodigo, productosParaEtiquetas, setCodigosBarras } from './etiquetas.queries.js';

/*
 * Shelf and barcode labels (issue 35, decision 0054).
 */

export interface Negocio {
  id: string;
  locale: string;
  currency: string;
  timezone: string;
  now: Date;
}

/** The labels asked for, one per product (its copies apart), as every output prints them. */
async function listaEtiquetas(ex: Executor, b: Negocio, q: EtiquetasQuery) {
  const plantilla = q.plantilla ?? 'gondola';
  const [productos, condicion] = await Promise.all([productosParaEtiquetas(b.id, q, ex), condicionIva(b.id, ex)]);
  if (!productos.length) throw notFound(ETIQUETA_MESSAGES.ninguno);
  const copias = q.copias ?? 1;
  if (productos.length * copias > ETIQUETAS_MAX)
    throw new AppError(422, 'VALIDATION_ERROR', ETIQUETA_MESSAGES.demasiadas);
  const money = new Intl.NumberFormat(b.locale, { style: 'currency', currency: b.currency, minimumFractionDigits: 2 });
  const $ = (cents: number) => money.format(cents / 100);
  const hoy = todayIn(b.timezone, b.now);
  const fecha = `${hoy.slice(8, 10)}/${hoy.slice(5, 7)}/${hoy.slice(0, 4)}`;
  // A monotributista's or an exempt shop's prices carry no IVA of its own to take out.
  const conIva = condicion === null || condicion === 'responsable_inscripto';
  const unicas: Etiqueta[] = productos.map((p) => {
    const precio = toCents(p.precio_venta);
    const ppu = precioPorUnidad({
      precio,
      contenido: p.contenido === null ? null : Number(p.contenido),
      contenido_unidad: p.contenido_unidad as ContenidoUnidad | null,
      unidad: p.unidad,
    });
    return {
      nombre: p.nombre,
      precio: $(precio),
      porUnidad: ppu ? `Precio por ${ppu.unidad}: ${$(ppu.precio)}` : null,
      sinImpuestos: conIva ? $(precioSinIva(precio, p.iva as IvaRate)) : null,
      codigo: p.codigo,
      codigoBarras: p.codigo_barras,
      fecha,
    };
  });
  return { plantilla, unicas, copias, hoy };
}

/** The label sheet as a PDF, and its file name. */
export async function etiquetas(ex: Executor, b: Negocio, q: EtiquetasQuery) {
  const { plantilla, unicas, copias, hoy } = await listaEtiquetas(ex, b, q);
  const lista = unicas.flatMap((e) => Array.from({ length: copias }, () => e));
  const pdf = await etiquetasPdf(plantilla, lista, `Etiquetas: ${ETIQUETA_PLANTILLA_LABELS[plantilla]}`);
  return { pdf, nombre: `etiquetas-${plantilla}-${hoy}.pdf`, cantidad: lista.length };
}

/**
 * The same labels on the caja's label printer, in ZPL (decision 0054): one format per product
 * with its copies. Nothing is written; a printer that fails is a 502 saying what failed.
 */
export async function imprimirEtiquetas(
  ex: Executor,
  b: Negocio,
  cajaId: string,
  q: EtiquetasQuery,
  tiempos: TiemposImpresora,
): Promise<EtiquetasImpresion> {
  const caja = await impresoraDeCaja(ex, b.id, cajaId);
  if (!caja) throw notFound(CAJA_MESSAGES.cajaNotFound);
  const imp = caja.impresora_etiquetas;
  if (!imp) throw conflict('INVALID_STATE', ETIQUETA_MESSAGES.sinImpresora);
  const { plantilla, unicas, copias } = await listaEtiquetas(ex, b, q);
  const bytes = trabajoZpl(plantilla, unicas, copias, imp);
  try {
    await imprimirEnRed({ host: imp.host, puerto: imp.puerto, nombre: caja.nombre }, bytes, tiempos, ESTADO_ZPL);
  } catch (e) {
    if (e instanceof FallaImpresora)
      throw new AppError(502, 'PRINTER_FAILED', e.message.replace('La impresora de', 'La impresora de etiquetas de'), {
        motivo: e.motivo,
      });
    throw e;
  }
  return { impreso: true, etiquetas: unicas.length * copias, productos: unicas.length, lenguaje: 'zpl' };
}

/**
 * Gives each chosen product without a barcode an internal EAN-13 (GS1 prefix 04, the business's
 * next item numbers), so its label scans at the counter. Products with a barcode keep it.
 */
export async function asignarCodigosInternos(db: Db, businessId: string, userId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const { encontrados, sinCodigo, ultimo } = await lockSinCodigo(businessId, unique, tx);
    if (encontrados !== unique.length) throw notFound(PRODUCT_MESSAGES.notFound);
    const asignados = sinCodigo.map((p, k) => ({
      producto_id: p.id,
      nombre: p.nombre,
      codigo_barras: codigoInterno(ultimo + k + 1),
    }));
    await setCodigosBarras(
      businessId,
      asignados.map((a) => ({ id: a.producto_id, codigo: a.codigo_barras })),
      tx,
    );
    for (const a of asignados) {
      await audit(tx, {
        businessId,
        userId,
        entidad: 'producto',
        entidadId: a.producto_id,
        accion: 'actualizar',
        antes: { codigo_barras: null },
        despues: { codigo_barras: a.codigo_barras },
      });
    }
    return { asignados };
  });
}
