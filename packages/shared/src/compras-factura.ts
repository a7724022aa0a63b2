import { z } from 'zod';
import { formatPesos, money } from './money.js';
import { isoDate } from './validation.js';

/*
 * The supplier's invoice of a purchase (issue #17, decision 0021): type, punto de venta and
 * number, date, net and IVA per rate, no gravado, exento, percepciones and other taxes, and the
 * total. Every amount is integer cents here; the pieces must add up to the total to the cent.
 */

export const FACTURA_TIPOS = ['A', 'B', 'C', 'otro'] as const;
export type FacturaTipo = (typeof FACTURA_TIPOS)[number];
export const FACTURA_TIPO_LABELS: Record<FacturaTipo, string> = {
  A: 'Factura A',
  B: 'Factura B',
  C: 'Factura C',
  otro: 'Ticket / otro',
};

export const ALICUOTAS_IVA = ['21', '10.5', '27', '5', '2.5', '0'] as const;
export type AlicuotaCompra = (typeof ALICUOTAS_IVA)[number];
/** The rate in hundredths of a percent: 21 % → 2100. */
const ALICUOTA_BP: Record<AlicuotaCompra, number> = {
  '21': 2100,
  '10.5': 1050,
  '27': 2700,
  '5': 500,
  '2.5': 250,
  '0': 0,
};
export const ALICUOTA_LABELS: Record<AlicuotaCompra, string> = {
  '21': '21 %',
  '10.5': '10,5 %',
  '27': '27 %',
  '5': '5 %',
  '2.5': '2,5 %',
  '0': '0 %',
};

/** How far a rate's IVA may be from neto × rate: one cent (rounding on the supplier's side). */
export const IVA_TOLERANCE_CENTS = 1;

export const FACTURA_MESSAGES = {
  ivaOnlyA: 'Solo una factura A discrimina IVA: en B, C o ticket el IVA va incluido en el total.',
  duplicateRate: 'Esa alícuota ya está en otra fila.',
  ivaMismatch: (alicuota: AlicuotaCompra, expected: number, diff: number) =>
    `El IVA ${ALICUOTA_LABELS[alicuota]} debería ser ${formatPesos(expected)} (neto × ${ALICUOTA_LABELS[alicuota]}); difiere en ${formatPesos(Math.abs(diff))}.`,
  totalMismatch: (sum: number, total: number) =>
    `La suma de los importes (${formatPesos(sum)}) no coincide con el total de la factura (${formatPesos(total)}): la diferencia es de ${formatPesos(Math.abs(total - sum))}.`,
  duplicate: 'Ya cargaste esa factura de este proveedor (mismo tipo, punto de venta y número) en otra compra.',
  needsSupplierOrName: 'Indicá el proveedor de la factura.',
} as const;

/** IVA of a net amount at a rate, rounded half-up to the cent. */
export function ivaOf(netoCents: number, alicuota: AlicuotaCompra): number {
  const p = BigInt(Math.round(netoCents)) * BigInt(ALICUOTA_BP[alicuota]);
  return Number((p + 5000n) / 10000n);
}

export interface FacturaIvaCents {
  alicuota: AlicuotaCompra;
  neto: number;
  iva: number;
}

export interface FacturaCents {
  tipo: FacturaTipo;
  punto_venta: number;
  numero: number;
  fecha: string;
  iva: FacturaIvaCents[];
  no_gravado: number;
  exento: number;
  percepcion_iva: number;
  percepcion_iibb: number;
  otros_impuestos: number;
  total: number;
}

type Amounts = Omit<FacturaCents, 'tipo' | 'punto_venta' | 'numero' | 'fecha'>;

/** Σ neto + IVA of every rate + no gravado + exento + percepciones + otros, in cents. */
export const facturaSumCents = (f: Amounts) =>
  f.iva.reduce((s, r) => s + r.neto + r.iva, 0) +
  f.no_gravado +
  f.exento +
  f.percepcion_iva +
  f.percepcion_iibb +
  f.otros_impuestos;

/** The rules of an invoice, each with its field (relative to the invoice). */
export function facturaIssues(f: Amounts & { tipo?: FacturaTipo }): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (f.tipo && f.tipo !== 'A' && f.iva.some((r) => r.iva !== 0 || r.neto !== 0)) {
    issues.push({ field: 'iva', message: FACTURA_MESSAGES.ivaOnlyA });
  }
  const seen = new Set<string>();
  f.iva.forEach((r, i) => {
    if (seen.has(r.alicuota)) issues.push({ field: `iva.${i}.alicuota`, message: FACTURA_MESSAGES.duplicateRate });
    seen.add(r.alicuota);
    const expected = ivaOf(r.neto, r.alicuota);
    if (Math.abs(r.iva - expected) > IVA_TOLERANCE_CENTS) {
      issues.push({
        field: `iva.${i}.iva`,
        message: FACTURA_MESSAGES.ivaMismatch(r.alicuota, expected, r.iva - expected),
      });
    }
  });
  const sum = facturaSumCents(f);
  if (sum !== f.total) issues.push({ field: 'total', message: FACTURA_MESSAGES.totalMismatch(sum, f.total) });
  return issues;
}

/** The IVA the shop can take as credit: only a factura A's (decision 0021). */
export const ivaCreditCents = (f: Pick<FacturaCents, 'tipo' | 'iva'>) =>
  f.tipo === 'A' ? f.iva.reduce((s, r) => s + r.iva, 0) : 0;

/* ---------------------------------------------------------------- schemas */

const zeroIfBlank = (v: unknown) => (v === undefined || v === null || v === '' ? 0 : v);
const optMoney = () => z.preprocess(zeroIfBlank, money());
const intField = (max: number, label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v),
    z
      .number({ error: `Indicá el ${label}.` })
      .int({ error: `El ${label} debe ser un número entero.` })
      .min(1, { error: `El ${label} debe ser mayor a 0.` })
      .max(max, { error: `El ${label} admite como máximo ${String(max).length} dígitos.` }),
  );

export const facturaIvaInput = z.object({
  alicuota: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().replace(',', '.') : v),
    z.enum(ALICUOTAS_IVA, { error: `Alícuota no válida. Opciones: ${ALICUOTAS_IVA.join(', ')}.` }),
  ),
  neto: money(),
  iva: money(),
});

const facturaFields = z.object({
  tipo: z.preprocess(
    (v) => (typeof v === 'string' ? (/^[abc]$/i.test(v.trim()) ? v.trim().toUpperCase() : v.trim().toLowerCase()) : v),
    z.enum(FACTURA_TIPOS, { error: 'Tipo de comprobante no válido. Opciones: A, B, C, otro.' }),
  ),
  punto_venta: intField(99_999, 'punto de venta'),
  numero: intField(99_999_999, 'número'),
  fecha: isoDate(),
  iva: z.preprocess((v) => (v == null ? [] : v), z.array(facturaIvaInput).max(ALICUOTAS_IVA.length)),
  no_gravado: optMoney(),
  exento: optMoney(),
  percepcion_iva: optMoney(),
  percepcion_iibb: optMoney(),
  otros_impuestos: optMoney(),
  total: money(),
});

/** The invoice as a purchase body carries it; amounts become cents and must add up. */
export const facturaInput = facturaFields.superRefine((f, ctx) => {
  for (const i of facturaIssues(f)) ctx.addIssue({ code: 'custom', path: i.field.split('.'), message: i.message });
});
export type FacturaInput = z.input<typeof facturaInput>;
export type FacturaOutput = z.output<typeof facturaInput>;

export const facturaSchema = z.object({
  tipo: z.enum(FACTURA_TIPOS),
  punto_venta: z.number(),
  numero: z.number(),
  /** "0001-00001234". */
  comprobante: z.string(),
  fecha: z.string(),
  iva: z.array(z.object({ alicuota: z.enum(ALICUOTAS_IVA), neto: z.number(), iva: z.number() })),
  no_gravado: z.number(),
  exento: z.number(),
  percepcion_iva: z.number(),
  percepcion_iibb: z.number(),
  otros_impuestos: z.number(),
  total: z.number(),
});
export type Factura = z.infer<typeof facturaSchema>;

/** "0003-00001234". */
export const comprobanteNumero = (pv: number, numero: number) =>
  `${String(pv).padStart(4, '0')}-${String(numero).padStart(8, '0')}`;
