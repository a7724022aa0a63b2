import { z } from 'zod';
import { pageQuery, queryFlag, queryParam, oneOfCi } from './customers.js';
import { IVA_RATES, ivaRateInput, type IvaRate } from './facturacion.js';
import { money, optMoney } from './money.js';
import { optText, reqText } from './validation.js';

/*
 * The catalogue (API-CONTRACT §4.1, §5, §7, §14.2): product categories, products, stock, and
 * services. Quantities are exact: inputs become integer thousandths, like money becomes cents.
 */

/* ---------------------------------------------------------------- quantities */

export const MAX_QUANTITY_MILLI = 99_999_999_999_999;

/** A quantity (number or numeric string, at most 3 decimals) as integer thousandths; null when not one. */
export function parseMilli(value: unknown): number | null {
  let s: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    s = String(value);
    if (/e/i.test(s)) return null;
  } else if (typeof value === 'string') {
    s = value.trim();
  } else return null;
  const m = /^([-+])?(\d+)(?:\.(\d{0,3}))?$/.exec(s);
  if (!m) return null;
  const milli = Number(m[2]) * 1000 + Number((m[3] ?? '').padEnd(3, '0'));
  return m[1] === '-' ? -milli : milli;
}

export const milliToNumber = (milli: number): number => Math.round(milli) / 1000;

/** "12.500" for SQL numeric parameters. */
export function milliToDecimal(milli: number): string {
  const neg = milli < 0;
  const abs = Math.abs(Math.round(milli));
  return `${neg ? '-' : ''}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, '0')}`;
}

const tooManyQtyDecimals = (v: unknown) =>
  (typeof v === 'number' || typeof v === 'string') && /^[-+]?\d+\.\d{4,}$/.test(String(v).trim());

/** Quantity input → integer thousandths. `nonNegative` requires ≥ 0; `nonZero` refuses 0 with `zeroMessage`. */
export const quantity = (opts: { nonNegative?: boolean; nonZero?: boolean; zeroMessage?: string } = {}) =>
  z.unknown().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') {
      ctx.addIssue({ code: 'custom', message: 'Este campo es obligatorio.' });
      return z.NEVER;
    }
    if (tooManyQtyDecimals(v)) {
      ctx.addIssue({ code: 'custom', message: 'Admite como máximo 3 decimales.' });
      return z.NEVER;
    }
    const milli = parseMilli(v);
    if (milli === null) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser un número.' });
      return z.NEVER;
    }
    if (opts.nonNegative && milli < 0) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser mayor o igual a 0.' });
      return z.NEVER;
    }
    if (opts.nonZero && milli === 0) {
      ctx.addIssue({ code: 'custom', message: opts.zeroMessage ?? 'Debe ser distinto de 0.' });
      return z.NEVER;
    }
    if (Math.abs(milli) > MAX_QUANTITY_MILLI) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser menor o igual a 99999999999.999.' });
      return z.NEVER;
    }
    return milli;
  });

/** A non-negative quantity that may be left out (undefined) or cleared (`null`, `""`). */
export const optQuantity = () =>
  z
    .unknown()
    .transform((v, ctx): number | null | undefined => {
      if (v === undefined) return undefined;
      if (v === null || v === '') return null;
      const r = quantity({ nonNegative: true }).safeParse(v);
      if (!r.success) {
        for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message });
        return z.NEVER;
      }
      return r.data;
    })
    .optional();

export { optMoney };

/** Money required on create: absent and null say "obligatorio". */
export const reqMoney = () => money();

/** An optional id (`""` and null mean none). */
export const optId = () =>
  z.preprocess(
    (v) => (v === undefined ? undefined : v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
    z.uuid({ error: 'Identificador no válido.' }).nullable().optional(),
  );

const queryId = () => queryParam(z.uuid({ error: 'Identificador no válido.' }));

/** The query-string alias of a parameter (`search` for `q`, `category_id` for `categoria_id`). */
export function withAliases(aliases: Record<string, string>) {
  return (v: unknown) => {
    if (!v || typeof v !== 'object') return v;
    const o = { ...(v as Record<string, unknown>) };
    for (const [alias, name] of Object.entries(aliases)) {
      if ((o[name] === undefined || o[name] === '') && o[alias] !== undefined) o[name] = o[alias];
      delete o[alias];
    }
    return o;
  };
}

/* ---------------------------------------------------------------- categories (§5) */

export const CATEGORY_MESSAGES = {
  notFound: 'Categoría no encontrada.',
  notInBusiness: 'Categoría no encontrada en este negocio.',
  duplicate: 'Ya existe una categoría con ese nombre.',
  inUse: 'No se puede eliminar la categoría porque tiene productos o servicios asociados.',
} as const;

const categoryFields = {
  nombre: reqText(100),
  descripcion: optText(500),
  activo: z.boolean().optional(),
};

export const categoryInput = z.object(categoryFields);
export type CategoryInput = z.input<typeof categoryInput>;
export type CategoryOutput = z.output<typeof categoryInput>;

export const categoryUpdate = z.object({ ...categoryFields, nombre: categoryFields.nombre.optional() });
export type CategoryUpdate = z.output<typeof categoryUpdate>;

export const categoryListQuery = z.object({
  activo: queryFlag(),
  q: queryParam(z.string().max(200)),
});
export type CategoryListQuery = z.output<typeof categoryListQuery>;

export type Category = z.infer<typeof categorySchema>;

export const categorySchema = z.object({
  id: z.string(),
  nombre: z.string(),
  descripcion: z.string().nullable(),
  activo: z.boolean(),
  cantidad_productos: z.number(),
  cantidad_servicios: z.number(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

/* ---------------------------------------------------------------- products (§4.1) */

export const PRODUCT_LIST_DEFAULT_LIMIT = 1000;
export const PRODUCT_LIST_MAX_LIMIT = 5000;
/**
 * `relevancia` (with `q`, issue 33): exact code or barcode first, then the products holding every
 * token typed, then the rest, each by name (search-rank.ts); without `q`, by name.
 */
export const PRODUCT_SORTS = [
  'nombre',
  'codigo',
  'precio_venta',
  'stock_actual',
  'actualizado_en',
  'relevancia',
] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const PRODUCT_MESSAGES = {
  notFound: 'Producto no encontrado.',
  notInBusiness: 'Producto no encontrado en este negocio.',
  duplicateCode: (codigo: string) => `Ya existe un producto con el código ${codigo}.`,
  duplicateBarcode: (codigo: string) => `Ya existe un producto con el código de barras ${codigo}.`,
  inUse: 'El producto tiene ventas o compras registradas; desactivalo en lugar de eliminarlo.',
  stockNotEditable: 'El stock no se edita directamente: registrá un ajuste de stock.',
  zeroAdjustment: 'La cantidad debe ser distinta de 0.',
  negativeAdjustment: (producto: string) => `El ajuste dejaría el stock de ${producto} en negativo.`,
  untracked: (producto: string) =>
    `${producto} no controla stock: activá "Controlar stock" en el producto para ajustarlo.`,
  badPercentage: 'El porcentaje debe estar entre -90 y 1000 y ser distinto de 0.',
  priceTooHigh: (producto: string) => `El nuevo precio de ${producto} supera el máximo permitido.`,
  contenidoIncompleto: 'Indicá el contenido neto y su unidad juntos (por ejemplo 500 g), o ninguno de los dos.',
} as const;

export const UNIT_SUGGESTIONS = ['unidad', 'kg', 'g', 'litro', 'ml', 'metro', 'caja', 'paquete', 'docena'] as const;

/**
 * The unit of a product's net content (500 g, 1,5 l, 2 m, 12 u): what its shelf label's price
 * per unit of measure is computed from (issue 35, Res. SIC 4/2025).
 */
export const CONTENIDO_UNIDADES = ['g', 'kg', 'ml', 'l', 'cm', 'm', 'm2', 'm3', 'u'] as const;
export type ContenidoUnidad = (typeof CONTENIDO_UNIDADES)[number];
export const CONTENIDO_UNIDAD_LABELS: Record<ContenidoUnidad, string> = {
  g: 'g',
  kg: 'kg',
  ml: 'ml',
  l: 'l',
  cm: 'cm',
  m: 'm',
  m2: 'm²',
  m3: 'm³',
  u: 'unidades',
};
const MSG_CONTENIDO = 'El contenido neto es un número mayor a 0, con hasta 3 decimales.';
const contenido = () =>
  z
    .preprocess(
      (v) => (v === '' ? null : typeof v === 'string' ? Number(v.replace(',', '.')) : v),
      z
        .number({ error: MSG_CONTENIDO })
        .positive({ error: MSG_CONTENIDO })
        .max(999_999, { error: MSG_CONTENIDO })
        .refine((n) => Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, { error: MSG_CONTENIDO })
        .nullable(),
    )
    .optional();

const productFields = {
  nombre: reqText(150),
  descripcion: optText(1000),
  codigo: optText(50),
  codigo_barras: optText(50),
  precio_compra: optMoney(),
  precio_venta: reqMoney(),
  stock_actual: quantity({ nonNegative: true }).optional(),
  stock_minimo: quantity({ nonNegative: true }).optional(),
  /** False: the product's sales, purchases and voids change no stock (default true). */
  controla_stock: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional(),
  unidad: optText(20),
  categoria_id: optId(),
  activo: z.boolean().optional(),
  /** The IVA rate its price includes (issue 16); '21' when absent on create. */
  iva: ivaRateInput().optional(),
  /** USD: the price is `precio_usd`, and precio_venta follows the cotización (issue 17, precios.ts). */
  moneda: z.enum(['ARS', 'USD'], { error: 'Elegí pesos (ARS) o dólares (USD).' }).optional(),
  precio_usd: optMoney(),
  /** Net content and its unit, both or neither (shelf labels' price per unit of measure). */
  contenido: contenido(),
  contenido_unidad: z
    .preprocess(
      (v) => (v === '' ? null : v),
      z
        .enum(CONTENIDO_UNIDADES, { error: 'Elegí la unidad del contenido: g, kg, ml, l, cm, m, m2, m3 o u.' })
        .nullable(),
    )
    .optional(),
};

export const productInput = z.object(productFields);
export type ProductInput = z.input<typeof productInput>;
export type ProductOutput = z.output<typeof productInput>;

/** The product form: empty numeric fields are "not given" rather than invalid. */
export const productForm = productInput.extend({ stock_actual: optQuantity(), stock_minimo: optQuantity() });

/** A PUT: any field; `stock_actual` is accepted only when it equals the current stock (checked on the server). */
export const productUpdate = z.object({
  ...productFields,
  nombre: productFields.nombre.optional(),
  precio_venta: productFields.precio_venta.optional(),
});
export type ProductUpdate = z.output<typeof productUpdate>;

export const productListQuery = z.preprocess(
  withAliases({ search: 'q', category_id: 'categoria_id' }),
  z.object({
    q: queryParam(z.string().max(200)),
    categoria_id: queryParam(z.union([z.literal('ninguna'), z.uuid({ error: 'Identificador no válido.' })])),
    activo: queryFlag(),
    stock_bajo: queryFlag(),
    /** stock_actual is this depósito's instead of the total (decision 0059). */
    deposito_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
    orden: queryParam(oneOfCi(PRODUCT_SORTS)),
    direccion: queryParam(oneOfCi(['asc', 'desc'] as const)),
    ...pageQuery(PRODUCT_LIST_DEFAULT_LIMIT, PRODUCT_LIST_MAX_LIMIT),
  }),
);
export type ProductListQuery = z.output<typeof productListQuery>;

export interface Product {
  id: string;
  nombre: string;
  descripcion: string | null;
  codigo: string | null;
  codigo_barras: string | null;
  precio_compra: number | null;
  precio_venta: number;
  stock_actual: number;
  stock_minimo: number;
  controla_stock: boolean;
  unidad: string;
  categoria_id: string | null;
  categoria_nombre: string | null;
  activo: boolean;
  stock_bajo: boolean;
  iva?: IvaRate;
  creado_en: string;
  actualizado_en: string;
  /** USD: precio_venta follows precio_usd and the cotización in force (issue 17). */
  moneda?: 'ARS' | 'USD';
  precio_usd?: number | null;
  contenido?: number | null;
  contenido_unidad?: ContenidoUnidad | null;
}

export const productSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  descripcion: z.string().nullable(),
  codigo: z.string().nullable(),
  codigo_barras: z.string().nullable(),
  precio_compra: z.number().nullable().optional(),
  precio_venta: z.number(),
  stock_actual: z.number(),
  stock_minimo: z.number(),
  /** False: its sales, purchases and voids change no stock. */
  controla_stock: z.boolean(),
  unidad: z.string(),
  categoria_id: z.string().nullable(),
  categoria_nombre: z.string().nullable(),
  activo: z.boolean(),
  stock_bajo: z.boolean(),
  iva: z.enum(IVA_RATES).optional(),
  creado_en: z.string(),
  actualizado_en: z.string(),
  moneda: z.enum(['ARS', 'USD']).optional(),
  precio_usd: z.number().nullable().optional(),
  contenido: z.number().nullable().optional(),
  contenido_unidad: z.enum(CONTENIDO_UNIDADES).nullable().optional(),
});

/* ---------------------------------------------------------------- stock (§14.2) */

export const STOCK_ORIGINS = [
  'inicial',
  'venta',
  'anulacion',
  'compra',
  'ajuste',
  'importacion',
  'devolucion',
  'remito',
  'transferencia',
] as const;
export type StockOrigin = (typeof STOCK_ORIGINS)[number];
export const STOCK_ORIGIN_LABELS: Record<StockOrigin, string> = {
  inicial: 'Stock inicial',
  venta: 'Venta',
  anulacion: 'Anulación',
  compra: 'Compra',
  ajuste: 'Ajuste',
  importacion: 'Importación',
  devolucion: 'Devolución',
  remito: 'Remito',
  transferencia: 'Transferencia',
};

/** Common reasons offered by the adjustment form (free text is accepted too). */
export const ADJUSTMENT_REASONS = [
  'Recuento de inventario',
  'Rotura',
  'Vencimiento',
  'Robo o pérdida',
  'Devolución de cliente',
  'Consumo interno',
] as const;

export const stockAdjustmentInput = z.object({
  cantidad: quantity({ nonZero: true, zeroMessage: PRODUCT_MESSAGES.zeroAdjustment }),
  motivo: reqText(200),
  /** The depósito adjusted (default the principal; decision 0059). */
  deposito_id: z.uuid({ error: 'Identificador no válido.' }).optional(),
});
export type StockAdjustmentInput = z.input<typeof stockAdjustmentInput>;
export type StockAdjustmentOutput = z.output<typeof stockAdjustmentInput>;

export const stockMovementsQuery = z.object({ ...pageQuery(100, 500) });

export type StockUser = z.infer<typeof stockUserSchema>;

export const stockUserSchema = z.object({
  id: z.string(),
  nombre: z.string(),
});

export type StockMovement = z.infer<typeof stockMovementSchema>;

export const stockMovementSchema = z.object({
  id: z.string(),
  fecha: z.string(),
  cantidad: z.number(),
  stock_resultante: z.number(),
  origen: z.enum(STOCK_ORIGINS),
  referencia_id: z.string().nullable(),
  motivo: z.string().nullable(),
  usuario: stockUserSchema.nullable(),
});

export type StockAdjustmentResult = z.infer<typeof stockAdjustmentResultSchema>;

export const stockAdjustmentResultSchema = z.object({
  producto_id: z.string(),
  stock_anterior: z.number(),
  stock_actual: z.number(),
  movimiento: z.object({
    id: z.string(),
    cantidad: z.number(),
    motivo: z.string(),
    fecha: z.string(),
    usuario: stockUserSchema.nullable(),
  }),
});

/* ---------------------------------------------------------------- bulk price update (§14.2) */

export const PRICE_FIELDS = ['precio_venta', 'precio_compra'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];
export const PRICE_ROUNDINGS = ['ninguno', 'entero', 'decena', 'centena'] as const;
export type PriceRounding = (typeof PRICE_ROUNDINGS)[number];
export const PRICE_ROUNDING_LABELS: Record<PriceRounding, string> = {
  ninguno: 'Sin redondeo',
  entero: 'A pesos enteros',
  decena: 'A la decena',
  centena: 'A la centena',
};
export const BULK_PRICE_PREVIEW_MAX = 500;

/** A percentage → integer hundredths; -90 to 1000, not 0, at most 2 decimals. */
const percentage = () =>
  z.unknown().transform((v, ctx) => {
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
    const m = /^([-+])?(\d+)(?:\.(\d{1,2}))?$/.exec(s);
    if (v === undefined || v === null || v === '') {
      ctx.addIssue({ code: 'custom', message: 'Este campo es obligatorio.' });
      return z.NEVER;
    }
    const hundredths = m ? (Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'))) * (m[1] === '-' ? -1 : 1) : NaN;
    if (!m || hundredths === 0 || hundredths < -9000 || hundredths > 100000) {
      ctx.addIssue({ code: 'custom', message: PRODUCT_MESSAGES.badPercentage });
      return z.NEVER;
    }
    return hundredths;
  });

export const bulkPriceInput = z.object({
  porcentaje: percentage(),
  categoria_id: optId(),
  campo: oneOfCi(PRICE_FIELDS).optional().default('precio_venta'),
  redondeo: oneOfCi(PRICE_ROUNDINGS).optional().default('ninguno'),
  incluir_inactivos: z.boolean().optional().default(false),
  dry_run: z.boolean().optional().default(false),
});
export type BulkPriceInput = z.input<typeof bulkPriceInput>;
export type BulkPriceOutput = z.output<typeof bulkPriceInput>;

export type BulkPriceChange = z.infer<typeof bulkPriceChangeSchema>;

export const bulkPriceChangeSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  precio_anterior: z.number(),
  precio_nuevo: z.number(),
});

export type BulkPriceResult = z.infer<typeof bulkPriceResultSchema>;

export const bulkPriceResultSchema = z.object({
  dry_run: z.boolean(),
  /**
   * The applied change's id (absent on a preview): the price history rows it wrote carry it, so
   * `GET …/etiquetas?origen=masivo&referencia_id=…` labels exactly what it changed.
   */
  referencia_id: z.string().optional(),
  productos_afectados: z.number(),
  cambios: z.array(bulkPriceChangeSchema),
});

/* ---------------------------------------------------------------- services (§7) */

export const SERVICE_MESSAGES = {
  notFound: 'Servicio no encontrado.',
  notInBusiness: 'Servicio no encontrado en este negocio.',
  inUse: 'El servicio tiene ventas o suscripciones registradas; desactivalo en lugar de eliminarlo.',
} as const;

const duration = () =>
  z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number().int({ error: 'Debe ser un número entero.' }).min(1).max(1440).nullable().optional(),
  );

const serviceFields = {
  nombre: reqText(150),
  descripcion: optText(1000),
  precio: reqMoney(),
  costo: optMoney(),
  duracion_minutos: duration(),
  categoria_id: optId(),
  activo: z.boolean().optional(),
  /** The IVA rate its price includes (issue 16); '21' when absent on create. */
  iva: ivaRateInput().optional(),
};

export const serviceInput = z.object(serviceFields);
export type ServiceInput = z.input<typeof serviceInput>;
export type ServiceOutput = z.output<typeof serviceInput>;

export const serviceUpdate = z.object({
  ...serviceFields,
  nombre: serviceFields.nombre.optional(),
  precio: serviceFields.precio.optional(),
});
export type ServiceUpdate = z.output<typeof serviceUpdate>;

/** Columns the services list sorts by (`orden`, with `direccion` asc|desc); by name otherwise. */
export const SERVICE_SORTS = ['nombre', 'precio'] as const;

export const serviceListQuery = z.preprocess(
  withAliases({ search: 'q', category_id: 'categoria_id' }),
  z.object({
    q: queryParam(z.string().max(200)),
    categoria_id: queryId(),
    activo: queryFlag(),
    orden: queryParam(oneOfCi(SERVICE_SORTS)),
    direccion: queryParam(oneOfCi(['asc', 'desc'] as const)),
    ...pageQuery(1000, 5000),
  }),
);
export type ServiceListQuery = z.output<typeof serviceListQuery>;

export interface Service {
  id: string;
  nombre: string;
  descripcion: string | null;
  precio: number;
  costo: number | null;
  duracion_minutos: number | null;
  categoria_id: string | null;
  categoria_nombre: string | null;
  activo: boolean;
  iva?: IvaRate;
  creado_en: string;
  actualizado_en: string;
}

export const serviceSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  descripcion: z.string().nullable(),
  precio: z.number(),
  costo: z.number().nullable().optional(),
  duracion_minutos: z.number().nullable(),
  categoria_id: z.string().nullable(),
  categoria_nombre: z.string().nullable(),
  activo: z.boolean(),
  iva: z.enum(IVA_RATES).optional(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

/** Text cells that a spreadsheet would run as a formula get a leading apostrophe (§14.2 exports). */
export function neutralizeCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
