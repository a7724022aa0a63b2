import {
  REMITO_MESSAGES,
  type RecordSaleOutput,
  type RemitosFacturados,
  type RemitosFacturarOutput,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { conflict, invalid } from '../../lib/errors.js';
import { toCents, toMilli } from '../products/common.js';
import { invoiceSale } from '../facturacion/sale-hooks.js';
import { recordSale } from '../sales/record-sale.js';
import type { SaleContext } from '../sales/sales.service.js';
import { facturadosCtes, lockRemitosSql, remitoItemRows, remitoRow, remitosByIds } from './remitos.queries.js';
import { toResumen } from './remitos.service.js';

/** 409 for a remito already invoiced or void (the first one found, by number). */
function checkPendientes(rows: Record<string, unknown>[]) {
  for (const r of [...rows].sort((a, b) => (a.numero as number) - (b.numero as number))) {
    if (r.estado === 'facturado') throw conflict('INVALID_STATE', REMITO_MESSAGES.yaFacturado(r.numero as number));
    if (r.estado === 'anulado') throw conflict('INVALID_STATE', REMITO_MESSAGES.anulado(r.numero as number));
  }
}

/**
 * One sale for one or more pending remitos of one customer (decision 0056), through record-sale:
 * the remitos are locked and checked in the sale's transaction and marked facturado by the
 * statement that writes it (a second invoice of the same remito waits, then gets 409); the sale
 * takes no stock (the remitos did). Then its ARCA invoice, as the POS's sale.
 */
export async function facturarRemitos(
  app: App,
  c: SaleContext,
  input: RemitosFacturarOutput,
): Promise<RemitosFacturados> {
  const { db } = app.db;
  const ids = input.remito_ids;
  const found = await remitosByIds(c.businessId, ids, db);
  if (found.length !== ids.length) throw invalid('remito_ids', REMITO_MESSAGES.notInBusiness);
  if (new Set(found.map((r) => r.cliente_id)).size > 1) throw invalid('remito_ids', REMITO_MESSAGES.otroCliente);
  checkPendientes(found);
  const items = await remitoItemRows(c.businessId, ids, db);
  const keep = input.precios === 'presupuesto';
  const numeros = found.map((r) => `#${r.numero as number}`).join(', ');
  const sale = {
    cliente_id: found[0].cliente_id as string,
    metodo_pago: input.metodo_pago,
    pagos: input.pagos,
    turno_id: input.turno_id,
    facturar: input.facturar,
    receptor: input.receptor,
    descuento: found.reduce((s, r) => s + toCents(r.descuento as string), 0),
    observaciones: `${found.length === 1 ? 'Remito' : 'Remitos'} ${numeros}`,
    items: items.map((i) => ({
      id: (i.producto_id ?? i.servicio_id) as string,
      tipo: i.tipo as 'producto' | 'servicio',
      cantidad: toMilli(i.cantidad as string),
      precio: keep ? toCents(i.precio_unitario as string) : undefined,
      descuento: toCents(i.descuento as string),
    })),
  } as RecordSaleOutput;
  const r = await recordSale(app.db, c, sale, null, {
    reads: [['remitos', lockRemitosSql(c.businessId, ids)]],
    check: (read) => {
      const locked = read.get('remitos') ?? [];
      // Another business's remito is not there; a void one or one invoiced meanwhile answers 409.
      if (locked.length !== ids.length) throw invalid('remito_ids', REMITO_MESSAGES.notInBusiness);
      checkPendientes(locked);
    },
    ctes: [facturadosCtes(c.businessId, c.userId, ids)],
    sinStock: true,
  });
  const { sin_factura } = await invoiceSale(
    app,
    { ...c, ventaId: r.body.id },
    { facturar: r.facturar, pedida: input.facturar, receptor: input.receptor },
  );
  const remitos = await Promise.all(ids.map((id) => remitoRow(c.businessId, id, db)));
  return {
    venta: { id: r.body.id, numero: r.body.numero, total: r.body.total, ...(sin_factura ? { sin_factura } : {}) },
    remitos: remitos.map(toResumen).sort((a, b) => a.numero - b.numero),
  };
}
