import { z } from 'zod';

/** Payment methods of sales, purchases, movements and payments (API-CONTRACT §1.2). */
export const PAYMENT_METHODS = [
  'efectivo',
  'tarjeta_debito',
  'tarjeta_credito',
  'transferencia',
  'mercado_pago',
  'cheque',
  'otro',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  efectivo: 'Efectivo',
  tarjeta_debito: 'Tarjeta de Débito',
  tarjeta_credito: 'Tarjeta de Crédito',
  transferencia: 'Transferencia',
  mercado_pago: 'Mercado Pago',
  cheque: 'Cheque',
  otro: 'Otro',
};

/** The choices of the finance forms, in the order of SPEC §5. */
export const FINANCE_PAYMENT_METHODS = [
  'efectivo',
  'transferencia',
  'tarjeta_debito',
  'tarjeta_credito',
  'cheque',
  'otro',
] as const satisfies readonly PaymentMethod[];

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

const ALIASES: Record<string, PaymentMethod> = { tarjeta: 'tarjeta_debito' };
for (const code of PAYMENT_METHODS) {
  ALIASES[code] = code;
  ALIASES[fold(PAYMENT_METHOD_LABELS[code])] = code;
}

/** A code, `tarjeta` or a form label (any case, with or without accents) → the code. */
export function normalizePaymentMethod(value: unknown): PaymentMethod | null {
  if (typeof value !== 'string') return null;
  return ALIASES[fold(value)] ?? null;
}

export const paymentMethodLabel = (code: string | null | undefined): string =>
  code ? (PAYMENT_METHOD_LABELS[code as PaymentMethod] ?? code) : '';

const MSG_OPTIONS = `Valor no válido. Opciones: ${PAYMENT_METHODS.join(', ')}.`;

/** Required payment method; input codes or labels, output the code. Add `.optional()` for PUT. */
export const paymentMethod = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (normalizePaymentMethod(v) ?? (v.trim() === '' ? null : v)) : v),
    z.enum(PAYMENT_METHODS, {
      error: (iss) => (iss.input === undefined || iss.input === null ? 'Este campo es obligatorio.' : MSG_OPTIONS),
    }),
  );
