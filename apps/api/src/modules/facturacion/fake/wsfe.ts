import type { ServerResponse } from 'node:http';
import { CONDICIONES_ARCA_POR_LETRA, CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS, type Letra } from '@mostrador/shared';
import { envelope, list, node, text, toXml, type XmlNode } from '../soap.js';
import type { Approved, FakeArca } from './fake-arca.js';
import { ptosVenta } from './ptos-venta.js';
import { authError } from './wsaa.js';

/* The fake's WSFEv1: FEDummy, FECompUltimoAutorizado, FECAESolicitar, FECompConsultar, FEParamGet*. */

export const NS_WSFE = 'http://ar.gov.afip.dif.FEV1/';
const LETRA_DE_TIPO: Record<number, Letra> = { 1: 'A', 3: 'A', 6: 'B', 8: 'B', 11: 'C', 13: 'C' };
const NOTAS_CREDITO = new Set([3, 8, 13]);

const CONDICIONES = [
  [1, 'IVA Responsable Inscripto', 'A/M/C'],
  [4, 'IVA Sujeto Exento', 'B/C'],
  [5, 'Consumidor Final', 'B/C'],
  [6, 'Responsable Monotributo', 'A/M/C'],
  [7, 'Sujeto No Categorizado', 'B/C'],
  [15, 'IVA No Alcanzado', 'B/C'],
  [16, 'Monotributo Trabajador Independiente Promovido', 'A/M/C'],
] as const;

const cents = (v: unknown) => Math.round(Number(text(v)) * 100);
const ymd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

export function wsfe(f: FakeArca, op: string, arg: XmlNode, res: ServerResponse): string | null {
  const wrap = (inner: Record<string, unknown>) =>
    envelope(`<${op}Response xmlns="${NS_WSFE}"><${op}Result>${toXml(inner)}</${op}Result></${op}Response>`, NS_WSFE);
  if (op === 'FEDummy') return wrap({ AppServer: 'OK', DbServer: 'OK', AuthServer: 'OK' });
  const auth = node(arg.Auth);
  const err = authError(f, auth, 'wsfe');
  if (err) return wrap({ Errors: { Err: err } });
  const cuit = text(auth.Cuit);
  if (op === 'FECompUltimoAutorizado') {
    const pv = Number(text(arg.PtoVta));
    const tipo = Number(text(arg.CbteTipo));
    const nros = [...f.book(cuit, pv, tipo).keys()];
    return wrap({ PtoVta: pv, CbteTipo: tipo, CbteNro: nros.length ? Math.max(...nros) : 0 });
  }
  if (op === 'FECompConsultar') {
    const q = node(arg.FeCompConsReq);
    const pv = Number(text(q.PtoVta));
    const tipo = Number(text(q.CbteTipo));
    const a = f.book(cuit, pv, tipo).get(Number(text(q.CbteNro)));
    if (!a)
      return wrap({
        Errors: { Err: { Code: 602, Msg: 'No existen datos en nuestros registros para los parametros ingresados.' } },
      });
    return wrap({
      ResultGet: {
        Concepto: 1,
        DocTipo: a.docTipo,
        DocNro: a.docNro,
        CbteDesde: a.nro,
        CbteHasta: a.nro,
        CbteFch: a.fecha,
        ImpTotal: (a.total / 100).toFixed(2),
        MonId: 'PES',
        MonCotiz: 1,
        Resultado: 'A',
        CodAutorizacion: a.cae,
        EmisionTipo: 'CAE',
        FchVto: a.vto,
        FchProceso: a.fecha,
        PtoVta: pv,
        CbteTipo: tipo,
      },
    });
  }
  if (op === 'FEParamGetCondicionIvaReceptor') {
    const clase = text(arg.ClaseCmp) || 'A';
    return wrap({
      ResultGet: {
        CondicionIvaReceptor: CONDICIONES.filter(([id]) =>
          CONDICIONES_ARCA_POR_LETRA[clase as Letra]?.includes(id),
        ).map(([Id, Desc, Cmp_Clase]) => ({ Id, Desc, Cmp_Clase })),
      },
    });
  }
  if (op === 'FEParamGetPtosVenta') return wrap(ptosVenta(f, cuit)); // fake/ptos-venta.ts
  if (op === 'FECAESolicitar') return solicitar(f, cuit, node(arg.FeCAEReq), wrap, res);
  throw new Error(`Operación desconocida: ${op}`);
}

export function solicitar(
  f: FakeArca,
  cuit: string,
  req: XmlNode,
  wrap: (x: Record<string, unknown>) => string,
  res: ServerResponse,
) {
  f.solicitudes++;
  const cab = node(req.FeCabReq);
  const pv = Number(text(cab.PtoVta));
  const tipo = Number(text(cab.CbteTipo));
  const det = node(list(node(req.FeDetReq).FECAEDetRequest)[0]);
  const nro = Number(text(det.CbteDesde));
  const book = f.book(cuit, pv, tipo);
  const last = book.size ? Math.max(...book.keys()) : 0;
  const letra = LETRA_DE_TIPO[tipo];
  const obs: { Code: number | string; Msg: string }[] = [];
  const total = cents(det.ImpTotal);
  const neto = cents(det.ImpNeto);
  const iva = cents(det.ImpIVA);
  const alic = list(node(det.Iva).AlicIva).map(node);
  const cond = text(det.CondicionIVAReceptorId);
  const docTipo = Number(text(det.DocTipo));
  if (!letra) obs.push({ Code: 10007, Msg: 'El campo CbteTipo no es válido.' });
  if (nro !== last + 1 || text(det.CbteHasta) !== text(det.CbteDesde)) {
    obs.push({
      Code: 10016,
      Msg: `El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado. Ultimo: ${last}`,
    });
  }
  if (neto + iva + cents(det.ImpTrib) + cents(det.ImpOpEx) + cents(det.ImpTotConc) !== total) {
    obs.push({
      Code: 10048,
      Msg: 'El campo ImpTotal debe ser igual a la suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.',
    });
  }
  if (letra === 'C' && (alic.length || iva !== 0))
    obs.push({ Code: 10071, Msg: 'Para comprobantes tipo C no debe informarse el array de IVA.' });
  if (letra !== 'C' && alic.reduce((s, a) => s + cents(a.Importe), 0) !== iva) {
    obs.push({ Code: 10051, Msg: 'La suma de los importes del array de IVA no es igual al campo ImpIVA.' });
  }
  if (letra !== 'C' && alic.length && alic.reduce((s, a) => s + cents(a.BaseImp), 0) !== neto) {
    obs.push({ Code: 10051, Msg: 'La suma de las bases imponibles del array de IVA no es igual al campo ImpNeto.' });
  }
  if (!cond) obs.push({ Code: 10242, Msg: 'El campo Condicion Frente al IVA del receptor resulta obligatorio.' });
  else if (letra && !CONDICIONES_ARCA_POR_LETRA[letra].includes(Number(cond))) {
    obs.push({
      Code: 10243,
      Msg: 'El campo Condicion Frente al IVA del receptor no es valido para la clase de comprobante informado.',
    });
  }
  if (letra === 'A' && docTipo !== 80)
    obs.push({ Code: 10013, Msg: 'Para comprobantes clase A el campo DocTipo debe ser 80 (CUIT).' });
  if (letra === 'B' && docTipo === 99 && total >= CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS) {
    obs.push({
      Code: 10015,
      Msg: 'Si ImpTotal es mayor o igual al monto vigente, DocTipo no puede ser 99: debe identificarse al receptor.',
    });
  }
  if (NOTAS_CREDITO.has(tipo)) {
    const asoc = list(node(det.CbtesAsoc).CbteAsoc).map(node);
    if (!asoc.length) obs.push({ Code: 10197, Msg: 'Para notas de crédito es obligatorio informar CbtesAsoc.' });
    for (const a of asoc) {
      if (!f.book(cuit, Number(text(a.PtoVta)), Number(text(a.Tipo))).get(Number(text(a.Nro)))) {
        obs.push({ Code: 10198, Msg: 'El comprobante asociado no existe.' });
      }
    }
  }
  if (f.faults.reject_code)
    obs.push({ Code: f.faults.reject_code, Msg: `Rechazo simulado (${f.faults.reject_code}).` });
  const fecha = text(det.CbteFch) || ymd(new Date());
  const cab2 = { Cuit: cuit, PtoVta: pv, CbteTipo: tipo, FchProceso: ymd(new Date()), CantReg: 1, Reproceso: 'N' };
  const detResp = {
    Concepto: text(det.Concepto),
    DocTipo: docTipo,
    DocNro: text(det.DocNro),
    CbteDesde: nro,
    CbteHasta: nro,
    CbteFch: fecha,
  };
  if (obs.length) {
    return wrap({
      FeCabResp: { ...cab2, Resultado: 'R' },
      FeDetResp: {
        FECAEDetResponse: { ...detResp, Resultado: 'R', Observaciones: { Obs: obs }, CAE: '', CAEFchVto: '' },
      },
    });
  }
  const vtoDate = new Date(`${fecha.slice(0, 4)}-${fecha.slice(4, 6)}-${fecha.slice(6, 8)}T12:00:00Z`);
  vtoDate.setUTCDate(vtoDate.getUTCDate() + 10);
  const cae = String(70000000000000 + Math.floor(Math.random() * 9_999_999_999_999)).slice(0, 14);
  const a: Approved = { nro, fecha, cae, vto: ymd(vtoDate), total, docTipo, docNro: text(det.DocNro) };
  book.set(nro, a);
  if (f.faults.timeout_after_approve) {
    f.hanging.add(res);
    res.on('close', () => f.hanging.delete(res));
    return null;
  }
  return wrap({
    FeCabResp: { ...cab2, Resultado: 'A' },
    FeDetResp: { FECAEDetResponse: { ...detResp, Resultado: 'A', CAE: cae, CAEFchVto: a.vto } },
  });
}
