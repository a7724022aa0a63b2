import { z } from 'zod';
import { medioPagoSchema, turnoSchema } from './caja.js';
import { DOCUMENT_TYPES, IVA_CONDITIONS } from './customers.js';
import { scaleLayoutSchema } from './scale.js';

/**
 * The catalogue the point of sale keeps on the device to sell without a connection (issue 18,
 * docs/decisions/0014-offline-pos.md): GET /businesses/{id}/pos/catalogo, everything without
 * `desde`, only what changed since that cursor with it.
 */

/** An opaque cursor: the digits of a PostgreSQL xid8. */
export const POS_CURSOR_RE = /^\d{1,20}$/;

export const POS_MESSAGES = {
  badCursor: 'El cursor del catálogo no es válido. Descargá el catálogo completo.',
  customerIdTaken: 'Ese identificador de cliente ya está en uso.',
} as const;

export const posCatalogoQuery = z.object({
  desde: z
    .string()
    .regex(POS_CURSOR_RE, POS_MESSAGES.badCursor)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

/**
 * A product as the POS needs it, kept compact (50 000 of them travel on the first download).
 * `precio_compra` only for members who see costs. Price lists may later add `precios`.
 */
export const posProductoSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  codigo: z.string().nullable(),
  codigo_barras: z.string().nullable(),
  precio_venta: z.number(),
  precio_compra: z.number().nullable().optional(),
  stock_actual: z.number(),
  controla_stock: z.boolean(),
  unidad: z.string(),
});
export type PosProducto = z.infer<typeof posProductoSchema>;

export const posServicioSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  precio: z.number(),
  costo: z.number().nullable().optional(),
});
export type PosServicio = z.infer<typeof posServicioSchema>;

export const posClienteSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  apellido: z.string().nullable(),
  documento_tipo: z.enum(DOCUMENT_TYPES).nullable(),
  documento_numero: z.string().nullable(),
  telefono: z.string().nullable(),
  email: z.string().nullable(),
  condicion_iva: z.enum(IVA_CONDITIONS),
  limite_credito: z.number().nullable(),
});
export type PosCliente = z.infer<typeof posClienteSchema>;

export const posCatalogoSchema = z.object({
  /** Send it back as `desde` to get only what changed since this answer. */
  cursor: z.string(),
  /** True when this is the whole catalogue (no `desde`): the device replaces what it had. */
  completo: z.boolean(),
  productos: z.array(posProductoSchema),
  servicios: z.array(posServicioSchema),
  clientes: z.array(posClienteSchema),
  medios_pago: z.array(medioPagoSchema),
  /** The open turno this user sells in (as record-sale picks it), or null. */
  turno: turnoSchema.nullable(),
  configuracion: z.object({
    balanza: scaleLayoutSchema.nullable(),
    vender_sin_stock: z.boolean(),
    caja_requiere_turno: z.boolean(),
  }),
  /** Deleted (or, for products and services, deactivated) since the cursor. */
  eliminados: z.object({
    productos: z.array(z.string()),
    servicios: z.array(z.string()),
    clientes: z.array(z.string()),
  }),
});
export type PosCatalogo = z.infer<typeof posCatalogoSchema>;

/** A sale taken without a connection: when it happened and on which device (record-sale's `offline`). */
export const saleOfflineInput = z
  .object({
    creada_en: z.iso.datetime({ offset: true, error: 'Fecha y hora no válidas.' }),
    dispositivo: z.string().trim().min(1).max(100),
  })
  .optional();
