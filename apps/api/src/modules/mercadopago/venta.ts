import type { SQL } from 'drizzle-orm';
import {
  formatPesos,
  MERCADOPAGO_MESSAGES as M,
  ORDEN_ESTADO_LABELS,
  type OrdenEstado,
  type RecordSaleOutput,
  type SettledPayment,
} from '@mostrador/shared';
import type { Row } from '../../db/pipeline.js';
import { AppError, invalid } from '../../lib/errors.js';
import { toCents } from '../products/common.js';
import { saleOrdenReads } from './mercadopago.queries.js';

/*
 * A sale paid through MP (decision 0052): record-sale reads, in its first round trip, the orders
 * its payments name (locked) and the business's MP medio, checks them here, and writes each
 * order's id on its payment row in the sale's own statement — the unique index on it makes an
 * order pay one sale only, and the sale and its binding commit or fail together.
 */

/** The statements record-sale adds to its first round trip (none without split payments). */
export function mercadoPagoSaleReads(businessId: string, input: RecordSaleOutput): [string, SQL][] {
  if (!input.pagos) return [];
  const ids = input.pagos.map((p) => p.mercadopago_orden_id).filter((id): id is string => !!id);
  const reads = saleOrdenReads(businessId, [...new Set(ids)]);
  return ids.length ? reads : reads.filter(([name]) => name === 'mp_config');
}

const refused = (field: string, message: string) =>
  new AppError(409, 'INVALID_STATE', message, { errors: [{ field, message }] });

/**
 * Each payment that names an MP order: with the MP medio, an order of this business, approved,
 * for exactly what the payment charges (its total, adjustment included) and used by no other
 * sale. A payment with the MP medio names its order, once MP is configured (but a sale taken
 * offline, which could not reach MP: it already happened at the counter).
 */
export function checkMercadoPagoPayments(input: RecordSaleOutput, parts: SettledPayment[], read: Map<string, Row[]>) {
  if (!input.pagos) return;
  const medioMp = read.get('mp_config')?.[0]?.medio_pago_id as string | undefined;
  const ordenes = new Map((read.get('mp_ordenes') ?? []).map((o) => [o.id as string, o]));
  const usadas = new Set((read.get('mp_usadas') ?? []).map((o) => o.id as string));
  const seen = new Set<string>();
  input.pagos.forEach((p, i) => {
    const field = `pagos.${i}.mercadopago_orden_id`;
    const id = p.mercadopago_orden_id;
    if (!id) {
      if (medioMp && p.medio_pago_id === medioMp && !input.offline) throw invalid(field, M.ordenRequerida);
      return;
    }
    if (seen.has(id)) throw refused(field, M.ordenRepetida);
    seen.add(id);
    if (!medioMp || p.medio_pago_id !== medioMp) throw invalid(`pagos.${i}.medio_pago_id`, M.ordenConOtroMedio);
    const o = ordenes.get(id);
    if (!o) throw refused(field, M.ordenDesconocida);
    if (usadas.has(id)) throw refused(field, M.ordenUsada);
    if (o.estado !== 'aprobada') throw refused(field, M.ordenNoAprobada(ORDEN_ESTADO_LABELS[o.estado as OrdenEstado]));
    const monto = toCents(o.monto as string);
    if (monto !== parts[i].total)
      throw refused(field, M.ordenOtroMonto(formatPesos(monto), formatPesos(parts[i].total)));
  });
}
