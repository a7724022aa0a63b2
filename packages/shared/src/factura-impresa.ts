import { RATE_MILLI, type CondicionIvaReceptor, type IvaRate, type Letra, type LineaIva } from './facturacion.js';
import { lineShares } from './money.js';

/*
 * What a printed comprobante adds to the amounts sent to ARCA (issue 32, decision 0041): the
 * legends a letter and receptor require, and, on a letter A, the lines net of IVA with the sale's
 * discount (bonificación) shown so the page adds up exactly to ImpNeto, the Iva array and ImpTotal.
 */

/** RG 5003/2021 (art. 15 of RG 1415): on every letter A to a monotributista. */
export const LEYENDA_RG_5003 =
  'El crédito fiscal discriminado en el presente comprobante, sólo podrá ser computado a efectos del Régimen de Sostenimiento e Inclusión Fiscal para Pequeños Contribuyentes de la Ley Nº 27.618';

/** The legends a comprobante prints for its letter and receptor. */
export const leyendasDe = (letra: Letra, receptor: CondicionIvaReceptor): string[] =>
  letra === 'A' && receptor === 'monotributista' ? [LEYENDA_RG_5003] : [];

export interface LineaImpresa extends LineaIva {
  /** Quantity (up to 3 decimals), unit price and the line's own discount in cents, IVA included. */
  cantidad: number;
  precio_unitario: number;
  descuento: number;
}

export interface DetalleDiscriminado {
  /** Each line in cents as a letter A prints it: net of IVA (exento and no gravado as they are). */
  lineas: { precio_unitario: number; descuento: number; subtotal: number }[];
  /** The lines' sum. */
  subtotal: number;
  /**
   * What the sale's discount took off, net of IVA (negative: a surcharge), so that
   * subtotal − bonificacion = ImpNeto + ImpOpEx + ImpTotConc.
   */
  bonificacion: number;
}

const halfUp = (num: bigint, den: bigint) =>
  num >= 0n ? (num * 2n + den) / (2n * den) : -((-num * 2n + den) / (2n * den));
const milli = (rate: IvaRate) => (rate === 'exento' || rate === 'no_gravado' ? 0n : RATE_MILLI[rate]);
/** A gross amount (cents, IVA included) without its IVA, half up. */
const sinIva = (cents: number, rate: IvaRate) => Number(halfUp(BigInt(cents) * 1000n, 1000n + milli(rate)));

/**
 * The lines of a letter A net of IVA. Each rate's lines (before the sale's discount) are split
 * into base and IVA as a whole, like importesDe does, and the base is shared among its lines by
 * subtotal (largest remainder), so without a sale discount the lines add up to ImpNeto exactly;
 * with one, the difference is the bonificación.
 */
export function detalleDiscriminado(
  lineas: LineaImpresa[],
  importes: { neto: number; exento: number; no_gravado: number },
): DetalleDiscriminado {
  const subtotales = new Array<number>(lineas.length).fill(0);
  const porTasa = new Map<IvaRate, number[]>();
  lineas.forEach((l, i) => porTasa.set(l.iva, [...(porTasa.get(l.iva) ?? []), i]));
  for (const [rate, idx] of porTasa) {
    const gross = idx.reduce((s, i) => s + lineas[i].subtotal, 0);
    const shares = lineShares(
      sinIva(gross, rate),
      idx.map((i) => lineas[i].subtotal),
    );
    idx.forEach((i, k) => (subtotales[i] = shares[k]));
  }
  const out = lineas.map((l, i) => {
    const precio = sinIva(l.precio_unitario, l.iva);
    const bruto = Number(halfUp(BigInt(Math.round(l.cantidad * 1000)) * BigInt(precio), 1000n));
    return { precio_unitario: precio, descuento: l.descuento > 0 ? bruto - subtotales[i] : 0, subtotal: subtotales[i] };
  });
  const subtotal = subtotales.reduce((s, x) => s + x, 0);
  return { lineas: out, subtotal, bonificacion: subtotal - (importes.neto + importes.exento + importes.no_gravado) };
}

/**
 * detalleDiscriminado in pesos (the same shape, every amount in pesos), as the API answers it and the printed layout reads it: lines and
 * importes in pesos (two decimals) in, the lines net of IVA, their subtotal and the bonificación out.
 */
export function discriminadoEnPesos(
  lineas: LineaImpresa[],
  importes: { neto: number; exento: number; no_gravado: number },
): DetalleDiscriminado {
  const cents = (n: number) => Math.round(n * 100);
  const d = detalleDiscriminado(
    lineas.map((l) => ({
      cantidad: l.cantidad,
      precio_unitario: cents(l.precio_unitario),
      descuento: cents(l.descuento),
      subtotal: cents(l.subtotal),
      iva: l.iva,
    })),
    { neto: cents(importes.neto), exento: cents(importes.exento), no_gravado: cents(importes.no_gravado) },
  );
  return {
    lineas: d.lineas.map((l) => ({
      precio_unitario: l.precio_unitario / 100,
      descuento: l.descuento / 100,
      subtotal: l.subtotal / 100,
    })),
    subtotal: d.subtotal / 100,
    bonificacion: d.bonificacion / 100,
  };
}
