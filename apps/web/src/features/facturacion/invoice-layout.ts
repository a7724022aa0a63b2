import {
  esNotaCredito,
  IVA_RATE_LABELS,
  type Comprobante,
  type ComprobanteTipo,
  type IvaRate,
} from '@mostrador/shared/facturacion';
import { numeroComprobante } from './facturacion.api';

/*
 * What a printed comprobante shows, decided once for the 80 mm and the A4 layouts: the title and
 * code in the box ("FACTURA" "B" "Cód. 006"), whether prices carry IVA (A discriminates it: net
 * prices and IVA per rate; B shows final prices and the IVA contained, Ley 27.743; C shows no
 * IVA at all) and the totals block.
 */

export interface InvoiceLine {
  nombre: string;
  cantidad: number;
  /** Unit price and subtotal as printed: net of IVA on A, final elsewhere. */
  precio: number;
  descuento: number;
  subtotal: number;
  /** The rate label on A ("21 %"), null elsewhere. */
  alicuota: string | null;
}

export interface InvoiceTotalRow {
  label: string;
  value: number;
  strong?: boolean;
}

export interface InvoiceLayout {
  titulo: 'FACTURA' | 'NOTA DE CRÉDITO';
  letra: string;
  /** "Cód. 006". */
  codigo: string;
  numero: string;
  discrimina: boolean;
  lineas: InvoiceLine[];
  totales: InvoiceTotalRow[];
  /** B: "IVA contenido" of Ley 27.743 (null on A and C). */
  ivaContenido: number | null;
  /** The invoice a nota de crédito cancels: "Factura B 0001-00000023". */
  asociado: string | null;
  /** Only authorised comprobantes are valid: anything else prints a warning instead of the CAE. */
  valido: boolean;
}

const RATE_FACTOR: Partial<Record<IvaRate, number>> = {
  '21': 1.21,
  '10.5': 1.105,
  '27': 1.27,
  '5': 1.05,
  '2.5': 1.025,
  '0': 1,
};

/** Cents, rounded half up (amounts arrive as numbers with at most 2 decimals). */
const cents = (n: number) => Math.round(n * 100);
const pesos = (c: number) => c / 100;
const net = (amount: number, rate: IvaRate) => pesos(Math.round(cents(amount) / (RATE_FACTOR[rate] ?? 1)));

export const TIPO_TITULO: Record<ComprobanteTipo, InvoiceLayout['titulo']> = {
  factura_a: 'FACTURA',
  factura_b: 'FACTURA',
  factura_c: 'FACTURA',
  nota_credito_a: 'NOTA DE CRÉDITO',
  nota_credito_b: 'NOTA DE CRÉDITO',
  nota_credito_c: 'NOTA DE CRÉDITO',
};

export function invoiceLayout(c: Comprobante): InvoiceLayout {
  const discrimina = c.discrimina_iva;
  const lineas: InvoiceLine[] = c.lineas.map((l) => ({
    nombre: l.nombre,
    cantidad: l.cantidad,
    precio: discrimina ? net(l.precio_unitario, l.iva) : l.precio_unitario,
    descuento: discrimina ? net(l.descuento, l.iva) : l.descuento,
    subtotal: discrimina ? net(l.subtotal, l.iva) : l.subtotal,
    alicuota: discrimina ? IVA_RATE_LABELS[l.iva] : null,
  }));
  const i = c.importes;
  const totales: InvoiceTotalRow[] = [];
  if (discrimina) {
    totales.push({ label: 'Importe neto gravado', value: i.neto });
    for (const a of c.alicuotas) totales.push({ label: `IVA ${IVA_RATE_LABELS[a.iva]}`, value: a.importe });
    if (i.exento) totales.push({ label: 'Importe exento', value: i.exento });
    if (i.no_gravado) totales.push({ label: 'Importe no gravado', value: i.no_gravado });
    if (i.tributos) totales.push({ label: 'Otros tributos', value: i.tributos });
  }
  totales.push({ label: 'Importe total', value: i.total, strong: true });
  return {
    titulo: TIPO_TITULO[c.tipo],
    letra: c.letra,
    codigo: `Cód. ${String(c.codigo).padStart(3, '0')}`,
    numero: numeroComprobante(c),
    discrimina,
    lineas,
    totales,
    ivaContenido: !discrimina && c.letra === 'B' ? i.iva : null,
    asociado:
      esNotaCredito(c.tipo) && c.asociado
        ? `${c.asociado.tipo.startsWith('factura') ? 'Factura' : 'Comprobante'} ${c.asociado.tipo.slice(-1).toUpperCase()} ${numeroComprobante(c.asociado)}`
        : null,
    valido: c.estado === 'autorizado' && Boolean(c.cae),
  };
}

/** "20-12345678-6" as printed (the API answers it normalised already; digits only get the dashes). */
export function formatCuit(cuit: string | null | undefined): string {
  if (!cuit) return '';
  const d = cuit.replace(/\D/g, '');
  return d.length === 11 ? `${d.slice(0, 2)}-${d.slice(2, 10)}-${d.slice(10)}` : cuit;
}
