import { CAJA_MESSAGES, percentOf, settlePayments, type MedioPago, type PaymentMedio } from '@mostrador/shared/caja';
import { INVALID_AMOUNT, parseDecimal } from '@/lib/decimal';

/*
 * How the customer pays at the counter: one medio (cash with what was handed over, or the whole
 * total with another medio) or several parts. The same rule as the server (settlePayments), so
 * the total with surcharges, the change and what is missing show while typing.
 */

export interface SplitRow {
  key: string;
  medioId: string;
  text: string;
}

export interface PaymentPlan {
  /** What the sale sends as `pagos` (pesos), or null while it cannot be charged. */
  pagos: { medio_pago_id: string; monto: number }[] | null;
  /** Cents: the base plus the medios' surcharges and discounts. */
  total: number;
  ajuste: number;
  /** Cents of change (cash), or null when none was handed over. */
  vuelto: number | null;
  /** Cents still missing, 0 when covered. */
  falta: number;
  /** Why it cannot be charged, by row key ("plan" for the whole). */
  errors: Record<string, string>;
}

const asMedio = (m: MedioPago): PaymentMedio => ({
  id: m.id,
  nombre: m.nombre,
  tipo: m.tipo,
  ajuste_porcentaje: m.ajuste_porcentaje,
});

/** One medio: cash pays what was handed over (or exactly the total), any other medio the total. */
export function singlePlan(base: number, medio: MedioPago | undefined, pagaCon: number | null): PaymentPlan {
  if (!medio) return { pagos: null, total: base, ajuste: 0, vuelto: null, falta: 0, errors: {} };
  const total = base + percentOf(base, medio.ajuste_porcentaje);
  const handed = medio.tipo === 'efectivo' && pagaCon !== null ? pagaCon : medio.tipo === 'efectivo' ? total : base;
  return plan(
    base,
    [{ key: 'single', medio: asMedio(medio), monto: handed }],
    medio.tipo === 'efectivo' && pagaCon !== null,
  );
}

/** Several parts, each typed in its row. */
export function splitPlan(base: number, medios: MedioPago[], rows: SplitRow[], money: (c: number) => string) {
  const errors: Record<string, string> = {};
  const parts: { key: string; medio: PaymentMedio; monto: number }[] = [];
  for (const r of rows) {
    const m = medios.find((x) => x.id === r.medioId);
    const c = parseDecimal(r.text, 2);
    if (!r.text.trim()) continue;
    if (c === null || c <= 0) errors[r.key] = INVALID_AMOUNT;
    else if (m) parts.push({ key: r.key, medio: asMedio(m), monto: c });
  }
  const p = plan(
    base,
    parts,
    parts.some((x) => x.medio.tipo === 'efectivo'),
  );
  if (Object.keys(errors).length) return { ...p, pagos: null, errors: { ...p.errors, ...errors } };
  if (p.falta > 0) p.errors.plan = CAJA_MESSAGES.pagosShort(money(p.falta));
  return p;
}

function plan(
  base: number,
  parts: { key?: string; medio: PaymentMedio; monto: number }[],
  showChange: boolean,
): PaymentPlan {
  if (!parts.length) return { pagos: null, total: base, ajuste: 0, vuelto: null, falta: base, errors: {} };
  const r = settlePayments(base, parts);
  if (!r.ok) {
    return r.error === 'short'
      ? { pagos: null, total: base, ajuste: 0, vuelto: null, falta: r.falta, errors: {} }
      : { pagos: null, total: base, ajuste: 0, vuelto: null, falta: 0, errors: { plan: CAJA_MESSAGES.pagosOver } };
  }
  return {
    pagos: parts.map((p) => ({ medio_pago_id: p.medio.id!, monto: p.monto / 100 })),
    total: r.total,
    ajuste: r.ajuste,
    vuelto: showChange ? r.vuelto : null,
    falta: 0,
    errors: {},
  };
}
