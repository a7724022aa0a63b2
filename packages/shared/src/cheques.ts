import { z } from 'zod';
import { normalizeCuit } from './cuit.js';
import { oneOfCi, pageQuery, queryParam } from './customers.js';
import { money } from './money.js';
import { isoDate, optText, reqText } from './validation.js';

/*
 * Cheques (issue 37, decision 0057): third-party cheques received as payment (the cartera) and
 * the business's own cheques given to suppliers. Money is integer cents on input.
 */

export const CHEQUE_TIPOS = ['tercero', 'propio'] as const;
export type ChequeTipo = (typeof CHEQUE_TIPOS)[number];
export const CHEQUE_TIPO_LABELS: Record<ChequeTipo, string> = { tercero: 'De terceros', propio: 'Propio' };

export const CHEQUE_ESTADOS = [
  'en_cartera',
  'depositado',
  'endosado',
  'cobrado',
  'rechazado',
  'entregado',
  'anulado',
] as const;
export type ChequeEstado = (typeof CHEQUE_ESTADOS)[number];
export const CHEQUE_ESTADO_LABELS: Record<ChequeEstado, string> = {
  en_cartera: 'En cartera',
  depositado: 'Depositado',
  endosado: 'Endosado',
  cobrado: 'Cobrado',
  rechazado: 'Rechazado',
  entregado: 'Entregado',
  anulado: 'Anulado',
};

/** What can be done to a cheque, each a route `POST …/cheques/{chequeId}/{accion}`. */
export const CHEQUE_ACCIONES = ['depositar', 'endosar', 'cobrar', 'rechazar', 'anular'] as const;
export type ChequeAccion = (typeof CHEQUE_ACCIONES)[number];
export const CHEQUE_ACCION_LABELS: Record<ChequeAccion, string> = {
  depositar: 'Depositar',
  endosar: 'Endosar a un proveedor',
  cobrar: 'Marcar acreditado',
  rechazar: 'Registrar rechazo',
  anular: 'Anular',
};

/** An action's name for this cheque: an own cheque is debited, not credited. */
export const chequeAccionLabel = (tipo: ChequeTipo, a: ChequeAccion): string =>
  tipo === 'propio' && a === 'cobrar' ? 'Marcar debitado' : CHEQUE_ACCION_LABELS[a];

/** The state each action leads to. */
export const CHEQUE_ACCION_ESTADO: Record<ChequeAccion, ChequeEstado> = {
  depositar: 'depositado',
  endosar: 'endosado',
  cobrar: 'cobrado',
  rechazar: 'rechazado',
  anular: 'anulado',
};

/**
 * The states each action starts from, per kind. An own cheque is given (entregado) and is debited
 * (cobrado) or voided; a third-party cheque is deposited and credited, or endorsed, and can bounce
 * after either. A third-party cheque is voided only while in the cartera and only when it came in
 * by hand (one that paid a sale or a cobro goes with that sale or cobro).
 */
export const CHEQUE_TRANSICIONES: Record<ChequeTipo, Partial<Record<ChequeAccion, readonly ChequeEstado[]>>> = {
  tercero: {
    depositar: ['en_cartera'],
    endosar: ['en_cartera'],
    cobrar: ['depositado'],
    rechazar: ['depositado', 'endosado'],
    anular: ['en_cartera'],
  },
  propio: { cobrar: ['entregado'], anular: ['entregado'] },
};

/** The actions a cheque in its state may take (the cartera screen's buttons). */
export function chequeAcciones(c: { tipo: ChequeTipo; estado: ChequeEstado }): ChequeAccion[] {
  const t = CHEQUE_TRANSICIONES[c.tipo];
  return CHEQUE_ACCIONES.filter((a) => t[a]?.includes(c.estado));
}

/** Cheques falling due within this many days (today included) are notified. */
export const CHEQUE_AVISO_DIAS = 3;

export const CHEQUE_MESSAGES = {
  notFound: 'Cheque no encontrado.',
  refused: (accion: ChequeAccion, estado: ChequeEstado) =>
    `No se puede ${ACCION_VERBO[accion]} un cheque ${CHEQUE_ESTADO_LABELS[estado].toLowerCase()}.`,
  anularOrigen: 'El cheque vino en una venta o un cobro: anulá la venta, o registrá el rechazo si el banco no lo pagó.',
  sinDatos: 'Completá los datos del cheque (banco, número, fecha de pago, librador y CUIT).',
  necesitaCliente: 'Elegí el cliente: el cheque queda a su nombre y, si lo rechazan, vuelve a su cuenta corriente.',
  libradorRequerido: 'Indicá quién libra el cheque.',
  cuitRequerido: 'Indicá el CUIT del librador.',
  cuitInvalido: 'CUIT no válido: revisá el dígito verificador.',
  numeroInvalido: 'El número del cheque lleva solo dígitos (hasta 12).',
  pagoAntesEmision: 'La fecha de pago no puede ser anterior a la de emisión.',
  sinDeuda: (proveedor: string) =>
    `No le debés nada a ${proveedor}: registrá la compra antes de pagarla con el cheque.`,
  superaDeuda: (deuda: string) =>
    `El cheque supera lo que le debés al proveedor (${deuda}). Registrá la compra o elegí otro cheque.`,
  proveedorEnPropio: 'Solo los cheques propios se entregan a un proveedor al cargarlos; los de terceros se endosan.',
  clienteEnPropio: 'Un cheque propio no tiene cliente.',
  duplicado:
    'Ese cheque ya está en el negocio (mismo banco, número y CUIT del librador): revisá los datos, o anulá el anterior si se cargó por error.',
  noDevolvible: (numero: string, estado: string) =>
    `El cheque N° ${numero} está ${estado}: ya salió de la cartera, devolvé el dinero con otro medio.`,
  devolucionOtroMonto: (cheque: string, devolucion: string) =>
    `El cheque es de ${cheque} y la devolución, de ${devolucion}: el cheque se devuelve solo por su monto completo. Devolvé el dinero con otro medio.`,
  noEsDeLaVenta: 'Ese cheque no vino en esta venta.',
  devueltoAlCliente: (numero: number) => `Devuelto al cliente (devolución #${numero})`,
  ventaConCheque: (numero: string) =>
    `El cheque N° ${numero} de esta venta ya salió de la cartera: registrá su rechazo o su cobro antes de anular la venta.`,
} as const;

const ACCION_VERBO: Record<ChequeAccion, string> = {
  depositar: 'depositar',
  endosar: 'endosar',
  cobrar: 'marcar como acreditado',
  rechazar: 'rechazar',
  anular: 'anular',
};

const cuitField = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ error: CHEQUE_MESSAGES.cuitInvalido })
      .transform((v, ctx) => {
        const c = normalizeCuit(v);
        if (!c) {
          ctx.addIssue({ code: 'custom', message: CHEQUE_MESSAGES.cuitInvalido });
          return z.NEVER;
        }
        return c;
      })
      .nullable()
      .optional(),
  );

const numeroField = () =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.replace(/[\s.-]/g, '') : v),
    z.string({ error: CHEQUE_MESSAGES.numeroInvalido }).regex(/^\d{1,12}$/, CHEQUE_MESSAGES.numeroInvalido),
  );

const flag = () => z.boolean({ error: 'Debe ser verdadero o falso.' }).optional().default(false);
const optDate = () => z.preprocess((v) => (v === '' ? null : v), isoDate().nullable().optional());
const optId = () =>
  z.preprocess((v) => (v === '' ? null : v), z.uuid({ error: 'Identificador no válido.' }).nullable().optional());

/** The cheque's own data, as a payment (a sale's pago or a cobro) carries it: its amount is the payment's. */
const datosFields = {
  electronico: flag(),
  banco: reqText(80),
  numero: numeroField(),
  fecha_emision: optDate(),
  fecha_pago: isoDate(),
  librador_nombre: optText(120),
  librador_cuit: cuitField(),
};

const fechasEnOrden = (v: { fecha_emision?: string | null; fecha_pago: string }) =>
  !v.fecha_emision || v.fecha_emision <= v.fecha_pago;

/** A third-party cheque received in a payment: whoever issues it and their CUIT are required. */
export const chequeRecibidoInput = z
  .object({
    ...datosFields,
    librador_nombre: reqText(120),
    librador_cuit: cuitField().refine((v) => !!v, CHEQUE_MESSAGES.cuitRequerido),
  })
  .refine(fechasEnOrden, { message: CHEQUE_MESSAGES.pagoAntesEmision, path: ['fecha_pago'] });
export type ChequeRecibidoInput = z.input<typeof chequeRecibidoInput>;
export type ChequeRecibido = z.output<typeof chequeRecibidoInput>;

/** POST …/cheques: a cheque registered by hand (a third party's into the cartera, or one of ours given). */
export const chequeInput = z
  .object({
    tipo: oneOfCi(CHEQUE_TIPOS),
    ...datosFields,
    monto: money({ positive: true }),
    /** A third party's: the customer who gave it (a rejection goes to their account). */
    cliente_id: optId(),
    /** An own cheque's payee: the cheque pays the supplier's pending debts, oldest first. */
    proveedor_id: optId(),
    observaciones: optText(500),
  })
  .superRefine((v, ctx) => {
    if (!fechasEnOrden(v))
      ctx.addIssue({ code: 'custom', path: ['fecha_pago'], message: CHEQUE_MESSAGES.pagoAntesEmision });
    if (v.tipo === 'tercero') {
      if (!v.librador_nombre)
        ctx.addIssue({ code: 'custom', path: ['librador_nombre'], message: CHEQUE_MESSAGES.libradorRequerido });
      if (!v.librador_cuit)
        ctx.addIssue({ code: 'custom', path: ['librador_cuit'], message: CHEQUE_MESSAGES.cuitRequerido });
      if (v.proveedor_id)
        ctx.addIssue({ code: 'custom', path: ['proveedor_id'], message: CHEQUE_MESSAGES.proveedorEnPropio });
    } else if (v.cliente_id) {
      ctx.addIssue({ code: 'custom', path: ['cliente_id'], message: CHEQUE_MESSAGES.clienteEnPropio });
    }
  });
export type ChequeInput = z.input<typeof chequeInput>;
export type ChequeValues = z.output<typeof chequeInput>;

const fechaAccion = { fecha: optDate() };
export const chequeDepositarInput = z.preprocess((v) => v ?? {}, z.object({ ...fechaAccion }));
export const chequeCobrarInput = chequeDepositarInput;
export const chequeEndosarInput = z.object({
  proveedor_id: z.uuid({ error: 'Identificador no válido.' }),
  ...fechaAccion,
});
export const chequeRechazarInput = z.object({
  /** What the bank charged for the rejection: it goes to the customer's account with the amount. */
  gastos_bancarios: z.preprocess((v) => (v === undefined || v === null || v === '' ? 0 : v), money()),
  motivo: reqText(200),
  ...fechaAccion,
});
export const chequeAnularInput = z.preprocess((v) => v ?? {}, z.object({ motivo: optText(200), ...fechaAccion }));
export type ChequeEndosarInput = z.input<typeof chequeEndosarInput>;
export type ChequeRechazarInput = z.input<typeof chequeRechazarInput>;

export const chequeListQuery = z.object({
  estado: queryParam(oneOfCi(CHEQUE_ESTADOS)),
  tipo: queryParam(oneOfCi(CHEQUE_TIPOS)),
  cliente_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  proveedor_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  /** The cheques a sale's payments brought. */
  venta_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  /** Due on or before this day. */
  vence_hasta: queryParam(isoDate()),
  ...pageQuery(100, 500),
});
export type ChequeListQuery = z.output<typeof chequeListQuery>;

const ref = z.object({ id: z.string(), nombre: z.string() }).nullable();

export type ChequeEvento = z.infer<typeof chequeEventoSchema>;
export const chequeEventoSchema = z.object({
  estado: z.enum(CHEQUE_ESTADOS),
  anterior: z.enum(CHEQUE_ESTADOS).nullable(),
  fecha: z.string(),
  creado_en: z.string(),
  usuario: ref,
  proveedor: ref,
  motivo: z.string().nullable(),
  gastos_bancarios: z.number().nullable(),
  /** On a rejection: what went to the customer's account (the amount plus the fees). */
  deuda: z.number().nullable(),
});

export type Cheque = z.infer<typeof chequeSchema>;
export const chequeSchema = z.object({
  id: z.string(),
  tipo: z.enum(CHEQUE_TIPOS),
  electronico: z.boolean(),
  banco: z.string(),
  numero: z.string(),
  fecha_emision: z.string().nullable(),
  fecha_pago: z.string(),
  monto: z.number(),
  librador_nombre: z.string().nullable(),
  librador_cuit: z.string().nullable(),
  estado: z.enum(CHEQUE_ESTADOS),
  cliente: ref,
  proveedor: ref,
  venta: z.object({ id: z.string(), numero: z.number() }).nullable(),
  cobro: z.object({ id: z.string(), numero: z.number() }).nullable(),
  observaciones: z.string().nullable(),
  /** Days from the business's today to fecha_pago (negative: past due). */
  dias: z.number(),
  acciones: z.array(z.enum(CHEQUE_ACCIONES)),
  creado_en: z.string(),
});

export type ChequeDetalle = z.infer<typeof chequeDetalleSchema>;
export const chequeDetalleSchema = chequeSchema.extend({ eventos: z.array(chequeEventoSchema) });

/** The list: a page of cheques and the sums of the whole filtered list. */
export const chequeListSchema = z.object({
  cheques: z.array(chequeSchema),
  total: z.number(),
  monto_total: z.number(),
});
export type ChequeList = z.infer<typeof chequeListSchema>;
