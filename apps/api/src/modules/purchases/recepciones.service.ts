import {
  centsToDecimal,
  centsToNumber,
  margenSobreCosto,
  milliToNumber,
  precioPorMargen,
  PURCHASE_MESSAGES,
  RECEPCION_MESSAGES,
  type Purchase,
  type Recepcion,
  type RecepcionOutput,
  type SugerenciaPrecio,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { loadRules, marginRule } from '../precios/margen-precedencia.js';
import { toCents, toMilli } from '../products/common.js';
import { receiveLines } from './recepcion-stock.js';
import { getPurchase, loadLines, lockPurchase } from './purchases.service.js';
import {
  productName,
  purchaseExists,
  receptionExists,
  receptionItemRows,
  receptionProductRows,
  receptionRows,
  receptionSupplierId,
  setSalePrice,
} from './recepciones.queries.js';

/** Why a suggested price was applied, in the audit log: the margin that set it. */
const MOTIVO_SUGERENCIA: Record<SugerenciaPrecio['regla'], string> = {
  producto: 'Precio sugerido por la compra (margen del producto)',
  categoria: 'Precio sugerido por la compra (margen de la categoría)',
  proveedor: 'Precio sugerido por la compra (margen del proveedor)',
  actual: 'Precio sugerido por la compra (mantiene el margen)',
};

/*
 * Partial receptions and the price that keeps the margin when the cost rises (decision 0023).
 */

const pendingText = (milli: number) =>
  new Intl.NumberFormat('es-AR', { maximumFractionDigits: 3 }).format(milliToNumber(milli));

/** One reception of what the body lists; 409 when a line would receive more than is pending. */
export async function createReception(
  db: Db,
  businessId: string,
  userId: string,
  compraId: string,
  input: RecepcionOutput,
  today: string,
  now: Date,
  withSuggestions: boolean,
): Promise<{ recepcion: Recepcion; compra: Purchase; sugerencias: SugerenciaPrecio[] }> {
  return db.transaction(async (tx) => {
    const p = await lockPurchase(tx, businessId, compraId);
    if (p.estado !== 'pendiente' && p.estado !== 'recibida_parcial') {
      throw conflict('INVALID_STATE', RECEPCION_MESSAGES.notReceivable);
    }
    const lines = await loadLines(tx, businessId, compraId);
    const seen = new Set<string>();
    const wanted = input.lineas.map((w, i) => {
      const line = lines.find((l) => (w.linea_id ? l.id === w.linea_id : l.producto_id === w.producto_id));
      const field = `lineas.${i}.${w.linea_id ? 'linea_id' : 'producto_id'}`;
      if (!line) throw invalid(field, RECEPCION_MESSAGES.lineNotInPurchase);
      if (seen.has(line.id)) throw invalid(field, RECEPCION_MESSAGES.duplicateLine);
      seen.add(line.id);
      const pendiente = line.cantidad - line.cantidadRecibida;
      if (w.cantidad > pendiente) {
        throw conflict('OVER_BALANCE', RECEPCION_MESSAGES.overReceive(line.nombre, pendingText(pendiente)));
      }
      return { line, cantidad: w.cantidad };
    });
    const ctx = { tx, businessId, userId, now, depositoId: input.deposito_id ?? null };
    const { row, recepcionId, numero } = await receiveLines(ctx, p, wanted);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'compra',
      entidadId: compraId,
      accion: 'recibir',
      antes: { estado: p.estado },
      despues: {
        estado: row.estado,
        recepcion: numero,
        items: wanted.map((w) => ({
          producto_id: w.line.producto_id,
          producto_nombre: w.line.nombre,
          cantidad: milliToNumber(w.cantidad),
        })),
      },
    });
    const [recepcion] = await loadReceptions(tx, businessId, compraId, recepcionId);
    return {
      recepcion,
      compra: await getPurchase(tx, businessId, compraId, today),
      sugerencias: withSuggestions ? await suggestions(tx, businessId, recepcionId) : [],
    };
  });
}

/** The receptions of a purchase, oldest first, with their lines. */
export async function listReceptions(db: Db, businessId: string, compraId: string): Promise<Recepcion[]> {
  await getPurchaseExists(db, businessId, compraId);
  return loadReceptions(db, businessId, compraId);
}

async function getPurchaseExists(ex: Executor, businessId: string, compraId: string) {
  if (!(await purchaseExists(businessId, compraId, ex))) throw notFound(PURCHASE_MESSAGES.notFound);
}

async function loadReceptions(ex: Executor, businessId: string, compraId: string, onlyId?: string) {
  const recs = await receptionRows(businessId, compraId, onlyId, ex);
  if (!recs.length) return [];
  const items = await receptionItemRows(
    businessId,
    recs.map((r) => r.r.id),
    ex,
  );
  return recs.map(({ r, nombre }): Recepcion => ({
    id: r.id,
    numero: r.numero,
    compra_id: r.compraId,
    creado_por: r.creadoPor,
    creado_por_nombre: nombre,
    creado_en: r.creadoEn.toISOString(),
    revertida_en: r.revertidaEn ? r.revertidaEn.toISOString() : null,
    lineas: items
      .filter((x) => x.i.recepcionId === r.id)
      .map((x) => ({
        linea_id: x.i.itemId,
        producto_id: x.i.productoId,
        producto_nombre: x.nombre,
        unidad: x.unidad,
        cantidad: milliToNumber(toMilli(x.i.cantidad)),
        costo: centsToNumber(toCents(x.i.costo)),
      })),
  }));
}

/**
 * The products of a reception whose cost rose and whose price and cost are still the ones of
 * that moment: the price that keeps the margin over the old cost (price × new ÷ old, half up to
 * the cent). Products priced in dollars follow the cotización instead, and are left out.
 */
async function suggestions(
  ex: Executor,
  businessId: string,
  recepcionId: string,
  lock = false,
): Promise<SugerenciaPrecio[]> {
  const rows = await receptionProductRows(businessId, recepcionId, lock, ex);
  const rules = await loadRules(
    ex,
    businessId,
    rows.map((r) => r.p.id),
    await receptionSupplier(ex, businessId, recepcionId),
  );
  const out: SugerenciaPrecio[] = [];
  for (const { i, p } of rows) {
    if (i.costoAnterior === null || p.precioCompra === null || p.moneda !== 'ARS') continue;
    const costoAnterior = toCents(i.costoAnterior);
    const costo = toCents(i.costo);
    const precio = toCents(i.precioVenta);
    if (costoAnterior <= 0 || costo <= costoAnterior || precio <= 0) continue;
    if (toCents(p.precioCompra) !== costo || toCents(p.precioVenta) !== precio) continue;
    const rule = marginRule(rules, { id: p.id, categoria_id: p.categoriaId }, null);
    const sugerido = precioPorMargen(precio, costoAnterior, costo, rule.margen);
    if (sugerido <= precio || rule.regla === 'lista' || rule.regla === 'precio') continue;
    out.push({
      producto_id: p.id,
      producto_nombre: p.nombre,
      costo_anterior: centsToNumber(costoAnterior),
      costo_nuevo: centsToNumber(costo),
      precio_actual: centsToNumber(precio),
      precio_sugerido: centsToNumber(sugerido),
      margen: rule.margen === null ? margenSobreCosto(precio, costoAnterior) : centsToNumber(rule.margen),
      regla: rule.regla,
    });
  }
  return out.sort((a, b) => a.producto_nombre.localeCompare(b.producto_nombre, 'es'));
}

/** The supplier of the reception's purchase, whose margin rule applies (none for free-text suppliers). */
async function receptionSupplier(ex: Executor, businessId: string, recepcionId: string) {
  return receptionSupplierId(businessId, recepcionId, ex);
}

export async function findReception(ex: Executor, businessId: string, compraId: string, recepcionId: string) {
  if (!(await receptionExists(businessId, compraId, recepcionId, ex))) {
    throw notFound(RECEPCION_MESSAGES.notFound);
  }
}

/** The preview: what applying would set, computed now. */
export async function previewPrices(db: Db, businessId: string, compraId: string, recepcionId: string) {
  await findReception(db, businessId, compraId, recepcionId);
  return suggestions(db, businessId, recepcionId);
}

/**
 * Sets the suggested price of the chosen products, all or none, in one transaction; the price
 * history records the change with origin `compra`. A product whose suggestion is no longer
 * valid (its price or cost changed since) answers 409 and nothing changes.
 */
export async function applyPrices(
  db: Db,
  businessId: string,
  userId: string,
  compraId: string,
  recepcionId: string,
  productoIds: string[],
): Promise<SugerenciaPrecio[]> {
  return db.transaction(async (tx) => {
    await lockPurchase(tx, businessId, compraId);
    await findReception(tx, businessId, compraId, recepcionId);
    const current = await suggestions(tx, businessId, recepcionId, true);
    const chosen: SugerenciaPrecio[] = [];
    for (const id of new Set(productoIds)) {
      const s = current.find((c) => c.producto_id === id);
      if (!s) {
        const nombre = await productName(businessId, id, tx);
        throw conflict('INVALID_STATE', RECEPCION_MESSAGES.noSuggestion(nombre ?? 'El producto'));
      }
      chosen.push(s);
    }
    await precioOrigen(tx, { origen: 'compra', userId, referenciaId: compraId });
    for (const s of chosen) {
      await setSalePrice(businessId, s.producto_id, centsToDecimal(toCents(s.precio_sugerido)), tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'producto',
        entidadId: s.producto_id,
        accion: 'actualizar',
        antes: { precio_venta: s.precio_actual },
        despues: { precio_venta: s.precio_sugerido, motivo: MOTIVO_SUGERENCIA[s.regla] },
      });
    }
    return chosen;
  });
}
