import type { CuadreLinea, Turno } from './caja.js';
import { centsToNumber } from './money.js';

/*
 * The closing of a turno on paper (printed and exported, issue 33): one row per counted medio
 * whose columns add up across, esperado = fondo + ventas + cobros + ingresos + retiros +
 * devoluciones (retiros and devoluciones as negative amounts), then the totals, then the sales on
 * account, which bring no money into the caja.
 */

export interface CierreFila {
  medio: string;
  fondo: number | null;
  ventas: number | null;
  cobros: number | null;
  ingresos: number | null;
  retiros: number | null;
  devoluciones: number | null;
  esperado: number | null;
  contado: number | null;
  diferencia: number | null;
  /** The totals row (printed in bold). */
  total?: boolean;
}

const AMOUNTS = ['fondo', 'ventas', 'cobros', 'ingresos', 'retiros', 'devoluciones', 'esperado'] as const;
const cents = (n: number) => Math.round(n * 100);

function fila(c: CuadreLinea): CierreFila {
  return {
    medio: c.nombre,
    fondo: c.fondo,
    ventas: c.ventas,
    cobros: c.cobros,
    ingresos: c.ingresos,
    retiros: c.retiros === 0 ? 0 : -c.retiros,
    devoluciones: c.devoluciones === 0 ? 0 : -c.devoluciones,
    esperado: c.esperado,
    contado: c.contado,
    diferencia: c.diferencia,
  };
}

/** The closing's rows; none while the figures are hidden from the caller (arqueo a ciegas). */
export function cierreFilas(t: Pick<Turno, 'cuadre' | 'por_medio' | 'estado'>): CierreFila[] {
  if (!t.cuadre) return [];
  const lines = t.cuadre.filter((c) => AMOUNTS.some((k) => c[k] !== 0) || (c.contado ?? 0) !== 0).map(fila);
  const sum = (k: keyof Omit<CierreFila, 'medio' | 'total'>) =>
    centsToNumber(lines.reduce((s, l) => s + cents(l[k] ?? 0), 0));
  const closed = t.estado === 'cerrado';
  const total: CierreFila = {
    medio: 'Total en caja',
    fondo: sum('fondo'),
    ventas: sum('ventas'),
    cobros: sum('cobros'),
    ingresos: sum('ingresos'),
    retiros: sum('retiros'),
    devoluciones: sum('devoluciones'),
    esperado: sum('esperado'),
    contado: closed ? sum('contado') : null,
    diferencia: closed ? sum('diferencia') : null,
    total: true,
  };
  const fiado = t.por_medio
    .filter((m) => m.tipo === 'cuenta_corriente' && (m.ventas !== 0 || m.devoluciones !== 0))
    .map((m) => ({
      medio: `${m.nombre} (no entra en caja)`,
      fondo: null,
      ventas: m.ventas,
      cobros: null,
      ingresos: null,
      retiros: null,
      devoluciones: m.devoluciones === 0 ? null : -m.devoluciones,
      esperado: null,
      contado: null,
      diferencia: null,
    }));
  return [...lines, total, ...fiado];
}
