import type { FakeArca } from '../modules/facturacion/fake/fake-arca.js';
import type { CondicionFake } from '../modules/facturacion/fake/cuits.js';

/**
 * What ARCA's portal holds for a shop about to be configured against the fake ARCA (decision
 * 0039): its CUIT, with its IVA condition, and the puntos de venta of the config enabled for web
 * services. The tests that set up facturación call it with the config they PUT.
 */
export function registrarEnArca(
  fake: FakeArca,
  cfg: { cuit: string; punto_venta: number; puntos_venta?: number[]; condicion_iva?: string },
) {
  const condicion = (
    cfg.condicion_iva === 'monotributo' || cfg.condicion_iva === 'exento' ? cfg.condicion_iva : 'responsable_inscripto'
  ) as CondicionFake;
  return fake.registrar(cfg.cuit, { condicion, puntos_venta: [cfg.punto_venta, ...(cfg.puntos_venta ?? [])] });
}
