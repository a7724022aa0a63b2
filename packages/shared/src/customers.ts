import { z } from 'zod';
import { normalizeCuit } from './cuit.js';
import { optMoney } from './money.js';
import { optText, queryBool, reqText } from './validation.js';

/* ---------------------------------------------------------------- constants (API-CONTRACT §3) */

/** The document types ARCA knows (its DocTipo codes below), so an invoice can name the customer. */
export const DOCUMENT_TYPES = ['DNI', 'CUIT', 'CUIL', 'CDI', 'LE', 'LC', 'Pasaporte', 'otro'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  DNI: 'DNI',
  CUIT: 'CUIT',
  CUIL: 'CUIL',
  CDI: 'CDI',
  LE: 'Libreta de enrolamiento',
  LC: 'Libreta cívica',
  Pasaporte: 'Pasaporte',
  otro: 'Otro',
};
/** ARCA's DocTipo for each (WSFEv1 FEParamGetTiposDoc): 99 is "sin identificar / otro". */
export const DOCUMENT_TYPE_ARCA_CODES: Record<DocumentType, number> = {
  CUIT: 80,
  CUIL: 86,
  CDI: 87,
  LE: 89,
  LC: 90,
  Pasaporte: 94,
  DNI: 96,
  otro: 99,
};

const foldText = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s.]+/g, ' ')
    .trim();
const DOCUMENT_ALIASES = new Map<string, DocumentType>([
  ...DOCUMENT_TYPES.map((t) => [foldText(t), t] as const),
  ...DOCUMENT_TYPES.map((t) => [foldText(DOCUMENT_TYPE_LABELS[t]), t] as const),
  ['l e', 'LE'],
  ['l c', 'LC'],
  ['pasaporte', 'Pasaporte'],
  ['passport', 'Pasaporte'],
  ['otros', 'otro'],
]);

/** "dni", "Pasaporte", "PASAPORTE", "Libreta Cívica", "L.E." → the stored type; anything else as given. */
export function documentTypeOf(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  return DOCUMENT_ALIASES.get(foldText(v)) ?? v;
}

export const IVA_CONDITIONS = [
  'consumidor_final',
  'responsable_inscripto',
  'monotributista',
  'exento',
  'no_alcanzado',
] as const;
export type IvaCondition = (typeof IVA_CONDITIONS)[number];
export const IVA_CONDITION_LABELS: Record<IvaCondition, string> = {
  consumidor_final: 'Consumidor final',
  responsable_inscripto: 'Responsable inscripto',
  monotributista: 'Monotributista',
  exento: 'Exento',
  no_alcanzado: 'No alcanzado',
};

export const CUSTOMER_LIST_DEFAULT_LIMIT = 100;
export const CUSTOMER_LIST_MAX_LIMIT = 500;

export const CUSTOMER_MESSAGES = {
  notFound: 'Cliente no encontrado.',
  notInBusiness: 'Cliente no encontrado en este negocio.',
  duplicate: 'Ya existe un cliente con ese documento.',
  inUse: 'No se puede eliminar el cliente porque tiene ventas, suscripciones o cuentas asociadas.',
  documentTypeRequired: 'Indicá el tipo de documento.',
  badDni: 'El DNI debe tener 7 u 8 dígitos.',
  badCuit: 'CUIT/CUIL no válido.',
  creditLimitForbidden:
    'No tenés permiso para cambiar el límite de crédito de un cliente: pedile a un administrador que te habilite «Vender en cuenta corriente por encima del límite de crédito».',
  priceListForbidden:
    'No tenés permiso para asignarle una lista de precios a un cliente: pedile a un administrador que te habilite «Cambiar precios».',
} as const;

/* ---------------------------------------------------------------- helpers shared with the other catalogue schemas */

const REQUIRED = 'Este campo es obligatorio.';

/** A query-string parameter: `""` counts as absent. */
export const queryParam = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** A whole number from the query string; bounds go in a `.pipe(z.number().min(…))` so they keep their own message. */
export const queryInt = (message = 'Debe ser un número entero.') =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z.number({ error: message }).int({ error: message }),
  );

/** `limit` (lowered to the maximum, never refused for being large) and `offset` of a paginated list. */
export const pageQuery = (defaultLimit: number, maxLimit: number) => ({
  limit: queryParam(queryInt().pipe(z.number().min(1))).transform((n) => Math.min(n ?? defaultLimit, maxLimit)),
  offset: queryParam(queryInt().pipe(z.number().min(0))).transform((n) => n ?? 0),
});

/** One of fixed values, case-insensitive; a missing value says "obligatorio" rather than listing the options. */
export const oneOfCi = <const T extends readonly [string, ...string[]]>(values: T, message?: string) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim();
      if (t === '') return null;
      return values.find((x) => x.toLowerCase() === t.toLowerCase()) ?? t;
    },
    z.enum(values, {
      error: (iss) =>
        iss.input === undefined || iss.input === null
          ? REQUIRED
          : (message ?? `Valor no válido. Opciones: ${values.join(', ')}.`),
    }),
  );

/** An optional value of fixed choices: `""` and null mean none. */
const optOneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), oneOfCi(values).nullable().optional());

/** Query-string booleans that also accept `""` as absent. */
export const queryFlag = () => queryParam(queryBool());

/* ---------------------------------------------------------------- documents */

/**
 * The stored form of a document number: DNI digits only, CUIT/CUIL `XX-XXXXXXXX-X`; otherwise
 * the trimmed text. Returns an error message when the number does not fit its type.
 */
export function normalizeDocument(
  tipo: DocumentType,
  numero: string,
): { ok: true; value: string } | { ok: false; message: string } {
  const t = numero.trim();
  if (tipo === 'DNI') {
    const digits = t.replace(/[\s.]/g, '');
    return /^\d{7,8}$/.test(digits) ? { ok: true, value: digits } : { ok: false, message: CUSTOMER_MESSAGES.badDni };
  }
  if (tipo === 'CUIT' || tipo === 'CUIL') {
    const c = normalizeCuit(t);
    return c ? { ok: true, value: c } : { ok: false, message: CUSTOMER_MESSAGES.badCuit };
  }
  return { ok: true, value: t };
}

/* ---------------------------------------------------------------- customers */

const customerFields = {
  nombre: reqText(100),
  apellido: optText(100),
  email: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim().toLowerCase()) : v),
    z.email().max(254).nullable().optional(),
  ),
  telefono: optText(30),
  direccion: optText(200),
  documento_tipo: optDocumentType(),
  documento_numero: optText(20),
  condicion_iva: optOneOf(IVA_CONDITIONS),
  notas: optText(1000),
  /** The most the customer may owe on account (cuenta corriente); null: no limit. */
  limite_credito: optMoney(),
  /** The customer's default price list (issue 17); null: Minorista. */
  lista_precios_id: z.preprocess(
    (v) => (v === '' ? null : v),
    z.uuid({ error: 'Identificador no válido.' }).nullable().optional(),
  ),
};

function optDocumentType() {
  return z.preprocess(documentTypeOf, optOneOf(DOCUMENT_TYPES));
}

interface DocShape {
  documento_tipo?: DocumentType | null;
  documento_numero?: string | null;
}

/** The document rules (type required with a number; DNI digits; CUIT/CUIL check digit), normalising the number. */
function documentRule<T extends DocShape>(c: T, ctx: z.RefinementCtx): T {
  if (c.documento_numero) {
    if (!c.documento_tipo) {
      ctx.addIssue({ code: 'custom', path: ['documento_tipo'], message: CUSTOMER_MESSAGES.documentTypeRequired });
      return c;
    }
    const n = normalizeDocument(c.documento_tipo, c.documento_numero);
    if (!n.ok) {
      ctx.addIssue({ code: 'custom', path: ['documento_numero'], message: n.message });
      return c;
    }
    return { ...c, documento_numero: n.value };
  }
  return c;
}

export const customerInput = z
  .object({
    ...customerFields,
    /** Made on the device by the offline point of sale (issue 18): a replay returns the same customer. */
    id: z.uuid({ error: 'Identificador no válido.' }).optional(),
  })
  .transform((c, ctx) => documentRule(c, ctx));
export type CustomerInput = z.input<typeof customerInput>;
export type CustomerOutput = z.output<typeof customerInput>;

/**
 * A PUT: any field. The document pair is checked on the server against the stored values too,
 * so only the shape is checked here (and the number normalised when the type comes with it).
 */
export const customerUpdate = z.object({
  ...customerFields,
  nombre: customerFields.nombre.optional(),
});
export type CustomerUpdate = z.output<typeof customerUpdate>;

/** The customer form: the create rules. */
export const customerForm = customerInput;

/** Columns the customers list sorts by (`orden`, with `direccion` asc|desc); by name otherwise. */
export const CUSTOMER_SORTS = ['nombre', 'documento', 'creado_en'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

export const customerListQuery = z.object({
  q: queryParam(z.string().max(200)),
  documento_tipo: queryParam(z.preprocess(documentTypeOf, oneOfCi(DOCUMENT_TYPES))),
  orden: queryParam(oneOfCi(CUSTOMER_SORTS)),
  direccion: queryParam(oneOfCi(['asc', 'desc'] as const)),
  ...pageQuery(CUSTOMER_LIST_DEFAULT_LIMIT, CUSTOMER_LIST_MAX_LIMIT),
});
export type CustomerListQuery = z.output<typeof customerListQuery>;

export type Customer = z.infer<typeof customerSchema>;

export const customerSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  apellido: z.string().nullable(),
  email: z.string().nullable(),
  telefono: z.string().nullable(),
  direccion: z.string().nullable(),
  documento_tipo: z.enum(DOCUMENT_TYPES).nullable(),
  documento_numero: z.string().nullable(),
  condicion_iva: z.enum(IVA_CONDITIONS),
  notas: z.string().nullable(),
  limite_credito: z.number().nullable(),
  lista_precios_id: z.string().nullable().optional(),
  creado_en: z.string(),
  actualizado_en: z.string(),
});

/** "Ana Pérez", as lists and selects show a customer. */
export const customerDisplayName = (c: Pick<Customer, 'nombre' | 'apellido'>) =>
  [c.nombre, c.apellido].filter(Boolean).join(' ');
