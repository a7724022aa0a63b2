import { z } from 'zod';
import { withAliases } from './catalog.js';
import { normalizeCuit } from './cuit.js';
import { oneOfCi, pageQuery, queryParam } from './customers.js';
import { optText, reqText } from './validation.js';

/* ---------------------------------------------------------------- constants (API-CONTRACT §12) */

export const SUPPLIER_STATES = ['activo', 'inactivo'] as const;
export type SupplierState = (typeof SUPPLIER_STATES)[number];
export const SUPPLIER_STATE_LABELS: Record<SupplierState, string> = { activo: 'Activo', inactivo: 'Inactivo' };

export const SUPPLIER_LIST_DEFAULT_LIMIT = 100;
export const SUPPLIER_LIST_MAX_LIMIT = 500;

export const SUPPLIER_MESSAGES = {
  notFound: 'Proveedor no encontrado.',
  notInBusiness: 'Proveedor no encontrado en este negocio.',
  duplicate: 'Ya existe un proveedor con ese CUIT.',
  inUse: 'No se puede eliminar el proveedor porque tiene compras asociadas.',
  inUseAccounts: 'No se puede eliminar el proveedor porque tiene cuentas por pagar asociadas.',
  badCuit: 'CUIT/CUIL no válido.',
} as const;

/* ---------------------------------------------------------------- fields */

/** An optional CUIT/CUIL: hyphens and spaces accepted, check digit validated, stored as XX-XXXXXXXX-X. */
const optCuit = () =>
  z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      z.string({ error: SUPPLIER_MESSAGES.badCuit }).nullable().optional(),
    )
    .transform((v, ctx) => {
      if (v === null || v === undefined) return v;
      const c = normalizeCuit(v);
      if (!c) {
        ctx.addIssue({ code: 'custom', message: SUPPLIER_MESSAGES.badCuit });
        return z.NEVER;
      }
      return c;
    });

const optEmail = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim().toLowerCase()) : v),
    z.email().max(254).nullable().optional(),
  );

/** `cuit_cuil` and `observaciones` are the existing client's names of `cuit` and `notas`. */
const aliases = withAliases({ cuit_cuil: 'cuit', observaciones: 'notas' });

const supplierFields = {
  nombre: reqText(150),
  cuit: optCuit(),
  email: optEmail(),
  telefono: optText(30),
  direccion: optText(200),
  ciudad: optText(100),
  provincia: optText(100),
  pais: optText(100),
  contacto: optText(100),
  condiciones_pago: optText(100),
  // The existing client sends null when "Estado" was not chosen: on create that is activo, on a
  // PUT the state stays as it is.
  estado: z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    oneOfCi(SUPPLIER_STATES).optional(),
  ),
  notas: optText(1000),
};

export const supplierInput = z.preprocess(aliases, z.object(supplierFields));
export type SupplierInput = z.input<typeof supplierInput>;
export type SupplierOutput = z.output<typeof supplierInput>;

/** A PUT: any field; `null` clears an optional one. */
export const supplierUpdate = z.preprocess(
  aliases,
  z.object({ ...supplierFields, nombre: supplierFields.nombre.optional() }),
);
export type SupplierUpdate = z.output<typeof supplierUpdate>;

/** The supplier form: the create rules. */
export const supplierForm = z.object(supplierFields);

/** Columns the suppliers list sorts by (`orden`, with `direccion` asc|desc); by name otherwise. */
export const SUPPLIER_SORTS = ['nombre', 'cuit', 'creado_en'] as const;
export type SupplierSort = (typeof SUPPLIER_SORTS)[number];

export const supplierListQuery = z.object({
  q: queryParam(z.string().max(200)),
  estado: queryParam(oneOfCi(SUPPLIER_STATES)),
  orden: queryParam(oneOfCi(SUPPLIER_SORTS)),
  direccion: queryParam(oneOfCi(['asc', 'desc'] as const)),
  ...pageQuery(SUPPLIER_LIST_DEFAULT_LIMIT, SUPPLIER_LIST_MAX_LIMIT),
});
export type SupplierListQuery = z.output<typeof supplierListQuery>;

/** What the business owes a supplier and how much it bought from them (detail and list). */
export type SupplierBalance = z.infer<typeof supplierBalanceSchema>;

export const supplierBalanceSchema = z.object({
  deuda: z.number(),
  deuda_vencida: z.number(),
  cuentas_pendientes: z.number(),
});

export type Supplier = z.infer<typeof supplierSchema>;

export const supplierSchema = supplierBalanceSchema.extend({
  id: z.string(),
  nombre: z.string(),
  cuit: z.string().nullable(),
  cuit_cuil: z.string().nullable(),
  email: z.string().nullable(),
  telefono: z.string().nullable(),
  direccion: z.string().nullable(),
  ciudad: z.string().nullable(),
  provincia: z.string().nullable(),
  pais: z.string().nullable(),
  contacto: z.string().nullable(),
  condiciones_pago: z.string().nullable(),
  estado: z.enum(SUPPLIER_STATES),
  notas: z.string().nullable(),
  observaciones: z.string().nullable(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

/** The detail adds what was bought (cancelled purchases left out). */
export type SupplierDetail = z.infer<typeof supplierDetailSchema>;

export const supplierDetailSchema = supplierSchema.extend({
  compras: z.object({
    cantidad: z.number(),
    total: z.number(),
    pendientes_recepcion: z.number(),
    ultima_fecha: z.string().nullable(),
  }),
});

/* ---------------------------------------------------------------- estado de cuenta (issue 14) */

export const SUPPLIER_MOVE_TYPES = ['deuda', 'pago'] as const;
export type SupplierMoveType = (typeof SUPPLIER_MOVE_TYPES)[number];
export const SUPPLIER_MOVE_LABELS: Record<SupplierMoveType, string> = { deuda: 'Compra a pagar', pago: 'Pago' };

/** One line of a supplier's account: a payable (a purchase on credit or one entered by hand) or a payment of it. */
export const supplierMoveSchema = z.object({
  tipo: z.enum(SUPPLIER_MOVE_TYPES),
  /** YYYY-MM-DD: the payable's issue date, the payment's date. */
  fecha: z.string(),
  descripcion: z.string(),
  /** The payable (cuenta) this line belongs to. */
  cuenta_id: z.string(),
  compra_id: z.string().nullable(),
  /** The payment's finance movement; null for a payable. */
  movimiento_id: z.string().nullable(),
  /** What the business owes more (a payable) or less (a payment). */
  debe: z.number(),
  haber: z.number(),
  /** The running balance after this line: what is still owed to the supplier. */
  saldo: z.number(),
});
export type SupplierMove = z.infer<typeof supplierMoveSchema>;

export const supplierAccountSchema = z.object({
  proveedor_id: z.string(),
  proveedor_nombre: z.string(),
  /** What the business owes the supplier now (the pending part of its payables). */
  saldo: z.number(),
  movimientos: z.array(supplierMoveSchema),
});
export type SupplierAccount = z.infer<typeof supplierAccountSchema>;
