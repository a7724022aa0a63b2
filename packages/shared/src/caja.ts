import { z } from 'zod';
import { oneOfCi, pageQuery, queryParam } from './customers.js';
import { money } from './money.js';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods.js';
import { impresoraEtiquetasInput, impresoraEtiquetasSchema, impresoraInput, impresoraSchema } from './impresion.js';
import { isoDate, optText, reqText } from './validation.js';
import { chequeRecibidoInput } from './cheques.js';

/*
 * The counter's money (issue 14, decision 0008): the business's medios de pago, its cajas and
 * their turnos, and how a sale's payments cover its total. Money is integer cents here.
 */

/* ---------------------------------------------------------------- medios de pago */

export const MEDIO_TIPOS = [
  'efectivo',
  'debito',
  'credito',
  'transferencia',
  'qr',
  'cuenta_corriente',
  'cheque',
  'otro',
] as const;
export type MedioTipo = (typeof MEDIO_TIPOS)[number];

export const MEDIO_TIPO_LABELS: Record<MedioTipo, string> = {
  efectivo: 'Efectivo',
  debito: 'Débito',
  credito: 'Crédito',
  transferencia: 'Transferencia',
  qr: 'QR / billetera',
  cuenta_corriente: 'Cuenta corriente',
  cheque: 'Cheque',
  otro: 'Otro',
};

/** The contract's `metodo_pago` code of each kind (sales and movements keep reporting it). */
export const MEDIO_TIPO_CODE: Record<MedioTipo, PaymentMethod> = {
  efectivo: 'efectivo',
  debito: 'tarjeta_debito',
  credito: 'tarjeta_credito',
  transferencia: 'transferencia',
  qr: 'mercado_pago',
  cuenta_corriente: 'otro',
  cheque: 'cheque',
  otro: 'otro',
};

/** The kind a `metodo_pago` code of the contract stands for. */
export const CODE_MEDIO_TIPO: Record<PaymentMethod, MedioTipo> = {
  efectivo: 'efectivo',
  tarjeta_debito: 'debito',
  tarjeta_credito: 'credito',
  transferencia: 'transferencia',
  mercado_pago: 'qr',
  cheque: 'cheque',
  otro: 'otro',
};

/** Created with every business (the seven methods of before). */
export const DEFAULT_MEDIOS: { nombre: string; tipo: MedioTipo }[] = [
  { nombre: 'Efectivo', tipo: 'efectivo' },
  { nombre: 'Tarjeta de Débito', tipo: 'debito' },
  { nombre: 'Tarjeta de Crédito', tipo: 'credito' },
  { nombre: 'Transferencia', tipo: 'transferencia' },
  { nombre: 'Mercado Pago', tipo: 'qr' },
  { nombre: 'Cheque', tipo: 'cheque' },
  { nombre: 'Otro', tipo: 'otro' },
  { nombre: 'Cuenta corriente', tipo: 'cuenta_corriente' },
];
export const DEFAULT_CAJA = 'Caja 1';

export const CAJA_MESSAGES = {
  medioNotFound: 'Medio de pago no encontrado.',
  medioNameTaken: 'Ya existe un medio de pago con ese nombre.',
  medioDeactivated: 'El medio de pago ya se usó en ventas o cierres: lo desactivamos en lugar de eliminarlo.',
  medioDeleted: 'Medio de pago eliminado.',
  medioInactive: (nombre: string) => `El medio de pago «${nombre}» está inactivo.`,
  medioNotInBusiness: 'Medio de pago no encontrado en este negocio.',
  ajusteRange: 'El ajuste debe estar entre −99,99 % y 100 %.',
  cajaNotFound: 'Caja no encontrada.',
  cajaNameTaken: 'Ya existe una caja con ese nombre.',
  cajaInactive: 'La caja está inactiva.',
  turnoNotFound: 'Turno no encontrado.',
  turnoAlreadyOpen: (caja: string) => `La caja «${caja}» ya tiene un turno abierto: cerralo antes de abrir otro.`,
  turnoClosed: 'El turno está cerrado: abrí un turno nuevo para seguir.',
  turnoNotInBusiness: 'Turno no encontrado en este negocio.',
  countMissing: (medio: string) => `Indicá cuánto contaste de ${medio}.`,
  countUnknownMedio: 'Ese medio de pago no es de este negocio.',
  closeNotAllowed: 'No tenés permiso para cerrar turnos: pedíselo a alguien con acceso total.',
  closeOthersTurno: 'Solo quien abrió el turno o alguien con acceso total puede cerrarlo.',
  /** Why a closing was refused, as the owner reads it in the change log (intento_rechazado). */
  closeAttempt: 'Cierre de turno sin permiso',
  blindExport: 'El arqueo es a ciegas: vas a ver lo esperado cuando cierres el turno.',
  pagosShort: (falta: string) => `Los pagos no cubren el total: faltan ${falta}.`,
  pagosOver: 'Solo el efectivo puede superar el total (la diferencia es el vuelto).',
  pagosEmpty: 'Indicá al menos un pago.',
  turnoRequired: 'Abrí un turno de caja para vender.',
  accountNeedsCustomer: 'Elegí el cliente: la venta en cuenta corriente queda a su nombre.',
  creditLimit: (cliente: string, disponible: string) =>
    `La venta supera el límite de crédito de ${cliente} (disponible: ${disponible}). Solo un administrador puede autorizarla.`,
  cobroOverBalance: (saldo: string) => `El cobro supera lo que debe el cliente (${saldo}).`,
  cobroNothingOwed: 'El cliente no debe nada.',
  cobroWithAccount: 'Elegí un medio de pago con el que entre dinero: un cobro no puede ser en cuenta corriente.',
  cobroNotFound: 'Cobro no encontrado.',
} as const;

const ajustePorcentaje = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().replace(',', '.') : v),
    z.coerce
      .number({ error: CAJA_MESSAGES.ajusteRange })
      .refine((n) => Number.isFinite(n) && n > -100 && n <= 100, { error: CAJA_MESSAGES.ajusteRange })
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: 'Admite como máximo 2 decimales.' }),
  );

const medioFields = {
  nombre: reqText(60),
  tipo: oneOfCi(MEDIO_TIPOS),
  ajuste_porcentaje: ajustePorcentaje().optional().default(0),
  activo: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional().default(true),
  orden: z.coerce
    .number({ error: 'Debe ser un número entero.' })
    .int('Debe ser un número entero.')
    .min(0)
    .max(9999)
    .optional(),
};
export const medioPagoInput = z.object(medioFields);
export type MedioPagoInput = z.input<typeof medioPagoInput>;
export type MedioPagoOutput = z.output<typeof medioPagoInput>;
export const medioPagoUpdate = z.object({
  nombre: medioFields.nombre.optional(),
  tipo: medioFields.tipo.optional(),
  ajuste_porcentaje: ajustePorcentaje().optional(),
  activo: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional(),
  orden: medioFields.orden,
});
export type MedioPagoUpdate = z.output<typeof medioPagoUpdate>;

export type MedioPago = z.infer<typeof medioPagoSchema>;

export const medioPagoSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  tipo: z.enum(MEDIO_TIPOS),
  ajuste_porcentaje: z.number(),
  activo: z.boolean(),
  orden: z.number(),
});

/* ---------------------------------------------------------------- cajas y turnos */

export const cajaInput = z.object({
  nombre: reqText(60),
  /**
   * The ARCA punto de venta this caja invoices from (issue 16: one per caja if the shop wants);
   * null or absent: the default of the fiscal setup.
   */
  punto_venta: z
    .preprocess(
      (v) => (v === '' ? null : v),
      z
        .number({ error: 'Ingresá un número de punto de venta.' })
        .int({ error: 'Ingresá un número de punto de venta.' })
        .min(1, { error: 'El punto de venta va de 1 a 99998.' })
        .max(99998, { error: 'El punto de venta va de 1 a 99998.' })
        .nullable(),
    )
    .optional(),
  /** Its thermal printer (issue 35); null: none, tickets go through the browser's dialog. */
  impresora: impresoraInput.optional(),
  /** Its label printer (ZPL on the network); null: none, labels are A4 PDF sheets. */
  impresora_etiquetas: impresoraEtiquetasInput.optional(),
  /** Its sucursal (decision 0059): it sells from the sucursal's depósito; null or absent: the principal. */
  sucursal_id: z.preprocess(
    (v) => (v === '' ? null : v),
    z.uuid({ error: 'Identificador no válido.' }).nullable().optional(),
  ),
});
export const cajaPatchInput = cajaInput.partial();
export type CajaInput = z.input<typeof cajaInput>;
export type CajaValues = z.output<typeof cajaInput>;

export const TURNO_STATES = ['abierto', 'cerrado'] as const;
export type TurnoEstado = (typeof TURNO_STATES)[number];
export const TURNO_STATE_LABELS: Record<TurnoEstado, string> = { abierto: 'Abierto', cerrado: 'Cerrado' };

export type TurnoResumen = z.infer<typeof turnoResumenSchema>;

export const turnoResumenSchema = z.object({
  id: z.string(),
  numero: z.number(),
  caja_id: z.string(),
  caja_nombre: z.string(),
  estado: z.enum(TURNO_STATES),
  fondo_inicial: z.number(),
  abierto_por: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  abierto_en: z.string(),
  cerrado_por: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  cerrado_en: z.string().nullable(),
  ventas_cantidad: z.number(),
  /** Null while the turno is open and counted blind by the caller (arqueo_ciego). */
  ventas_total: z.number().nullable(),
  diferencia: z.number().nullable(),
});

export type Caja = z.infer<typeof cajaSchema>;

export const cajaSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  activa: z.boolean(),
  punto_venta: z.number().nullable(),
  impresora: impresoraSchema,
  impresora_etiquetas: impresoraEtiquetasSchema,
  /**
   * Mercado Pago for this caja (decision 0052), readable by every member (no secret): null when
   * the business has not configured MP; else its medio and whether this caja has a QR point of
   * sale and a Point terminal assigned.
   */
  mercadopago: z.object({ medio_pago_id: z.string(), qr: z.boolean(), point: z.boolean() }).nullable(),
  /** Its sucursal (null: the principal). */
  sucursal_id: z.string().nullable().optional(),
  turno_abierto: turnoResumenSchema.nullable(),
});

export const turnoOpenInput = z.object({ fondo_inicial: money() });
export type TurnoOpenInput = z.input<typeof turnoOpenInput>;

export const TURNO_MOVE_TYPES = ['ingreso', 'retiro'] as const;
export type TurnoMoveType = (typeof TURNO_MOVE_TYPES)[number];
export const TURNO_MOVE_LABELS: Record<TurnoMoveType, string> = { ingreso: 'Ingreso', retiro: 'Retiro' };

export const turnoMovimientoInput = z.object({
  tipo: oneOfCi(TURNO_MOVE_TYPES),
  monto: money({ positive: true }),
  motivo: reqText(200),
});
export type TurnoMovimientoInput = z.input<typeof turnoMovimientoInput>;

export const turnoCerrarInput = z.object({
  contado: z
    .array(z.object({ medio_pago_id: z.uuid({ error: 'Identificador no válido.' }), monto: money() }), {
      error: 'Debe ser una lista.',
    })
    .max(100),
  observaciones: optText(500),
});
export type TurnoCerrarInput = z.input<typeof turnoCerrarInput>;

export const turnoListQuery = z.object({
  caja_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  estado: queryParam(oneOfCi(TURNO_STATES)),
  desde: queryParam(isoDate()),
  hasta: queryParam(isoDate()),
  ...pageQuery(50, 200),
});
export type TurnoListQuery = z.output<typeof turnoListQuery>;

export type MontoMedio = z.infer<typeof montoMedioSchema>;

export const montoMedioSchema = z.object({
  medio_pago_id: z.string(),
  monto: z.number(),
});
export type TurnoMovimiento = z.infer<typeof turnoMovimientoSchema>;

export const turnoMovimientoSchema = z.object({
  id: z.string(),
  tipo: z.enum(TURNO_MOVE_TYPES),
  monto: z.number(),
  motivo: z.string(),
  usuario: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  creado_en: z.string(),
});
export type Diferencia = z.infer<typeof diferenciaSchema>;

export const diferenciaSchema = z.object({
  medio_pago_id: z.string(),
  esperado: z.number(),
  contado: z.number(),
  diferencia: z.number(),
});
export type TurnoMedioDetalle = z.infer<typeof turnoMedioDetalleSchema>;

export const turnoMedioDetalleSchema = z.object({
  medio_pago_id: z.string(),
  nombre: z.string(),
  tipo: z.enum(MEDIO_TIPOS),
  ventas: z.number(),
  ventas_cantidad: z.number(),
  cobros: z.number(),
  /** Money given back in the turno with this medio (returns, voids of sales of other turnos). */
  devoluciones: z.number(),
});
export type CuadreLinea = z.infer<typeof cuadreLineaSchema>;

/**
 * One counted medio of the closing, so that it adds up on paper: esperado = fondo + ventas +
 * cobros + ingresos − retiros − devoluciones. Cash medios all go into one drawer, the first cash
 * medio's line (the others show zeros); sales on account bring no money and are not counted.
 */
export const cuadreLineaSchema = z.object({
  medio_pago_id: z.string(),
  nombre: z.string(),
  tipo: z.enum(MEDIO_TIPOS),
  fondo: z.number(),
  ventas: z.number(),
  /** Money collected from customers' accounts (cobros de fiado) with this medio. */
  cobros: z.number(),
  ingresos: z.number(),
  retiros: z.number(),
  devoluciones: z.number(),
  esperado: z.number(),
  /** Null while the turno is open. */
  contado: z.number().nullable(),
  diferencia: z.number().nullable(),
});

export type Turno = z.infer<typeof turnoSchema>;

export const turnoSchema = turnoResumenSchema.extend({
  observaciones: z.string().nullable(),
  /** Null while the turno is open and the caller counts blind (arqueo_ciego). */
  esperado: z.array(montoMedioSchema).nullable(),
  /** True when the figures are hidden from the caller until the turno is closed (arqueo a ciegas). */
  arqueo_ciego: z.boolean(),
  /** The medios the closing counts, in order (also when counting blind). */
  a_contar: z.array(z.object({ medio_pago_id: z.string(), nombre: z.string(), tipo: z.enum(MEDIO_TIPOS) })),
  /** How esperado adds up per medio; null when counting blind. */
  cuadre: z.array(cuadreLineaSchema).nullable(),
  por_medio: z.array(turnoMedioDetalleSchema),
  ingresos: z.number(),
  retiros: z.number(),
  /** Money given back from the caja (returns and voids; not those to a customer's account). */
  devoluciones: z.number(),
  movimientos: z.array(turnoMovimientoSchema),
  diferencias: z.array(diferenciaSchema),
});

/* ---------------------------------------------------------------- pagos de una venta */

export const salePaymentInput = z.object({
  medio_pago_id: z.uuid({ error: 'Identificador no válido.' }),
  monto: money({ positive: true }),
  /** The approved Mercado Pago order that paid this part (issue 34): bound to the sale, once. */
  mercadopago_orden_id: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.uuid({ error: 'Identificador no válido.' }).optional(),
  ),
  /** A part paid with a medio of tipo cheque: the third-party cheque received (issue 37); it goes to the cartera. */
  cheque: chequeRecibidoInput.optional(),
});
export const salePaymentsInput = z.preprocess(
  (v) => (v === null ? undefined : v),
  z.array(salePaymentInput, { error: 'Debe ser una lista.' }).min(1, CAJA_MESSAGES.pagosEmpty).max(20).optional(),
);
export const optTurnoId = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.uuid({ error: 'Identificador no válido.' }).optional(),
  );

export interface PaymentMedio {
  id: string | null;
  nombre: string;
  tipo: MedioTipo;
  /** Percent, two decimals at most. */
  ajuste_porcentaje: number;
}
export interface SettledPayment {
  medio: PaymentMedio;
  /** Cents as sent: what the customer hands over with this medio. */
  recibido: number;
  /** Cents of the sale's base (subtotal − descuento) this part covers. */
  monto: number;
  /** Surcharge (positive) or discount (negative) of the medio on its part. */
  ajuste: number;
  /** monto + ajuste: what the customer pays with this medio. */
  total: number;
  vuelto: number;
}
export type SettleResult =
  | { ok: true; parts: SettledPayment[]; ajuste: number; total: number; vuelto: number }
  | { ok: false; error: 'short'; falta: number }
  | { ok: false; error: 'over' };

/** Cents × percent (2 decimals), rounded half away from zero, exactly. */
export function percentOf(cents: number, percent: number): number {
  const p = BigInt(Math.round(percent * 100));
  const n = BigInt(cents) * p;
  const q = n / 10_000n;
  const r = n % 10_000n;
  const abs = r < 0n ? -r : r;
  return Number(q + (abs * 2n >= 10_000n ? (n < 0n ? -1n : 1n) : 0n));
}

/** The largest share of the base that `handed` cents pay for with a `percent` adjustment. */
function coverable(handed: number, percent: number): number {
  const p = BigInt(Math.round(percent * 100));
  let c = Number((BigInt(handed) * 10_000n) / (10_000n + p));
  while (c > 0 && c + percentOf(c, percent) > handed) c--;
  while (c + 1 + percentOf(c + 1, percent) <= handed) c++;
  return c;
}

/**
 * How payments cover a base amount (subtotal − descuento, cents). A non-cash part pays for its
 * `monto` of the base plus its medio's adjustment, and together they may not exceed the base. A
 * cash part is what the customer hands over: it pays for what is left of the base (adjusted by
 * its medio) and the rest is the change. Everything must cover the base.
 */
export function settlePayments(base: number, pagos: { medio: PaymentMedio; monto: number }[]): SettleResult {
  const nonCash = pagos.reduce((s, p) => s + (p.medio.tipo === 'efectivo' ? 0 : p.monto), 0);
  if (nonCash > base) return { ok: false, error: 'over' };
  let left = base - nonCash;
  const parts = pagos.map((p): SettledPayment => {
    const pct = p.medio.ajuste_porcentaje;
    const monto = p.medio.tipo === 'efectivo' ? Math.min(left, coverable(p.monto, pct)) : p.monto;
    if (p.medio.tipo === 'efectivo') left -= monto;
    const ajuste = percentOf(monto, pct);
    const total = monto + ajuste;
    return {
      medio: p.medio,
      recibido: p.monto,
      monto,
      ajuste,
      total,
      vuelto: p.medio.tipo === 'efectivo' ? p.monto - total : 0,
    };
  });
  if (left > 0) return { ok: false, error: 'short', falta: left };
  const ajuste = parts.reduce((s, p) => s + p.ajuste, 0);
  return { ok: true, parts, ajuste, total: base + ajuste, vuelto: parts.reduce((s, p) => s + p.vuelto, 0) };
}

/** The payment as the API returns it (numbers in pesos). */
export type SalePayment = z.infer<typeof salePaymentSchema>;

export const salePaymentSchema = z.object({
  medio_pago_id: z.string().nullable(),
  nombre: z.string(),
  tipo: z.enum(MEDIO_TIPOS),
  metodo_pago: z.enum(PAYMENT_METHODS),
  /** Added by the server beside every metodo_pago (lib/payment-labels.ts). */
  metodo_pago_label: z.string().nullable().optional(),
  monto: z.number(),
  ajuste: z.number(),
  total: z.number(),
  recibido: z.number().nullable(),
  vuelto: z.number(),
  /** The Mercado Pago order that paid this part (only on such parts). */
  mercadopago_orden_id: z.string().optional(),
});

/* ---------------------------------------------------------------- cuenta corriente */

export const cobroInput = z.object({
  monto: money({ positive: true }),
  medio_pago_id: z.uuid({ error: 'Identificador no válido.' }),
  turno_id: optTurnoId(),
  observaciones: optText(500),
  /** Paid with a medio of tipo cheque: the third-party cheque received (issue 37); it goes to the cartera. */
  cheque: chequeRecibidoInput.optional(),
});
export type CobroInput = z.input<typeof cobroInput>;

export type Cobro = z.infer<typeof cobroSchema>;

export const cobroSchema = z.object({
  id: z.string(),
  numero: z.number(),
  fecha: z.string(),
  cliente_id: z.string(),
  cliente_nombre: z.string(),
  monto: z.number(),
  medio_pago_id: z.string(),
  medio_nombre: z.string(),
  turno_id: z.string().nullable(),
  usuario: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  observaciones: z.string().nullable(),
  saldo_anterior: z.number(),
  saldo: z.number(),
});

export const ACCOUNT_MOVE_TYPES = ['venta', 'anulacion', 'cobro', 'devolucion', 'cheque_rechazado'] as const;
export type AccountMoveType = (typeof ACCOUNT_MOVE_TYPES)[number];
export const ACCOUNT_MOVE_LABELS: Record<AccountMoveType, string> = {
  venta: 'Venta en cuenta corriente',
  anulacion: 'Anulación de venta',
  cobro: 'Cobro',
  devolucion: 'Devolución a la cuenta',
  cheque_rechazado: 'Cheque rechazado',
};

export type AccountMove = z.infer<typeof accountMoveSchema>;

export const accountMoveSchema = z.object({
  tipo: z.enum(ACCOUNT_MOVE_TYPES),
  fecha: z.string(),
  numero: z.number(),
  referencia_id: z.string(),
  debe: z.number(),
  haber: z.number(),
  saldo: z.number(),
});

export type CuentaCorriente = z.infer<typeof cuentaCorrienteSchema>;

export const cuentaCorrienteSchema = z.object({
  cliente_id: z.string(),
  cliente_nombre: z.string(),
  /** What the customer owes (negative: in their favour, after a return to the account). */
  saldo: z.number(),
  limite_credito: z.number().nullable(),
  /** Pending receivables (Finanzas → Por cobrar) of this customer, outside the cuenta corriente. */
  por_cobrar: z.number(),
  /** The part of por_cobrar past its due date. */
  por_cobrar_vencido: z.number(),
  cuentas_por_cobrar: z.number(),
  /** One answer to what the customer owes: the cuenta corriente's debt plus por_cobrar. */
  total_adeudado: z.number(),
  movimientos: z.array(accountMoveSchema),
});

/** Ageing of what customers owe, by the age of the sales still unpaid (payments go to the oldest first). */
export const AGEING_BUCKETS = ['d0_30', 'd31_60', 'd61_90', 'd90_mas'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];
export const AGEING_LABELS: Record<AgeingBucket, string> = {
  d0_30: '0 a 30 días',
  d31_60: '31 a 60 días',
  d61_90: '61 a 90 días',
  d90_mas: 'Más de 90 días',
};

export type Deudor = z.infer<typeof deudorSchema>;

export const deudorSchema = z.object({
  cliente_id: z.string(),
  cliente_nombre: z.string(),
  saldo: z.number(),
  limite_credito: z.number().nullable(),
  desde: z.string().nullable(),
  antiguedad: z.record(z.enum(AGEING_BUCKETS), z.number()),
});

/** Which bucket a sale `dias` old falls in. */
export function ageingBucket(dias: number): AgeingBucket {
  return dias <= 30 ? 'd0_30' : dias <= 60 ? 'd31_60' : dias <= 90 ? 'd61_90' : 'd90_mas';
}

/** DELETE …/medios-pago/{id}: a medio already used is deactivated, never deleted. */
export const medioDeletedSchema = z.object({
  desactivado: z.boolean(),
  medio: medioPagoSchema.nullable(),
  mensaje: z.string(),
});

/** POST …/turnos/{id}/movimientos: the movement's id and the turno after it. */
export const turnoMovimientoCreatedSchema = z.object({ id: z.string(), turno: turnoSchema });
