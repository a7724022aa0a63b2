import { z } from 'zod';
import { quantity, withAliases } from './catalog.js';
import { oneOfCi, pageQuery, queryParam } from './customers.js';
import { MAX_MONEY_CENTS, money } from './money.js';
import { PAYMENT_METHODS, paymentMethod } from './payment-methods.js';
import { facturaInput, facturaSchema } from './compras-factura.js';
import { isoDate, optText } from './validation.js';

/* ---------------------------------------------------------------- constants (API-CONTRACT §13) */

/** `recibida_parcial`: some goods arrived (decision 0023); only receptions lead there. */
export const PURCHASE_STATES = ['pendiente', 'recibida_parcial', 'recibida', 'cancelada'] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];
export const PURCHASE_STATE_LABELS: Record<PurchaseState, string> = {
  pendiente: 'Pendiente',
  recibida_parcial: 'Recibida parcialmente',
  recibida: 'Recibida',
  cancelada: 'Cancelada',
};

/** The existing client's names of the states. */
const STATE_ALIASES: Record<string, PurchaseState> = { no_entregado: 'pendiente', entregado: 'recibida' };

export const PAYMENT_CONDITIONS = ['contado', 'cuenta_corriente'] as const;
export type PaymentCondition = (typeof PAYMENT_CONDITIONS)[number];
export const PAYMENT_CONDITION_LABELS: Record<PaymentCondition, string> = {
  contado: 'Contado',
  cuenta_corriente: 'Cuenta corriente',
};

export const PURCHASE_LIST_DEFAULT_LIMIT = 50;
export const PURCHASE_LIST_MAX_LIMIT = 200;
export const PURCHASE_MAX_ITEMS = 500;

export const PURCHASE_MESSAGES = {
  notFound: 'Compra no encontrada.',
  productNotInBusiness: 'Producto no encontrado en este negocio.',
  supplierNotInBusiness: 'Proveedor no encontrado en este negocio.',
  badState: 'Estado no válido.',
  noItems: 'La compra debe tener al menos un producto.',
  tooManyItems: `La compra admite como máximo ${PURCHASE_MAX_ITEMS} líneas.`,
  duplicateProduct: 'El producto ya está en otra línea de la compra.',
  creditNeedsSupplier: 'Una compra en cuenta corriente necesita un proveedor.',
  dueDateRequired: 'Indicá la fecha de vencimiento de la cuenta corriente.',
  dueBeforeDate: 'La fecha de vencimiento no puede ser anterior a la fecha de la compra.',
  totalTooHigh: 'El total de la compra supera el máximo permitido.',
  cancelledFinal: 'Una compra cancelada no se puede modificar.',
  onlyPending: 'Solo se pueden modificar los ítems y condiciones de una compra pendiente.',
  receivedDelete: 'Una compra recibida no se puede eliminar: cancelala primero.',
  paidCancel: 'La cuenta por pagar de esta compra ya está pagada; no se puede cancelar.',
  paidDelete: 'La cuenta por pagar de esta compra ya está pagada; no se puede eliminar.',
  libroNeedsCosts: 'Para exportar el Libro IVA Compras necesitás permiso para ver costos.',
  facturaLocked: 'La factura del proveedor no se puede cambiar en una compra cancelada o ya pagada.',
  partialDelete: 'Una compra recibida en parte no se puede eliminar.',
  partialCancel:
    'La compra ya tiene mercadería recibida en parte; no se puede cancelar ni volver a pendiente. Recibí lo que falta y después cancelala.',
  insufficientStock: (producto: string) => `No hay stock suficiente de ${producto} para revertir la recepción.`,
} as const;

/* ---------------------------------------------------------------- field helpers */

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const idMsg = { error: 'Identificador no válido.' };

/** An optional id: `""` and null mean none. */
const optId = () =>
  z.preprocess((v) => (isBlank(v) && v !== undefined ? null : v), z.uuid(idMsg).nullable().optional());

/** A date that defaults on the server when absent (`""` and null count as absent). */
const defaultedDate = () => z.preprocess((v) => (isBlank(v) ? undefined : v), isoDate().optional());

/** An optional date that `""` or null clears. */
const optDate = () => z.preprocess((v) => (isBlank(v) && v !== undefined ? null : v), isoDate().nullable().optional());

/** A state, with the existing client's aliases, any case. `cancelada` only when `allowCancel`. */
const stateField = (allowCancel: boolean) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim().toLowerCase();
      if (t === '') return undefined;
      return STATE_ALIASES[t] ?? t;
    },
    z
      .enum(PURCHASE_STATES, { error: PURCHASE_MESSAGES.badState })
      .refine((s) => s !== 'recibida_parcial' && (allowCancel || s !== 'cancelada'), {
        error: PURCHASE_MESSAGES.badState,
      })
      .optional(),
  );

/** `contado` or `cuenta_corriente`, any case, spaces or hyphens for the underscore. */
const conditionField = () =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_');
      return t === '' ? undefined : t;
    },
    z.enum(PAYMENT_CONDITIONS, { error: `Valor no válido. Opciones: ${PAYMENT_CONDITIONS.join(', ')}.` }).optional(),
  );

/** A payment method that `""` and null leave unset. */
const optPaymentMethod = () => z.preprocess((v) => (isBlank(v) ? undefined : v), paymentMethod().optional());

export const purchaseItemInput = z.object({
  producto_id: z.preprocess((v) => (isBlank(v) ? null : v), z.uuid(idMsg)),
  cantidad: quantity().pipe(z.number().positive({ error: 'Debe ser mayor a 0.' })),
  precio_unitario: money(),
});
export type PurchaseItemInput = z.input<typeof purchaseItemInput>;
export type PurchaseItemOutput = z.output<typeof purchaseItemInput>;

const itemsField = () =>
  z
    .array(purchaseItemInput, {
      error: (iss) => (iss.input == null ? PURCHASE_MESSAGES.noItems : 'Debe ser una lista.'),
    })
    .min(1, { error: PURCHASE_MESSAGES.noItems })
    .max(PURCHASE_MAX_ITEMS, { error: PURCHASE_MESSAGES.tooManyItems })
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((it, i) => {
        if (seen.has(it.producto_id)) {
          ctx.addIssue({ code: 'custom', path: [i, 'producto_id'], message: PURCHASE_MESSAGES.duplicateProduct });
        }
        seen.add(it.producto_id);
      });
    });

/* ---------------------------------------------------------------- money of a purchase */

/** A line's subtotal in cents: cantidad (thousandths) × precio (cents), rounded half-up to the cent. */
export function lineSubtotalCents(cantidadMilli: number, precioCents: number): number {
  // Both are integers well below 2^53 / 1000 for realistic orders; BigInt keeps huge ones exact.
  const product = BigInt(Math.round(cantidadMilli)) * BigInt(Math.round(precioCents));
  return Number((product + 500n) / 1000n);
}

/**
 * What the purchase costs the shop in money: the supplier invoice's total when there is one (it
 * carries the IVA and percepciones), else the sum of the lines (decision 0021).
 */
export const purchasePayableCents = (
  items: { cantidad: number; precio_unitario: number }[],
  factura?: { total: number } | null,
) => (factura ? factura.total : purchaseTotalCents(items));

/** Σ round(cantidad × precio_unitario, 2), in cents. */
export const purchaseTotalCents = (items: { cantidad: number; precio_unitario: number }[]) =>
  items.reduce((sum, it) => sum + lineSubtotalCents(it.cantidad, it.precio_unitario), 0);

/* ---------------------------------------------------------------- purchases */

/**
 * The existing client sends `cuit_cuil`-style aliases elsewhere; for purchases it sends the
 * `estado` aliases (handled by the field) and `proveedor_nombre`.
 */
const purchaseFields = {
  proveedor_id: optId(),
  proveedor_nombre: optText(200),
  fecha: defaultedDate(),
  fecha_entrega: optDate(),
  estado: stateField(false),
  condicion_pago: conditionField(),
  metodo_pago: optPaymentMethod(),
  fecha_vencimiento: optDate(),
  observaciones: optText(500),
  items: itemsField(),
  /** The supplier's invoice (decision 0021): optional; null on a PUT removes it. */
  factura: z.preprocess((v) => (v === '' ? null : v), facturaInput.nullable().optional()),
  /** The depósito the goods are received into (decision 0059): default the principal. */
  deposito_id: optId(),
};

interface PurchaseShape {
  proveedor_id?: string | null;
  factura?: { total: number } | null;
  fecha?: string;
  condicion_pago?: PaymentCondition;
  fecha_vencimiento?: string | null;
  items?: { cantidad: number; precio_unitario: number }[];
}

/**
 * The cross-field rules of a purchase (API-CONTRACT §13) on a whole purchase: the create body,
 * the form, or on the server a stored purchase merged with a PUT (with `fecha` defaulted).
 */
export function purchaseIssues(p: PurchaseShape): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (p.condicion_pago === 'cuenta_corriente') {
    if (!p.proveedor_id) issues.push({ field: 'proveedor_id', message: PURCHASE_MESSAGES.creditNeedsSupplier });
    if (!p.fecha_vencimiento) {
      issues.push({ field: 'fecha_vencimiento', message: PURCHASE_MESSAGES.dueDateRequired });
    } else if (p.fecha && p.fecha_vencimiento < p.fecha) {
      issues.push({ field: 'fecha_vencimiento', message: PURCHASE_MESSAGES.dueBeforeDate });
    }
  }
  if (p.factura ? p.factura.total > MAX_MONEY_CENTS : p.items && purchaseTotalCents(p.items) > MAX_MONEY_CENTS) {
    issues.push({ field: 'items', message: PURCHASE_MESSAGES.totalTooHigh });
  }
  return issues;
}

const withPurchaseRules = (p: PurchaseShape, ctx: z.RefinementCtx) => {
  for (const i of purchaseIssues(p)) ctx.addIssue({ code: 'custom', path: [i.field], message: i.message });
};

export const purchaseInput = z.object(purchaseFields).superRefine(withPurchaseRules);
export type PurchaseInput = z.input<typeof purchaseInput>;
export type PurchaseOutput = z.output<typeof purchaseInput>;

/** A PUT: any field; `estado` may also be `cancelada`. Cross-field rules run on the merged purchase. */
export const purchaseUpdate = z.object({
  ...purchaseFields,
  estado: stateField(true),
  items: itemsField().optional(),
});
export type PurchaseUpdate = z.output<typeof purchaseUpdate>;

/**
 * The purchase form (the web): the create rules, run even while other fields are wrong, so "Una
 * compra en cuenta corriente necesita un proveedor." shows with the rest at once.
 */
export const purchaseForm = z.object(purchaseFields).superRefine(
  (p, ctx) => {
    const items = Array.isArray(p.items) ? p.items : [];
    const priced = items.every((i) => typeof i?.cantidad === 'number' && typeof i?.precio_unitario === 'number');
    withPurchaseRules({ ...p, items: priced ? items : undefined }, ctx);
  },
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);

/** Columns the purchase list sorts by (`orden`, with `direccion` asc|desc); newest first otherwise. */
export const PURCHASE_SORTS = ['fecha', 'numero', 'proveedor', 'total', 'estado'] as const;
export type PurchaseSort = (typeof PURCHASE_SORTS)[number];

export const purchaseListQuery = z.preprocess(
  withAliases({ desde: 'fecha_desde', hasta: 'fecha_hasta' }),
  z.object({
    fecha_desde: queryParam(isoDate()),
    fecha_hasta: queryParam(isoDate()),
    estado: z.preprocess(
      (v) => {
        if (typeof v !== 'string') return v;
        const t = v.trim().toLowerCase();
        return t === '' ? undefined : (STATE_ALIASES[t] ?? t);
      },
      z.enum(PURCHASE_STATES, { error: PURCHASE_MESSAGES.badState }).optional(),
    ),
    proveedor_id: queryParam(z.uuid(idMsg)),
    producto_id: queryParam(z.uuid(idMsg)),
    orden: queryParam(oneOfCi(PURCHASE_SORTS)),
    direccion: queryParam(oneOfCi(['asc', 'desc'] as const)),
    ...pageQuery(PURCHASE_LIST_DEFAULT_LIMIT, PURCHASE_LIST_MAX_LIMIT),
  }),
);
export type PurchaseListQuery = z.output<typeof purchaseListQuery>;

export interface PurchaseItem {
  id: string;
  producto_id: string;
  producto_nombre: string;
  producto_codigo: string | null;
  unidad: string;
  cantidad: number;
  precio_unitario: number;
  subtotal: number;
  /** The product's cost before this purchase was received (null: none, or not received). */
  precio_compra_anterior: number | null;
  /** What has arrived and what is still to come (decision 0023). */
  cantidad_recibida: number;
  cantidad_pendiente: number;
}

export const purchaseItemSchema = z.object({
  id: z.string(),
  producto_id: z.string(),
  producto_nombre: z.string(),
  producto_codigo: z.string().nullable(),
  unidad: z.string(),
  cantidad: z.number(),
  precio_unitario: z.number(),
  subtotal: z.number(),
  precio_compra_anterior: z.number().nullable().optional(),
  cantidad_recibida: z.number(),
  cantidad_pendiente: z.number(),
});

export type Purchase = z.infer<typeof purchaseSchema>;

export const purchaseSchema = z.object({
  id: z.string(),
  numero: z.number(),
  proveedor_id: z.string().nullable(),
  proveedor_nombre: z.string().nullable(),
  fecha: z.string(),
  fecha_entrega: z.string().nullable(),
  estado: z.enum(PURCHASE_STATES),
  condicion_pago: z.enum(PAYMENT_CONDITIONS),
  metodo_pago: z.enum(PAYMENT_METHODS).nullable(),
  /** Added by the server beside every metodo_pago (lib/payment-labels.ts). */
  metodo_pago_label: z.string().nullable().optional(),
  fecha_vencimiento: z.string().nullable(),
  observaciones: z.string().nullable(),
  total: z.number(),
  cantidad_items: z.number(),
  /** Lines with goods still to arrive (decision 0023). */
  items_pendientes: z.number(),
  items: z.array(purchaseItemSchema).optional(),
  /** The supplier's invoice, when recorded; left out for members without ver_costos. */
  factura: facturaSchema.nullable().optional(),
  movimiento_id: z.string().nullable(),
  cuenta_id: z.string().nullable(),
  cuenta_estado: z.enum(['pendiente', 'pagado', 'vencido']).nullable(),
  recibida_en: z.string().nullable(),
  cancelada_en: z.string().nullable(),
  creado_por: z.string().nullable(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

/** "Orden de compra #12". */
export const purchaseLabel = (p: Pick<Purchase, 'numero'>) => `Compra #${p.numero}`;
