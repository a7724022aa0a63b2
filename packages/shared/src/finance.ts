import { z } from 'zod';
import { money, optMoney } from './money.js';
import { PAYMENT_METHODS, paymentMethod } from './payment-methods.js';
import { isoDate, optText, queryBool, reqText } from './validation.js';

/* ---------------------------------------------------------------- constants (SPEC §3, §4, §9) */

export const MOVEMENT_TYPES = ['ingreso', 'egreso'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];
export const MOVEMENT_TYPE_LABELS: Record<MovementType, string> = { ingreso: 'Ingreso', egreso: 'Egreso' };

export const MOVEMENT_ORIGINS = ['manual', 'venta', 'compra', 'cuenta', 'cobro', 'devolucion', 'cheque'] as const;
export type MovementOrigin = (typeof MOVEMENT_ORIGINS)[number];
export const MOVEMENT_ORIGIN_LABELS: Record<MovementOrigin, string> = {
  manual: 'Manual',
  venta: 'Venta',
  compra: 'Compra',
  cuenta: 'Pago de cuenta',
  cobro: 'Cobro de cuenta corriente',
  devolucion: 'Devolución de venta',
  cheque: 'Cheque',
};

export const ACCOUNT_TYPES = ['por_cobrar', 'por_pagar'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const ACCOUNT_TYPE_LABELS: Record<AccountType, string> = { por_cobrar: 'Por Cobrar', por_pagar: 'Por Pagar' };

export const ACCOUNT_STATES = ['pendiente', 'pagado', 'vencido'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/** SPEC §9: due-soon threshold, and the lengths of the finance dashboard lists. */
export const DUE_SOON_DAYS = 7;
export const FINANCE_RECENT_MOVEMENTS = 5;
export const FINANCE_PENDING_ACCOUNTS = 5;
export const FINANCE_LIST_DEFAULT_LIMIT = 100;
export const FINANCE_LIST_MAX_LIMIT = 500;

/** Messages of API-CONTRACT §10, shared by the server, the forms and the tests. */
export const FINANCE_MESSAGES = {
  categoryNotFound: 'Categoría financiera no encontrada.',
  categoryNotInBusiness: 'Categoría financiera no encontrada en este negocio.',
  categoryDuplicate: 'Ya existe una categoría con este nombre y tipo.',
  categorySystem: 'Las categorías del sistema no se pueden renombrar, desactivar ni eliminar.',
  categoryTypeInUse: 'No se puede cambiar el tipo: la categoría tiene movimientos.',
  categoryInUse: 'No se puede eliminar la categoría porque tiene movimientos asociados.',
  categoryTypeMismatch: 'El tipo de la categoría no coincide con el tipo de movimiento.',
  categoryInactive: 'La categoría está inactiva.',
  customerNotInBusiness: 'Cliente no encontrado en este negocio.',
  supplierNotInBusiness: 'Proveedor no encontrado en este negocio.',
  movementNotFound: 'Movimiento no encontrado.',
  movementFromSale: 'Este movimiento lo generó una venta: anula la venta en lugar de modificarlo.',
  movementFromPurchase: 'Este movimiento lo generó una compra: cancelá la compra en lugar de modificarlo.',
  movementFromAccount: 'Este movimiento lo generó el pago de una cuenta y no se puede modificar.',
  movementFromReturn: 'Este movimiento lo generó la devolución de una venta y no se puede modificar.',
  movementFromCheque: 'Este movimiento lo generó un cheque: cambiá su estado desde la cartera de cheques.',
  movementFromCobro: 'Este movimiento es un cobro de cuenta corriente: se ve en la cuenta del cliente.',
  badMonth: 'El mes debe estar entre 1 y 12.',
  badYear: 'El año no es válido.',
  accountNotFound: 'Cuenta no encontrada.',
  payableWithCustomer: 'Una cuenta por pagar no lleva cliente.',
  receivableWithSupplier: 'Una cuenta por cobrar no lleva proveedor.',
  supplierRequired: 'Indicá el proveedor.',
  dueBeforeIssue: 'La fecha de vencimiento no puede ser anterior a la fecha de emisión.',
  useMarkPaid: 'Para registrar el pago usá «Marcar como pagada».',
  alreadyPaidEdit: 'La cuenta ya está pagada; solo podés editar la descripción y las observaciones.',
  alreadyPaidDelete: 'No se puede eliminar una cuenta pagada.',
  alreadyPaid: 'La cuenta ya está marcada como pagada.',
  accountFromPurchaseEdit: 'Esta cuenta la generó una compra: modifica la compra.',
  accountFromPurchaseDelete: 'Esta cuenta la generó una compra: cancelá la compra para eliminarla.',
  markedPaid: 'Cuenta marcada como pagada',
  partialPaid: 'Pago parcial registrado',
  payOverBalance: (falta: string) => `El pago supera lo que falta pagar de la cuenta (${falta}).`,
  amountUnderPaid: (pagado: string) => `El monto no puede ser menor a lo ya pagado (${pagado}).`,
  hasPayments: 'La cuenta ya tiene pagos registrados: no se puede eliminar.',
} as const;

/* ---------------------------------------------------------------- field helpers */

const REQUIRED = 'Este campo es obligatorio.';
const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** One of fixed values; a missing value says "obligatorio" rather than listing the options. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.enum(values, {
      error: (iss) =>
        iss.input === undefined || iss.input === null ? REQUIRED : `Valor no válido. Opciones: ${values.join(', ')}.`,
    }),
  );

/** An optional id (`""` and null mean none). */
const optId = () =>
  z.preprocess((v) => (isBlank(v) ? null : v), z.uuid({ error: 'Identificador no válido.' }).nullable().optional());

/** A required date; `""` and null say "obligatorio". */
export const reqDate = () => z.preprocess((v) => (isBlank(v) ? null : v), isoDate());

/** A date that defaults on the server when absent (`""` and null count as absent). */
const defaultedDate = () => z.preprocess((v) => (isBlank(v) ? undefined : v), isoDate().optional());

/** A date that may be left out of a PUT but not cleared. */
const keptDate = () => reqDate().optional();

/** A query-string parameter: `""` counts as absent. */
const q = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const queryInt = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z.number({ error: message }).int({ error: message }),
  );

/* ---------------------------------------------------------------- categories (API-CONTRACT §10.1) */

const categoryBase = {
  nombre: reqText(100),
  descripcion: optText(500),
  tipo: oneOf(MOVEMENT_TYPES),
};

export const financeCategoryInput = z.object({ ...categoryBase, activo: z.boolean().optional().default(true) });
export type FinanceCategoryInput = z.input<typeof financeCategoryInput>;

export const financeCategoryUpdate = z.object({
  nombre: categoryBase.nombre.optional(),
  descripcion: categoryBase.descripcion,
  tipo: categoryBase.tipo.optional(),
  activo: z.boolean().optional(),
});
export type FinanceCategoryUpdate = z.output<typeof financeCategoryUpdate>;

export const financeCategoryQuery = z.object({
  tipo: q(oneOf(MOVEMENT_TYPES)),
  activo: q(queryBool()),
});

export type FinanceCategory = z.infer<typeof financeCategorySchema>;

export const financeCategorySchema = z.object({
  id: z.string(),
  nombre: z.string(),
  descripcion: z.string().nullable(),
  tipo: z.enum(MOVEMENT_TYPES),
  activo: z.boolean(),
  sistema: z.boolean(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

/* ---------------------------------------------------------------- movements (API-CONTRACT §10.2) */

const movementFields = {
  tipo: oneOf(MOVEMENT_TYPES),
  categoria_id: optId(),
  monto: money({ positive: true }),
  metodo_pago: paymentMethod(),
  descripcion: optText(500),
  observaciones: optText(1000),
  cliente_id: optId(),
};

export const movementInput = z.object({
  ...movementFields,
  tipo: movementFields.tipo.optional().default('ingreso'),
  fecha: defaultedDate(),
});
export type MovementOutput = z.output<typeof movementInput>;

/** The movement form (SPEC §5): the same rules, with the date required. */
export const movementForm = movementInput.extend({ fecha: reqDate() });

export const movementUpdate = z.object({
  tipo: movementFields.tipo.optional(),
  categoria_id: movementFields.categoria_id,
  monto: movementFields.monto.optional(),
  fecha: keptDate(),
  metodo_pago: movementFields.metodo_pago.optional(),
  descripcion: movementFields.descripcion,
  observaciones: movementFields.observaciones,
  cliente_id: movementFields.cliente_id,
});
export type MovementUpdate = z.output<typeof movementUpdate>;

const pageFields = {
  limit: q(queryInt('Debe ser un número entero.').pipe(z.number().min(1))).transform((n) =>
    Math.min(n ?? FINANCE_LIST_DEFAULT_LIMIT, FINANCE_LIST_MAX_LIMIT),
  ),
  offset: q(queryInt('Debe ser un número entero.').pipe(z.number().min(0))).transform((n) => n ?? 0),
};

export const movementListQuery = z.object({
  tipo: q(oneOf(MOVEMENT_TYPES)),
  categoria_id: q(z.uuid({ error: 'Identificador no válido.' })),
  origen: q(oneOf(MOVEMENT_ORIGINS)),
  fecha_desde: q(isoDate()),
  fecha_hasta: q(isoDate()),
  incluir_anulados: q(queryBool()).transform((v) => v ?? false),
  ...pageFields,
});
export type MovementListQuery = z.output<typeof movementListQuery>;

export type Movement = z.infer<typeof movementSchema>;

export const movementSchema = z.object({
  id: z.string(),
  tipo: z.enum(MOVEMENT_TYPES),
  categoria_id: z.string().nullable(),
  categoria_nombre: z.string().nullable(),
  monto: z.number(),
  fecha: z.string(),
  metodo_pago: z.enum(PAYMENT_METHODS),
  /** Added by the server beside every metodo_pago (lib/payment-labels.ts). */
  metodo_pago_label: z.string().nullable().optional(),
  descripcion: z.string().nullable(),
  observaciones: z.string().nullable(),
  cliente_id: z.string().nullable(),
  cliente_nombre: z.string().nullable(),
  origen: z.enum(MOVEMENT_ORIGINS),
  venta_id: z.string().nullable(),
  compra_id: z.string().nullable(),
  cuenta_id: z.string().nullable(),
  anulado: z.boolean(),
  creado_por: z.string().nullable(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

/* ---------------------------------------------------------------- summary and cash flow (§10.3, §10.4) */

export const periodQuery = z.object({
  mes: q(
    queryInt(FINANCE_MESSAGES.badMonth).pipe(
      z.number().min(1, FINANCE_MESSAGES.badMonth).max(12, FINANCE_MESSAGES.badMonth),
    ),
  ),
  anio: q(
    queryInt(FINANCE_MESSAGES.badYear).pipe(
      z.number().min(2000, FINANCE_MESSAGES.badYear).max(2100, FINANCE_MESSAGES.badYear),
    ),
  ),
});

export type MonthTotals = z.infer<typeof monthTotalsSchema>;

export const monthTotalsSchema = z.object({
  total_ingresos: z.number(),
  total_egresos: z.number(),
  balance: z.number(),
});

export type FinanceSummary = z.infer<typeof financeSummarySchema>;

export const financeSummarySchema = monthTotalsSchema.extend({
  mes: z.number(),
  anio: z.number(),
  cuentas_pendientes: z.number(),
  por_cobrar_pendiente: z.number(),
  cuentas_corrientes_clientes: z.number(),
  por_pagar_pendiente: z.number(),
  cuentas_vencidas: z.number(),
  mes_anterior: monthTotalsSchema,
});

export type CashFlowDay = z.infer<typeof cashFlowDaySchema>;

export const cashFlowDaySchema = z.object({
  fecha: z.string(),
  ingresos: z.number(),
  egresos: z.number(),
  saldo_diario: z.number(),
  saldo_acumulado: z.number(),
});

export type CashFlow = z.infer<typeof cashFlowSchema>;

export const cashFlowSchema = z.object({
  mes: z.number(),
  anio: z.number(),
  flujo_diario: z.array(cashFlowDaySchema),
  total_ingresos: z.number(),
  total_egresos: z.number(),
  saldo_final: z.number(),
});

/* ---------------------------------------------------------------- pending accounts (§10.5) */

const accountFields = {
  tipo: oneOf(ACCOUNT_TYPES),
  cliente_id: optId(),
  proveedor_id: optId(),
  proveedor_nombre: optText(200),
  monto: money({ positive: true }),
  fecha_emision: defaultedDate(),
  fecha_vencimiento: reqDate(),
  descripcion: reqText(500),
  observaciones: optText(1000),
  // The existing client echoes the estado: pendiente and vencido are ignored, pagado is refused.
  estado: q(oneOf(ACCOUNT_STATES).refine((e) => e !== 'pagado', { error: FINANCE_MESSAGES.useMarkPaid })),
};

interface AccountShape {
  tipo?: AccountType;
  cliente_id?: string | null;
  proveedor_id?: string | null;
  proveedor_nombre?: string | null;
  fecha_emision?: string;
  fecha_vencimiento?: string;
}

/**
 * The cross-field rules of an account (API-CONTRACT §10.5), on a whole account: the create
 * body, the form, or on the server a stored account merged with a PUT.
 */
export function accountIssues(a: AccountShape): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (a.tipo === 'por_pagar') {
    if (a.cliente_id) issues.push({ field: 'cliente_id', message: FINANCE_MESSAGES.payableWithCustomer });
    if (!a.proveedor_id && !a.proveedor_nombre) {
      issues.push({ field: 'proveedor_nombre', message: FINANCE_MESSAGES.supplierRequired });
    }
  }
  if (a.tipo === 'por_cobrar' && (a.proveedor_id || a.proveedor_nombre)) {
    issues.push({
      field: a.proveedor_nombre ? 'proveedor_nombre' : 'proveedor_id',
      message: FINANCE_MESSAGES.receivableWithSupplier,
    });
  }
  const isDate = (d: unknown): d is string => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d);
  if (isDate(a.fecha_emision) && isDate(a.fecha_vencimiento) && a.fecha_vencimiento < a.fecha_emision) {
    issues.push({ field: 'fecha_vencimiento', message: FINANCE_MESSAGES.dueBeforeIssue });
  }
  return issues;
}

const withAccountRules = (a: AccountShape, ctx: z.RefinementCtx) => {
  for (const i of accountIssues(a)) ctx.addIssue({ code: 'custom', path: [i.field], message: i.message });
};

export const accountInput = z.object(accountFields).superRefine(withAccountRules);
export type AccountOutput = z.output<typeof accountInput>;

/**
 * The account form (SPEC §5): the same rules, with the issue date required. The cross-field rules
 * run even while other fields are wrong, so "Indicá el proveedor." shows with the rest at once.
 */
export const accountForm = z
  .object({ ...accountFields, fecha_emision: reqDate() })
  .superRefine(withAccountRules, { when: (p) => typeof p.value === 'object' && p.value !== null });

export const accountUpdate = z.object({
  tipo: accountFields.tipo.optional(),
  cliente_id: accountFields.cliente_id,
  proveedor_id: accountFields.proveedor_id,
  proveedor_nombre: accountFields.proveedor_nombre,
  monto: accountFields.monto.optional(),
  fecha_emision: keptDate(),
  fecha_vencimiento: keptDate(),
  descripcion: accountFields.descripcion.optional(),
  observaciones: accountFields.observaciones,
  estado: accountFields.estado,
});
export type AccountUpdate = z.output<typeof accountUpdate>;

/** The body is optional: without one (or with null) the defaults apply. */
export const markPaidInput = z.preprocess(
  (v) => v ?? {},
  z.object({
    fecha_pago: defaultedDate(),
    /** A part of what is left; absent: all of it (the account is then paid). */
    monto: optMoney(),
    metodo_pago: paymentMethod().optional(),
    categoria_id: optId(),
    observaciones: optText(1000),
  }),
);
export type MarkPaidInput = z.output<typeof markPaidInput>;

export const accountListQuery = z.object({
  estado: q(oneOf(ACCOUNT_STATES)),
  fecha_desde: q(isoDate()),
  fecha_hasta: q(isoDate()),
  vencimiento_desde: q(isoDate()),
  vencimiento_hasta: q(isoDate()),
  cliente_id: q(z.uuid({ error: 'Identificador no válido.' })),
  proveedor_id: q(z.uuid({ error: 'Identificador no válido.' })),
  ...pageFields,
});
export type AccountListQuery = z.output<typeof accountListQuery>;

export type Account = z.infer<typeof accountSchema>;

export const accountSchema = z.object({
  id: z.string(),
  tipo: z.enum(ACCOUNT_TYPES),
  cliente_id: z.string().nullable(),
  cliente_nombre: z.string().nullable(),
  proveedor_id: z.string().nullable(),
  proveedor_nombre: z.string().nullable(),
  monto: z.number(),
  monto_pagado: z.number(),
  saldo_pendiente: z.number(),
  fecha_emision: z.string(),
  fecha_vencimiento: z.string(),
  estado: z.enum(ACCOUNT_STATES),
  dias_vencimiento: z.number(),
  descripcion: z.string(),
  observaciones: z.string().nullable(),
  compra_id: z.string().nullable(),
  movimiento_id: z.string().nullable(),
  fecha_pago: z.string().nullable(),
  pagado_en: z.string().nullable(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

export type MarkPaidResult = z.infer<typeof markPaidResultSchema>;

export const markPaidResultSchema = z.object({
  message: z.string(),
  cuenta: accountSchema,
  movimiento: movementSchema,
});

/** SPEC §4: how an account's status is shown. */
export function accountDisplayStatus(a: Pick<Account, 'estado' | 'dias_vencimiento'>): {
  label: string;
  color: 'green' | 'red' | 'yellow' | 'blue';
} {
  if (a.estado === 'pagado') return { label: 'Pagado', color: 'green' };
  if (a.estado === 'vencido' || a.dias_vencimiento < 0) return { label: 'Vencido', color: 'red' };
  if (a.dias_vencimiento === 0) return { label: 'Vence hoy', color: 'yellow' };
  if (a.dias_vencimiento <= DUE_SOON_DAYS) {
    return { label: `Vence en ${a.dias_vencimiento} ${a.dias_vencimiento === 1 ? 'día' : 'días'}`, color: 'yellow' };
  }
  return { label: 'Pendiente', color: 'blue' };
}
