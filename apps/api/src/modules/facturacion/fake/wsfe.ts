import type { ServerResponse } from 'node:http';
import { CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS, normalizeCuit } from '@mostrador/shared';
import { envelope, list, node, text, toXml, type XmlNode } from '../soap.js';
import type { CondicionFake } from './cuits.js';
import type { Approved, FakeArca } from './fake-arca.js';
import { PADRON_SEED } from './padron.js';
import { ptosVenta } from './ptos-venta.js';
import { authError } from './wsaa.js';
import { caea } from './caea.js';

/*
 * The fake's WSFEv1 (decision 0040): FEDummy, FECompUltimoAutorizado, FECAESolicitar,
 * FECompConsultar and the FEParamGet* tables. Strict by default: FECAESolicitar applies the
 * developer manual's rejections with the manual's codes, knowing each CUIT's condition and enabled
 * puntos de venta from the fake's registry (fake.cuits) and the padrón seed, and every answer is
 * valid against the XSD of ARCA's WSDL (the contract tests check it). `faults.lenient` brings
 * back the old fake (numbering, totals and letter only).
 */

export const NS_WSFE = 'http://ar.gov.afip.dif.FEV1/';

type Letra = 'A' | 'B' | 'C';
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
const NOTAS = new Set([2, 3, 7, 8, 12, 13]);

/* ---------------------------------------------------------------- the FEParamGet* tables */

const DESDE = '20100917';
const TIPOS_CBTE: [number, string][] = [
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
const TIPOS_DOC: [number, string][] = [
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
const TIPOS_IVA: Record<number, [string, number, string]> = {
  3: ['0%', 0, '20090220'],
  4: ['10.5%', 105, '20090220'],
  5: ['21%', 210, '20090220'],
  6: ['27%', 270, '20090220'],
  8: ['5%', 50, '20141020'],
  9: ['2.5%', 25, '20141020'],
};
const TIPOS_CONCEPTO: [number, string][] = [
  [1, 'Producto'],
  [2, 'Servicios'],
  [3, 'Productos y Servicios'],
];
/** CondicionIVAReceptorId → description and the classes it may receive. */
const CONDICIONES: [number, string, Letra[]][] = [
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
/** The CondicionIVAReceptorId values that match the condition ARCA holds for a CUIT. */
const IDS_DE_CONDICION: Record<CondicionFake, number[]> = {
  responsable_inscripto: [1],
  monotributo: [6, 13, 16],
  exento: [4],
  consumidor_final: [5, 7, 15],
};
/** The classes an emisor in each condition issues. */
const CLASES_DE_EMISOR: Record<CondicionFake, Letra[]> = {
  responsable_inscripto: ['A', 'B'],
  monotributo: ['C'],
  exento: ['C'],
  consumidor_final: [],
};

const cents = (v: unknown) => Math.round(Number(text(v)) * 100);
const pad = (n: number) => String(n).padStart(2, '0');
export const ymd = (d: Date) => `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
/** FchProceso as ARCA answers it: yyyymmddhhmmss. */
export const proceso = (d: Date) =>
  `${ymd(d)}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
const validYmd = (s: string) => {
  if (!/^\d{8}$/.test(s)) return false;
  const d = new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && ymd(d) === s;
};

/** The condition ARCA holds for a CUIT: the registry first, then the padrón seed. */
function condicionDe(f: FakeArca, cuit: string): CondicionFake | undefined {
  const c = f.cuits.get(cuit);
  if (c) return c.condicion;
  const p = PADRON_SEED[cuit];
  if (!p || p.errorConstancia) return undefined;
  if (p.monotributo) return 'monotributo';
  const imp = (p.impuestos ?? []).map(([id]) => id);
  return imp.includes(30) ? 'responsable_inscripto' : imp.includes(32) ? 'exento' : 'consumidor_final';
}
const inactivo = (f: FakeArca, cuit: string) =>
  !!f.cuits.get(cuit)?.inactivo || PADRON_SEED[cuit]?.estadoClave === 'INACTIVO';

export function wsfe(f: FakeArca, op: string, arg: XmlNode, res: ServerResponse): string | null {
  const wrap = (inner: Record<string, unknown>) =>
    envelope(`<${op}Response xmlns="${NS_WSFE}"><${op}Result>${toXml(inner)}</${op}Result></${op}Response>`, NS_WSFE);
  if (op === 'FEDummy') return wrap({ AppServer: 'OK', DbServer: 'OK', AuthServer: 'OK' });
  const auth = node(arg.Auth);
  const err = authError(f, auth, 'wsfe');
  if (err) return wrap({ Errors: { Err: err } });
  const cuit = text(auth.Cuit);
  const param = (rows: Record<string, unknown>[], item: string) => wrap({ ResultGet: { [item]: rows } });
  switch (op) {
    case 'FECompUltimoAutorizado': {
      const pv = Number(text(arg.PtoVta));
      const tipo = Number(text(arg.CbteTipo));
      const nros = [...f.book(cuit, pv, tipo).keys()];
      return wrap({ PtoVta: pv, CbteTipo: tipo, CbteNro: nros.length ? Math.max(...nros) : 0 });
    }
    case 'FECompConsultar':
      return consultar(f, cuit, node(arg.FeCompConsReq), wrap);
    case 'FECAESolicitar':
      return solicitar(f, cuit, node(arg.FeCAEReq), wrap, res);
    case 'FECAEASolicitar':
    case 'FECAEAConsultar':
    case 'FECAEARegInformativo':
    case 'FECAEASinMovimientoInformar':
    case 'FECAEASinMovimientoConsultar':
      return caea(f, op, cuit, arg, wrap); // fake/caea.ts
    case 'FEParamGetPtosVenta':
      return wrap(ptosVenta(f, cuit)); // fake/ptos-venta.ts
    case 'FEParamGetTiposCbte':
      return param(
        TIPOS_CBTE.map(([Id, Desc]) => ({ Id, Desc, FchDesde: DESDE, FchHasta: 'NULL' })),
        'CbteTipo',
      );
    case 'FEParamGetTiposDoc':
      return param(
        TIPOS_DOC.map(([Id, Desc]) => ({ Id, Desc, FchDesde: DESDE, FchHasta: 'NULL' })),
        'DocTipo',
      );
    case 'FEParamGetTiposIva':
      return param(
        Object.entries(TIPOS_IVA).map(([Id, [Desc, , FchDesde]]) => ({ Id, Desc, FchDesde, FchHasta: 'NULL' })),
        'IvaTipo',
      );
    case 'FEParamGetTiposConcepto':
      return param(
        TIPOS_CONCEPTO.map(([Id, Desc]) => ({ Id, Desc, FchDesde: DESDE, FchHasta: 'NULL' })),
        'ConceptoTipo',
      );
    case 'FEParamGetCondicionIvaReceptor': {
      const clase = text(arg.ClaseCmp).toUpperCase();
      return param(
        CONDICIONES.filter(([, , clases]) => !clase || clases.includes(clase as Letra)).map(([Id, Desc, clases]) => ({
          Id,
          Desc,
          Cmp_Clase: clases.includes('A') ? 'A/M/C' : 'B/C',
        })),
        'CondicionIvaReceptor',
      );
    }
    default:
      throw new Error(`Operación desconocida: ${op}`);
  }
}

/** The FECAEDetRequest fields in the schema's order (FECompConsResponse extends it). */
const DET_FIELDS = [
  'Concepto',
  'DocTipo',
  'DocNro',
  'CbteDesde',
  'CbteHasta',
  'CbteFch',
  'ImpTotal',
  'ImpTotConc',
  'ImpNeto',
  'ImpOpEx',
  'ImpTrib',
  'ImpIVA',
  'FchServDesde',
  'FchServHasta',
  'FchVtoPago',
  'MonId',
  'MonCotiz',
  'CanMisMonExt',
  'CondicionIVAReceptorId',
  'CbtesAsoc',
  'Tributos',
  'Iva',
  'Opcionales',
  'Compradores',
  'PeriodoAsoc',
  'Actividades',
];

function consultar(f: FakeArca, cuit: string, q: XmlNode, wrap: (x: Record<string, unknown>) => string) {
  const pv = Number(text(q.PtoVta));
  const tipo = Number(text(q.CbteTipo));
  const a = f.book(cuit, pv, tipo).get(Number(text(q.CbteNro)));
  if (!a) {
    return wrap({
      Errors: { Err: { Code: 602, Msg: 'No existen datos en nuestros registros para los parametros ingresados.' } },
    });
  }
  const det = a.det ?? {};
  const record: Record<string, unknown> = {};
  for (const k of DET_FIELDS) if (det[k] !== undefined && det[k] !== '') record[k] = det[k];
  return wrap({
    ResultGet: {
      ...record,
      Resultado: 'A',
      CodAutorizacion: a.cae,
      EmisionTipo: a.emision ?? 'CAE',
      FchVto: a.vto,
      FchProceso: a.proceso ?? `${a.fecha}000000`,
      PtoVta: pv,
      CbteTipo: tipo,
    },
  });
}

export interface Obs {
  Code: number | string;
  Msg: string;
}

/** The cabecera's rejections: the emisor's class and the punto de venta (Errors). */
function cabeceraErrors(f: FakeArca, cuit: string, pv: number, tipo: number): Obs[] {
  const letra = LETRA_DE_TIPO[tipo];
  if (!letra) return [{ Code: 10007, Msg: 'El campo CbteTipo no es valido. Consultar metodo FEParamGetTiposCbte.' }];
  if (f.faults.lenient) return [];
  const out: Obs[] = [];
  const emisor = f.cuits.get(cuit);
  if (emisor && !CLASES_DE_EMISOR[emisor.condicion].includes(letra)) {
    out.push({
      Code: 10000,
      Msg: `El CUIT ${cuit} no se encuentra autorizado a emitir comprobantes clase ${letra} por su condicion frente al IVA.`,
    });
  }
  const p = f.cuits.puntoVenta(cuit, pv);
  if (!p || p.bloqueado || p.emision_tipo !== 'CAE') {
    out.push({
      Code: 10005,
      Msg: `El punto de venta ${pv} no se encuentra habilitado para emitir comprobantes electronicos con CAE por web services${
        p?.bloqueado ? ' (bloqueado)' : p ? ' (habilitado solo para CAEA)' : ''
      }. Consultar metodo FEParamGetPtosVenta.`,
    });
  }
  return out;
}

/** The detail's rejections (Observaciones with Resultado R) and its observations (approved). */
export function detalle(f: FakeArca, cuit: string, tipo: number, det: XmlNode, last: Approved | undefined) {
  const letra = LETRA_DE_TIPO[tipo];
  const rej: Obs[] = [];
  const obs: Obs[] = [];
  const strict = !f.faults.lenient;
  const nro = Number(text(det.CbteDesde));
  const fecha = text(det.CbteFch);
  const concepto = Number(text(det.Concepto));
  const docTipo = Number(text(det.DocTipo));
  const docNro = text(det.DocNro);
  const total = cents(det.ImpTotal);
  const neto = cents(det.ImpNeto);
  const iva = cents(det.ImpIVA);
  const alic = list(node(det.Iva).AlicIva).map(node);
  const condRaw = text(det.CondicionIVAReceptorId);
  const cond = Number(condRaw);
  const lastNro = last?.nro ?? 0;

  if (nro !== lastNro + 1 || text(det.CbteHasta) !== text(det.CbteDesde) || (last && fecha && fecha < last.fecha)) {
    rej.push({
      Code: 10016,
      Msg: `El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado. Ultimo: ${lastNro}`,
    });
  }
  if (neto + iva + cents(det.ImpTrib) + cents(det.ImpOpEx) + cents(det.ImpTotConc) !== total) {
    rej.push({
      Code: 10048,
      Msg: 'El campo ImpTotal debe ser igual a la suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.',
    });
  }
  if (letra === 'C' && (alic.length || iva !== 0))
    rej.push({ Code: 10071, Msg: 'Para comprobantes tipo C el objeto IVA no debe informarse.' });
  if (letra && letra !== 'C') {
    if (strict && neto > 0 && !alic.length) {
      rej.push({ Code: 10070, Msg: 'Si ImpNeto es mayor a 0 el objeto IVA es obligatorio.' });
    }
    if (alic.some((a) => cents(a.BaseImp) <= 0 || !TIPOS_IVA[Number(text(a.Id))])) {
      rej.push({
        Code: 10020,
        Msg: 'Los registros de AlicIva deben informar un Id valido (FEParamGetTiposIva) y un BaseImp mayor a 0.',
      });
    }
    if (alic.length && alic.reduce((s, a) => s + cents(a.BaseImp), 0) !== neto) {
      rej.push({ Code: 10023, Msg: 'La suma de los campos BaseImp de AlicIva debe ser igual al campo ImpNeto.' });
    }
    if (alic.reduce((s, a) => s + cents(a.Importe), 0) !== iva) {
      rej.push({ Code: 10061, Msg: 'La suma de los campos Importe de AlicIva debe ser igual al campo ImpIVA.' });
    }
    const mal = alic.find((a) => {
      const rate = TIPOS_IVA[Number(text(a.Id))];
      return rate && Math.abs(cents(a.Importe) - Math.round((cents(a.BaseImp) * rate[1]) / 1000)) > 1;
    });
    if (strict && mal) {
      rej.push({
        Code: 10051,
        Msg: `El campo Importe de AlicIva (Id ${text(mal.Id)}) no se corresponde con BaseImp por la alicuota informada.`,
      });
    }
  }
  if (strict) {
    const servicio = [text(det.FchServDesde), text(det.FchServHasta), text(det.FchVtoPago)];
    if (![1, 2, 3].includes(concepto)) {
      rej.push({ Code: 10044, Msg: 'El campo Concepto no es valido. Consultar metodo FEParamGetTiposConcepto.' });
    } else if (concepto === 1) {
      if (servicio.some(Boolean)) {
        rej.push({
          Code: 10043,
          Msg: 'Si el Concepto es 1 (Productos) no deben informarse FchServDesde, FchServHasta ni FchVtoPago.',
        });
      }
    } else if (!servicio.every(Boolean)) {
      rej.push({
        Code: 10049,
        Msg: 'Si el Concepto es 2 o 3 (Servicios) los campos FchServDesde, FchServHasta y FchVtoPago son obligatorios.',
      });
    } else {
      const [desde, hasta, vto] = servicio;
      if (!validYmd(desde)) rej.push({ Code: 10037, Msg: 'El campo FchServDesde debe ser una fecha valida yyyymmdd.' });
      if (!validYmd(hasta) || hasta < desde) {
        rej.push({
          Code: 10038,
          Msg: 'El campo FchServHasta debe ser una fecha valida yyyymmdd, igual o posterior a FchServDesde.',
        });
      }
      if (!validYmd(vto) || (fecha && vto < fecha)) {
        rej.push({
          Code: 10039,
          Msg: 'El campo FchVtoPago debe ser una fecha valida yyyymmdd, igual o posterior a la fecha del comprobante.',
        });
      }
    }
    if (text(det.MonId) !== 'PES' || Number(text(det.MonCotiz)) !== 1) {
      rej.push({ Code: 10056, Msg: 'Para MonId PES (pesos argentinos) el campo MonCotiz debe ser 1.' });
    }
  }
  // The receptor: its condition, its document, and what ARCA knows of it.
  if (!condRaw) {
    rej.push({
      Code: 10246,
      Msg: 'Campo Condicion Frente al IVA del receptor es obligatorio conforme a lo reglamentado por la Resolucion General Nro 5616. Consultar metodo FEParamGetCondicionIvaReceptor.',
    });
  } else if (!CONDICIONES.some(([id]) => id === cond)) {
    rej.push({
      Code: 10242,
      Msg: 'El campo Condicion Frente al IVA del receptor no es un valor permitido. Consultar metodo FEParamGetCondicionIvaReceptor.',
    });
  } else if (letra && !CONDICIONES.find(([id]) => id === cond)![2].includes(letra)) {
    rej.push({
      Code: 10243,
      Msg: 'El campo Condicion Frente al IVA del receptor no es valido para la clase de comprobante informado. Consultar metodo FEParamGetCondicionIvaReceptor.',
    });
  }
  if (letra === 'A' && docTipo !== 80)
    rej.push({ Code: 10013, Msg: 'Para comprobantes clase A el campo DocTipo debe ser 80 (CUIT).' });
  if (strict) {
    const clave = [80, 86, 87].includes(docTipo);
    if (clave && !normalizeCuit(docNro)) {
      rej.push({
        Code: 10015,
        Msg: `El campo DocNro ${docNro} no es una CUIT, CUIL o CDI valida para DocTipo ${docTipo}.`,
      });
    } else if (docTipo !== 99 && !(Number(docNro) > 0)) {
      rej.push({ Code: 10015, Msg: 'El campo DocNro debe ser mayor a 0 si DocTipo no es 99.' });
    } else if (!TIPOS_DOC.some(([id]) => id === docTipo)) {
      rej.push({ Code: 10015, Msg: 'El campo DocTipo no es valido. Consultar metodo FEParamGetTiposDoc.' });
    }
  }
  if (letra === 'B' && docTipo === 99 && total >= CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS) {
    rej.push({
      Code: 10015,
      Msg: 'Si ImpTotal es mayor o igual al monto vigente para consumidores finales, DocTipo no puede ser 99: debe identificarse al receptor.',
    });
  }
  if (strict && docTipo === 80) {
    if (inactivo(f, docNro)) {
      rej.push({ Code: 10247, Msg: `El CUIT receptor ${docNro} no se encuentra activo en los registros de ARCA.` });
    }
    const held = condicionDe(f, docNro);
    if (held && condRaw && !IDS_DE_CONDICION[held].includes(cond)) {
      obs.push({
        Code: 10041,
        Msg: 'La Condicion Frente al IVA del receptor informada no coincide con la registrada en ARCA para el CUIT.',
      });
    }
    if (letra === 'A' && held === 'monotributo') {
      obs.push({
        Code: 10217,
        Msg: 'El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Regimen de Sostenimiento e Inclusion Fiscal para Pequeños Contribuyentes de la Ley Nº 27.618.',
      });
    }
  }
  if (NOTAS.has(tipo)) {
    const asoc = list(node(det.CbtesAsoc).CbteAsoc).map(node);
    if (!asoc.length)
      rej.push({ Code: 10197, Msg: 'Para notas de credito y debito es obligatorio informar CbtesAsoc.' });
    for (const a of asoc) {
      if (!f.book(cuit, Number(text(a.PtoVta)), Number(text(a.Tipo))).get(Number(text(a.Nro)))) {
        rej.push({ Code: 10198, Msg: 'El comprobante asociado informado en CbtesAsoc no existe.' });
      }
    }
  }
  return { rej, obs };
}

export function solicitar(
  f: FakeArca,
  cuit: string,
  req: XmlNode,
  wrap: (x: Record<string, unknown>) => string,
  res: ServerResponse,
) {
  f.solicitudes++;
  const now = new Date();
  const cab = node(req.FeCabReq);
  const pv = Number(text(cab.PtoVta));
  const tipo = Number(text(cab.CbteTipo));
  const det = node(list(node(req.FeDetReq).FECAEDetRequest)[0]);
  const nro = Number(text(det.CbteDesde));
  const book = f.book(cuit, pv, tipo);
  const last = book.size ? book.get(Math.max(...book.keys())) : undefined;
  const fecha = text(det.CbteFch) || ymd(now);
  const cabResp = (r: 'A' | 'R') => ({
    Cuit: cuit,
    PtoVta: pv,
    CbteTipo: tipo,
    FchProceso: proceso(now),
    CantReg: 1,
    Resultado: r,
    Reproceso: 'N',
  });
  const detResp = (r: 'A' | 'R', obs: Obs[], cae = '', vto = '') => ({
    FECAEDetResponse: {
      Concepto: Number(text(det.Concepto)) || 0,
      DocTipo: Number(text(det.DocTipo)) || 0,
      DocNro: text(det.DocNro) || '0',
      CbteDesde: nro,
      CbteHasta: nro,
      CbteFch: fecha,
      Resultado: r,
      ...(obs.length ? { Observaciones: { Obs: obs } } : {}),
      CAE: cae,
      CAEFchVto: vto,
    },
  });
  const errors = cabeceraErrors(f, cuit, pv, tipo);
  if (errors.length) return wrap({ FeCabResp: cabResp('R'), FeDetResp: detResp('R', []), Errors: { Err: errors } });
  const { rej, obs } = detalle(f, cuit, tipo, det, last);
  if (f.faults.reject_code)
    rej.push({ Code: f.faults.reject_code, Msg: `Rechazo simulado (${f.faults.reject_code}).` });
  if (rej.length) return wrap({ FeCabResp: cabResp('R'), FeDetResp: detResp('R', [...rej, ...obs]) });
  const vtoDate = new Date(`${fecha.slice(0, 4)}-${fecha.slice(4, 6)}-${fecha.slice(6, 8)}T12:00:00Z`);
  vtoDate.setUTCDate(vtoDate.getUTCDate() + 10);
  const cae = String(70000000000000 + Math.floor(Math.random() * 9_999_999_999_999)).slice(0, 14);
  const a: Approved = {
    nro,
    fecha,
    cae,
    vto: ymd(vtoDate),
    total: cents(det.ImpTotal),
    docTipo: Number(text(det.DocTipo)),
    docNro: text(det.DocNro),
    det,
    proceso: proceso(now),
  };
  book.set(nro, a);
  if (f.faults.timeout_after_approve) {
    f.hanging.add(res);
    res.on('close', () => f.hanging.delete(res));
    return null;
  }
  return wrap({ FeCabResp: cabResp('A'), FeDetResp: detResp('A', obs, cae, a.vto) });
}
