import { z } from 'zod';
import { optMoney, optQuantity } from './catalog.js';
import { ivaRateInput, type IvaRate } from './facturacion.js';
import { oneOfCi, pageQuery, queryParam } from './customers.js';
import { columnaArchivoSchema } from './precios.js';
import { optText } from './validation.js';

/* ---------------------------------------------------------------- constants (API-CONTRACT §4.2) */

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;
export const IMPORT_STAGING_HOURS = 24;
export const IMPORT_PREVIEW_ROWS = 100;

export const IMPORT_FIELDS = [
  'nombre',
  'precio_venta',
  'descripcion',
  'codigo',
  'codigo_barras',
  'precio_compra',
  'stock_actual',
  'stock_minimo',
  'unidad',
  'categoria_nombre',
  'activo',
  'iva',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export const IMPORT_REQUIRED_FIELDS: readonly ImportField[] = ['nombre', 'precio_venta'];

/**
 * The required columns a file lacks: a name and a sale price, unless it has no name column but a
 * code or a barcode and one more column (a list that only updates existing products, such as
 * "EAN" and "Costo").
 */
export function missingImportFields(fields: readonly ImportField[]): ImportField[] {
  const taken = new Set(fields);
  const updatesOnly = !taken.has('nombre') && (taken.has('codigo') || taken.has('codigo_barras'));
  if (updatesOnly && taken.size >= 2) return [];
  return IMPORT_REQUIRED_FIELDS.filter((f) => !taken.has(f));
}

/** How each field is named in messages and in the column-mapping step. */
export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  nombre: 'Nombre',
  precio_venta: 'Precio de venta',
  descripcion: 'Descripción',
  codigo: 'Código',
  codigo_barras: 'Código de barras',
  precio_compra: 'Precio de compra',
  stock_actual: 'Stock',
  stock_minimo: 'Stock mínimo',
  unidad: 'Unidad',
  categoria_nombre: 'Categoría',
  activo: 'Activo',
  iva: 'IVA',
};

/** Header synonyms, recognised ignoring case, accents, spaces and punctuation. */
export const IMPORT_SYNONYMS: Record<ImportField, string[]> = {
  nombre: ['nombre', 'producto', 'artículo', 'item', 'name', 'nombre del producto', 'descripción corta'],
  precio_venta: [
    'precio venta',
    'precio de venta',
    'precio',
    'pvp',
    'precio público',
    'precio lista',
    'price',
    'precio unitario',
    'p. venta',
    'precio final',
  ],
  descripcion: ['descripción', 'detalle', 'description'],
  codigo: ['código', 'cod', 'sku', 'referencia', 'ref', 'code', 'código interno'],
  codigo_barras: [
    'código de barras',
    'cod barras',
    'ean',
    'upc',
    'barcode',
    'código barras',
    'ean13',
    'código de barras (EAN-13)',
    'código EAN',
  ],
  precio_compra: [
    'precio compra',
    'precio de compra',
    'costo',
    'precio costo',
    'cost',
    'precio de costo',
    'p. costo',
    'costo unitario',
  ],
  stock_actual: ['stock', 'stock actual', 'cantidad', 'existencia', 'existencias', 'qty'],
  stock_minimo: ['stock mínimo', 'mínimo', 'stock min'],
  unidad: ['unidad', 'unidad de medida', 'um', 'medida'],
  categoria_nombre: ['categoría', 'rubro', 'familia', 'category'],
  activo: ['activo', 'habilitado'],
  iva: ['iva', 'alícuota', 'alícuota iva', 'alícuota de iva', 'tasa iva', '% iva', 'iva %'],
};

/** A header as it is compared: lower case, without accents, spaces or punctuation. */
export function foldHeader(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9ñ]/g, '');
}

const SYNONYM_INDEX = new Map<string, ImportField>();
for (const f of IMPORT_FIELDS) for (const s of IMPORT_SYNONYMS[f]) SYNONYM_INDEX.set(foldHeader(s), f);
for (const f of IMPORT_FIELDS) SYNONYM_INDEX.set(foldHeader(f), f);

/** The field a header names, or null. */
export function fieldOfHeader(header: string): ImportField | null {
  return SYNONYM_INDEX.get(foldHeader(header)) ?? null;
}

export const IMPORT_MESSAGES = {
  unsupported: 'Formato no soportado. Subí un archivo .xlsx o .csv.',
  empty: 'El archivo está vacío.',
  emptyHeaderRow: (fila: number) =>
    `La fila ${fila} está vacía o no existe: elegí la fila que tiene los títulos de las columnas.`,
  missingColumns: (list: string[]) => `Faltan columnas obligatorias: ${list.join(', ')}.`,
  tooManyRows: 'El archivo tiene más de 50.000 filas.',
  noSheet: (hoja: string) => `La hoja «${hoja}» no existe en el archivo.`,
  unreadable: 'No se pudo leer el archivo. Verificá que sea un Excel o CSV válido.',
  noFile: 'Adjunta un archivo en el campo «file».',
  tooLarge: 'El archivo supera el máximo de 10 MB.',
  tooMuchText: 'El archivo tiene demasiado texto para importarlo. Dividilo en archivos más chicos.',
  cellTooLong:
    'Una celda del archivo tiene más de 32.767 caracteres, el máximo de Excel. Revisá el archivo e intentá de nuevo.',
  tooSlow: 'El archivo tarda demasiado en procesarse. Dividilo en archivos más chicos e intentá de nuevo.',
  busy: 'Hay demasiadas importaciones en curso. Intentá de nuevo en unos segundos.',
  rowNotFound: 'Fila de importación no encontrada.',
  nothingStaged: 'No hay una importación en curso.',
  cancelled: 'Importación cancelada.',
  badMapping: 'El mapeo de columnas no es válido.',
  duplicateMapping: (campo: string) => `La columna ${campo} está asignada más de una vez.`,
} as const;

/* ---------------------------------------------------------------- staged rows */

export const IMPORT_ACTIONS = ['nuevo', 'actualizar'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];

export interface ImportRowData {
  nombre: string | null;
  descripcion: string | null;
  codigo: string | null;
  codigo_barras: string | null;
  precio_compra: number | null;
  precio_venta: number | null;
  stock_actual: number | null;
  stock_minimo: number | null;
  unidad: string | null;
  categoria_nombre: string | null;
  activo: boolean | null;
  /** The IVA rate (issue 16); absent on rows staged before it. */
  iva?: IvaRate | null;
}

export const importRowDataSchema = z.object({
  nombre: z.string().nullable(),
  descripcion: z.string().nullable(),
  codigo: z.string().nullable(),
  codigo_barras: z.string().nullable(),
  precio_compra: z.number().nullable().optional(),
  precio_venta: z.number().nullable(),
  stock_actual: z.number().nullable(),
  stock_minimo: z.number().nullable(),
  unidad: z.string().nullable(),
  categoria_nombre: z.string().nullable(),
  activo: z.boolean().nullable(),
  iva: z.string().nullable().optional(),
});

export type StagedRow = z.infer<typeof stagedRowSchema>;

export const stagedRowSchema = z.object({
  id: z.string(),
  fila: z.number(),
  accion: z.enum(IMPORT_ACTIONS),
  producto_id: z.string().nullable(),
  datos: importRowDataSchema,
  errores: z.array(z.string()),
  nombre: z.string().nullable(),
  codigo: z.string().nullable(),
  precio_venta: z.number().nullable(),
  stock_actual: z.number().nullable(),
});

/** PUT …/import/productos-temporales/{tid}: any `datos` field, with the types of §4.1. */
export const stagedRowUpdate = z.preprocess(
  (v) => {
    // The body may carry the fields at the top level or inside `datos`.
    if (v && typeof v === 'object' && 'datos' in v && typeof (v as { datos: unknown }).datos === 'object') {
      return (v as { datos: unknown }).datos;
    }
    return v;
  },
  z.object({
    nombre: optText(150),
    descripcion: optText(1000),
    codigo: optText(50),
    codigo_barras: optText(50),
    precio_compra: optMoney(),
    precio_venta: optMoney(),
    stock_actual: optQuantity(),
    stock_minimo: optQuantity(),
    unidad: optText(20),
    categoria_nombre: optText(100),
    activo: z.boolean().nullable().optional(),
    iva: ivaRateInput().nullable().optional(),
  }),
);
export type StagedRowUpdate = z.output<typeof stagedRowUpdate>;

export const stagedRowsQuery = z.object({
  estado: queryParam(oneOfCi(['validos', 'con_errores'] as const)),
  ...pageQuery(100, 1000),
});
export type StagedRowsQuery = z.output<typeof stagedRowsQuery>;

export const IMPORT_EMPTY_STOCK = ['cero', 'sin_control'] as const;
export type ImportEmptyStock = (typeof IMPORT_EMPTY_STOCK)[number];

export const importConfirmInput = z.preprocess(
  (v) => v ?? {},
  z.object({
    productos_ids: z
      .array(z.uuid({ error: 'Identificador no válido.' }))
      .max(IMPORT_MAX_ROWS)
      .optional(),
    crear_categorias_nuevas: z.boolean().optional().default(true),
    sobrescribir_existentes: z.boolean().optional().default(true),
    /**
     * New products whose stock cell is empty: `cero` starts them at 0 (as before), `sin_control`
     * makes them not track stock. Existing products keep their stock either way.
     */
    stock_vacio: z.enum(IMPORT_EMPTY_STOCK, { error: 'Elegí "cero" o "sin_control".' }).optional().default('cero'),
  }),
);
export type ImportConfirmInput = z.output<typeof importConfirmInput>;

/* ---------------------------------------------------------------- responses */

export type ImportColumn = z.infer<typeof importColumnSchema>;

export const importColumnSchema = z.object({
  columna: z.string(),
  campo: z.enum(IMPORT_FIELDS),
});

export type ImportSummary = z.infer<typeof importSummarySchema>;

export const importSummarySchema = z.object({
  total: z.number(),
  validos: z.number(),
  con_errores: z.number(),
  nuevos: z.number(),
  /** Valid new rows whose stock cell is empty (the review step asks what to do with them). */
  nuevos_sin_stock: z.number(),
  actualizaciones: z.number(),
  archivo: z.string().nullable(),
  hoja: z.string().nullable(),
  categorias_nuevas: z.array(z.string()),
  expira_en: z.string().nullable(),
});

export type ImportUploadResult = z.infer<typeof importUploadResultSchema>;

export const importUploadResultSchema = importSummarySchema.extend({
  columnas: z.array(importColumnSchema),
  columnas_ignoradas: z.array(z.string()),
  columnas_originales: z.array(z.string()),
  /** Each column of the file, how it is read and its first three values (as the supplier's list). */
  columnas_archivo: z.array(columnaArchivoSchema),
  errores_generales: z.array(z.string()),
  total_filas: z.number(),
  filas_validas: z.number(),
  filas_con_errores: z.number(),
  productos_temporales: z.array(stagedRowSchema),
});

export type ImportSheetsResult = z.infer<typeof importSheetsResultSchema>;

export const importSheetsResultSchema = z.object({
  hojas: z.array(z.object({ nombre: z.string(), filas: z.number() })),
  sheet_names: z.array(z.string()),
});

export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const importRowErrorSchema = z.object({
  fila: z.number(),
  mensaje: z.string(),
});

export type ImportResult = z.infer<typeof importResultSchema>;

export const importResultSchema = z.object({
  creados: z.number(),
  actualizados: z.number(),
  categorias_creadas: z.number(),
  errores: z.array(importRowErrorSchema),
});

export type ImportConfirmResult = z.infer<typeof importConfirmResultSchema>;

export const importConfirmResultSchema = importResultSchema.extend({
  omitidos: z.number(),
  productos_creados: z.number(),
  productos_actualizados: z.number(),
});

/** GET /import/resumen: the staged file's counts and its column mapping. */
export const importStatusSchema = importSummarySchema.extend({
  columnas: z.array(importColumnSchema),
  columnas_ignoradas: z.array(z.string()),
  columnas_originales: z.array(z.string()),
});

export const importCancelledSchema = z.object({ message: z.string(), filas_descartadas: z.number() });
