import { sql } from 'drizzle-orm';
import type { ComprobanteResumen, Devolucion, IvaRate, Receptor } from '@mostrador/shared';
import type { App } from '../../app.js';
import { todayIn } from '../../lib/dates.js';
import { AppError } from '../../lib/errors.js';
import { createFactura, createNotaCredito, readConfig, saleComprobante } from './facturacion.service.js';

/*
 * What a sale, a void and a return do about invoices (decision 0013). They run after the sale's
 * own transaction committed and never wait for ARCA: the comprobante is stored pendiente and
 * attempted in the background; a sale is never refused because of its invoice.
 */

interface SaleRef {
  businessId: string;
  userId: string;
  timezone: string;
  ventaId: string;
}

/** The invoice of a sale just recorded, when the POS asked for one or the business invoices every sale. */
export async function invoiceSale(
  app: App,
  s: SaleRef,
  body: { facturar?: boolean; receptor?: Receptor },
): Promise<ComprobanteResumen | null> {
  const { db } = app.db;
  const cfg = await readConfig(db, s.businessId);
  if (!cfg) return null;
  if (!(body.facturar ?? cfg.facturar === 'siempre')) return null;
  if (!cfg.certificadoPem || !cfg.claveCifrada) return null;
  try {
    const r = await createFactura(db, cfg, s.businessId, s.ventaId, {
      receptor: body.receptor,
      hoy: todayIn(s.timezone, app.services.now()),
      userId: s.userId,
    });
    void app.facturacion.kick(s.businessId, r.id);
  } catch (e) {
    // A receptor the letter cannot take: the sale stands, the invoice is issued from the sale later.
    if (!(e instanceof AppError)) throw e;
    app.log.warn({ venta: s.ventaId, motivo: e.message }, 'facturación: venta sin factura');
    return null;
  }
  return saleComprobante(db, s.businessId, s.ventaId);
}

/** The nota de crédito of a voided sale's invoice. */
export async function creditVoid(app: App, s: SaleRef): Promise<void> {
  const id = await createNotaCredito(app.db.db, s.businessId, s.ventaId, todayIn(s.timezone, app.services.now()));
  if (id) void app.facturacion.kick(s.businessId, id);
}

/** The nota de crédito of a return from an invoiced sale: its lines, for what went back. */
export async function creditReturn(app: App, s: SaleRef, d: Devolucion): Promise<void> {
  const { db } = app.db;
  const ids = d.items.map((i) => i.item_id);
  if (!ids.length) return;
  const rates = await db.execute<{ id: string; iva: IvaRate }>(sql`
    SELECT i.id, coalesce(i.iva, p.iva, sv.iva, '21') AS iva FROM sale_items i
      LEFT JOIN products p ON p.business_id = i.business_id AND p.id = i.producto_id
      LEFT JOIN services sv ON sv.business_id = i.business_id AND sv.id = i.servicio_id
     WHERE i.business_id = ${s.businessId} AND i.id IN ${ids}`);
  const rate = new Map(rates.rows.map((r) => [r.id, r.iva]));
  const lineas = d.items.map((i) => ({
    nombre: i.nombre,
    cantidad: i.cantidad,
    precio_unitario: i.precio_unitario,
    descuento: 0,
    subtotal: i.monto,
    iva: rate.get(i.item_id) ?? ('21' as IvaRate),
  }));
  const id = await createNotaCredito(db, s.businessId, s.ventaId, todayIn(s.timezone, app.services.now()), {
    id: d.id,
    lineas,
    total: Math.round(d.monto * 100),
  });
  if (id) void app.facturacion.kick(s.businessId, id);
}

export { saleComprobante };
