import { z } from 'zod';
import { productSchema, quantity } from './catalog.js';
import { pageQuery } from './customers.js';
import { money, parseCents } from './money.js';
import { isoDate, queryBool, reqText, uuid } from './validation.js';

/*
 * Prices (issue 17, decision 0017): each product's price history, and price lists beside the
 * product's own price. The price a list gives is decided here, once, for the server (record-sale,
 * product lists, exports) and the POS alike. Money is integer cents, quantities thousandths,
 * percentages hundredths of a percent.
 */

/* ---------------------------------------------------------------- price history */

/** Why a price changed: `alta` is the product's first price. */
export const PRECIO_ORIGENES = [
  'alta',
  'manual',
  'masivo',
  'importacion',
  'lista_proveedor',
  'compra',
  'cotizacion',
] as const;
export type PrecioOrigen = (typeof PRECIO_ORIGENES)[number];

export const PRECIO_ORIGEN_LABELS: Record<PrecioOrigen, string> = {
  alta: 'Alta del producto',
  manual: 'Edición',
  masivo: 'Actualización masiva',
  importacion: 'Importación',
  lista_proveedor: 'Lista de proveedor',
  compra: 'Compra',
  cotizacion: 'Cotización del dólar',
};

export const precioHistorialQuery = z.object({ ...pageQuery(50, 500) });

export type PrecioHistorial = z.infer<typeof precioHistorialSchema>;

/** One change; the cost fields are removed for a member without `ver_costos` (decision 0005). */
export const precioHistorialSchema = z.object({
  id: z.string(),
  fecha: z.string(),
  origen: z.enum(PRECIO_ORIGENES),
  precio_anterior: z.number().nullable(),
  precio_nuevo: z.number().nullable(),
  costo_anterior: z.number().nullable().optional(),
  costo_nuevo: z.number().nullable().optional(),
  referencia_id: z.string().nullable(),
  usuario: z.object({ id: z.string(), nombre: z.string() }).nullable(),
});

/* ---------------------------------------------------------------- price lists */

export const LISTA_TIPOS = ['porcentaje', 'fija'] as const;
export type ListaTipo = (typeof LISTA_TIPOS)[number];

/** The product's own price: the default list, with no row of its own (id null). */
export const LISTA_MINORISTA_NOMBRE = 'Minorista';

export const LISTA_MESSAGES = {
  notFound: 'Lista de precios no encontrada.',
  duplicate: (nombre: string) => `Ya existe una lista de precios llamada «${nombre}».`,
  reservedName: 'Minorista es la lista del precio de cada producto: elegí otro nombre.',
  cycle: 'Una lista no puede calcularse sobre sí misma.',
  inUse: 'Otra lista se calcula sobre esta: cambiala o eliminala primero.',
  percentRequired: 'Indicá el porcentaje sobre la lista base.',
  percentRange: 'Debe ser mayor a -100 y menor o igual a 1000.',
  fixedOnly: 'Solo las listas de precio fijo tienen precios por producto.',
  productNotInBusiness: 'El producto no pertenece al negocio.',
  changeForbidden: 'No tenés permiso para vender con otra lista de precios que la del cliente.',
} as const;

/** A percentage with at most 2 decimals → hundredths of a percent (−10.5 → −1050). */
export const percent = () =>
  z.unknown().transform((v, ctx) => {
    const h = parseCents(v);
    if (h === null) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser un número con hasta 2 decimales.' });
      return z.NEVER;
    }
    if (h <= -10_000 || h > 100_000) {
      ctx.addIssue({ code: 'custom', message: LISTA_MESSAGES.percentRange });
      return z.NEVER;
    }
    return h;
  });

const optQuantity = () =>
  z
    .unknown()
    .transform((v, ctx): number | null | undefined => {
      if (v === undefined) return undefined;
      if (v === null || v === '') return null;
      const r = quantity({ nonZero: true, nonNegative: true }).safeParse(v);
      if (!r.success) {
        for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message });
        return z.NEVER;
      }
      return r.data;
    })
    .optional();

const listaFields = {
  nombre: reqText(80),
  tipo: z.enum(LISTA_TIPOS, { error: 'Elegí porcentaje o precio fijo.' }),
  /** Null or absent: on the product's own price (Minorista). */
  base_lista_id: z.preprocess((v) => (v === '' ? null : v), uuid().nullable().optional()),
  porcentaje: percent().nullable().optional(),
  cantidad_minima: optQuantity(),
  activo: z.boolean().optional(),
};

export const listaPreciosInput = z.object(listaFields).superRefine((v, ctx) => {
  if (v.tipo === 'porcentaje' && (v.porcentaje === undefined || v.porcentaje === null)) {
    ctx.addIssue({ code: 'custom', path: ['porcentaje'], message: LISTA_MESSAGES.percentRequired });
  }
});
export type ListaPreciosInput = z.input<typeof listaPreciosInput>;
export type ListaPreciosOutput = z.output<typeof listaPreciosInput>;

export const listaPreciosUpdate = z.object({
  nombre: listaFields.nombre.optional(),
  tipo: listaFields.tipo.optional(),
  base_lista_id: listaFields.base_lista_id,
  porcentaje: listaFields.porcentaje,
  cantidad_minima: listaFields.cantidad_minima,
  activo: listaFields.activo,
});
export type ListaPreciosUpdate = z.output<typeof listaPreciosUpdate>;

export type ListaPrecios = z.infer<typeof listaPreciosSchema>;

export const listaPreciosSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  tipo: z.enum(LISTA_TIPOS),
  base_lista_id: z.string().nullable(),
  /** Over (+) or under (−) the base list, in percent. */
  porcentaje: z.number().nullable(),
  cantidad_minima: z.number().nullable(),
  activo: z.boolean(),
  /** How many products have a fixed price in it. */
  productos_con_precio: z.number(),
  /** How many customers have it as their default. */
  clientes: z.number(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

export const precioFijoInput = z.object({
  producto_id: uuid(),
  /** Null removes the product's fixed price from the list. */
  precio: money().nullable(),
  cantidad_minima: optQuantity(),
});

export const preciosFijosInput = z.object({
  precios: z.array(precioFijoInput).min(1, 'Indicá al menos un precio.').max(5000, 'Como máximo 5000 precios por vez.'),
});
export type PreciosFijosOutput = z.output<typeof preciosFijosInput>;

export const precioFijoSchema = z.object({
  producto_id: z.string(),
  producto_nombre: z.string(),
  precio: z.number(),
  cantidad_minima: z.number().nullable(),
});
export type PrecioFijo = z.infer<typeof precioFijoSchema>;

export const preciosFijosResultSchema = z.object({
  actualizados: z.number(),
  eliminados: z.number(),
});

/** A product's price in each list (products list and export, the POS). */
export const precioEnListaSchema = z.object({
  lista_id: z.string(),
  nombre: z.string(),
  precio: z.number(),
  cantidad_minima: z.number().nullable(),
});
export type PrecioEnLista = z.infer<typeof precioEnListaSchema>;

/* ---------------------------------------------------------------- resolution (pure) */

/** A list as the rules need it: percentage in hundredths, minimum quantity in thousandths. */
export interface ListaRegla {
  id: string;
  tipo: ListaTipo;
  baseListaId: string | null;
  porcentaje: number | null;
  cantidadMinima: number | null;
  activo?: boolean;
}

/** A product's fixed price in a list: cents, and thousandths. */
export interface PrecioFijoRegla {
  precio: number;
  cantidadMinima: number | null;
}

/** cents × (1 + hundredths / 10 000), rounded half away from zero to the cent, exactly (BigInt). */
export function applyPercent(cents: number, hundredths: number): number {
  const num = BigInt(cents) * BigInt(10_000 + hundredths);
  const q = num / 10_000n;
  const r = num % 10_000n;
  return Number(r * 2n >= 10_000n ? q + 1n : q);
}

/** The deepest chain of lists a price may follow (a longer one is refused on writing). */
export const MAX_LISTA_DEPTH = 8;

/**
 * The unit price (cents) of a product in list `listaId` for `cantidad` thousandths:
 * - null (Minorista), or an unknown or inactive list: the product's own price;
 * - below the list's minimum quantity: the price of its base list;
 * - a fixed-price list: the product's fixed price when it has one (and the quantity reaches its
 *   minimum), otherwise the price of its base list;
 * - a percentage list: the base list's price plus or minus the percentage, to the cent.
 */
export function precioDeLista(opts: {
  precioBase: number;
  listaId: string | null;
  cantidad: number;
  listas: ReadonlyMap<string, ListaRegla>;
  fijo: (listaId: string) => PrecioFijoRegla | undefined;
}): number {
  const resolve = (id: string | null, depth: number): number => {
    const lista = id === null ? undefined : opts.listas.get(id);
    if (!lista || lista.activo === false || depth > MAX_LISTA_DEPTH) return opts.precioBase;
    const base = () => resolve(lista.baseListaId, depth + 1);
    if (lista.cantidadMinima !== null && opts.cantidad < lista.cantidadMinima) return base();
    if (lista.tipo === 'fija') {
      const f = opts.fijo(lista.id);
      if (!f || (f.cantidadMinima !== null && opts.cantidad < f.cantidadMinima)) return base();
      return f.precio;
    }
    return applyPercent(base(), lista.porcentaje ?? 0);
  };
  return resolve(opts.listaId, 0);
}

/** Whether making `baseId` the base of `id` would close a loop (or pass the depth limit). */
export function formaCiclo(listas: ReadonlyMap<string, ListaRegla>, id: string, baseId: string | null): boolean {
  let cur = baseId;
  for (let depth = 0; cur !== null; depth++) {
    if (cur === id || depth >= MAX_LISTA_DEPTH) return true;
    cur = listas.get(cur)?.baseListaId ?? null;
  }
  return false;
}

/**
 * The list a sale uses: the one asked for, when given (undefined: not given), else the
 * customer's default, else Minorista (null). `override` says whether it differs from the default,
 * which only a member who may change prices may do.
 */
export function listaDeVenta(pedida: string | null | undefined, delCliente: string | null) {
  const lista = pedida === undefined ? delCliente : pedida;
  return { lista, override: lista !== delCliente };
}

/** A product as the products list answers it: with each active list's price when the business has lists. */
export const productConListasSchema = productSchema.extend({
  precios_listas: z.array(precioEnListaSchema).optional(),
});
export type ProductConListas = z.infer<typeof productConListasSchema>;

/* ---------------------------------------------------------------- dollars */

export const MONEDAS = ['ARS', 'USD'] as const;
export type Moneda = (typeof MONEDAS)[number];
export const REDONDEOS = [1, 10, 100] as const;

export const COTIZACION_MESSAGES = {
  required: 'Cargá la cotización del dólar antes de poner precios en dólares.',
  usdRequired: 'Indicá el precio en dólares.',
  future: 'La cotización no puede tener una fecha futura.',
  valor: 'Debe ser mayor a 0, con hasta 4 decimales.',
} as const;

/** A cotización: pesos per dollar with up to 4 decimals → ten-thousandths. */
export const cotizacionValor = () =>
  z.unknown().transform((v, ctx) => {
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
    const m = /^(\d+)(?:\.(\d{1,4}))?$/.exec(s);
    const n = m ? Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0')) : 0;
    if (!m || n <= 0 || n > 99_999_999_999_999) {
      ctx.addIssue({ code: 'custom', message: COTIZACION_MESSAGES.valor });
      return z.NEVER;
    }
    return n;
  });

export const cotizacionInput = z.object({
  fecha: isoDate(),
  valor: cotizacionValor(),
});
export type CotizacionOutput = z.output<typeof cotizacionInput>;

export const cotizacionQuery = z.object({ preview: queryBool().optional(), ...pageQuery(50, 500) });

export const cotizacionSchema = z.object({
  id: z.string(),
  fecha: z.string(),
  valor: z.number(),
  productos_actualizados: z.number(),
  usuario: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  creado_en: z.string(),
});
export type Cotizacion = z.infer<typeof cotizacionSchema>;

/** What a new cotización changes (the preview) or changed (applied). */
export const cotizacionResultSchema = z.object({
  preview: z.boolean(),
  cotizacion: cotizacionSchema.nullable(),
  /** The cotización in force before. */
  anterior: z.number().nullable(),
  productos_afectados: z.number(),
  /** Sum of new − old ARS prices of the products that change. */
  diferencia_total: z.number(),
  cambios: z.array(
    z.object({
      id: z.string(),
      nombre: z.string(),
      precio_usd: z.number(),
      precio_anterior: z.number(),
      precio_nuevo: z.number(),
    }),
  ),
});
export type CotizacionResult = z.infer<typeof cotizacionResultSchema>;

/**
 * A USD price in pesos: usd × cotización, rounded half up to `redondeo` pesos (1, 10, 100), never
 * to 0 for a price above 0 (then to the cent). Exact: cents × ten-thousandths in BigInt.
 */
export function arsDeUsd(usdCents: number, valor: number, redondeo: number): number {
  const exact = BigInt(usdCents) * BigInt(valor); // cents × 10⁴
  const unit = BigInt(redondeo) * 100n * 10_000n;
  const roundTo = (u: bigint) => ((exact * 2n + u) / (2n * u)) * u;
  const r = roundTo(unit);
  return Number((r === 0n && exact > 0n ? roundTo(10_000n) : r) / 10_000n);
}

/* ---------------------------------------------------------------- supplier lists */

/** How a supplier's list finds the products: the supplier's own code, the barcode or the internal code. */
export const LISTA_PROVEEDOR_CLAVES = ['codigo_proveedor', 'codigo_barras', 'codigo'] as const;
export type ListaProveedorClave = (typeof LISTA_PROVEEDOR_CLAVES)[number];

export const LISTA_PROVEEDOR_MESSAGES = {
  clave: 'Elegí con qué columna se buscan los productos: código del proveedor, código de barras o código interno.',
  sinProveedor: 'Para buscar por el código del proveedor, elegí el proveedor.',
  proveedorNoEncontrado: 'Proveedor no encontrado.',
  filaEncabezado: 'La fila de títulos debe ser un número de fila del archivo (1 o más).',
  sinClave: (col: string) => `La lista no tiene la columna «${col}» con la que elegiste buscar los productos.`,
  sinPrecios: 'La lista no tiene costo ni precio de venta: no hay nada que actualizar.',
  deshecha: 'Esta actualización ya se deshizo.',
  vendida: 'No se puede deshacer: ya se vendió con los precios nuevos.',
  noEncontrada: 'Actualización no encontrada.',
  margen: 'El margen debe ser un porcentaje entre -99,99 y 1000, con hasta 2 decimales.',
  noBajarPrecios: '«No bajar precios» debe ser true o false.',
} as const;

/** What set a new price (see `cambioListaProveedorSchema.regla`). */
export const MARGEN_ORIGENES = ['precio', 'producto', 'categoria', 'proveedor', 'lista', 'actual'] as const;
export type MargenOrigen = (typeof MARGEN_ORIGENES)[number];

export const columnaArchivoSchema = z.object({
  columna: z.string(),
  campo: z.string().nullable(),
  muestras: z.array(z.string()),
});
export type ColumnaArchivo = z.infer<typeof columnaArchivoSchema>;

/** A row of a supplier's list that matched no product: its row number, key, description and cost (pesos). */
export const filaSinCoincidenciaSchema = z.object({
  fila: z.number(),
  codigo: z.string(),
  descripcion: z.string().nullable(),
  /** Left out for a member without ver_costos. */
  costo: z.number().nullable().optional(),
});
export type FilaSinCoincidencia = z.infer<typeof filaSinCoincidenciaSchema>;

/** One product's change from a supplier's list (money in pesos, margin in % over the cost). */
export const cambioListaProveedorSchema = z.object({
  producto_id: z.string(),
  nombre: z.string(),
  fila: z.number(),
  costo_anterior: z.number().nullable().optional(),
  costo_nuevo: z.number().nullable().optional(),
  precio_anterior: z.number(),
  precio_nuevo: z.number(),
  /** Left out for a member without ver_costos (a margin over the cost reveals the cost). */
  margen: z.number().nullable().optional(),
  /**
   * What set the new price: the list's price column, a stored margin rule (of the product, its
   * category or the supplier), the margin typed for the list, or the product's current margin;
   * null when the cost did not change.
   */
  regla: z.enum(MARGEN_ORIGENES).nullable().optional(),
  /**
   * The list lowers this product's sale price (the price it computed is below the current one).
   * With `no_bajar_precios` the product keeps its price: `precio_nuevo` is then `precio_anterior`.
   * Absent in lists applied before it existed.
   */
  baja: z.boolean().optional(),
  /** The sale price the list computed, before «No bajar precios» (equal to `precio_nuevo` otherwise). */
  precio_calculado: z.number().optional(),
});
/** Stored and computed with its costs (the answer drops them for a member without ver_costos). */
export type CambioListaProveedor = z.infer<typeof cambioListaProveedorSchema> & {
  costo_anterior: number | null;
  costo_nuevo: number | null;
  margen: number | null;
};

export const listaProveedorResultSchema = z.object({
  aplicada: z.boolean(),
  id: z.string().nullable(),
  filas: z.number(),
  productos_afectados: z.number(),
  excluidos: z.number(),
  /** Rows whose key matched no product (row numbers, at most 200). */
  sin_coincidencia: z.array(z.number()),
  sin_coincidencia_total: z.number(),
  columnas: z.array(z.string()),
  /** The header row (1-based row of the sheet), found or chosen. */
  fila_encabezado: z.number(),
  /** Every column of the header row, how it is read, and its first values (for the column step). */
  columnas_archivo: z.array(columnaArchivoSchema),
  /** Supplier codes learnt (key "Código del proveedor": rows found by their barcode). */
  codigos_aprendidos: z.number(),
  cambios: z.array(cambioListaProveedorSchema),
  /** How many of the changes lower a sale price (or would, kept by `no_bajar_precios`). */
  bajas: z.number(),
  /** Whether the list was read with «No bajar precios»: a product whose price would go down keeps it. */
  no_bajar_precios: z.boolean(),
  /** The rows whose key matched no product, as the file has them (the first 200). */
  filas_sin_coincidencia: z.array(filaSinCoincidenciaSchema),
});
export type ListaProveedorResult = z.infer<typeof listaProveedorResultSchema>;

export const listaProveedorAplicadaSchema = z.object({
  id: z.string(),
  archivo: z.string(),
  clave: z.enum(LISTA_PROVEEDOR_CLAVES),
  proveedor_id: z.string().nullable(),
  /** The margin typed for the list; left out for a member without ver_costos. */
  margen: z.number().nullable().optional(),
  productos: z.number(),
  fecha: z.string(),
  deshecha_en: z.string().nullable(),
  usuario: z.object({ id: z.string(), nombre: z.string() }).nullable(),
});
export type ListaProveedorAplicada = z.infer<typeof listaProveedorAplicadaSchema>;

/**
 * The new sale price when a cost changes (cents): with a margin rule (hundredths of % over the
 * cost) the cost plus it; without one, the product keeps its margin (price × new ÷ old cost),
 * and a product without a cost keeps its price. Half up to the cent, exactly.
 */
export function precioPorMargen(
  precio: number,
  costoAnterior: number | null,
  costoNuevo: number,
  margen: number | null,
): number {
  if (margen !== null) return applyPercent(costoNuevo, margen);
  if (costoAnterior === null || costoAnterior === 0) return precio;
  const num = BigInt(precio) * BigInt(costoNuevo);
  const den = BigInt(costoAnterior);
  return Number((num * 2n + den) / (2n * den));
}

/** The margin over the cost in % (2 decimals), or null without a cost. */
export function margenSobreCosto(precio: number, costo: number | null): number | null {
  if (costo === null || costo === 0) return null;
  return Math.round(((precio - costo) * 10_000) / costo) / 100;
}

/* ---------------------------------------------------------------- margin rules */

/** The level of a stored margin rule; the most specific one wins (product > category > supplier). */
export const REGLA_MARGEN_NIVELES = ['producto', 'categoria', 'proveedor'] as const;
export type ReglaMargenNivel = (typeof REGLA_MARGEN_NIVELES)[number];

export const REGLA_MARGEN_MESSAGES = {
  noEncontrada: 'Regla de margen no encontrada.',
  uno: 'Elegí un producto, una categoría o un proveedor (uno solo).',
  productoNoEncontrado: 'Producto no encontrado.',
  categoriaNoEncontrada: 'Categoría no encontrada.',
  proveedorNoEncontrado: 'Proveedor no encontrado.',
  margenRango: 'El margen debe ser mayor a -100 % y de hasta 1000 %.',
  sinCostos: 'Para ver o cambiar márgenes necesitás permiso para ver costos.',
} as const;

/** Sets (creates or replaces) the margin of one product, category or supplier. */
export const reglaMargenInput = z
  .object({
    producto_id: uuid().nullable().optional(),
    categoria_id: uuid().nullable().optional(),
    proveedor_id: uuid().nullable().optional(),
    /** % over the cost, up to 2 decimals (hundredths once parsed). */
    margen: percent(),
  })
  .superRefine((v, ctx) => {
    const n = [v.producto_id, v.categoria_id, v.proveedor_id].filter(Boolean).length;
    if (n !== 1) ctx.addIssue({ code: 'custom', path: ['producto_id'], message: REGLA_MARGEN_MESSAGES.uno });
  });
export type ReglaMargenInput = z.input<typeof reglaMargenInput>;

export const reglaMargenSchema = z.object({
  id: z.string(),
  nivel: z.enum(REGLA_MARGEN_NIVELES),
  producto_id: z.string().nullable(),
  categoria_id: z.string().nullable(),
  proveedor_id: z.string().nullable(),
  /** The product's, category's or supplier's name. */
  nombre: z.string(),
  /** Optional as every cost field (lib/costs.ts), though only members who see costs read rules. */
  margen: z.number().optional(),
  actualizado_en: z.string(),
});
export type ReglaMargen = z.infer<typeof reglaMargenSchema>;

/* ---------------------------------------------------------------- supplier codes */

export const CODIGO_PROVEEDOR_MESSAGES = {
  duplicado: (codigo: string, producto: string) =>
    `El código ${codigo} de este proveedor ya es de otro producto: ${producto}.`,
  repetido: (codigo: string) => `El código ${codigo} está repetido para el mismo proveedor.`,
  proveedorNoEncontrado: 'Proveedor no encontrado.',
} as const;

/** A product's codes at its suppliers (the whole list replaces the stored one). */
export const codigosProveedorInput = z.object({
  codigos: z
    .array(z.object({ proveedor_id: uuid(), codigo: reqText(50) }))
    .max(50, 'Como máximo 50 códigos de proveedor por producto.'),
});
export type CodigosProveedorInput = z.input<typeof codigosProveedorInput>;

export const codigoProveedorSchema = z.object({
  proveedor_id: z.string(),
  proveedor_nombre: z.string(),
  codigo: z.string(),
});
export type CodigoProveedor = z.infer<typeof codigoProveedorSchema>;
