import { z } from 'zod';
import { quantity } from './catalog.js';
import { optText, reqText, uuid } from './validation.js';

/*
 * Sucursales, depósitos and transferencias (issue 38 part 1, decision 0059): one catalogue, the
 * stock of each product per depósito; products.stock_actual is the total of all depósitos.
 */

/** What every business has from its creation (and the migration gave the ones before). */
export const DEFAULT_SUCURSAL = 'Casa central';
export const DEFAULT_DEPOSITO = 'Depósito principal';

export const DEPOSITO_MESSAGES = {
  notFound: 'Depósito no encontrado.',
  notInBusiness: 'Depósito no encontrado en este negocio.',
  sucursalNotFound: 'Sucursal no encontrada.',
  sucursalNotInBusiness: 'Sucursal no encontrada en este negocio.',
  sucursalRepetida: (nombre: string) => `Ya existe una sucursal llamada ${nombre}.`,
  depositoRepetido: (nombre: string) => `Ya existe un depósito llamado ${nombre}.`,
  sucursalPrincipal: 'La sucursal principal no se elimina.',
  depositoPrincipal: 'El depósito principal no se elimina.',
  sucursalConCajas: (n: number) =>
    `La sucursal tiene ${n === 1 ? 'una caja' : `${n} cajas`}: pasalas a otra sucursal antes de eliminarla.`,
  sucursalConDepositos:
    'La sucursal tiene depósitos con stock o transferencias: vaciá sus depósitos antes de eliminarla.',
  depositoConStock: 'El depósito tiene stock: transferilo a otro depósito antes de eliminarlo.',
  depositoConMovimientos: 'El depósito tiene movimientos o transferencias registrados: no se puede eliminar.',
  transferenciaNotFound: 'Transferencia no encontrada.',
  mismoDeposito: 'Elegí un depósito de destino distinto del de origen.',
  productoRepetido: 'Un producto aparece dos veces: sumá las cantidades en una línea.',
  productoNoControla: (nombre: string) => `${nombre} no controla stock: no se transfiere.`,
  sinStock: (nombre: string, disponible: string) =>
    `No hay stock suficiente de ${nombre} en el depósito de origen (disponible: ${disponible}).`,
  yaRecibida: 'La transferencia ya fue recibida.',
  itemNoEnTransferencia: 'El producto no está en la transferencia.',
  recibidaDeMas: 'No podés recibir más de lo que se envió.',
  creada: 'Transferencia enviada.',
  recibida: 'Transferencia recibida.',
} as const;

export const TRANSFERENCIA_ESTADOS = ['en_transito', 'recibida'] as const;
export type TransferenciaEstado = (typeof TRANSFERENCIA_ESTADOS)[number];
export const TRANSFERENCIA_ESTADO_LABELS: Record<TransferenciaEstado, string> = {
  en_transito: 'En tránsito',
  recibida: 'Recibida',
};
export const TRANSFERENCIA_MAX_ITEMS = 500;

/* ---------------------------------------------------------------- sucursales y depósitos */

export const sucursalInput = z.object({ nombre: reqText(80), direccion: optText(200) });
export type SucursalInput = z.input<typeof sucursalInput>;
export const sucursalUpdate = sucursalInput.partial();

export const depositoInput = z.object({ nombre: reqText(80), sucursal_id: uuid() });
export type DepositoInput = z.input<typeof depositoInput>;

export const depositoSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  sucursal_id: z.string(),
  sucursal_nombre: z.string(),
  principal: z.boolean(),
});
export type Deposito = z.infer<typeof depositoSchema>;

export const sucursalSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  direccion: z.string().nullable(),
  principal: z.boolean(),
  /** Its depósitos, oldest first: the first is the one its cajas sell from. */
  depositos: z.array(z.object({ id: z.string(), nombre: z.string(), principal: z.boolean() })),
  cajas: z.array(z.object({ id: z.string(), nombre: z.string() })),
});
export type Sucursal = z.infer<typeof sucursalSchema>;

/** A product's stock in each depósito of the business (the principal first). */
export const productStockSchema = z.array(
  z.object({ deposito_id: z.string(), deposito_nombre: z.string(), sucursal_id: z.string(), stock: z.number() }),
);
export type ProductStock = z.infer<typeof productStockSchema>;

/* ---------------------------------------------------------------- transferencias */

export const transferenciaInput = z.object({
  origen_id: uuid(),
  destino_id: uuid(),
  observaciones: optText(500),
  items: z
    .array(z.object({ producto_id: uuid(), cantidad: quantity({ nonZero: true, nonNegative: true }) }))
    .min(1, 'Agregá al menos un producto.')
    .max(TRANSFERENCIA_MAX_ITEMS),
});
export type TransferenciaInput = z.input<typeof transferenciaInput>;
export type TransferenciaOutput = z.output<typeof transferenciaInput>;

export const transferenciaRecibirInput = z.object({
  items: z
    .array(z.object({ producto_id: uuid(), cantidad_recibida: quantity({ nonNegative: true }) }))
    .max(TRANSFERENCIA_MAX_ITEMS),
});
export type TransferenciaRecibirInput = z.input<typeof transferenciaRecibirInput>;
export type TransferenciaRecibirOutput = z.output<typeof transferenciaRecibirInput>;

export const transferenciaItemSchema = z.object({
  producto_id: z.string(),
  nombre: z.string(),
  cantidad: z.number(),
  cantidad_recibida: z.number().nullable(),
  /** Sent less received (null until it is received). */
  diferencia: z.number().nullable(),
});

export const transferenciaSchema = z.object({
  id: z.string(),
  numero: z.number(),
  origen_id: z.string(),
  origen_nombre: z.string(),
  destino_id: z.string(),
  destino_nombre: z.string(),
  estado: z.enum(TRANSFERENCIA_ESTADOS),
  observaciones: z.string().nullable(),
  creado_en: z.string(),
  creado_por_nombre: z.string().nullable(),
  recibido_en: z.string().nullable(),
  recibido_por_nombre: z.string().nullable(),
  items: z.array(transferenciaItemSchema),
});
export type Transferencia = z.infer<typeof transferenciaSchema>;

export const transferenciaListQuery = z.object({
  estado: z.enum(TRANSFERENCIA_ESTADOS).optional(),
});
