import { z } from 'zod';
import type { ContenidoUnidad } from './catalog.js';
import { queryInt, queryParam } from './customers.js';
import { RATE_MILLI, type IvaRate } from './facturacion.js';
import { PRECIO_ORIGENES } from './precios.js';
import { ean13CheckDigit, isValidEan13 } from './scale.js';

/*
 * Shelf and barcode labels (issue 35, decision 0054), printed as A4 sheets (PDF).
 *
 * - Góndola: the final price, and in smaller characters the price per unit of measure and the
 *   price without national taxes, as Resolución 4/2025 of the Secretaría de Industria y Comercio
 *   (in force since 1 April 2025, replacing Res. 7/2002) requires of prices shown to consumers.
 * - Código: a barcode label. Products without an EAN get an internal EAN-13 under GS1 prefix 04
 *   ("company internal numbering", RCN-13), which no scale label (prefixes 20–29) can ever take.
 */

export const ETIQUETA_PLANTILLAS = ['gondola', 'codigo'] as const;
export type EtiquetaPlantilla = (typeof ETIQUETA_PLANTILLAS)[number];
export const ETIQUETA_PLANTILLA_LABELS: Record<EtiquetaPlantilla, string> = {
  gondola: 'Góndola (precio y precio por unidad de medida), 24 por hoja',
  codigo: 'Código de barras, 40 por hoja',
};
/** Labels on one A4 sheet, per template. */
export const ETIQUETAS_POR_HOJA: Record<EtiquetaPlantilla, { columnas: number; filas: number }> = {
  gondola: { columnas: 3, filas: 8 },
  codigo: { columnas: 4, filas: 10 },
};
/** At most this many labels in one PDF (copies included). */
export const ETIQUETAS_MAX = 2400;

const uuid = z.uuid({ error: 'Identificador no válido.' });
const idList = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(uuid, { error: 'Debe ser una lista de identificadores separados por coma.' }).max(1000, {
    error: 'Elegí como máximo 1000 productos.',
  }),
);

/**
 * `GET …/etiquetas`: which products (by selection, by category, or the ones whose price changed —
 * by origin, by the change's reference such as an applied supplier list or a cotización, since a
 * moment) and which template.
 */
const etiquetasCriterios = z.object({
    plantilla: queryParam(z.enum(ETIQUETA_PLANTILLAS, { error: 'Elegí la plantilla: gondola o codigo.' })),
    productos: queryParam(idList),
    categoria_id: queryParam(uuid),
    /** Products whose sale price changed by this origin (lista_proveedor, cotizacion, masivo, …). */
    origen: queryParam(z.enum(PRECIO_ORIGENES, { error: 'Origen de cambio de precio no válido.' })),
    /** …by this change: an applied supplier list, a cotización. */
    referencia_id: queryParam(uuid),
    /** …since this moment (ISO date or date-time). */
    desde: queryParam(
      z.iso.datetime({ offset: true, error: 'Fecha no válida.' }).or(z.iso.date({ error: 'Fecha no válida.' })),
    ),
    copias: queryParam(
      queryInt().pipe(
        z.number().int().min(1, { error: 'Entre 1 y 50 copias.' }).max(50, { error: 'Entre 1 y 50 copias.' }),
      ),
    ),
});
const algunCriterio = (q: z.output<typeof etiquetasCriterios>) =>
  Boolean(q.productos || q.categoria_id || q.origen || q.referencia_id || q.desde);
const SIN_CRITERIO = {
  error: 'Elegí productos, una categoría o qué cambio de precios etiquetar.',
  path: ['productos'],
};
export const etiquetasQuery = etiquetasCriterios.refine(algunCriterio, SIN_CRITERIO);
export type EtiquetasQuery = z.output<typeof etiquetasQuery>;

/**
 * `POST …/etiquetas/imprimir`: the same labels sent to a caja's label printer (ZPL) instead of a
 * PDF; `productos` may be a list.
 */
export const etiquetasImprimirInput = etiquetasCriterios
  .extend({ caja_id: z.uuid({ error: 'Elegí la caja de la impresora de etiquetas.' }) })
  .refine(algunCriterio, SIN_CRITERIO);
export type EtiquetasImprimirInput = z.input<typeof etiquetasImprimirInput>;
export const etiquetasImpresionSchema = z.object({
  impreso: z.literal(true),
  /** Labels printed, copies included. */
  etiquetas: z.number(),
  /** Formats sent (one per product, its copies in ^PQ). */
  productos: z.number(),
  lenguaje: z.literal('zpl'),
});
export type EtiquetasImpresion = z.infer<typeof etiquetasImpresionSchema>;

export const codigosInternosInput = z.object({
  producto_ids: z
    .array(uuid, { error: 'Debe ser una lista.' })
    .min(1, { error: 'Elegí al menos un producto.' })
    .max(1000, { error: 'Elegí como máximo 1000 productos.' }),
});
export type CodigosInternosInput = z.input<typeof codigosInternosInput>;
export const codigosInternosSchema = z.object({
  asignados: z.array(z.object({ producto_id: z.string(), nombre: z.string(), codigo_barras: z.string() })),
});

export const ETIQUETA_MESSAGES = {
  ninguno: 'No hay productos para etiquetar con esa selección.',
  demasiadas: `Son demasiadas etiquetas para un PDF: como máximo ${ETIQUETAS_MAX}.`,
  sinImpresora:
    'Esta caja no tiene impresora de etiquetas: configurala en Caja › Editar caja, o descargá el PDF para imprimir en hojas A4.',
} as const;

/* ---------------------------------------------------------------- internal codes */

/** GS1 prefix 04: company internal numbering (RCN-13). */
export const PREFIJO_INTERNO = '04';

/** The internal EAN-13 of item number `n` (1 … 9 999 999 999). */
export function codigoInterno(n: number): string {
  const first12 = PREFIJO_INTERNO + String(n).padStart(10, '0');
  return first12 + ean13CheckDigit(first12);
}

export const esCodigoInterno = (code: string) => isValidEan13(code) && code.startsWith(PREFIJO_INTERNO);

/* ---------------------------------------------------------------- prices on the label */

const halfUp = (num: bigint, den: bigint) => (num * 2n + den) / (2n * den);

/** The unit the price per unit of measure is given in, and how many content units make one. */
const MEDIDA: Record<ContenidoUnidad, { unidad: string; factor: bigint }> = {
  g: { unidad: 'kg', factor: 1000n },
  kg: { unidad: 'kg', factor: 1n },
  ml: { unidad: 'litro', factor: 1000n },
  l: { unidad: 'litro', factor: 1n },
  cm: { unidad: 'metro', factor: 100n },
  m: { unidad: 'metro', factor: 1n },
  m2: { unidad: 'm²', factor: 1n },
  m3: { unidad: 'm³', factor: 1n },
  u: { unidad: 'unidad', factor: 1n },
};

/** Products sold by measure already have their price per unit of measure (their `unidad`). */
const POR_MEDIDA: Record<string, string> = {
  kg: 'kg',
  kilo: 'kg',
  litro: 'litro',
  l: 'litro',
  lt: 'litro',
  metro: 'metro',
  m: 'metro',
};

/**
 * The price per unit of measure in cents ("$ 3.200 por kg" of 500 g at $ 1.600), half up; null
 * when the product says neither its content nor a unit of measure it is sold by.
 */
export function precioPorUnidad(p: {
  precio: number;
  contenido: number | null;
  contenido_unidad: ContenidoUnidad | null;
  unidad: string;
}): { unidad: string; precio: number } | null {
  if (p.contenido && p.contenido_unidad) {
    const m = MEDIDA[p.contenido_unidad];
    const milli = BigInt(Math.round(p.contenido * 1000));
    return { unidad: m.unidad, precio: Number(halfUp(BigInt(p.precio) * m.factor * 1000n, milli)) };
  }
  const u = POR_MEDIDA[p.unidad.trim().toLowerCase()];
  return u ? { unidad: u, precio: p.precio } : null;
}

/** A final price (cents, IVA included) without its IVA, half up: "PRECIO SIN IMPUESTOS NACIONALES". */
export function precioSinIva(precio: number, iva: IvaRate): number {
  const milli = iva === 'exento' || iva === 'no_gravado' ? 0n : RATE_MILLI[iva];
  return Number(halfUp(BigInt(precio) * 1000n, 1000n + milli));
}
