import { text, type XmlNode } from '../soap.js';
import type { CaeaFake, FakeArca } from './fake-arca.js';
import { proceso, ymd, type Obs } from './tablas.js';

/*
 * The fake's CAEA operations of WSFEv1 (decision 0047) but the report (caea-informe.ts):
 * FECAEASolicitar, FECAEAConsultar, FECAEASinMovimientoInformar and FECAEASinMovimientoConsultar,
 * with the codes of the developer manual (v4.7): a CAEA is requested for a fortnight (Periodo
 * yyyymm, Orden 1 days 1–15, 2 the rest) from 5 calendar days before it starts and during it, once
 * (15008 after); only a CUIT with a punto de venta of emission type CAEA (15003) and, since RG
 * 5782, one with a CAE punto de venta as its main modality (15016) gets one. An unused CAEA is
 * informed without movement per punto de venta, after its vigencia began (1203), once (1209), and
 * only if no comprobante used it there (1202). Dates are Argentina's (UTC−3) on the fake's clock.
 */

const DIAS_ANTES = 5;
/** Days after the fortnight ARCA gives to report its comprobantes (FchTopeInf; RG 5782, art. 6). */
const DIAS_TOPE = 8;

export const hoyAr = (f: FakeArca) => ymd(new Date(f.now().getTime() - 3 * 3600_000));
const dateOf = (s: string) => new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T12:00:00Z`);
export const masDias = (s: string, n: number) => {
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

export const puntoCaea = (f: FakeArca, cuit: string, pv: number) => {
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
export const porCodigo = (f: FakeArca, code: string) => [...f.caeas.values()].find((c) => c.caea === code);

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
        return wrap(err(15003, 'CUIT sin puntos de venta activos bajo el regimen CAEA.'));
      if (!pvs.some((p) => p.emision_tipo === 'CAE' && !p.bloqueado)) {
        return wrap(
          err(
            15016,
            'El regimen CAEA se aplica solo a contingencias (RG 5782/2025): requiere un punto de venta activo con CAE como modalidad principal.',
          ),
        );
      }
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
      if (!/^\d{14}$/.test(code))
        return wrap(out('R', { Code: 1207, Msg: 'El CAEA debe informarse con formato valido.' }));
      if (!(pv >= 1 && pv <= 99998))
        return wrap(out('R', { Code: 1206, Msg: 'El punto de venta debe estar comprendido entre 1 y 99998.' }));
      const c = porCodigo(f, code);
      if (!c) return wrap(out('R', { Code: 1200, Msg: 'El codigo de autorizacion debe ser del tipo CAEA' }));
      if (c.cuit !== cuit)
        return wrap(out('R', { Code: 1201, Msg: 'El CAEA no corresponde a la CUIT del emisor informada en Auth.' }));
      if (!puntoCaea(f, cuit, pv))
        return wrap(out('R', { Code: 1204, Msg: 'El punto de venta debe estar habilitado para el regimen CAEA.' }));
      if (hoyAr(f) <= c.desde) {
        return wrap(
          out('R', {
            Code: 1203,
            Msg: 'La fecha de envio debe ser posterior a la fecha de inicio de vigencia del CAEA informado.',
          }),
        );
      }
      const usado = [...(f.books.get(cuit)?.entries() ?? [])].some(
        ([k, book]) => k.startsWith(`${pv}/`) && [...book.values()].some((a) => a.cae === code),
      );
      if (usado) {
        return wrap(out('R', { Code: 1202, Msg: 'El CAEA / punto de venta fue utilizado en algun comprobante.' }));
      }
      const key = `${code}|${pv}`;
      if (f.sinMovimiento.has(key)) {
        return wrap(out('R', { Code: 1209, Msg: 'El punto de venta ya fue informado sin movimiento para este CAEA.' }));
      }
      f.sinMovimiento.set(key, proceso(f.now()));
      return wrap({ ...out('A'), FchProceso: f.sinMovimiento.get(key) });
    }
    case 'FECAEASinMovimientoConsultar': {
      const pv = Number(text(arg.PtoVta));
      const code = text(arg.CAEA);
      const rows = [...f.sinMovimiento.entries()]
        .map(([k, FchProceso]) => ({ k: k.split('|'), FchProceso }))
        .filter(({ k }) => porCodigo(f, k[0])?.cuit === cuit && (!code || k[0] === code) && Number(k[1]) === pv)
        .map(({ k, FchProceso }) => ({ CAEA: k[0], FchProceso, PtoVta: pv }));
      if (code && !/^\d{14}$/.test(code)) return wrap(err(10100, 'No ingreso el CAEA o el formato es invalido.'));
      if (!(pv >= 1 && pv <= 99998)) return wrap(err(10101, 'No ingreso el punto de venta o el formato es invalido.'));
      return wrap(
        rows.length
          ? { ResultGet: { FECAEASinMov: rows } }
          : err(
              10102,
              'El CAEA informado no se encuentra registrado en las bases de la Administracion como sin movimientos.',
            ),
      );
    }
    default:
      throw new Error(`Operación desconocida: ${op}`);
  }
}
