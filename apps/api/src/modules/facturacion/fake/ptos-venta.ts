import type { FakeArca } from './fake-arca.js';

/*
 * The fake's FEParamGetPtosVenta (WSFEv1): the puntos de venta of the CUIT that fake/cuits.ts
 * knows, shaped as ARCA's WSDL says (ResultGet/PtoVenta with Nro, EmisionTipo, Bloqueado, FchBaja);
 * a CUIT without any answers ARCA's 602 "Sin Resultados".
 */
export function ptosVenta(f: FakeArca, cuit: string): Record<string, unknown> {
  const pvs = [...(f.cuits.get(cuit)?.puntos_venta.values() ?? [])].sort((a, b) => a.nro - b.nro);
  if (!pvs.length) return { Errors: { Err: { Code: 602, Msg: 'Sin Resultados: - en el metodo consultado' } } };
  return {
    ResultGet: {
      PtoVenta: pvs.map((p) => ({
        Nro: p.nro,
        EmisionTipo: p.emision_tipo === 'CAEA' ? 'CAEA - Ws' : 'CAE - Ws',
        Bloqueado: p.bloqueado ? 'S' : 'N',
        FchBaja: 'NULL',
      })),
    },
  };
}
