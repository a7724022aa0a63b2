import { list, node, text, type XmlNode } from '../soap.js';
import type { CaeaFake, FakeArca } from './fake-arca.js';
import { detalle, LETRA_DE_TIPO, proceso, ymd, type Obs } from './wsfe.js';

/*
 * The fake's CAEA operations of WSFEv1 (decision 0047): FECAEASolicitar, FECAEAConsultar,
 * FECAEARegInformativo, FECAEASinMovimientoInformar and FECAEASinMovimientoConsultar, strict as
 * the developer manual words them: a CAEA is requested for a fortnight (Periodo yyyymm, Orden 1
 * days 1–15, 2 the rest) from 5 calendar days before it starts and during it, once (15008 after);
 * only a CUIT with a punto de venta of emission type CAEA gets one (15003); comprobantes are
 * reported only on such a punto de venta, with the same checks as FECAESolicitar, numbers that
 * continue the punto de venta's, dates within the CAEA's vigencia and a CAEA of the CUIT; an
 * unused CAEA is informed without movement once its vigencia began and only if unused. Dates are
 * Argentina's (UTC−3) on the fake's clock.
 */

const DIAS_ANTES = 5;
/** Days after the fortnight ARCA gives to report its comprobantes (FchTopeInf). */
const DIAS_TOPE = 8;

const hoyAr = (f: FakeArca) => ymd(new Date(f.now().getTime() - 3 * 3600_000));
const dateOf = (s: string) => new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T12:00:00Z`);
const masDias = (s: string, n: number) => {
  const d = dateOf(s);
  d.setUTCDate(d.getUTCDate() + n);
  return ymd(d);
};

/** The fortnight's first and last day (YYYYMMDD), or null for a periodo or orden that is not one. */
function quincena(periodo: string, orden: string): { desde: string; hasta: string } | 'periodo' | 'orden' {
  if (!/^\d{6}$/.test(periodo) || Number(periodo.slice(4)) < 1 || Number(periodo.slice(4)) > 12) return 'periodo';
  if (orden !== '1' && orden !== '2') return 'orden';
  const y = Number(periodo.slice(0, 4));
  const m = Number(periodo.slice(4));
  const ultimo = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return orden === '1'
    ? { desde: `${periodo}01`, hasta: `${periodo}15` }
    : { desde: `${periodo}16`, hasta: `${periodo}${ultimo}` };
}

const puntoCaea = (f: FakeArca, cuit: string, pv: number) => {
  const p = f.cuits.puntoVenta(cuit, pv);
  return !!p && p.emision_tipo === 'CAEA' && !p.bloqueado;
};

const caeaGet = (c: CaeaFake) => ({
  ResultGet: {
    CAEA: c.caea,
    Periodo: c.periodo,
    Orden: c.orden,
    FchVigDesde: c.desde,
    FchVigHasta: c.hasta,
    FchTopeInf: c.tope,
    FchProceso: c.proceso,
  },
});

const err = (Code: number, Msg: string) => ({ Errors: { Err: { Code, Msg } } });

/** Which CAEA a code is, of any CUIT. */
const porCodigo = (f: FakeArca, code: string) => [...f.caeas.values()].find((c) => c.caea === code);

export function caea(
  f: FakeArca,
  op: string,
  cuit: string,
  arg: XmlNode,
  wrap: (x: Record<string, unknown>) => string,
): string {
  switch (op) {
    case 'FECAEASolicitar':
    case 'FECAEAConsultar': {
      const periodo = text(arg.Periodo);
      const orden = text(arg.Orden);
      const q = quincena(periodo, orden);
      if (q === 'periodo') return wrap(err(15004, 'Periodo no valido. Formato yyyymm.'));
      if (q === 'orden') return wrap(err(15005, 'Orden (quincena) no valida: 1 o 2.'));
      const key = `${cuit}|${Number(periodo)}|${Number(orden)}`;
      const had = f.caeas.get(key);
      if (op === 'FECAEAConsultar') {
        return wrap(had ? caeaGet(had) : err(602, 'Sin Resultados: - en el metodo consultado'));
      }
      const pvs = [...(f.cuits.get(cuit)?.puntos_venta.values() ?? [])];
      if (!pvs.some((p) => p.emision_tipo === 'CAEA' && !p.bloqueado))
        return wrap(err(15003, 'CUIT sin puntos de venta bajo el regimen CAEA.'));
      const hoy = hoyAr(f);
      if (hoy < masDias(q.desde, -DIAS_ANTES) || hoy > q.hasta) {
        return wrap(
          err(
            15006,
            'Fecha de envio no valida. Debe estar dentro de los 5 (cinco) dias corridos anteriores al inicio de la quincena o durante ella.',
          ),
        );
      }
      if (had) return wrap(err(15008, 'Ya existe un CAEA otorgado para el mismo CUIT, periodo y quincena.'));
      const c: CaeaFake = {
        cuit,
        caea: String(30000000000000 + Math.floor(Math.random() * 9_999_999_999_999)).slice(0, 14),
        periodo: Number(periodo),
        orden: Number(orden),
        desde: q.desde,
        hasta: q.hasta,
        tope: masDias(q.hasta, DIAS_TOPE),
        proceso: proceso(f.now()),
      };
      f.caeas.set(key, c);
      return wrap(caeaGet(c));
    }
    case 'FECAEARegInformativo':
      return wrap(informar(f, cuit, node(arg.FeCAEARegInfReq)));
    case 'FECAEASinMovimientoInformar': {
      const pv = Number(text(arg.PtoVta));
      const code = text(arg.CAEA);
      const out = (r: 'A' | 'R', e?: Obs) => ({
        CAEA: code,
        FchProceso: proceso(f.now()),
        PtoVta: pv,
        Resultado: r,
        ...(e ? { Errors: { Err: e } } : {}),
      });
      const c = porCodigo(f, code);
      if (!c) return wrap(out('R', { Code: 1200, Msg: 'El codigo de autorizacion informado no es de tipo CAEA.' }));
      if (c.cuit !== cuit)
        return wrap(out('R', { Code: 1201, Msg: 'El codigo de autorizacion informado no corresponde al CUIT.' }));
      if (!puntoCaea(f, cuit, pv))
        return wrap(
          out('R', { Code: 1204, Msg: 'El punto de venta informado no esta habilitado para utilizar CAEA.' }),
        );
      if (hoyAr(f) < c.desde)
        return wrap(
          out('R', { Code: 1203, Msg: 'El codigo de autorizacion informado aun no ha entrado en vigencia.' }),
        );
      const usado = [...(f.books.get(cuit)?.entries() ?? [])].some(
        ([k, book]) => k.startsWith(`${pv}/`) && [...book.values()].some((a) => a.cae === code),
      );
      if (usado) {
        return wrap(
          out('R', { Code: 1202, Msg: 'El codigo de autorizacion informado ya fue utilizado en algun comprobante.' }),
        );
      }
      const key = `${code}|${pv}`;
      if (!f.sinMovimiento.has(key)) f.sinMovimiento.set(key, proceso(f.now()));
      return wrap({ ...out('A'), FchProceso: f.sinMovimiento.get(key) });
    }
    case 'FECAEASinMovimientoConsultar': {
      const pv = Number(text(arg.PtoVta));
      const code = text(arg.CAEA);
      const rows = [...f.sinMovimiento.entries()]
        .map(([k, FchProceso]) => ({ k: k.split('|'), FchProceso }))
        .filter(({ k }) => porCodigo(f, k[0])?.cuit === cuit && (!code || k[0] === code) && Number(k[1]) === pv)
        .map(({ k, FchProceso }) => ({ CAEA: k[0], FchProceso, PtoVta: pv }));
      return wrap(
        rows.length ? { ResultGet: { FECAEASinMov: rows } } : err(602, 'Sin Resultados: - en el metodo consultado'),
      );
    }
    default:
      throw new Error(`Operación desconocida: ${op}`);
  }
}

/** FECAEARegInformativo: each detail checked as FECAESolicitar's, plus the CAEA's own rules. */
function informar(f: FakeArca, cuit: string, req: XmlNode): Record<string, unknown> {
  const cab = node(req.FeCabReq);
  const pv = Number(text(cab.PtoVta));
  const tipo = Number(text(cab.CbteTipo));
  const dets = list(node(req.FeDetReq).FECAEADetRequest).map(node);
  const now = f.now();
  const cabResp = (r: 'A' | 'R' | 'P') => ({
    Cuit: cuit,
    PtoVta: pv,
    CbteTipo: tipo,
    FchProceso: proceso(now),
    CantReg: dets.length,
    Resultado: r,
    Reproceso: 'N',
  });
  const detResp = (det: XmlNode, r: 'A' | 'R', obs: Obs[]) => ({
    Concepto: Number(text(det.Concepto)) || 0,
    DocTipo: Number(text(det.DocTipo)) || 0,
    DocNro: text(det.DocNro) || '0',
    CbteDesde: Number(text(det.CbteDesde)) || 0,
    CbteHasta: Number(text(det.CbteHasta)) || 0,
    CbteFch: text(det.CbteFch),
    Resultado: r,
    ...(obs.length ? { Observaciones: { Obs: obs } } : {}),
    CAEA: text(det.CAEA),
  });
  const cabErrors: Obs[] = [];
  if (!LETRA_DE_TIPO[tipo])
    cabErrors.push({ Code: 10007, Msg: 'El campo CbteTipo no es valido. Consultar metodo FEParamGetTiposCbte.' });
  if (!puntoCaea(f, cuit, pv)) {
    cabErrors.push({
      Code: 1204,
      Msg: `El punto de venta ${pv} no esta habilitado para informar comprobantes con CAEA. Consultar metodo FEParamGetPtosVenta.`,
    });
  }
  if (Number(text(cab.CantReg)) !== dets.length || !dets.length)
    cabErrors.push({ Code: 10001, Msg: 'El campo CantReg no coincide con la cantidad de registros informados.' });
  if (cabErrors.length) {
    return {
      FeCabResp: cabResp('R'),
      FeDetResp: { FECAEADetResponse: dets.map((d) => detResp(d, 'R', [])) },
      Errors: { Err: cabErrors },
    };
  }
  const book = f.book(cuit, pv, tipo);
  const out = dets.map((det) => {
    const last = book.size ? book.get(Math.max(...book.keys())) : undefined;
    const { rej, obs } = detalle(f, cuit, tipo, det, last);
    const code = text(det.CAEA);
    const c = porCodigo(f, code);
    const fecha = text(det.CbteFch);
    const generado = text(det.CbteFchHsGen);
    if (!c || c.cuit !== cuit) {
      rej.push({ Code: 1201, Msg: 'El CAEA informado no existe o no corresponde al CUIT.' });
    } else {
      if (!fecha || fecha < c.desde || fecha > c.hasta) {
        rej.push({
          Code: 1203,
          Msg: `El campo CbteFch debe estar dentro de la vigencia del CAEA (${c.desde} a ${c.hasta}).`,
        });
      }
      if (!/^\d{14}$/.test(generado) || generado.slice(0, 8) < c.desde || generado.slice(0, 8) > c.hasta) {
        rej.push({
          Code: 1203,
          Msg: 'El campo CbteFchHsGen debe ser yyyymmddhhmmss dentro de la vigencia del CAEA.',
        });
      }
      if (f.sinMovimiento.has(`${code}|${pv}`))
        rej.push({ Code: 1202, Msg: 'El CAEA fue informado sin movimiento para este punto de venta.' });
    }
    if (f.faults.reject_code)
      rej.push({ Code: f.faults.reject_code, Msg: `Rechazo simulado (${f.faults.reject_code}).` });
    if (rej.length) return detResp(det, 'R', [...rej, ...obs]);
    const nro = Number(text(det.CbteDesde));
    book.set(nro, {
      nro,
      fecha,
      cae: code,
      vto: c!.hasta,
      total: Math.round(Number(text(det.ImpTotal)) * 100),
      docTipo: Number(text(det.DocTipo)),
      docNro: text(det.DocNro),
      det: Object.fromEntries(Object.entries(det).filter(([k]) => k !== 'CAEA' && k !== 'CbteFchHsGen')),
      proceso: proceso(now),
      emision: 'CAEA',
    });
    return detResp(det, 'A', obs);
  });
  const aprobados = out.filter((d) => d.Resultado === 'A').length;
  return {
    FeCabResp: cabResp(aprobados === out.length ? 'A' : aprobados ? 'P' : 'R'),
    FeDetResp: { FECAEADetResponse: out },
  };
}
