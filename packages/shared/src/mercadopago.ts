import { z } from 'zod';
import { oneOfCi } from './customers.js';
import { money } from './money.js';
import { isoDate } from './validation.js';

/*
 * Mercado Pago at the counter (issue 34, decision 0052). Routes, under /api/v1/businesses/{id}:
 *   GET  mercadopago/config                       [admin]          → mercadopagoConfigSchema
 *   PUT  mercadopago/config                       [admin]          body mercadopagoConfigInput → mercadopagoConfigSchema
 *                                                                  (creates the medio "Mercado Pago", tipo qr, if missing)
 *   POST mercadopago/config/probar                [admin]          → mercadopagoProbarSchema (the account, its POS and terminals)
 *   POST mercadopago/ordenes                      [ventas/editar]  Idempotency-Key (required), body ordenInput → 201 ordenSchema
 *   GET  mercadopago/ordenes/{ordenId}            [ventas/ver]     → ordenSchema
 *   POST mercadopago/ordenes/{ordenId}/cancelar   [ventas/editar]  → ordenSchema
 *   GET  mercadopago/conciliacion?desde&hasta     [finanzas/ver]   → conciliacionSchema (MP payments against sales, per day)
 *   GET  mercadopago/conciliacion/exportar?desde&hasta [finanzas/ver] → .xlsx
 * And, public: POST /api/v1/webhooks/mercadopago (MP's notifications, signature checked).
 * Elsewhere: record-sale's `pagos[]` take `mercadopago_orden_id`; a devolución or anulación of a
 * sale paid through MP gives the money back through MP.
 * Amounts are integer cents inside the rules and plain numbers (2 decimals) in the answers.
 */

export const MERCADOPAGO_MEDIO = 'Mercado Pago';

export const ORDEN_TIPOS = ['qr', 'point'] as const;
export type OrdenTipo = (typeof ORDEN_TIPOS)[number];
export const ORDEN_TIPO_LABELS: Record<OrdenTipo, string> = { qr: 'Mercado Pago QR', point: 'Mercado Pago Point' };

export const ORDEN_ESTADOS = ['pendiente', 'aprobada', 'rechazada', 'cancelada', 'expirada'] as const;
export type OrdenEstado = (typeof ORDEN_ESTADOS)[number];
export const ORDEN_ESTADO_LABELS: Record<OrdenEstado, string> = {
  pendiente: 'Esperando el pago',
  aprobada: 'Pagada',
  rechazada: 'Rechazada',
  cancelada: 'Cancelada',
  expirada: 'Vencida',
};

export const MERCADOPAGO_MESSAGES = {
  notConfigured: 'Mercado Pago no está configurado: cargá el access token en Configuración → Mercado Pago.',
  tokenRequired: 'Ingresá el access token de tu cuenta de Mercado Pago.',
  badToken: 'El access token no tiene un formato válido (sin espacios, hasta 300 caracteres).',
  cajaNotInBusiness: 'Caja no encontrada en este negocio.',
  cajaRepeated: 'Esa caja ya está en la lista.',
  cajaSinNada: 'Indicá la caja de Mercado Pago (QR) o la terminal Point de la caja.',
  cajaSinPos: (caja: string) =>
    `La caja «${caja}» no tiene una caja de Mercado Pago para el QR: asignala en la configuración.`,
  cajaSinTerminal: (caja: string) =>
    `La caja «${caja}» no tiene una terminal Point asignada: asignala en la configuración.`,
  idempotencyRequired: 'Falta el encabezado Idempotency-Key: cada orden lleva su clave para no cobrar dos veces.',
  ordenNotFound: 'Orden de Mercado Pago no encontrada.',
  unavailable: 'No pudimos comunicarnos con Mercado Pago. Probá de nuevo o cobrá con otro medio.',
  tokenRejected: 'Mercado Pago rechazó el access token: revisalo en Configuración → Mercado Pago.',
  mpRefused: (detalle: string) => `Mercado Pago no aceptó la operación: ${detalle}`,
  yaAprobada: 'La orden ya fue pagada: registrá la venta con ella.',
  noCancelable: (estado: string) => `La orden ya está ${estado.toLowerCase()}: no se puede cancelar.`,
  probarOk: (cuenta: string) => `Conexión correcta con la cuenta ${cuenta}.`,
  // record-sale
  ordenRequerida:
    'Los cobros con Mercado Pago se hacen desde el punto de venta: el pago necesita su orden aprobada (o elegí otro medio).',
  ordenConOtroMedio: 'Una orden de Mercado Pago se registra con el medio «Mercado Pago».',
  ordenDesconocida: 'No encontramos esa orden de Mercado Pago en este negocio.',
  ordenNoAprobada: (estado: string) => `La orden de Mercado Pago no está pagada (${estado.toLowerCase()}).`,
  ordenOtroMonto: (orden: string, pago: string) =>
    `La orden de Mercado Pago es por ${orden} y el pago por ${pago}: tienen que coincidir.`,
  ordenUsada: 'Esa orden de Mercado Pago ya se usó en otra venta.',
  ordenRepetida: 'La misma orden de Mercado Pago está dos veces en los pagos.',
  // refunds
  reembolsoExcede: (disponible: string) =>
    `Por Mercado Pago se pueden devolver hasta ${disponible} de esta venta: el resto, devolvelo con otro medio.`,
  reembolsoFallo: (detalle: string) => `Mercado Pago no hizo la devolución: ${detalle}. No se registró nada.`,
  rangoInvalido: 'La fecha «hasta» no puede ser anterior a «desde».',
  rangoLargo: 'Elegí un período de hasta 31 días.',
  demasiadosPagos: 'Mercado Pago informa demasiados pagos en el período: elegí menos días.',
} as const;

/* ---------------------------------------------------------------- configuration */

const MP_ID_RE = /^[\x21-\x7e]{1,100}$/;
const mpId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().regex(MP_ID_RE, message).nullable().optional(),
  );

export const mercadopagoCajaInput = z.object({
  caja_id: z.uuid({ error: 'Identificador no válido.' }),
  /** The external_pos_id of the MP point of sale (caja) whose QR this caja shows. */
  pos_id: mpId('Identificador de caja de Mercado Pago no válido.'),
  /** The Point terminal's id (e.g. NEWLAND_N950__N950NCB801293324). */
  terminal_id: mpId('Identificador de terminal no válido.'),
});

const secret = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string()
      .regex(/^[\x21-\x7e]{8,300}$/, message)
      .optional(),
  );

export const mercadopagoConfigInput = z.object({
  /** Write-only: encrypted at rest, never answered nor logged; absent keeps the stored one. */
  access_token: secret(MERCADOPAGO_MESSAGES.badToken),
  /** The secret signature of the application's webhooks (Tus integraciones → Webhooks); write-only, absent keeps. */
  webhook_secret: secret('La clave secreta de los webhooks no tiene un formato válido.'),
  cajas: z.array(mercadopagoCajaInput, { error: 'Debe ser una lista.' }).max(100).optional().default([]),
});
export type MercadopagoConfigInput = z.input<typeof mercadopagoConfigInput>;
export type MercadopagoConfigOutput = z.output<typeof mercadopagoConfigInput>;

export const mercadopagoConfigSchema = z.object({
  configurado: z.boolean(),
  tiene_access_token: z.boolean(),
  tiene_webhook_secret: z.boolean(),
  /** The medio de pago "Mercado Pago" (tipo qr) its payments are recorded with. */
  medio_pago_id: z.string().nullable(),
  cajas: z.array(
    z.object({
      caja_id: z.string(),
      caja_nombre: z.string(),
      pos_id: z.string().nullable(),
      terminal_id: z.string().nullable(),
    }),
  ),
  /** Where MP's notifications go: set it in the application's Webhooks (event "Order"). */
  webhook_url: z.string(),
  actualizado_en: z.string().nullable(),
});
export type MercadopagoConfig = z.infer<typeof mercadopagoConfigSchema>;

export const mercadopagoProbarSchema = z.object({
  ok: z.boolean(),
  mensaje: z.string(),
  cuenta: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  /** The account's points of sale (their external_id is a caja's pos_id). */
  cajas_mp: z.array(z.object({ id: z.string(), external_id: z.string().nullable(), nombre: z.string() })),
  /** The account's Point terminals (operating mode PDV receives orders). */
  terminales: z.array(
    z.object({ id: z.string(), external_pos_id: z.string().nullable(), modo: z.string().nullable() }),
  ),
});
export type MercadopagoProbar = z.infer<typeof mercadopagoProbarSchema>;

/* ---------------------------------------------------------------- orders */

export const ordenInput = z.object({
  caja_id: z.uuid({ error: 'Identificador no válido.' }),
  monto: money({ positive: true }),
  tipo: oneOfCi(ORDEN_TIPOS),
});
export type OrdenInput = z.input<typeof ordenInput>;
export type OrdenOutput = z.output<typeof ordenInput>;

export const ordenReembolsoSchema = z.object({
  id: z.string(),
  origen: z.enum(['devolucion', 'anulacion', 'aprobada_tarde']),
  monto: z.number(),
  venta_id: z.string().nullable(),
  devolucion_id: z.string().nullable(),
  creado_en: z.string(),
});

export const ordenSchema = z.object({
  id: z.string(),
  caja_id: z.string(),
  tipo: z.enum(ORDEN_TIPOS),
  estado: z.enum(ORDEN_ESTADOS),
  monto: z.number(),
  /** The dynamic QR's EMVCo text (tipo qr) to draw on the customer's screen; null for Point. */
  qr_data: z.string().nullable(),
  /** The order's external_reference at MP. */
  referencia: z.string(),
  mp_orden_id: z.string(),
  /** The sale it paid, once recorded. */
  venta_id: z.string().nullable(),
  /** Given back through MP (devoluciones, anulación, or a late approval). */
  reembolsado: z.number(),
  reembolsos: z.array(ordenReembolsoSchema),
  /** MP approved it after it was cancelled, expired or rejected here: refunded automatically. */
  aprobada_tarde: z.boolean(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});
export type Orden = z.infer<typeof ordenSchema>;

/** The webhook's answer. */
export const webhookRecibidoSchema = z.object({ recibido: z.boolean() });

/* ---------------------------------------------------------------- conciliación */

export const conciliacionQuery = z.object({ desde: isoDate(), hasta: isoDate() });
export type ConciliacionQuery = z.output<typeof conciliacionQuery>;

export const CONCILIACION_TIPOS = ['conciliado', 'pagado_sin_venta', 'venta_sin_pago', 'monto_distinto'] as const;
export type ConciliacionTipo = (typeof CONCILIACION_TIPOS)[number];
export const CONCILIACION_TIPO_LABELS: Record<ConciliacionTipo, string> = {
  conciliado: 'Conciliado',
  pagado_sin_venta: 'Cobrado sin venta',
  venta_sin_pago: 'Venta sin cobro',
  monto_distinto: 'Montos distintos',
};

export const conciliacionLineaSchema = z.object({
  tipo: z.enum(CONCILIACION_TIPOS),
  /** When it happened: MP's approval, or the sale's date when MP has no payment. */
  fecha_hora: z.string(),
  venta_id: z.string().nullable(),
  venta_numero: z.number().nullable(),
  orden_id: z.string().nullable(),
  mp_pago_id: z.string().nullable(),
  /** What MP collected (net of its refunds); null when MP has no payment for the sale. */
  monto_mp: z.number().nullable(),
  /** What the sale recorded with the MP medio (net of its returns by MP); null without a sale. */
  monto_venta: z.number().nullable(),
  /** MP's fee and the net it credits, when MP reports them. */
  comision: z.number().nullable(),
  neto: z.number().nullable(),
  /** monto_mp − monto_venta (missing sides count as 0). */
  diferencia: z.number(),
});
export type ConciliacionLinea = z.infer<typeof conciliacionLineaSchema>;

const totalesSchema = z.object({
  cobrado: z.number(),
  vendido: z.number(),
  comision: z.number(),
  neto: z.number(),
  diferencia: z.number(),
});

export const conciliacionSchema = z.object({
  desde: z.string(),
  hasta: z.string(),
  dias: z.array(totalesSchema.extend({ fecha: z.string(), lineas: z.array(conciliacionLineaSchema) })),
  totales: totalesSchema.extend({
    conciliados: z.number(),
    pagado_sin_venta: z.number(),
    venta_sin_pago: z.number(),
    monto_distinto: z.number(),
  }),
});
export type Conciliacion = z.infer<typeof conciliacionSchema>;
