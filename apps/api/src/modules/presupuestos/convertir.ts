import {
  PRESUPUESTO_MESSAGES,
  type PresupuestoConvertido,
  type PresupuestoConvertirOutput,
  type PresupuestoEstado,
  type RecordSaleOutput,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { conflict, notFound } from '../../lib/errors.js';
import { invoiceSale } from '../facturacion/sale-hooks.js';
import { recordSale } from '../sales/record-sale.js';
import type { SaleContext } from '../sales/sales.service.js';
import { getRemito, writeRemito } from '../remitos/remitos.service.js';
import { convertedToSaleCtes, lockPresupuestoSql, markConvertedToRemito } from './presupuestos.queries.js';
import { checkConvertible, getPresupuesto, hoyDe } from './presupuestos.service.js';

/*
 * A presupuesto becomes a sale or a remito (decision 0056), at its quoted prices or at today's.
 * The quote's prices and discounts were checked when it was written, so the conversion does not
 * ask for the seller's price permissions again; the stock, the caja, the customer's credit and
 * ARCA's invoice behave as for any sale. Exactly one of two concurrent conversions wins: the
 * presupuesto's row is locked in the transaction that converts it, and the second one, once it
 * gets the lock, finds it convertido (409).
 */

type Presupuesto = Awaited<ReturnType<typeof getPresupuesto>>;

function itemsOf(p: Presupuesto, keep: boolean): RecordSaleOutput['items'] {
  return p.items.map((i) => ({
    id: (i.producto_id ?? i.servicio_id)!,
    tipo: i.tipo,
    cantidad: Math.round(i.cantidad * 1000),
    precio: keep ? Math.round(i.precio_unitario * 100) : undefined,
    descuento: Math.round(i.descuento * 100),
  }));
}

export async function convertirPresupuesto(
  app: App,
  c: SaleContext,
  id: string,
  input: PresupuestoConvertirOutput,
): Promise<PresupuestoConvertido> {
  const { db } = app.db;
  const hoy = hoyDe(c);
  const p = await getPresupuesto(db, c.businessId, id, hoy);
  checkConvertible(p.estado, input.precios);
  const keep = input.precios === 'presupuesto';
  // The quote's own controls were applied when it was written.
  const ctx: SaleContext = { ...c, precios: undefined };

  if (input.destino === 'remito') {
    const remito = await db.transaction(async (tx) => {
      const [row] = (await tx.execute(lockPresupuestoSql(c.businessId, id))).rows;
      if (!row) throw notFound(PRESUPUESTO_MESSAGES.notFound);
      checkLocked(row, p, hoy, input.precios);
      const r = await writeRemito(tx, ctx, {
        clienteId: p.cliente_id,
        items: itemsOf(p, keep),
        descuento: Math.round(p.descuento * 100),
        notas: p.notas,
        presupuestoId: id,
        conPrecios: keep,
      });
      await markConvertedToRemito(c.businessId, id, r.id, tx);
      return getRemito(tx, c.businessId, r.id);
    });
    return {
      presupuesto: await getPresupuesto(db, c.businessId, id, hoy),
      venta: null,
      remito: { id: remito.id, numero: remito.numero, total: remito.total },
    };
  }

  const sale = {
    cliente_id: p.cliente_id,
    metodo_pago: input.metodo_pago,
    pagos: input.pagos,
    turno_id: input.turno_id,
    facturar: input.facturar,
    receptor: input.receptor,
    descuento: Math.round(p.descuento * 100),
    observaciones: `Presupuesto #${p.numero}`,
    items: itemsOf(p, keep),
  } as RecordSaleOutput;
  const r = await recordSale(app.db, ctx, sale, null, {
    reads: [['presupuesto', lockPresupuestoSql(c.businessId, id)]],
    check: (read) => {
      const row = read.get('presupuesto')?.[0];
      if (!row) throw notFound(PRESUPUESTO_MESSAGES.notFound);
      checkLocked(row, p, hoy, input.precios);
    },
    ctes: [convertedToSaleCtes(c.businessId, c.userId, id)],
  });
  const { sin_factura } = await invoiceSale(
    app,
    { ...c, ventaId: r.body.id },
    { facturar: r.facturar, pedida: input.facturar, receptor: input.receptor },
  );
  return {
    presupuesto: await getPresupuesto(db, c.businessId, id, hoy),
    venta: { id: r.body.id, numero: r.body.numero, total: r.body.total, ...(sin_factura ? { sin_factura } : {}) },
    remito: null,
  };
}

/** The locked row: still convertible, and not edited since it was read (409 otherwise). */
function checkLocked(row: Record<string, unknown>, p: Presupuesto, hoy: string, precios: 'presupuesto' | 'actuales') {
  const guardado = row.estado as string;
  const vencido = ['borrador', 'enviado'].includes(guardado) && (row.vence as string) < hoy;
  checkConvertible((vencido ? 'vencido' : guardado) as PresupuestoEstado, precios);
  const editado = new Date(row.actualizado_en as string).toISOString();
  if (editado !== p.actualizado_en) throw conflict('INVALID_STATE', PRESUPUESTO_MESSAGES.changed);
}
