import {
  COMPROBANTE_TIPO_ARCA,
  DOC_TIPO_ARCA,
  IVA_RATE_ARCA,
  type AlicuotaCompra,
  type ComprobanteTipo,
  type DocTipo,
  type FacturaCents,
  type FacturaTipo,
  type IvaRate,
} from '@mostrador/shared';
import { toCents } from '../products/common.js';
import type { comprobantes } from '../../db/schema/facturacion.js';

/*
 * Libro IVA Digital (RG 4597, decision 0042): the four fixed-width files ARCA's importer takes for
 * a month, REGINFO_CV_{VENTAS,COMPRAS}_{CBTE,ALICUOTAS}. Each record type is one table of fields
 * (ARCA's "diseño de registro": order, width, kind) and one formatter writes them all.
 */

/** num: digits right-aligned with zeros; texto: left-aligned with spaces; importe: cents, 15 digits; fecha: AAAAMMDD. */
type Kind = 'num' | 'texto' | 'importe' | 'fecha';
interface Campo {
  campo: string;
  ancho: number;
  kind: Kind;
}
const f = (campo: string, ancho: number, kind: Kind): Campo => ({ campo, ancho, kind });

export const VENTAS_CBTE = [
  f('fecha', 8, 'fecha'),
  f('tipo', 3, 'num'),
  f('punto_venta', 5, 'num'),
  f('numero', 20, 'num'),
  f('numero_hasta', 20, 'num'),
  f('doc_tipo', 2, 'num'),
  f('doc_nro', 20, 'num'),
  f('nombre', 30, 'texto'),
  f('total', 15, 'importe'),
  f('no_gravado', 15, 'importe'),
  f('percepcion_no_categorizados', 15, 'importe'),
  f('exento', 15, 'importe'),
  f('percepcion_nacionales', 15, 'importe'),
  f('percepcion_iibb', 15, 'importe'),
  f('percepcion_municipales', 15, 'importe'),
  f('impuestos_internos', 15, 'importe'),
  f('moneda', 3, 'texto'),
  f('tipo_cambio', 10, 'num'),
  f('cantidad_alicuotas', 1, 'num'),
  f('codigo_operacion', 1, 'texto'),
  f('otros_tributos', 15, 'importe'),
  f('vencimiento_pago', 8, 'fecha'),
] as const;

export const VENTAS_ALICUOTAS = [
  f('tipo', 3, 'num'),
  f('punto_venta', 5, 'num'),
  f('numero', 20, 'num'),
  f('neto', 15, 'importe'),
  f('alicuota', 4, 'num'),
  f('iva', 15, 'importe'),
] as const;

export const COMPRAS_CBTE = [
  f('fecha', 8, 'fecha'),
  f('tipo', 3, 'num'),
  f('punto_venta', 5, 'num'),
  f('numero', 20, 'num'),
  f('despacho_importacion', 16, 'texto'),
  f('doc_tipo', 2, 'num'),
  f('doc_nro', 20, 'num'),
  f('nombre', 30, 'texto'),
  f('total', 15, 'importe'),
  f('no_gravado', 15, 'importe'),
  f('exento', 15, 'importe'),
  f('percepcion_iva', 15, 'importe'),
  f('percepcion_nacionales', 15, 'importe'),
  f('percepcion_iibb', 15, 'importe'),
  f('percepcion_municipales', 15, 'importe'),
  f('impuestos_internos', 15, 'importe'),
  f('moneda', 3, 'texto'),
  f('tipo_cambio', 10, 'num'),
  f('cantidad_alicuotas', 1, 'num'),
  f('codigo_operacion', 1, 'texto'),
  f('credito_fiscal', 15, 'importe'),
  f('otros_tributos', 15, 'importe'),
  f('cuit_corredor', 11, 'num'),
  f('nombre_corredor', 30, 'texto'),
  f('iva_comision', 15, 'importe'),
] as const;

export const COMPRAS_ALICUOTAS = [
  f('tipo', 3, 'num'),
  f('punto_venta', 5, 'num'),
  f('numero', 20, 'num'),
  f('doc_tipo', 2, 'num'),
  f('doc_nro', 20, 'num'),
  f('neto', 15, 'importe'),
  f('alicuota', 4, 'num'),
  f('iva', 15, 'importe'),
] as const;

type Layout = readonly Campo[];
type Valor = string | number | null | undefined;
/** A record's values by field name; fields left out are zeros (numbers, amounts, dates) or blanks (text). */
type Valores<L extends Layout> = Partial<Record<L[number]['campo'], Valor>>;

/** Text in ISO-8859-1 (what the importer reads): anything else becomes a space. */
const latin1 = (s: string) => s.normalize('NFC').replace(/[^\x20-\x7e\xa0-\xff]/g, ' ');

function campo(c: Campo, v: Valor): string {
  switch (c.kind) {
    case 'texto':
      return latin1(String(v ?? ''))
        .slice(0, c.ancho)
        .padEnd(c.ancho, ' ');
    case 'fecha':
      return v ? String(v).replace(/-/g, '') : '0'.repeat(c.ancho);
    case 'importe': {
      // Whole cents; a negative amount carries its sign in the first position (ARCA's rule).
      const cents = Math.round(Number(v ?? 0));
      const digits = String(Math.abs(cents)).padStart(cents < 0 ? c.ancho - 1 : c.ancho, '0');
      return cents < 0 ? `-${digits}` : digits;
    }
    case 'num':
      return String(v ?? '')
        .replace(/\D/g, '')
        .padStart(c.ancho, '0');
  }
}

/** One record: every field at its width, so the line is exactly as long as the layout says. */
export function registro<L extends Layout>(layout: L, valores: Valores<L>): string {
  const out = layout.map((c) => {
    const s = campo(c, (valores as Record<string, Valor>)[c.campo]);
    if (s.length !== c.ancho) throw new Error(`Libro IVA Digital: «${c.campo}» no entra en ${c.ancho} posiciones.`);
    return s;
  });
  return out.join('');
}

/** The file ARCA imports: records ended by CRLF, in ISO-8859-1; no records, an empty file. */
export const archivo = (registros: string[]) => Buffer.from(registros.map((r) => `${r}\r\n`).join(''), 'latin1');

export const longitud = (layout: Layout) => layout.reduce((s, c) => s + c.ancho, 0);

const MONEDA = 'PES';
const TIPO_CAMBIO = '0001000000';

/** Código de operación when no rate is taxed: E (exento) or N (no gravado); blank otherwise. */
const codigoOperacion = (gravado: boolean, exento: number, noGravado: number) =>
  gravado ? ' ' : exento > 0 ? 'E' : noGravado > 0 ? 'N' : ' ';

/* ---------------------------------------------------------------- ventas */

type ComprobanteRow = typeof comprobantes.$inferSelect;
interface AlicuotaGuardada {
  id: number;
  iva: IvaRate;
  base_imponible: number;
  importe: number;
}

/** The month's authorised comprobantes as REGINFO_CV_VENTAS_CBTE and _ALICUOTAS records. */
export function ventasDigital(rows: ComprobanteRow[]) {
  const cbte: string[] = [];
  const alic: string[] = [];
  for (const r of rows) {
    const tipo = COMPROBANTE_TIPO_ARCA[r.tipo as ComprobanteTipo];
    const clave = { tipo, punto_venta: r.puntoVenta, numero: r.numero ?? 0 };
    const exento = toCents(r.exento);
    const noGravado = toCents(r.noGravado);
    // A C does not discriminate IVA: no alícuotas. A or B with no taxed rate: one 0 % record with
    // zeros, as ARCA asks of exempt and non-taxed operations.
    const guardadas = (r.alicuotas as AlicuotaGuardada[]).filter((a) => a.base_imponible !== 0 || a.importe !== 0);
    const discrimina = !r.tipo.endsWith('_c');
    const lineas = !discrimina
      ? []
      : guardadas.length
        ? guardadas.map((a) => ({ alicuota: a.id, neto: a.base_imponible, iva: a.importe }))
        : [{ alicuota: IVA_RATE_ARCA['0'], neto: 0, iva: 0 }];
    const docTipo = r.receptorDocTipo as DocTipo;
    cbte.push(
      registro(VENTAS_CBTE, {
        ...clave,
        fecha: r.fecha,
        numero_hasta: clave.numero,
        doc_tipo: DOC_TIPO_ARCA[docTipo] ?? 99,
        doc_nro: docTipo === 'sin_documento' ? 0 : (r.receptorDocNro ?? 0),
        nombre: r.receptorNombre,
        total: toCents(r.total),
        no_gravado: noGravado,
        exento,
        moneda: MONEDA,
        tipo_cambio: TIPO_CAMBIO,
        cantidad_alicuotas: lineas.length,
        codigo_operacion: codigoOperacion(guardadas.length > 0 || !discrimina, exento, noGravado),
        otros_tributos: toCents(r.tributos),
      }),
    );
    for (const l of lineas) alic.push(registro(VENTAS_ALICUOTAS, { ...clave, ...l }));
  }
  return { comprobantes: cbte, alicuotas: alic };
}

/* ---------------------------------------------------------------- compras */

/** ARCA's codes for the supplier invoices the purchases keep; "otro" (tickets…) is 099. */
const COMPRA_TIPO_ARCA: Record<FacturaTipo, number> = { A: 1, B: 6, C: 11, otro: 99 };
const ALICUOTA_COMPRA_ARCA: Record<AlicuotaCompra, number> = IVA_RATE_ARCA;

export interface CompraDigital {
  proveedor: string | null;
  cuit: string | null;
  factura: FacturaCents;
}

/** The month's supplier invoices as REGINFO_CV_COMPRAS_CBTE and _ALICUOTAS records. */
export function comprasDigital(rows: CompraDigital[]) {
  const cbte: string[] = [];
  const alic: string[] = [];
  for (const { proveedor, cuit, factura: x } of rows) {
    const clave = { tipo: COMPRA_TIPO_ARCA[x.tipo], punto_venta: x.punto_venta, numero: x.numero };
    const vendedor = { doc_tipo: cuit ? DOC_TIPO_ARCA.CUIT : DOC_TIPO_ARCA.sin_documento, doc_nro: cuit ?? 0 };
    // Only a factura A discriminates IVA (decision 0021): B, C and tickets carry no alícuotas.
    const guardadas = x.iva.filter((i) => i.neto !== 0 || i.iva !== 0);
    const lineas =
      x.tipo !== 'A'
        ? []
        : guardadas.length
          ? guardadas.map((i) => ({ alicuota: ALICUOTA_COMPRA_ARCA[i.alicuota], neto: i.neto, iva: i.iva }))
          : [{ alicuota: IVA_RATE_ARCA['0'], neto: 0, iva: 0 }];
    cbte.push(
      registro(COMPRAS_CBTE, {
        ...clave,
        ...vendedor,
        fecha: x.fecha,
        nombre: proveedor ?? '',
        total: x.total,
        no_gravado: x.no_gravado,
        exento: x.exento,
        percepcion_iva: x.percepcion_iva,
        percepcion_iibb: x.percepcion_iibb,
        moneda: MONEDA,
        tipo_cambio: TIPO_CAMBIO,
        cantidad_alicuotas: lineas.length,
        codigo_operacion: codigoOperacion(x.tipo !== 'A' || guardadas.length > 0, x.exento, x.no_gravado),
        credito_fiscal: lineas.reduce((s, l) => s + l.iva, 0),
        otros_tributos: x.otros_impuestos,
      }),
    );
    for (const l of lineas) alic.push(registro(COMPRAS_ALICUOTAS, { ...clave, ...vendedor, ...l }));
  }
  return { comprobantes: cbte, alicuotas: alic };
}

/** The four files' names, as ARCA calls them, with the period AAAAMM. */
export const nombreArchivo = (libro: 'VENTAS' | 'COMPRAS', parte: 'CBTE' | 'ALICUOTAS', mes: string) =>
  `REGINFO_CV_${libro}_${parte}_${mes.replace('-', '')}.txt`;
