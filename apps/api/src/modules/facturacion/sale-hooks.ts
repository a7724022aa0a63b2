import { FACTURACION_MESSAGES as M, type ComprobanteResumen, type Devolucion, type Receptor } from '@mostrador/shared';
import type { App } from '../../app.js';
import { todayIn } from '../../lib/dates.js';
import { AppError } from '../../lib/errors.js';
import { createFactura, createNotaCredito, readConfig, saleComprobante } from './facturacion.service.js';
import { returnNota } from './reconcile.js';

/*
 * What a sale, a void and a return do about invoices (decision 0013). They run after the sale's
 * own transaction committed and never wait for ARCA: the comprobante is stored pendiente and
 * attempted in the background; a sale is never refused because of its invoice. They are the fast
 * path: the sale's transaction marked it (`sales.conciliar`), so if they never run (a crash) or
 * fail, the sweep (reconcile.ts) creates the same comprobantes.
 */

interface SaleRef {
  businessId: string;
  userId: string;
  timezone: string;
  ventaId: string;
}

/**
 * The invoice of a sale just recorded (or replayed) that record-sale marked `facturar` (the POS
 * asked for one, or the business invoices every sale). Idempotent: a replay answers the invoice
 * already created, or creates the one a crash left undone. When the sale stands without an
 * invoice (no setup, a receptor the letter or the amount cannot take), `sin_factura` says why
 * and what to do, for the cashier (issue 32).
 */
export async function invoiceSale(
  app: App,
  s: SaleRef,
  sale: { facturar?: boolean; pedida?: boolean; receptor?: Receptor },
): Promise<{ comprobante: ComprobanteResumen | null; sin_factura: string | null }> {
  const none = { comprobante: null, sin_factura: null };
  if (app.facturacion.skipAfterStep) return none;
  const { db } = app.db;
  const cfg = sale.facturar ? await readConfig(db, s.businessId) : null;
  if (!cfg?.certificadoPem || !cfg.claveCifrada) {
    // Asked for (`facturar: true`) while the setup is not ready; an existing invoice (a replay) still answers.
    if (!sale.pedida && !sale.facturar) return none;
    const comprobante = await saleComprobante(db, s.businessId, s.ventaId);
    return { comprobante, sin_factura: comprobante ? null : sinFactura(M.sinFacturaSetup) };
  }
  try {
    const r = await createFactura(db, cfg, s.businessId, s.ventaId, {
      receptor: sale.receptor,
      hoy: todayIn(s.timezone, app.services.now()),
      userId: s.userId,
    });
    void app.facturacion.kick(s.businessId, r.id);
  } catch (e) {
    // A receptor the letter cannot take: the sale stands, the invoice is issued from the sale later.
    if (!(e instanceof AppError)) throw e;
    app.log.warn({ venta: s.ventaId, motivo: e.message }, 'facturación: venta sin factura');
    return { comprobante: null, sin_factura: sinFactura(e.message) };
  }
  return { comprobante: await saleComprobante(db, s.businessId, s.ventaId), sin_factura: null };
}

const sinFactura = (motivo: string) => `${M.sinFactura} ${motivo} ${M.sinFacturaDespues}`;

/** The nota de crédito of a voided sale's invoice. */
export async function creditVoid(app: App, s: SaleRef): Promise<void> {
  if (app.facturacion.skipAfterStep) return;
  const id = await createNotaCredito(app.db.db, s.businessId, s.ventaId, todayIn(s.timezone, app.services.now()));
  if (id) void app.facturacion.kick(s.businessId, id);
}

/** The nota de crédito of a return from an invoiced sale: its lines, for what went back. */
export async function creditReturn(app: App, s: SaleRef, d: Devolucion): Promise<void> {
  if (app.facturacion.skipAfterStep) return;
  const id = await returnNota(app.db.db, s.businessId, s.ventaId, todayIn(s.timezone, app.services.now()), d);
  if (id) void app.facturacion.kick(s.businessId, id);
}

export { saleComprobante };
