import { z } from 'zod';
import { normalizeCuit } from './cuit.js';
import {
  IVA_CONDITIONS,
  IVA_CONDITION_LABELS,
  oneOfCi,
  pageQuery,
  queryParam,
  type IvaCondition,
} from './customers.js';
import { lineShares } from './money.js';
import { isoDate, optText, reqText } from './validation.js';

/*
 * Facturación electrónica ARCA (issue 16, decision 0013): the fiscal setup of a business, the
 * comprobantes it issues through WSAA + WSFEv1, and the pure rules (letter, IVA split, QR).
 *
 * Routes, all under /api/v1/businesses/{id}/ (access in brackets):
 *   GET  facturacion/config                         [admin]          → facturacionConfigSchema
 *   GET  facturacion/modo                           [ventas/ver]     → facturacionModoSchema (what the POS needs)
 *   PUT  facturacion/config                         [admin]          body facturacionConfigInput → facturacionConfigSchema
 *   POST facturacion/csr                            [admin]          body csrInput → csrResultSchema (generates and keeps the key)
 *   POST facturacion/probar                         [admin]          → probarResultSchema {ok, mensaje, detalle, codigo, espera_hasta}
 *   POST facturacion/comprobantes                   [ventas/editar]  body emitirInput → 201|202 comprobanteSchema
 *                                                                    (idempotent per sale: a second call answers 200 with the same one)
 *   GET  facturacion/comprobantes                   [ventas/ver]     query comprobanteListQuery → comprobanteListSchema
 *   GET  facturacion/comprobantes/{comprobanteId}   [ventas/ver]     → comprobanteSchema (everything to print it)
 *   POST facturacion/comprobantes/{comprobanteId}/reintentar [ventas/editar] → 200|202 comprobanteSchema
 *   GET  facturacion/libro-iva?mes=YYYY-MM          [ventas/ver]     → .xlsx (Libro IVA Ventas of the month, net and
 *                                                                    IVA per rate, a totals row)
 *   GET  facturacion/libro-iva-digital/{comprobantes|alicuotas}?mes=YYYY-MM [ventas/ver]
 *                                                                    → .txt REGINFO_CV_VENTAS_CBTE / _ALICUOTAS (decision 0042)
 *   GET  facturacion/padron/{cuit}                  [ventas/ver]     → padronPersonaSchema (ARCA padrón A5)
 *   GET  facturacion/caea                           [admin]          → caeaEstadoSchema (caea.ts, decision 0047)
 *   POST facturacion/caea/actualizar                [admin]          → caeaEstadoSchema (asks the CAEAs due, reports now)
 *   POST facturacion/iva-masivo                     [productos/editar] body ivaMasivoInput → ivaMasivoResultSchema
 *                                                                    (the IVA rate of many products and services at once)
 * Elsewhere:
 *   POST ventas (record-sale) takes an optional `facturar: boolean` and `receptor` (receptorInput);
 *   GET  ventas/{vid} answers an optional `comprobante: comprobanteResumenSchema | null`;
 *   products and services take and answer `iva` (IVA_RATES, default '21');
 *   customers already carry `condicion_iva`, `documento_tipo` and `documento_numero`;
 *   the dashboard's `facturas_emitidas` counts the period's authorised comprobantes.
 * Amounts are integer cents inside the rules and plain numbers (2 decimals) in the answers.
 */

/* ---------------------------------------------------------------- enums and ARCA codes */

/** The emitter's condition (the business). */
export const CONDICIONES_IVA_EMISOR = ['responsable_inscripto', 'monotributo', 'exento'] as const;
export type CondicionIvaEmisor = (typeof CONDICIONES_IVA_EMISOR)[number];
export const CONDICION_IVA_EMISOR_LABELS: Record<CondicionIvaEmisor, string> = {
  responsable_inscripto: 'Responsable inscripto',
  monotributo: 'Monotributo',
  exento: 'Exento',
};

/** The receptor's condition: the customers' `condicion_iva` (customers.ts). */
export const CONDICIONES_IVA_RECEPTOR = IVA_CONDITIONS;
export type CondicionIvaReceptor = IvaCondition;
export const CONDICION_IVA_RECEPTOR_LABELS = IVA_CONDITION_LABELS;
/** ARCA's CondicionIVAReceptorId (FEParamGetCondicionIvaReceptor), mandatory since 2025. */
export const CONDICION_IVA_RECEPTOR_ARCA: Record<CondicionIvaReceptor, number> = {
  responsable_inscripto: 1,
  exento: 4,
  consumidor_final: 5,
  monotributista: 6,
  no_alcanzado: 15,
};

export const ENTORNOS = ['homologacion', 'produccion'] as const;
export type Entorno = (typeof ENTORNOS)[number];
export const ENTORNO_LABELS: Record<Entorno, string> = {
  homologacion: 'Homologación (pruebas)',
  produccion: 'Producción',
};

/** The POS setting: invoice every sale, or choose per sale. */
export const FACTURAR_MODOS = ['siempre', 'elegir'] as const;
export type FacturarModo = (typeof FACTURAR_MODOS)[number];
export const FACTURAR_MODO_LABELS: Record<FacturarModo, string> = {
  siempre: 'Facturar todas las ventas',
  elegir: 'Elegir en cada venta',
};
/**
 * The mode a new setup starts with: a responsable inscripto invoices every sale (a cashier cannot
 * forget to); the others choose per sale. A business's chosen mode is never changed for it.
 */
export const facturarPorDefecto = (condicion: CondicionIvaEmisor): FacturarModo =>
  condicion === 'responsable_inscripto' ? 'siempre' : 'elegir';

/**
 * ARCA's Concepto (FEParamGetTiposConcepto): 1 productos, 2 servicios, 3 productos y servicios.
 * Services (2 and 3) carry FchServDesde, FchServHasta and FchVtoPago.
 */
export const CONCEPTOS = [1, 2, 3] as const;
export type Concepto = (typeof CONCEPTOS)[number];
export const CONCEPTO_LABELS: Record<Concepto, string> = {
  1: 'Productos',
  2: 'Servicios',
  3: 'Productos y servicios',
};
export const conceptoDe = (productos: boolean, servicios: boolean): Concepto => (servicios ? (productos ? 3 : 2) : 1);

/** IVA rates of products and services; '21' by default. */
export const IVA_RATES = ['21', '10.5', '27', '5', '2.5', '0', 'exento', 'no_gravado'] as const;
export type IvaRate = (typeof IVA_RATES)[number];
export const DEFAULT_IVA_RATE: IvaRate = '21';
export const IVA_RATE_LABELS: Record<IvaRate, string> = {
  '21': '21 %',
  '10.5': '10,5 %',
  '27': '27 %',
  '5': '5 %',
  '2.5': '2,5 %',
  '0': '0 %',
  exento: 'Exento',
  no_gravado: 'No gravado',
};
/** ARCA's Iva Id (FEParamGetTiposIva) of each taxed rate. */
export const IVA_RATE_ARCA: Record<Exclude<IvaRate, 'exento' | 'no_gravado'>, number> = {
  '0': 3,
  '10.5': 4,
  '21': 5,
  '27': 6,
  '5': 8,
  '2.5': 9,
};
/** The rate in thousandths (21 % = 210). */
export const RATE_MILLI: Record<Exclude<IvaRate, 'exento' | 'no_gravado'>, bigint> = {
  '0': 0n,
  '10.5': 105n,
  '21': 210n,
  '27': 270n,
  '5': 50n,
  '2.5': 25n,
};

/** "21", "21%", "10,5 %", "alícuota 0", "Exento", "no gravado" → the stored rate; anything else as given. */
export function ivaRateOf(v: unknown): unknown {
  if (typeof v === 'number') return ivaRateOf(String(v));
  if (typeof v !== 'string') return v;
  const t = v
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/%|iva|alicuota/g, '')
    .replace(',', '.')
    .replace(/[\s_-]+/g, ' ')
    .trim();
  if (t === 'exento' || t === 'exenta') return 'exento';
  if (t === 'no gravado' || t === 'no gravada') return 'no_gravado';
  const n = Number(t);
  if (t !== '' && Number.isFinite(n)) return IVA_RATES.find((r) => Number(r) === n) ?? v;
  return v;
}

/** The `iva` field of products and services (input). */
export const ivaRateInput = () => z.preprocess(ivaRateOf, oneOfCi(IVA_RATES));

export const LETRAS = ['A', 'B', 'C'] as const;
export type Letra = (typeof LETRAS)[number];

export const COMPROBANTE_TIPOS = [
  'factura_a',
  'nota_credito_a',
  'factura_b',
  'nota_credito_b',
  'factura_c',
  'nota_credito_c',
] as const;
export type ComprobanteTipo = (typeof COMPROBANTE_TIPOS)[number];
/** ARCA's CbteTipo. */
export const COMPROBANTE_TIPO_ARCA: Record<ComprobanteTipo, number> = {
  factura_a: 1,
  nota_credito_a: 3,
  factura_b: 6,
  nota_credito_b: 8,
  factura_c: 11,
  nota_credito_c: 13,
};
export const COMPROBANTE_TIPO_LABELS: Record<ComprobanteTipo, string> = {
  factura_a: 'Factura A',
  nota_credito_a: 'Nota de crédito A',
  factura_b: 'Factura B',
  nota_credito_b: 'Nota de crédito B',
  factura_c: 'Factura C',
  nota_credito_c: 'Nota de crédito C',
};
export const tipoDe = (letra: Letra, notaCredito = false): ComprobanteTipo =>
  `${notaCredito ? 'nota_credito' : 'factura'}_${letra.toLowerCase()}` as ComprobanteTipo;
export const letraDe = (tipo: ComprobanteTipo): Letra => tipo.slice(-1).toUpperCase() as Letra;
export const esNotaCredito = (tipo: ComprobanteTipo) => tipo.startsWith('nota_credito');

export const COMPROBANTE_ESTADOS = ['pendiente', 'autorizado', 'rechazado'] as const;
export type ComprobanteEstado = (typeof COMPROBANTE_ESTADOS)[number];
export const COMPROBANTE_ESTADO_LABELS: Record<ComprobanteEstado, string> = {
  pendiente: 'Pendiente',
  autorizado: 'Autorizado',
  rechazado: 'Rechazado',
};

/**
 * ARCA's DocTipo for the receptor (FEParamGetTiposDoc): CUIT 80, CUIL 86, CDI 87, LE 89, LC 90,
 * pasaporte 94, DNI 96, sin identificar 99 (consumidor final without a document).
 */
export const DOC_TIPOS = ['CUIT', 'CUIL', 'CDI', 'LE', 'LC', 'Pasaporte', 'DNI', 'sin_documento'] as const;
export type DocTipo = (typeof DOC_TIPOS)[number];
export const DOC_TIPO_ARCA: Record<DocTipo, number> = {
  CUIT: 80,
  CUIL: 86,
  CDI: 87,
  LE: 89,
  LC: 90,
  Pasaporte: 94,
  DNI: 96,
  sin_documento: 99,
};
export const DOC_TIPO_LABELS: Record<DocTipo, string> = {
  CUIT: 'CUIT',
  CUIL: 'CUIL',
  CDI: 'CDI',
  LE: 'Libreta de enrolamiento',
  LC: 'Libreta cívica',
  Pasaporte: 'Pasaporte',
  DNI: 'DNI',
  sin_documento: 'Sin documento',
};
/** The document types whose number is a CUIT-shaped key with its check digit. */
export const DOC_TIPOS_CLAVE: readonly DocTipo[] = ['CUIT', 'CUIL', 'CDI'];

/**
 * A consumidor final may go without a document (DocTipo 99) below this total (RG 5700/2025:
 * $10.000.000); from it on, ARCA asks for the receptor's document.
 */
export const CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS = 10_000_000_00;
export const necesitaDocumento = (totalCents: number) => totalCents >= CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS;

/* ---------------------------------------------------------------- messages */

export const FACTURACION_MESSAGES = {
  badCuit: 'CUIT no válido: revisá el dígito verificador.',
  notConfigured: 'Configurá la facturación (CUIT, punto de venta y certificado) en Facturación → Configuración.',
  noCertificate:
    'Falta el certificado de ARCA: generá el pedido (CSR), subilo al portal de ARCA y cargá el certificado que te devuelve.',
  badCertificate: 'El certificado no es un PEM válido.',
  badKey: 'La clave privada no es un PEM válido.',
  keyMismatch: 'El certificado no corresponde a la clave privada guardada.',
  certCuitMismatch: (cuit: string) => `El certificado es de otro CUIT (${cuit}).`,
  certExpired: 'El certificado de ARCA está vencido: generá uno nuevo.',
  puntoVentaNotListed: 'El punto de venta elegido no está entre los puntos de venta del negocio.',
  notFound: 'Comprobante no encontrado.',
  saleNotFound: 'Venta no encontrada.',
  saleVoided: 'La venta está anulada: no se puede facturar.',
  receptorNeedsDoc: 'Para este importe ARCA pide el documento del cliente: cargá su CUIT o DNI.',
  servicioHastaAntes: 'El fin del período del servicio no puede ser anterior a su inicio.',
  vtoPagoAntes: 'El vencimiento del pago no puede ser anterior a la fecha de la factura.',
  docNroDigits: 'El número de documento debe tener solo dígitos (hasta 11).',
  letterANeedsCuit: 'La factura A necesita el CUIT del cliente.',
  notRetriable: 'Solo se reintentan los comprobantes pendientes o rechazados.',
  pending: 'ARCA no respondió todavía: el comprobante quedó pendiente y se reintenta solo.',
  authorized: 'Comprobante autorizado por ARCA.',
  badMonth: 'Mes no válido (formato AAAA-MM).',
  padronNotFound: 'ARCA no tiene una persona con ese CUIT.',
  padronSinConstancia: (errores: string) =>
    `ARCA no da la constancia de inscripción de ese CUIT (${errores}): revisá el número o cargá los datos del cliente a mano.`,
  padronInactivo: (estado: string) =>
    `ARCA tiene este CUIT como ${estado}: rechaza las facturas a su nombre (error 10247) hasta que el titular lo regularice.`,
  arcaUnavailable: 'ARCA no responde en este momento: probá de nuevo en unos minutos.',
  probarOk: 'La conexión con ARCA funciona.',
  sinFactura: 'La venta quedó registrada SIN factura.',
  sinFacturaSetup:
    'La facturación no está lista: falta configurar el CUIT, el punto de venta o el certificado de ARCA.',
  sinFacturaDespues:
    'Cuando lo resuelvas, emití la factura desde Reporte de ventas: abrí la venta y tocá «Emitir factura».',
} as const;

/**
 * ARCA's error codes of FECAESolicitar as the WSFEv1 developer manual (v4.7) defines them, in
 * Spanish with what to do (decision 0013 lists the sources). Unknown codes show ARCA's own text.
 */
export const ARCA_ERROR_MESSAGES: Record<string, string> = {
  '600': 'ARCA rechazó las credenciales: revisá que el certificado esté vigente y asociado al servicio «wsfe».',
  '10000':
    'ARCA no autoriza a tu CUIT a emitir esta clase de comprobante: revisá tu condición frente al IVA en la configuración fiscal.',
  '10005':
    'El punto de venta no está habilitado en ARCA para factura electrónica por web services (o está bloqueado, o es solo CAEA): dalo de alta en ARCA (Administración de puntos de venta) o elegí otro.',
  '10007': 'El tipo de comprobante no es válido para ARCA: avisá a soporte.',
  '10013': 'El documento del receptor no es válido para este tipo de comprobante: la factura A necesita CUIT.',
  '10015':
    'El documento del cliente no es válido, o falta para este importe: revisá el tipo y número de documento en su ficha y reintentá.',
  '10016': 'El número no es el próximo que espera ARCA: Mostrador lo vuelve a consultar y reintenta solo.',
  '10019': 'ARCA no reconoce una de las alícuotas de IVA del comprobante: avisá a soporte.',
  '10020': 'ARCA no acepta una alícuota de IVA con base imponible cero: avisá a soporte.',
  '10023': 'La suma del IVA por alícuota no coincide con el IVA total: avisá a soporte.',
  '10030': 'El concepto del comprobante (productos, servicios o ambos) no es válido para ARCA: avisá a soporte.',
  '10032': 'El servicio empieza después de la fecha en que termina: corregí las fechas del servicio y reintentá.',
  '10036': 'El vencimiento del pago es anterior a la fecha de la factura: corregilo y reintentá.',
  '10037': 'ARCA no reconoce la moneda del comprobante: avisá a soporte.',
  '10038': 'Falta la cotización de la moneda o no es mayor a cero: avisá a soporte.',
  '10039': 'En un comprobante en pesos la cotización tiene que ser 1: avisá a soporte.',
  '10041':
    'ARCA no encuentra en sus registros la factura que ajusta esta nota: revisá el número y el punto de venta de esa factura.',
  '10043': 'El importe no gravado no puede ser negativo (y en una factura C tiene que ser cero): avisá a soporte.',
  '10044': 'El importe exento no puede ser negativo (y en una factura C tiene que ser cero): avisá a soporte.',
  '10048': 'El total no coincide con la suma de neto, IVA, exento, no gravado y tributos: avisá a soporte.',
  '10049':
    'Una factura de servicios necesita las fechas del servicio (desde, hasta) y el vencimiento del pago: revisalas y reintentá.',
  '10051': 'El IVA de una alícuota no corresponde a su base imponible: avisá a soporte.',
  '10056': 'Un importe del comprobante tiene más de dos decimales: avisá a soporte.',
  '10061': 'La suma de las bases imponibles del detalle de IVA no coincide con el neto gravado: avisá a soporte.',
  '10063':
    'ARCA no tiene al cliente activo en el IVA ni en el Monotributo: revisá su condición frente al IVA antes de hacerle una factura A.',
  '10070': 'El comprobante tiene neto gravado pero no informa el detalle de IVA: avisá a soporte.',
  '10197': 'Una nota de crédito o débito tiene que indicar la factura que ajusta: avisá a soporte.',
  '10242': 'La condición frente al IVA del cliente no es un valor que ARCA acepte: revisala en su ficha y reintentá.',
  '10243': 'La condición frente al IVA del cliente no corresponde a esta letra: revisala en su ficha y reintentá.',
  '10246': 'Falta la condición frente al IVA del cliente: cargala en su ficha y reintentá.',
  '10247':
    'ARCA tiene el CUIT del cliente como inactivo: pedile que regularice su situación o facturale como consumidor final.',
};
export const arcaErrorMessage = (codigo: string | null | undefined, original?: string | null) =>
  (codigo && ARCA_ERROR_MESSAGES[codigo]) ||
  (original ? `ARCA rechazó el comprobante: ${original}` : 'ARCA rechazó el comprobante.');

/* ---------------------------------------------------------------- rules */

/**
 * The letter: a responsable inscripto issues A to responsables inscriptos and monotributistas and
 * B to everybody else; a monotributista and an exento issue C.
 */
export function letraPara(emisor: CondicionIvaEmisor, receptor: CondicionIvaReceptor): Letra {
  if (emisor !== 'responsable_inscripto') return 'C';
  return receptor === 'responsable_inscripto' || receptor === 'monotributista' ? 'A' : 'B';
}

/** The CondicionIVAReceptorId values ARCA accepts for each letter. */
export const CONDICIONES_ARCA_POR_LETRA: Record<Letra, number[]> = {
  A: [1, 6, 13, 16],
  B: [4, 5, 7, 8, 9, 10, 15],
  C: [1, 4, 5, 6, 7, 8, 9, 10, 13, 15, 16],
};

export interface LineaIva {
  /** The line's subtotal in cents (IVA included, after its own discount). */
  subtotal: number;
  iva: IvaRate;
}

export interface AlicuotaIva {
  /** ARCA's Iva Id. */
  id: number;
  iva: IvaRate;
  base_imponible: number;
  importe: number;
}

export interface Importes {
  /** ImpTotal, ImpNeto, ImpIVA, ImpTrib, ImpOpEx, ImpTotConc: integer cents. */
  total: number;
  neto: number;
  iva: number;
  tributos: number;
  exento: number;
  no_gravado: number;
  alicuotas: AlicuotaIva[];
}

const halfUp = (num: bigint, den: bigint) => (num * 2n + den) / (2n * den);

/**
 * Splits a sale's total (cents; IVA-included final prices, after the lines' and the sale's
 * discounts and surcharges) by rate: the total is shared among the lines in proportion to their
 * subtotals, each rate's gross is split into base and IVA (base rounded half up, IVA the rest),
 * so ImpNeto + ImpIVA + ImpOpEx + ImpTotConc = ImpTotal to the cent. A letter C discriminates
 * nothing: everything is ImpNeto.
 */
export function importesDe(lineas: LineaIva[], total: number, letra: Letra): Importes {
  if (letra === 'C') return { total, neto: total, iva: 0, tributos: 0, exento: 0, no_gravado: 0, alicuotas: [] };
  const shares = lineShares(
    total,
    lineas.map((l) => l.subtotal),
  );
  const gross = new Map<IvaRate, number>();
  lineas.forEach((l, i) => gross.set(l.iva, (gross.get(l.iva) ?? 0) + shares[i]));
  let neto = 0;
  let iva = 0;
  const alicuotas: AlicuotaIva[] = [];
  for (const rate of IVA_RATES) {
    const g = gross.get(rate);
    // A rate whose share is 0 (its lines discounted 100 %) is not informed: ARCA refuses an
    // AlicIva with BaseImp 0 (10020).
    if (!g || rate === 'exento' || rate === 'no_gravado') continue;
    const base = Number(halfUp(BigInt(g) * 1000n, 1000n + RATE_MILLI[rate]));
    alicuotas.push({ id: IVA_RATE_ARCA[rate], iva: rate, base_imponible: base, importe: g - base });
    neto += base;
    iva += g - base;
  }
  return {
    total,
    neto,
    iva,
    tributos: 0,
    exento: gross.get('exento') ?? 0,
    no_gravado: gross.get('no_gravado') ?? 0,
    alicuotas,
  };
}

/** The identity ARCA checks: ImpNeto + ImpIVA + ImpTrib + ImpOpEx + ImpTotConc = ImpTotal. */
export const importesCuadran = (i: Omit<Importes, 'alicuotas'>) =>
  i.neto + i.iva + i.tributos + i.exento + i.no_gravado === i.total;

export interface QrDatos {
  fecha: string;
  cuit: number;
  ptoVta: number;
  tipoCmp: number;
  nroCmp: number;
  /** A number with at most 2 decimals (pesos, not cents). */
  importe: number;
  moneda: string;
  ctz: number;
  tipoDocRec?: number;
  nroDocRec?: number;
  tipoCodAut: 'E' | 'A';
  codAut: number;
}

/** Base64 of UTF-8 text, in a browser or in Node. */
function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** The QR of RG 4892: ARCA's URL plus the base64 of the JSON, in ARCA's field order. */
export function qrUrl(d: QrDatos): string {
  const payload: Record<string, unknown> = {
    ver: 1,
    fecha: d.fecha,
    cuit: d.cuit,
    ptoVta: d.ptoVta,
    tipoCmp: d.tipoCmp,
    nroCmp: d.nroCmp,
    importe: d.importe,
    moneda: d.moneda,
    ctz: d.ctz,
  };
  if (d.tipoDocRec !== undefined) payload.tipoDocRec = d.tipoDocRec;
  if (d.nroDocRec !== undefined) payload.nroDocRec = d.nroDocRec;
  payload.tipoCodAut = d.tipoCodAut;
  payload.codAut = d.codAut;
  return `https://www.afip.gob.ar/fe/qr/?p=${base64(JSON.stringify(payload))}`;
}

/** "20-12345678-6" or "20123456786" → 20123456786; null if not a valid CUIT. */
export const cuitNumber = (v: string): number | null => {
  const c = normalizeCuit(v);
  return c ? Number(c.replace(/-/g, '')) : null;
};

/* ---------------------------------------------------------------- schemas: config */

const cuitField = () =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z.string().transform((v, ctx) => {
      const c = normalizeCuit(v);
      if (!c) {
        ctx.addIssue({ code: 'custom', message: FACTURACION_MESSAGES.badCuit });
        return z.NEVER;
      }
      return c;
    }),
  );

const puntoVenta = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z.number().int('Debe ser un número entero.').min(1).max(99998),
  );

const pem = (max = 20000) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), z.string().max(max).nullable().optional());

export const facturacionConfigInput = z
  .object({
    cuit: cuitField(),
    razon_social: reqText(200),
    condicion_iva: oneOfCi(CONDICIONES_IVA_EMISOR),
    inicio_actividades: z.preprocess((v) => (v === '' ? null : v), isoDate().nullable().optional()),
    iibb: optText(50),
    domicilio_fiscal: optText(300),
    punto_venta: puntoVenta(),
    /** Every punto de venta of the business (one per caja if it wants); `punto_venta` is the default. */
    puntos_venta: z.array(puntoVenta()).max(50).optional(),
    entorno: oneOfCi(ENTORNOS).optional().default('homologacion'),
    /** Absent: the business's current mode, or for a new setup the default of its condition (facturarPorDefecto). */
    facturar: oneOfCi(FACTURAR_MODOS).optional(),
    /** Uploaded certificate (PEM); absent keeps the stored one. */
    certificado_pem: pem(),
    /** Write-only: encrypted at rest, never answered nor logged; absent keeps the stored one. */
    clave_privada_pem: pem(),
    /** CAEA contingency (decision 0047): a punto de venta ARCA enabled for CAEA; null clears, absent keeps. */
    caea_punto_venta: puntoVenta().nullable().optional(),
    /** Minutes WSFE must stay unreachable before invoices go under the CAEA; absent keeps (default 30). */
    caea_tras_minutos: z.preprocess(
      (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
      z.number().int('Debe ser un número entero.').min(0).max(1440, 'Hasta 1440 minutos (un día).').optional(),
    ),
  })
  .transform((v, ctx) => {
    const puntos = [...new Set([v.punto_venta, ...(v.puntos_venta ?? [])])].sort((a, b) => a - b);
    if (v.puntos_venta && v.puntos_venta.length && !v.puntos_venta.includes(v.punto_venta)) {
      ctx.addIssue({ code: 'custom', path: ['punto_venta'], message: FACTURACION_MESSAGES.puntoVentaNotListed });
      return z.NEVER;
    }
    if (v.caea_punto_venta && puntos.includes(v.caea_punto_venta)) {
      ctx.addIssue({
        code: 'custom',
        path: ['caea_punto_venta'],
        message: 'El punto de venta de CAEA tiene que ser distinto de los puntos de venta con CAE.',
      });
      return z.NEVER;
    }
    return { ...v, puntos_venta: puntos };
  });
export type FacturacionConfigInput = z.input<typeof facturacionConfigInput>;
export type FacturacionConfigOutput = z.output<typeof facturacionConfigInput>;

export const facturacionConfigSchema = z.object({
  configurado: z.boolean(),
  cuit: z.string().nullable(),
  razon_social: z.string().nullable(),
  condicion_iva: z.enum(CONDICIONES_IVA_EMISOR).nullable(),
  inicio_actividades: z.string().nullable(),
  iibb: z.string().nullable(),
  domicilio_fiscal: z.string().nullable(),
  punto_venta: z.number().nullable(),
  puntos_venta: z.array(z.number()),
  entorno: z.enum(ENTORNOS),
  facturar: z.enum(FACTURAR_MODOS),
  tiene_certificado: z.boolean(),
  tiene_clave: z.boolean(),
  certificado_vence: z.string().nullable(),
  certificado_cuit: z.string().nullable(),
  caea_punto_venta: z.number().nullable(),
  caea_tras_minutos: z.number(),
  actualizado_en: z.string().nullable(),
});
export type FacturacionConfig = z.infer<typeof facturacionConfigSchema>;

/** What the POS needs of the setup, for every member who sells: ready to issue, and the mode. */
export const facturacionModoSchema = z.object({
  /** Fiscal data, certificate and key are loaded: sales can be invoiced. */
  listo: z.boolean(),
  facturar: z.enum(FACTURAR_MODOS),
  /** What the POS ticket prints under the shop's name (null until the billing setup has them). */
  domicilio_fiscal: z.string().nullable(),
  condicion_iva: z.enum(CONDICIONES_IVA_EMISOR).nullable(),
});
export type FacturacionModo = z.infer<typeof facturacionModoSchema>;

export const csrInput = z.object({
  cuit: cuitField(),
  razon_social: reqText(200),
  /** The certificate's name in ARCA's portal (CN); defaults to "mostrador". */
  alias: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,50}$/, 'Solo letras, números, guiones y guiones bajos (hasta 50).')
      .optional(),
  ),
});
export type CsrInput = z.input<typeof csrInput>;

export const csrResultSchema = z.object({ csr_pem: z.string(), mensaje: z.string() });
export type CsrResult = z.infer<typeof csrResultSchema>;

/**
 * What "Probar conexión" found (decision 0039): `ok`, or the first problem, apart: the setup, the
 * certificate (expired, not the key's, not ARCA's, invalid), the service it is not authorised
 * for, a ticket ARCA holds and Mostrador lost (`espera_hasta`: until when invoicing waits, at the
 * latest), the punto de venta (not enabled for web services, blocked or closed), ARCA's answer to
 * the ticket, and the connection (unreachable, too slow, ARCA's servers down).
 */
export const PROBAR_CODIGOS = [
  'ok',
  'sin_configurar',
  'certificado_vencido',
  'clave_no_corresponde',
  'certificado_no_confiable',
  'certificado_invalido',
  'servicio_no_autorizado',
  'ticket_en_uso',
  'credenciales_rechazadas',
  'pedido_invalido',
  'punto_venta_no_habilitado',
  'punto_venta_bloqueado',
  'sin_conexion',
  'tiempo_agotado',
  'arca_no_disponible',
  'arca_error',
] as const;
export type ProbarCodigo = (typeof PROBAR_CODIGOS)[number];

export const probarResultSchema = z.object({
  ok: z.boolean(),
  mensaje: z.string(),
  detalle: z.string().nullable(),
  codigo: z.enum(PROBAR_CODIGOS),
  espera_hasta: z.string().nullable(),
});
export type ProbarResult = z.infer<typeof probarResultSchema>;

/* ---------------------------------------------------------------- schemas: comprobantes */

/** Who the invoice is for when it is not (only) the sale's customer. */
export const receptorInput = z
  .object({
    condicion_iva: oneOfCi(CONDICIONES_IVA_RECEPTOR),
    doc_tipo: oneOfCi(DOC_TIPOS).optional().default('sin_documento'),
    doc_nro: optText(20),
    nombre: optText(200),
    domicilio: optText(300),
  })
  .transform((v, ctx) => {
    if (v.doc_tipo === 'sin_documento') return { ...v, doc_nro: null };
    if (!v.doc_nro) {
      ctx.addIssue({ code: 'custom', path: ['doc_nro'], message: 'Este campo es obligatorio.' });
      return z.NEVER;
    }
    if (DOC_TIPOS_CLAVE.includes(v.doc_tipo)) {
      const c = normalizeCuit(v.doc_nro);
      if (!c) {
        ctx.addIssue({ code: 'custom', path: ['doc_nro'], message: FACTURACION_MESSAGES.badCuit });
        return z.NEVER;
      }
      return { ...v, doc_nro: c };
    }
    const d = v.doc_nro.replace(/[\s.-]/g, '');
    if (v.doc_tipo === 'DNI' && !/^\d{7,8}$/.test(d)) {
      ctx.addIssue({ code: 'custom', path: ['doc_nro'], message: 'El DNI debe tener 7 u 8 dígitos.' });
      return z.NEVER;
    }
    // ARCA's DocNro is a number: a passport or a libreta goes by its digits.
    if (!/^\d{1,11}$/.test(d)) {
      ctx.addIssue({ code: 'custom', path: ['doc_nro'], message: FACTURACION_MESSAGES.docNroDigits });
      return z.NEVER;
    }
    return { ...v, doc_nro: d };
  });
export type ReceptorInput = z.input<typeof receptorInput>;
export type Receptor = z.output<typeof receptorInput>;

export const emitirInput = z
  .object({
    venta_id: z.uuid({ error: 'Identificador no válido.' }),
    receptor: receptorInput.optional(),
    /** Defaults to the configured `punto_venta`. */
    punto_venta: puntoVenta().optional(),
    /**
     * A sale with services (Concepto 2 or 3): the period served and the payment's due date
     * (FchServDesde, FchServHasta, FchVtoPago). Each defaults to the invoice's date; ignored for
     * a sale of products only.
     */
    servicio_desde: isoDate().optional(),
    servicio_hasta: isoDate().optional(),
    vencimiento_pago: isoDate().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.servicio_desde && v.servicio_hasta && v.servicio_hasta < v.servicio_desde) {
      ctx.addIssue({ code: 'custom', path: ['servicio_hasta'], message: FACTURACION_MESSAGES.servicioHastaAntes });
    }
  });
export type EmitirInput = z.input<typeof emitirInput>;

const importesSchema = z.object({
  total: z.number(),
  neto: z.number(),
  iva: z.number(),
  tributos: z.number(),
  exento: z.number(),
  no_gravado: z.number(),
});

export const alicuotaSchema = z.object({
  id: z.number(),
  iva: z.enum(IVA_RATES),
  base_imponible: z.number(),
  importe: z.number(),
});

export const comprobanteLineaSchema = z.object({
  nombre: z.string(),
  cantidad: z.number(),
  precio_unitario: z.number(),
  descuento: z.number(),
  subtotal: z.number(),
  iva: z.enum(IVA_RATES),
});

/** What the POS and the sale's detail show. */
export const comprobanteResumenSchema = z.object({
  id: z.string(),
  tipo: z.enum(COMPROBANTE_TIPOS),
  tipo_label: z.string(),
  letra: z.enum(LETRAS),
  codigo: z.number(),
  punto_venta: z.number(),
  numero: z.number().nullable(),
  estado: z.enum(COMPROBANTE_ESTADOS),
  cae: z.string().nullable(),
  cae_vencimiento: z.string().nullable(),
  total: z.number(),
  error_codigo: z.string().nullable(),
  error_mensaje: z.string().nullable(),
  /** 'caea': issued under a CAEA during an outage (`cae` holds the CAEA), reported afterwards (decision 0047). */
  emision: z.enum(['cae', 'caea']),
  caea_informe: z.enum(['pendiente', 'informado', 'rechazado']).nullable(),
});
export type ComprobanteResumen = z.infer<typeof comprobanteResumenSchema>;

export const comprobanteSchema = comprobanteResumenSchema.extend({
  venta_id: z.string(),
  venta_numero: z.number(),
  devolucion_id: z.string().nullable(),
  /** The invoice a nota de crédito cancels (CbteAsoc). */
  asociado: comprobanteResumenSchema.pick({ id: true, tipo: true, punto_venta: true, numero: true }).nullable(),
  fecha: z.string(),
  entorno: z.enum(ENTORNOS),
  emisor: z.object({
    cuit: z.string(),
    razon_social: z.string(),
    condicion_iva: z.enum(CONDICIONES_IVA_EMISOR),
    condicion_iva_label: z.string(),
    domicilio_fiscal: z.string().nullable(),
    iibb: z.string().nullable(),
    inicio_actividades: z.string().nullable(),
  }),
  receptor: z.object({
    nombre: z.string(),
    condicion_iva: z.enum(CONDICIONES_IVA_RECEPTOR),
    condicion_iva_label: z.string(),
    doc_tipo: z.enum(DOC_TIPOS),
    doc_nro: z.string().nullable(),
    domicilio: z.string().nullable(),
  }),
  lineas: z.array(comprobanteLineaSchema),
  /** ARCA's Concepto: 1 productos, 2 servicios, 3 productos y servicios. */
  concepto: z.number(),
  /** The service's period and the payment's due date (Concepto 2 and 3; null for 1). */
  servicio_desde: z.string().nullable(),
  servicio_hasta: z.string().nullable(),
  vencimiento_pago: z.string().nullable(),
  importes: importesSchema,
  alicuotas: z.array(alicuotaSchema),
  /** IVA is shown per rate on A; B and C show the total (with the IVA contained, Ley 27.743). */
  discrimina_iva: z.boolean(),
  qr_url: z.string().nullable(),
  /** Legends the printed comprobante carries (RG 5003 on an A to a monotributista). */
  leyendas: z.array(z.string()),
  /**
   * On a letter A, the lines net of IVA as printed and the sale's discount net of IVA
   * (bonificación), adding up to `importes` (factura-impresa.ts); null on B and C.
   */
  discriminado: z
    .object({
      lineas: z.array(z.object({ precio_unitario: z.number(), descuento: z.number(), subtotal: z.number() })),
      subtotal: z.number(),
      bonificacion: z.number(),
    })
    .nullable(),
  intentos: z.number(),
  proximo_intento: z.string().nullable(),
  creado_en: z.string(),
  mensaje: z.string().optional(),
});
export type Comprobante = z.infer<typeof comprobanteSchema>;

export const COMPROBANTE_LIST_DEFAULT_LIMIT = 100;
export const COMPROBANTE_LIST_MAX_LIMIT = 500;

export const comprobanteListQuery = z.object({
  estado: queryParam(oneOfCi(COMPROBANTE_ESTADOS)),
  tipo: queryParam(oneOfCi(COMPROBANTE_TIPOS)),
  desde: queryParam(isoDate()),
  hasta: queryParam(isoDate()),
  /** Matches the receptor's name or document, the number or the CAE. */
  q: queryParam(z.string().max(200)),
  /** The comprobantes of one sale: its factura and the notas de crédito of its void and returns. */
  venta_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
  ...pageQuery(COMPROBANTE_LIST_DEFAULT_LIMIT, COMPROBANTE_LIST_MAX_LIMIT),
});
export type ComprobanteListQuery = z.output<typeof comprobanteListQuery>;

export const comprobanteListItemSchema = comprobanteResumenSchema.extend({
  venta_id: z.string(),
  venta_numero: z.number(),
  fecha: z.string(),
  receptor_nombre: z.string(),
  receptor_doc: z.string().nullable(),
});
export const comprobanteListSchema = z.object({
  comprobantes: z.array(comprobanteListItemSchema),
  total: z.number(),
});
export type ComprobanteList = z.infer<typeof comprobanteListSchema>;

export const libroIvaQuery = z.object({
  mes: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, FACTURACION_MESSAGES.badMonth),
});

export const padronPersonaSchema = z.object({
  cuit: z.string(),
  nombre: z.string(),
  domicilio: z.string().nullable(),
  condicion_iva: z.enum(CONDICIONES_IVA_RECEPTOR),
  /** datosGenerales.estadoClave as ARCA gives it ("ACTIVO", "INACTIVO"), null when absent. */
  estado_clave: z.string().nullable(),
  /** What the user must know before invoicing this CUIT (inactive, ARCA's own errors), in Spanish. */
  advertencias: z.array(z.string()),
});
export type PadronPersona = z.infer<typeof padronPersonaSchema>;

/** The IVA rate of many products and services at once: the ids given, or every one of a category. */
export const ivaMasivoInput = z
  .object({
    iva: ivaRateInput(),
    productos: z
      .array(z.uuid({ error: 'Identificador no válido.' }))
      .max(5000)
      .optional(),
    servicios: z
      .array(z.uuid({ error: 'Identificador no válido.' }))
      .max(5000)
      .optional(),
    categoria_id: z.uuid({ error: 'Identificador no válido.' }).optional(),
  })
  .refine((v) => v.productos?.length || v.servicios?.length || v.categoria_id, {
    message: 'Elegí productos, servicios o una categoría.',
    path: ['productos'],
  });
export type IvaMasivoInput = z.input<typeof ivaMasivoInput>;

export const ivaMasivoResultSchema = z.object({ productos: z.number(), servicios: z.number() });
