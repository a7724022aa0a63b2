import { text, type XmlNode } from '../soap.js';
import type { CondicionFake } from './cuits.js';
import type { FakeArca } from './fake-arca.js';
import { PADRON_SEED } from './padron.js';

/*
 * What the fake's WSFEv1 knows as ARCA's parameter tables (the FEParamGet* operations) and the
 * small helpers its rules share: FECAESolicitar (wsfe-detalle.ts), FECAEARegInformativo
 * (caea-informe.ts) and the CAEA operations (caea.ts).
 */

export type Letra = 'A' | 'B' | 'C';
export const LETRA_DE_TIPO: Record<number, Letra> = {
  1: 'A',
  2: 'A',
  3: 'A',
  6: 'B',
  7: 'B',
  8: 'B',
  11: 'C',
  12: 'C',
  13: 'C',
};
/** Notas de débito y crédito. */
export const NOTAS = new Set([2, 3, 7, 8, 12, 13]);
/** Notas de crédito (a CUIT inactive is only observed on them: 10247). */
export const NOTAS_CREDITO = new Set([3, 8, 13]);
/** The A and B notas: an AlicIva may have no base and the rate checks do not apply (manual: 2, 3, 7, 8). */
export const NOTAS_AB = new Set([2, 3, 7, 8]);

export const DESDE = '20100917';
export const TIPOS_CBTE: [number, string][] = [
  [1, 'Factura A'],
  [2, 'Nota de Débito A'],
  [3, 'Nota de Crédito A'],
  [6, 'Factura B'],
  [7, 'Nota de Débito B'],
  [8, 'Nota de Crédito B'],
  [11, 'Factura C'],
  [12, 'Nota de Débito C'],
  [13, 'Nota de Crédito C'],
];
export const TIPOS_DOC: [number, string][] = [
  [80, 'CUIT'],
  [86, 'CUIL'],
  [87, 'CDI'],
  [89, 'LE'],
  [90, 'LC'],
  [91, 'CI Extranjera'],
  [92, 'en trámite'],
  [93, 'Acta Nacimiento'],
  [94, 'Pasaporte'],
  [95, 'CI Bs. As. RNP'],
  [96, 'DNI'],
  [99, 'Doc. (Otro)'],
];
/** Iva Id → [description, rate in thousandths, valid since]. */
export const TIPOS_IVA: Record<number, [string, number, string]> = {
  3: ['0%', 0, '20090220'],
  4: ['10.5%', 105, '20090220'],
  5: ['21%', 210, '20090220'],
  6: ['27%', 270, '20090220'],
  8: ['5%', 50, '20141020'],
  9: ['2.5%', 25, '20141020'],
};
export const TIPOS_CONCEPTO: [number, string][] = [
  [1, 'Producto'],
  [2, 'Servicios'],
  [3, 'Productos y Servicios'],
];
/** Some of FEParamGetTiposMonedas: pesos, dólares, euros. */
export const MONEDAS = new Set(['PES', 'DOL', '060']);
/** CondicionIVAReceptorId → description and the classes it may receive. */
export const CONDICIONES: [number, string, Letra[]][] = [
  [1, 'IVA Responsable Inscripto', ['A', 'C']],
  [4, 'IVA Sujeto Exento', ['B', 'C']],
  [5, 'Consumidor Final', ['B', 'C']],
  [6, 'Responsable Monotributo', ['A', 'C']],
  [7, 'Sujeto No Categorizado', ['B', 'C']],
  [8, 'Proveedor del Exterior', ['B', 'C']],
  [9, 'Cliente del Exterior', ['B', 'C']],
  [10, 'IVA Liberado - Ley N° 19.640', ['B', 'C']],
  [13, 'Monotributista Social', ['A', 'C']],
  [15, 'IVA No Alcanzado', ['B', 'C']],
  [16, 'Monotributo Trabajador Independiente Promovido', ['A', 'C']],
];
/** The classes an emisor in each condition issues. */
export const CLASES_DE_EMISOR: Record<CondicionFake, Letra[]> = {
  responsable_inscripto: ['A', 'B'],
  monotributo: ['C'],
  exento: ['C'],
  consumidor_final: [],
};

export interface Obs {
  Code: number | string;
  Msg: string;
}

export const cents = (v: unknown) => Math.round(Number(text(v)) * 100);
/** An amount written with more than two decimals (ARCA's precision: 13 integers and 2 decimals). */
export const masDeDosDecimales = (v: unknown) => /\.\d\d\d*[1-9]/.test(text(v));
const pad = (n: number) => String(n).padStart(2, '0');
export const ymd = (d: Date) => `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
/** FchProceso as ARCA answers it: yyyymmddhhmmss. */
export const proceso = (d: Date) =>
  `${ymd(d)}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
export const validYmd = (s: string) => {
  if (!/^\d{8}$/.test(s)) return false;
  const d = new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && ymd(d) === s;
};
/** Days between two YYYYMMDD dates (b − a). */
export const diasEntre = (a: string, b: string) =>
  Math.round(
    (Date.parse(`${b.slice(0, 4)}-${b.slice(4, 6)}-${b.slice(6, 8)}T12:00:00Z`) -
      Date.parse(`${a.slice(0, 4)}-${a.slice(4, 6)}-${a.slice(6, 8)}T12:00:00Z`)) /
      86_400_000,
  );

/** The condition ARCA holds for a CUIT: the registry first, then the padrón seed. */
export function condicionDe(f: FakeArca, cuit: string): CondicionFake | undefined {
  const c = f.cuits.get(cuit);
  if (c) return c.condicion;
  const p = PADRON_SEED[cuit];
  if (!p || p.errorConstancia) return undefined;
  if (p.monotributo) return 'monotributo';
  const imp = (p.impuestos ?? []).map(([id]) => id);
  return imp.includes(30) ? 'responsable_inscripto' : imp.includes(32) ? 'exento' : 'consumidor_final';
}

export const inactivo = (f: FakeArca, cuit: string) =>
  !!f.cuits.get(cuit)?.inactivo || PADRON_SEED[cuit]?.estadoClave === 'INACTIVO';

/** The detail's amounts, in cents. */
export function importes(det: XmlNode) {
  return {
    total: cents(det.ImpTotal),
    neto: cents(det.ImpNeto),
    iva: cents(det.ImpIVA),
    trib: cents(det.ImpTrib),
    exento: cents(det.ImpOpEx),
    noGravado: cents(det.ImpTotConc),
  };
}
