import { discriminadoEnPesos } from './factura-impresa.js';
import {
  esNotaCredito,
  IVA_RATE_LABELS,
  type Comprobante,
  type ComprobanteResumen,
  type ComprobanteTipo,
} from './facturacion.js';

/*
 * (Shared by the web's print view and the API's thermal and PDF documents, issue 35.)
 *
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
  /** Legends the comprobante must carry (RG 5003 on an A to a monotributista). */
  leyendas: string[];
}

/** "0001-00000023"; a comprobante without its number yet shows dots. */
export function numeroComprobante(c: Pick<ComprobanteResumen, 'punto_venta' | 'numero'>): string {
  const pv = String(c.punto_venta).padStart(4, '0');
  return c.numero === null ? `${pv}-········` : `${pv}-${String(c.numero).padStart(8, '0')}`;
}

/** The lines net of IVA and the bonificación of a letter A: as the API answers them, or from its lines. */
const discriminado = (c: Comprobante): NonNullable<Comprobante['discriminado']> =>
  c.discriminado ?? discriminadoEnPesos(c.lineas, c.importes);

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
  const d = discrimina ? discriminado(c) : null;
  const lineas: InvoiceLine[] = c.lineas.map((l, k) => ({
    nombre: l.nombre,
    cantidad: l.cantidad,
    precio: d ? d.lineas[k].precio_unitario : l.precio_unitario,
    descuento: d ? d.lineas[k].descuento : l.descuento,
    subtotal: d ? d.lineas[k].subtotal : l.subtotal,
    alicuota: d ? IVA_RATE_LABELS[l.iva] : null,
  }));
  const i = c.importes;
  const totales: InvoiceTotalRow[] = [];
  if (d) {
    // Subtotal − bonificación = neto gravado + exento + no gravado, to the cent (factura-impresa.ts).
    if (d.bonificacion !== 0) {
      totales.push({ label: 'Subtotal', value: d.subtotal });
      totales.push(
        d.bonificacion > 0
          ? { label: 'Bonificación', value: -d.bonificacion }
          : { label: 'Recargo', value: -d.bonificacion },
      );
    }
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
    leyendas: c.leyendas,
  };
}

/** "20-12345678-6" as printed (the API answers it normalised already; digits only get the dashes). */
export function formatCuit(cuit: string | null | undefined): string {
  if (!cuit) return '';
  const d = cuit.replace(/\D/g, '');
  return d.length === 11 ? `${d.slice(0, 2)}-${d.slice(2, 10)}-${d.slice(10)}` : cuit;
}
