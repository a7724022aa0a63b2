import type { ServerResponse } from 'node:http';
import { envelope, list, node, text, toXml, type XmlNode } from '../soap.js';
import type { Approved, FakeArca } from './fake-arca.js';
import { ptosVenta } from './ptos-venta.js';
import { authError } from './wsaa.js';
import { caea } from './caea.js';
import { informar } from './caea-informe.js';
import {
  CLASES_DE_EMISOR,
  CONDICIONES,
  DESDE,
  LETRA_DE_TIPO,
  TIPOS_CBTE,
  TIPOS_CONCEPTO,
  TIPOS_DOC,
  TIPOS_IVA,
  cents,
  proceso,
  ymd,
  type Letra,
  type Obs,
} from './tablas.js';
import { detalle } from './wsfe-detalle.js';

/*
 * The fake's WSFEv1 (decision 0040): FEDummy, FECompUltimoAutorizado, FECAESolicitar,
 * FECompConsultar and the FEParamGet* tables. Strict by default: FECAESolicitar applies the
 * developer manual's rejections with the manual's codes (wsfe-detalle.ts), knowing each CUIT's condition and enabled
 * puntos de venta from the fake's registry (fake.cuits) and the padrón seed, and every answer is
 * valid against the XSD of ARCA's WSDL (the contract tests check it). `faults.lenient` brings
 * back the old fake (numbering, totals and letter only).
 */

export const NS_WSFE = 'http://ar.gov.afip.dif.FEV1/';

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
    case 'FECAEARegInformativo':
      return wrap(informar(f, cuit, node(arg.FeCAEARegInfReq))); // fake/caea-informe.ts
    case 'FECAEASolicitar':
    case 'FECAEAConsultar':
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
    obs: obs.map((o) => String(o.Code)),
  };
  book.set(nro, a);
  if (f.faults.timeout_after_approve) {
    f.hanging.add(res);
    res.on('close', () => f.hanging.delete(res));
    return null;
  }
  return wrap({ FeCabResp: cabResp('A'), FeDetResp: detResp('A', obs, cae, a.vto) });
}
