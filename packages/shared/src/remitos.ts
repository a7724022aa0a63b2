import { z } from 'zod';
import { oneOfCi, pageQuery, queryParam } from './customers.js';
import { optText } from './validation.js';
import { SALE_MAX_ITEMS, saleItemInput } from './sales.js';
import {
  CONVERTIR_PRECIOS,
  documentoItemSchema,
  ventaDesdeDocumentoFields,
  PRESUPUESTO_MESSAGES,
} from './presupuestos.js';

/*
 * Remitos (issue 37, decision 0056): goods delivered to a customer, their stock taken when the
 * remito is written; invoiced later, one or more of the same customer in one sale that moves no
 * stock again.
 */

export const REMITO_ESTADOS = ['pendiente', 'facturado', 'anulado'] as const;
export type RemitoEstado = (typeof REMITO_ESTADOS)[number];
export const REMITO_ESTADO_LABELS: Record<RemitoEstado, string> = {
  pendiente: 'Pendiente de facturar',
  facturado: 'Facturado',
  anulado: 'Anulado',
};
export const REMITO_LIST_MAX = 200;
export const REMITOS_POR_FACTURA = 50;

export const REMITO_MESSAGES = {
  notFound: 'Remito no encontrado.',
  notInBusiness: 'Remito no encontrado en este negocio.',
  customerNotInBusiness: 'Cliente no encontrado en este negocio.',
  noItems: 'El remito debe tener al menos un ítem.',
  yaFacturado: (numero: number) => `El remito #${numero} ya está facturado.`,
  anulado: (numero: number) => `El remito #${numero} está anulado.`,
  otroCliente: 'Los remitos son de clientes distintos: facturá los de un cliente por vez.',
  noAnulable: 'Un remito facturado no se anula: anulá la venta (el remito vuelve a pendiente) o hacé una devolución.',
  yaAnulado: 'El remito ya está anulado.',
  presupuestoNotInBusiness: 'Presupuesto no encontrado en este negocio.',
  presupuestoOtroCliente: 'El presupuesto es de otro cliente.',
  repetido: 'Un remito aparece dos veces.',
} as const;

/** `POST /businesses/{id}/remitos`. */
export const remitoInput = z.object({
  cliente_id: z.uuid({ error: 'Elegí un cliente.' }),
  items: z.preprocess(
    (v) => (v === undefined || v === null ? [] : v),
    z
      .array(saleItemInput, { error: 'Debe ser una lista.' })
      .min(1, REMITO_MESSAGES.noItems)
      .max(SALE_MAX_ITEMS, `Admite como máximo ${SALE_MAX_ITEMS} ítems.`),
  ),
  /** The presupuesto it delivers (it becomes convertido). */
  presupuesto_id: z.uuid({ error: 'Identificador no válido.' }).nullable().optional(),
  notas: optText(1000),
  /** The depósito the goods leave (decision 0059): default the principal. */
  deposito_id: z.uuid({ error: 'Identificador no válido.' }).nullable().optional(),
});
export type RemitoInput = z.input<typeof remitoInput>;
export type RemitoOutput = z.output<typeof remitoInput>;

/** `POST …/remitos/{remitoId}/anular`. */
export const remitoAnularInput = z.preprocess((v) => v ?? {}, z.object({ motivo: optText(200) }));

/** `POST /businesses/{id}/remitos/facturar`. */
export const remitosFacturarInput = z
  .object({
    remito_ids: z
      .array(z.uuid({ error: 'Identificador no válido.' }), { error: 'Elegí los remitos a facturar.' })
      .min(1, { error: 'Elegí al menos un remito.' })
      .max(REMITOS_POR_FACTURA, { error: `Facturá como máximo ${REMITOS_POR_FACTURA} remitos por vez.` }),
    /** `presupuesto` keeps the remitos' prices (the name is shared with convertir); `actuales`: today's. */
    precios: oneOfCi(CONVERTIR_PRECIOS, 'Elegí los precios: presupuesto o actuales.')
      .optional()
      .transform((v) => v ?? 'presupuesto'),
    ...ventaDesdeDocumentoFields,
  })
  .superRefine((v, ctx) => {
    if (!v.pagos && v.metodo_pago === undefined) {
      ctx.addIssue({ code: 'custom', path: ['metodo_pago'], message: PRESUPUESTO_MESSAGES.needsPayment });
    }
    if (new Set(v.remito_ids).size !== v.remito_ids.length) {
      ctx.addIssue({ code: 'custom', path: ['remito_ids'], message: REMITO_MESSAGES.repetido });
    }
  });
export type RemitosFacturarInput = z.input<typeof remitosFacturarInput>;
export type RemitosFacturarOutput = z.output<typeof remitosFacturarInput>;

export const remitoListQuery = z.object({
  estado: queryParam(oneOfCi(REMITO_ESTADOS)),
  cliente_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  ...pageQuery(50, REMITO_LIST_MAX),
});
export type RemitoListQuery = z.output<typeof remitoListQuery>;

const persona = z.object({ id: z.string(), nombre: z.string() }).nullable();

export const remitoResumenSchema = z.object({
  id: z.string(),
  numero: z.number(),
  fecha: z.string(),
  estado: z.enum(REMITO_ESTADOS),
  cliente_id: z.string(),
  cliente_nombre: z.string(),
  total: z.number(),
  venta_id: z.string().nullable(),
  venta_numero: z.number().nullable(),
});
export type RemitoResumen = z.infer<typeof remitoResumenSchema>;

export const remitoSchema = remitoResumenSchema.extend({
  subtotal: z.number(),
  descuento: z.number(),
  notas: z.string().nullable(),
  items: z.array(documentoItemSchema),
  presupuesto_id: z.string().nullable(),
  presupuesto_numero: z.number().nullable(),
  facturado_en: z.string().nullable(),
  anulado_en: z.string().nullable(),
  anulado_por: persona,
  motivo_anulacion: z.string().nullable(),
  usuario: persona,
  /** Its invoicing, oldest first: facturado by a sale, pendiente again when that sale was voided. */
  eventos: z.array(
    z.object({
      estado: z.enum(['facturado', 'pendiente']),
      venta_id: z.string(),
      venta_numero: z.number(),
      motivo: z.string().nullable(),
      creado_en: z.string(),
      usuario: persona,
    }),
  ),
});
export type Remito = z.infer<typeof remitoSchema>;

export const remitoListSchema = z.object({
  remitos: z.array(remitoResumenSchema),
  total: z.number(),
});
export type RemitoList = z.infer<typeof remitoListSchema>;

export const remitosFacturadosSchema = z.object({
  venta: z.object({ id: z.string(), numero: z.number(), total: z.number(), sin_factura: z.string().optional() }),
  remitos: z.array(remitoResumenSchema),
});
export type RemitosFacturados = z.infer<typeof remitosFacturadosSchema>;
