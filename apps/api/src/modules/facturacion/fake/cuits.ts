/*
 * What the fake ARCA knows of each CUIT, as ARCA's portal would: the puntos de venta enabled for
 * web services (with their emission type, CAE or CAEA, and whether they are blocked) and the IVA
 * condition ARCA holds for the person. Tests and the CLI register them (POST /__control/cuit).
 */

export type EmisionTipo = 'CAE' | 'CAEA';
export type CondicionFake = 'responsable_inscripto' | 'monotributo' | 'exento' | 'consumidor_final';

export interface PuntoVentaFake {
  nro: number;
  emision_tipo: EmisionTipo;
  bloqueado: boolean;
}

export interface CuitFake {
  condicion: CondicionFake;
  puntos_venta: Map<number, PuntoVentaFake>;
  /** The WSAA services its certificates may use (undefined: every service). */
  servicios?: string[];
  /** ARCA holds the CUIT as inactive (a receptor so is refused with 10247). */
  inactivo?: boolean;
}

export class CuitsFake {
  private byCuit = new Map<string, CuitFake>();

  get(cuit: string): CuitFake | undefined {
    return this.byCuit.get(cuit.replace(/-/g, ''));
  }

  /** Registers (or updates) a CUIT; puntos de venta given are added to the ones it has. */
  set(
    cuit: string,
    datos: {
      condicion?: CondicionFake;
      puntos_venta?: Partial<PuntoVentaFake>[];
      servicios?: string[];
      inactivo?: boolean;
    },
  ): CuitFake {
    const key = cuit.replace(/-/g, '');
    const c: CuitFake = this.byCuit.get(key) ?? { condicion: 'responsable_inscripto', puntos_venta: new Map() };
    if (datos.condicion) c.condicion = datos.condicion;
    if (datos.servicios) c.servicios = datos.servicios;
    if (datos.inactivo !== undefined) c.inactivo = datos.inactivo;
    for (const p of datos.puntos_venta ?? []) {
      const nro = Number(p.nro);
      c.puntos_venta.set(nro, { nro, emision_tipo: p.emision_tipo ?? 'CAE', bloqueado: p.bloqueado ?? false });
    }
    this.byCuit.set(key, c);
    return c;
  }

  puntoVenta(cuit: string, nro: number): PuntoVentaFake | undefined {
    return this.get(cuit)?.puntos_venta.get(nro);
  }

  clear() {
    this.byCuit.clear();
  }
}
