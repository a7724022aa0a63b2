import { z } from 'zod';
import { quantity } from './catalog.js';
import { PURCHASE_MAX_ITEMS, purchaseSchema } from './purchases.js';

/*
 * Partial reception of a purchase and the sale price that keeps the margin when the cost rises
 * (issue #17, decision 0023).
 */

export const RECEPCION_MESSAGES = {
  notFound: 'Recepción no encontrada.',
  noLines: 'Indicá al menos una línea con la cantidad recibida.',
  lineRequired: 'Indicá la línea (linea_id) o el producto (producto_id).',
  lineNotInPurchase: 'La línea no es de esta compra.',
  duplicateLine: 'La línea ya está en otra fila de la recepción.',
  notReceivable: 'Solo se puede recibir mercadería de una compra pendiente o recibida en parte.',
  overReceive: (producto: string, pendiente: string) =>
    `No podés recibir más de lo pendiente de ${producto}: faltan ${pendiente}.`,
  needsCosts: 'Para ver y aplicar precios sugeridos necesitás permiso para ver costos.',
  noPrices: 'No tenés permiso para cambiar precios de productos.',
  noSuggestion: (producto: string) =>
    `${producto} ya no tiene un precio sugerido vigente (el precio o el costo cambiaron): revisá la lista.`,
  noIds: 'Elegí al menos un producto.',
} as const;

const idMsg = { error: 'Identificador no válido.' };
const optUuid = () => z.preprocess((v) => (v === '' || v === null ? undefined : v), z.uuid(idMsg).optional());

export const recepcionLineaInput = z
  .object({
    linea_id: optUuid(),
    producto_id: optUuid(),
    cantidad: quantity().pipe(z.number().positive({ error: 'Debe ser mayor a 0.' })),
  })
  .refine((l) => l.linea_id || l.producto_id, { error: RECEPCION_MESSAGES.lineRequired, path: ['linea_id'] });

export const recepcionInput = z.object({
  lineas: z
    .array(recepcionLineaInput, {
      error: (iss) => (iss.input == null ? RECEPCION_MESSAGES.noLines : 'Debe ser una lista.'),
    })
    .min(1, { error: RECEPCION_MESSAGES.noLines })
    .max(PURCHASE_MAX_ITEMS, { error: RECEPCION_MESSAGES.noLines }),
  /** The depósito the goods enter (decision 0059): default the principal. */
  deposito_id: optUuid(),
});
export type RecepcionInput = z.input<typeof recepcionInput>;
/** Quantities in thousandths. */
export type RecepcionOutput = z.output<typeof recepcionInput>;

export const recepcionSchema = z.object({
  id: z.string(),
  numero: z.number(),
  compra_id: z.string(),
  creado_por: z.string().nullable(),
  creado_por_nombre: z.string().nullable(),
  creado_en: z.string(),
  revertida_en: z.string().nullable(),
  lineas: z.array(
    z.object({
      linea_id: z.string(),
      producto_id: z.string(),
      producto_nombre: z.string(),
      unidad: z.string(),
      cantidad: z.number(),
      /** The cost it set (hidden without ver_costos). */
      costo: z.number().optional(),
    }),
  ),
});
export type Recepcion = z.infer<typeof recepcionSchema>;

/**
 * One product whose cost rose on a reception: the price that keeps its margin over the cost
 * (price × new cost ÷ old cost, to the cent). Computed by the server, never by the client.
 */
/** The rules a reception's suggestion may follow (a subset of `MARGEN_ORIGENES`). */
export const SUGERENCIA_REGLAS = ['producto', 'categoria', 'proveedor', 'actual'] as const;

export const sugerenciaPrecioSchema = z.object({
  producto_id: z.string(),
  producto_nombre: z.string(),
  costo_anterior: z.number().optional(),
  costo_nuevo: z.number().optional(),
  precio_actual: z.number(),
  precio_sugerido: z.number(),
  /**
   * Margin over the cost in % of the suggested price: the stored rule's, or the one it had.
   * Optional as every cost field (lib/costs.ts), though only members who see costs get suggestions.
   */
  margen: z.number().nullable().optional(),
  /** What set it (decision 0024): a stored rule of the product, its category or the supplier, or its current margin. */
  regla: z.enum(SUGERENCIA_REGLAS),
});
export type SugerenciaPrecio = z.infer<typeof sugerenciaPrecioSchema>;

export const sugerenciasPrecioSchema = z.object({ sugerencias: z.array(sugerenciaPrecioSchema) });

export const recepcionResultSchema = z.object({
  recepcion: recepcionSchema,
  compra: purchaseSchema,
  sugerencias: z.array(sugerenciaPrecioSchema),
});

export const aplicarPreciosInput = z.object({
  producto_ids: z
    .array(z.uuid(idMsg), { error: RECEPCION_MESSAGES.noIds })
    .min(1, { error: RECEPCION_MESSAGES.noIds })
    .max(PURCHASE_MAX_ITEMS, { error: RECEPCION_MESSAGES.noIds }),
});
export type AplicarPreciosInput = z.output<typeof aplicarPreciosInput>;

export const aplicarPreciosResultSchema = z.object({ aplicados: z.array(sugerenciaPrecioSchema) });
