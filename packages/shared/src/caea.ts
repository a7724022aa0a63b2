import { z } from 'zod';
import { arcaErrorMessage } from './facturacion.js';

/*
 * CAEA contingency (issue 32 point 6, decision 0047): when WSFE stays unreachable longer than the
 * business allows, its invoices are issued under the CAEA of the fortnight (requested ahead) on
 * its CAEA punto de venta, printed as valid invoices, and reported to ARCA afterwards.
 *
 * Routes, under /api/v1/businesses/{id}/:
 *   GET  facturacion/caea              [admin] → caeaEstadoSchema (the setting, the current and next
 *                                               CAEA, what is pending or rejected to report)
 *   POST facturacion/caea/actualizar   [admin] → caeaEstadoSchema (requests what is due and reports
 *                                               now instead of waiting for the background pass)
 * The CAEA punto de venta and the minutes are fields of PUT facturacion/config
 * (`caea_punto_venta`, `caea_tras_minutos`).
 */

export const CAEA_INFORME_ESTADOS = ['pendiente', 'informado', 'rechazado'] as const;
export type CaeaInforme = (typeof CAEA_INFORME_ESTADOS)[number];
export const EMISIONES = ['cae', 'caea'] as const;
export type Emision = (typeof EMISIONES)[number];

/** Default minutes WSFE must stay unreachable before invoices go under the CAEA. */
export const CAEA_TRAS_MINUTOS_DEFAULT = 30;
/** ARCA lets a CAEA be requested from this many calendar days before its fortnight. */
export const CAEA_DIAS_ANTES = 5;

export interface Quincena {
  /** yyyymm */
  periodo: number;
  /** 1: days 1–15; 2: 16 to the end of the month. */
  orden: 1 | 2;
  /** YYYY-MM-DD */
  desde: string;
  hasta: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const diasDelMes = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The fortnight of a periodo and orden. */
export function quincena(periodo: number, orden: 1 | 2): Quincena {
  const y = Math.floor(periodo / 100);
  const m = periodo % 100;
  const ym = `${y}-${pad(m)}`;
  return orden === 1
    ? { periodo, orden, desde: `${ym}-01`, hasta: `${ym}-15` }
    : { periodo, orden, desde: `${ym}-16`, hasta: `${ym}-${pad(diasDelMes(y, m))}` };
}

/** The fortnight a day (YYYY-MM-DD) falls in. */
export function quincenaDe(dia: string): Quincena {
  const [y, m, d] = dia.split('-').map(Number);
  return quincena(y * 100 + m, d <= 15 ? 1 : 2);
}

/** The fortnight after this one. */
export function quincenaSiguiente(q: Quincena): Quincena {
  if (q.orden === 1) return quincena(q.periodo, 2);
  const y = Math.floor(q.periodo / 100);
  const m = q.periodo % 100;
  return quincena(m === 12 ? (y + 1) * 100 + 1 : q.periodo + 1, 1);
}

/** A day plus n calendar days (YYYY-MM-DD). */
export function sumarDias(dia: string, n: number): string {
  const d = new Date(`${dia}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The first day ARCA takes the report of a comprobante issued under a CAEA that day: the day after its fortnight began (1414). */
export const informableDesde = (fecha: string) => sumarDias(quincenaDe(fecha).desde, 1);

/** The fortnights whose CAEA is due on a day: the current one, and the next from 5 days before it. */
export function quincenasAPedir(hoy: string): Quincena[] {
  const actual = quincenaDe(hoy);
  const siguiente = quincenaSiguiente(actual);
  return hoy >= sumarDias(siguiente.desde, -CAEA_DIAS_ANTES) ? [actual, siguiente] : [actual];
}

export const CAEA_MESSAGES = {
  puntoVentaNoCaea: (pv: number) =>
    `ARCA no tiene el punto de venta ${pv} habilitado para CAEA: dalo de alta en ARCA como «CAEA - Web services» o elegí otro.`,
  puntoVentaBloqueado: (pv: number) => `ARCA tiene el punto de venta ${pv} bloqueado: elegí otro.`,
  puntoVentaEsCae: 'El punto de venta de CAEA tiene que ser distinto de los puntos de venta con CAE.',
  sinCertificado: 'Cargá el certificado de ARCA antes de elegir el punto de venta de CAEA.',
  noVerificable: 'ARCA no responde: no se pudo verificar el punto de venta de CAEA. Probá de nuevo en unos minutos.',
  sinCaeaVigente:
    'ARCA no responde y no hay un CAEA vigente para hoy: el comprobante queda pendiente y se reintenta solo.',
  emitidoConCaea: 'Emitido con CAEA porque ARCA no responde: es una factura válida y se informa a ARCA cuando vuelva.',
  informeRechazado: 'ARCA rechazó el informe de este comprobante emitido con CAEA.',
  informePendiente: 'Emitido con CAEA: falta informarlo a ARCA (se informa solo cuando ARCA responde).',
  notaEsperaInforme: 'La nota de crédito espera que se informe a ARCA su factura emitida con CAEA.',
  informeFueraDeTermino: (tope: string) =>
    `Venció el plazo para informarlo a ARCA (era hasta el ${tope.split('-').reverse().join('/')}): se informa apenas ARCA responda. Mientras adeudes informes, ARCA puede negarte nuevos CAEA.`,
  reintentarInforme: 'El informe del comprobante emitido con CAEA vuelve a enviarse a ARCA.',
} as const;

/**
 * ARCA's CAEA codes as the WSFEv1 developer manual (v4.7) defines them, in Spanish with what to do:
 * FECAEASolicitar / FECAEAConsultar (15000–15016), FECAEASinMovimientoInformar (1200–1209) and
 * FECAEARegInformativo, whose own table is not FECAESolicitar's (700–829, 1300–1528).
 */
export const CAEA_ERROR_MESSAGES: Record<string, string> = {
  '15000': 'ARCA no tiene tu CUIT activa en el sistema registral: no puede darte un CAEA.',
  '15003': 'Tu CUIT no tiene puntos de venta para CAEA: dá de alta uno en ARCA (Administración de puntos de venta).',
  '15004': 'El período pedido no es válido.',
  '15005': 'La quincena pedida no es válida (1 o 2).',
  '15006': 'El CAEA se pide desde 5 días antes de la quincena: Mostrador lo vuelve a pedir a tiempo.',
  '15008': 'ARCA ya había otorgado este CAEA: Mostrador lo consulta.',
  '15009': 'ARCA registra problemas con el domicilio de tu CUIT: regularizalo en ARCA para pedir CAEA.',
  '15010': 'Para pedir CAEA tu CUIT tiene que estar inscripta en IVA, IVA exento o Monotributo.',
  '15011': 'Para pedir CAEA tu CUIT tiene que tener al menos una actividad declarada en ARCA.',
  '15012': 'Para pedir CAEA tu CUIT tiene que estar empadronada en factura electrónica.',
  '15016':
    'ARCA da CAEA solo para contingencias: el domicilio necesita un punto de venta activo con CAE (factura electrónica por web services).',
  '1200': 'El código informado no es un CAEA.',
  '1201': 'El CAEA no corresponde a tu CUIT.',
  '1202': 'El CAEA ya se usó en algún comprobante de ese punto de venta: no se informa como sin movimiento.',
  '1203': 'Un CAEA sin movimiento se informa después del día en que empieza su quincena: Mostrador lo informa solo.',
  '1204': 'El punto de venta no está habilitado en ARCA para CAEA.',
  '1205': 'El punto de venta no estuvo activo durante la vigencia del CAEA.',
  '1206': 'El punto de venta tiene que estar entre 1 y 99998.',
  '1207': 'El CAEA no tiene un formato válido.',
  '1209': 'ARCA ya tenía ese punto de venta informado sin movimiento para este CAEA.',
  '700': 'ARCA no acepta este tipo de comprobante en el informe de CAEA: avisá a soporte.',
  '701':
    'El punto de venta no está habilitado en ARCA para CAEA, o está bloqueado: revisalo en ARCA (Administración de puntos de venta).',
  '702': 'La fecha del comprobante está fuera de la vigencia de su CAEA: avisá a soporte.',
  '703':
    'El número no sigue al último informado en ese punto de venta: revisá en ARCA si otro sistema informó comprobantes con CAEA ahí y avisá a soporte.',
  '704': 'La fecha es anterior a la del último comprobante informado en ese punto de venta: avisá a soporte.',
  '705': 'El CAEA no corresponde a tu CUIT.',
  '780': 'ARCA no tiene registrado ese CAEA.',
  '782': 'Falta el CAEA o no tiene 14 dígitos: avisá a soporte.',
  '1414':
    'ARCA recibe los comprobantes con CAEA desde el día siguiente al inicio de su quincena: informalo de nuevo mañana.',
  '1440': 'Falta la fecha y hora en que se generó el comprobante: avisá a soporte.',
  '1441': 'La fecha y hora en que se generó el comprobante no tiene el formato de ARCA: avisá a soporte.',
  '1491': 'Una nota de crédito o débito tiene que indicar la factura que ajusta: avisá a soporte.',
};

export const caeaSchema = z.object({
  periodo: z.number(),
  orden: z.number(),
  /** Null while ARCA did not grant it (`error_mensaje` says why). */
  caea: z.string().nullable(),
  vig_desde: z.string(),
  vig_hasta: z.string(),
  tope_informe: z.string().nullable(),
  error_codigo: z.string().nullable(),
  error_mensaje: z.string().nullable(),
  /** Comprobantes issued under it. */
  usados: z.number(),
  sin_movimiento: z.enum(['informado', 'rechazado']).nullable(),
});
export type Caea = z.infer<typeof caeaSchema>;

export const caeaComprobanteSchema = z.object({
  id: z.string(),
  tipo_label: z.string(),
  punto_venta: z.number(),
  numero: z.number().nullable(),
  fecha: z.string(),
  total: z.number(),
  caea: z.string().nullable(),
  caea_informe: z.enum(CAEA_INFORME_ESTADOS),
  /** Until when ARCA takes its report (the CAEA's FchTopeInf), when known. */
  tope_informe: z.string().nullable(),
  /** Still not reported and past that date: ARCA takes it late, and may deny new CAEAs meanwhile. */
  fuera_de_termino: z.boolean(),
  /** The first day ARCA takes its report: the day after its fortnight began (1414). */
  informable_desde: z.string(),
  error_codigo: z.string().nullable(),
  error_mensaje: z.string().nullable(),
});

export const caeaEstadoSchema = z.object({
  punto_venta: z.number().nullable(),
  tras_minutos: z.number(),
  /** When WSFE stopped answering (null while it answers). */
  wsfe_sin_respuesta_desde: z.string().nullable(),
  /** Invoices are being issued under the CAEA now. */
  en_contingencia: z.boolean(),
  vigente: caeaSchema.nullable(),
  proxima: caeaSchema.nullable(),
  /** Recent CAEAs, newest first. */
  caeas: z.array(caeaSchema),
  /** Issued under a CAEA and not yet reported, or rejected when reported. */
  por_informar: z.array(caeaComprobanteSchema),
});
export type CaeaEstado = z.infer<typeof caeaEstadoSchema>;

/** A CAEA code in Spanish with what to do; others as ARCA_ERROR_MESSAGES, else ARCA's own text. */
export const caeaErrorMessage = (codigo: string | null | undefined, original?: string | null) =>
  (codigo && CAEA_ERROR_MESSAGES[codigo]) || arcaErrorMessage(codigo, original);
