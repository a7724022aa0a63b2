import { z } from 'zod';
import { optMoney } from './money.js';
import { oneOfCi, pageQuery, queryParam } from './customers.js';
import { optTurnoId, salePaymentsInput } from './caja.js';
import { paymentMethod } from './payment-methods.js';
import { receptorInput } from './facturacion.js';
import { optText } from './validation.js';
import { SALE_ITEM_TYPES, SALE_MAX_ITEMS, saleItemInput } from './sales.js';

/*
 * Presupuestos (issue 37, decision 0056): a quote to a customer, priced with the customer's list
 * as the POS prices a sale, numbered per business, that becomes a sale or a remito. Money travels
 * as integer cents inside the input schemas; responses carry plain numbers.
 */

export const PRESUPUESTO_ESTADOS = ['borrador', 'enviado', 'aceptado', 'vencido', 'convertido', 'anulado'] as const;
export type PresupuestoEstado = (typeof PRESUPUESTO_ESTADOS)[number];
export const PRESUPUESTO_ESTADO_LABELS: Record<PresupuestoEstado, string> = {
  borrador: 'Borrador',
  enviado: 'Enviado',
  aceptado: 'Aceptado',
  vencido: 'Vencido',
  convertido: 'Convertido',
  anulado: 'Anulado',
};
/** The states a user moves a presupuesto to by hand (convertido comes from `convertir`). */
export const PRESUPUESTO_CAMBIOS = ['enviado', 'aceptado', 'anulado'] as const;
export type PresupuestoCambio = (typeof PRESUPUESTO_CAMBIOS)[number];

export const PRESUPUESTO_VALIDEZ_DEFAULT = 15;
export const PRESUPUESTO_LIST_MAX = 200;

export const PRESUPUESTO_MESSAGES = {
  notFound: 'Presupuesto no encontrado.',
  customerNotInBusiness: 'Cliente no encontrado en este negocio.',
  notEditable: (estado: string) => `El presupuesto está ${estado}: ya no se puede editar.`,
  badTransition: (desde: string, hacia: string) => `Un presupuesto ${desde} no puede pasar a ${hacia}.`,
  vencido: 'El presupuesto venció: editalo para renovarlo o convertilo a los precios de hoy.',
  changed: 'El presupuesto cambió mientras lo convertías: revisalo y volvé a intentar.',
  needsPayment: 'Indicá cómo se paga la venta (metodo_pago o pagos).',
  noItems: 'El presupuesto debe tener al menos un ítem.',
} as const;

const validez = z.preprocess(
  (v) =>
    v === undefined || v === null || v === '' ? PRESUPUESTO_VALIDEZ_DEFAULT : typeof v === 'string' ? Number(v) : v,
  z
    .number({ error: 'La validez es un número de días.' })
    .int({ error: 'La validez es un número entero de días.' })
    .min(1, { error: 'La validez va de 1 a 365 días.' })
    .max(365, { error: 'La validez va de 1 a 365 días.' }),
);

const items = z.preprocess(
  (v) => (v === undefined || v === null ? [] : v),
  z
    .array(saleItemInput, { error: 'Debe ser una lista.' })
    .min(1, PRESUPUESTO_MESSAGES.noItems)
    .max(SALE_MAX_ITEMS, `Admite como máximo ${SALE_MAX_ITEMS} ítems.`),
);

/** `POST|PUT /businesses/{id}/presupuestos[/{presupuestoId}]`. */
export const presupuestoInput = z.object({
  cliente_id: z.uuid({ error: 'Elegí un cliente.' }),
  items,
  /** Cents off the whole presupuesto, after the lines' own discounts. */
  descuento: optMoney(),
  validez_dias: validez,
  notas: optText(1000),
});
export type PresupuestoInput = z.input<typeof presupuestoInput>;
export type PresupuestoOutput = z.output<typeof presupuestoInput>;

/** `POST …/presupuestos/{presupuestoId}/estado`. */
export const presupuestoEstadoInput = z.object({
  estado: oneOfCi(PRESUPUESTO_CAMBIOS, 'Elegí el estado: enviado, aceptado o anulado.'),
});
export type PresupuestoEstadoInput = z.input<typeof presupuestoEstadoInput>;

export const CONVERTIR_DESTINOS = ['venta', 'remito'] as const;
export type ConvertirDestino = (typeof CONVERTIR_DESTINOS)[number];
/** `presupuesto`: the quoted prices; `actuales`: today's prices of the customer's list. */
export const CONVERTIR_PRECIOS = ['presupuesto', 'actuales'] as const;
export type ConvertirPrecios = (typeof CONVERTIR_PRECIOS)[number];

/** How a sale made from presupuestos or remitos is paid and invoiced (record-sale's fields). */
export const ventaDesdeDocumentoFields = {
  metodo_pago: paymentMethod().optional(),
  pagos: salePaymentsInput,
  turno_id: optTurnoId(),
  facturar: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional(),
  receptor: receptorInput.optional(),
};

/** `POST …/presupuestos/{presupuestoId}/convertir`. */
export const presupuestoConvertirInput = z
  .object({
    destino: oneOfCi(CONVERTIR_DESTINOS, 'Elegí en qué convertirlo: venta o remito.'),
    precios: oneOfCi(CONVERTIR_PRECIOS, 'Elegí los precios: presupuesto o actuales.')
      .optional()
      .transform((v) => v ?? 'presupuesto'),
    ...ventaDesdeDocumentoFields,
  })
  .superRefine((v, ctx) => {
    if (v.destino === 'venta' && !v.pagos && v.metodo_pago === undefined) {
      ctx.addIssue({ code: 'custom', path: ['metodo_pago'], message: PRESUPUESTO_MESSAGES.needsPayment });
    }
  });
export type PresupuestoConvertirInput = z.input<typeof presupuestoConvertirInput>;
export type PresupuestoConvertirOutput = z.output<typeof presupuestoConvertirInput>;

export const presupuestoListQuery = z.object({
  estado: queryParam(oneOfCi(PRESUPUESTO_ESTADOS)),
  cliente_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  ...pageQuery(50, PRESUPUESTO_LIST_MAX),
});
export type PresupuestoListQuery = z.output<typeof presupuestoListQuery>;

export const documentoItemSchema = z.object({
  posicion: z.number(),
  tipo: z.enum(SALE_ITEM_TYPES),
  producto_id: z.string().nullable(),
  servicio_id: z.string().nullable(),
  nombre: z.string(),
  cantidad: z.number(),
  precio_unitario: z.number(),
  descuento: z.number(),
  subtotal: z.number(),
});
export type DocumentoItem = z.infer<typeof documentoItemSchema>;

export const presupuestoItemSchema = documentoItemSchema.extend({
  /** The list price when it was quoted (precio_unitario differs when changed by hand). */
  precio_lista: z.number(),
});

const persona = z.object({ id: z.string(), nombre: z.string() }).nullable();

export const presupuestoResumenSchema = z.object({
  id: z.string(),
  numero: z.number(),
  fecha: z.string(),
  vence: z.string(),
  estado: z.enum(PRESUPUESTO_ESTADOS),
  cliente_id: z.string(),
  cliente_nombre: z.string(),
  total: z.number(),
});
export type PresupuestoResumen = z.infer<typeof presupuestoResumenSchema>;

export const presupuestoSchema = presupuestoResumenSchema.extend({
  validez_dias: z.number(),
  subtotal: z.number(),
  descuento: z.number(),
  notas: z.string().nullable(),
  items: z.array(presupuestoItemSchema),
  venta_id: z.string().nullable(),
  venta_numero: z.number().nullable(),
  remito_id: z.string().nullable(),
  remito_numero: z.number().nullable(),
  usuario: persona,
  creado_en: z.string(),
  actualizado_en: z.string(),
});
export type Presupuesto = z.infer<typeof presupuestoSchema>;

export const presupuestoListSchema = z.object({
  presupuestos: z.array(presupuestoResumenSchema),
  total: z.number(),
});
export type PresupuestoList = z.infer<typeof presupuestoListSchema>;

/** The answer of `convertir`: the presupuesto as it is now, and what it became. */
export const presupuestoConvertidoSchema = z.object({
  presupuesto: presupuestoSchema,
  venta: z
    .object({ id: z.string(), numero: z.number(), total: z.number(), sin_factura: z.string().optional() })
    .nullable(),
  remito: z.object({ id: z.string(), numero: z.number(), total: z.number() }).nullable(),
});
export type PresupuestoConvertido = z.infer<typeof presupuestoConvertidoSchema>;
