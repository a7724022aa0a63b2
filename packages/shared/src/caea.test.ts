import { describe, expect, it } from 'vitest';
import { caeaErrorMessage, quincena, quincenaDe, quincenaSiguiente, quincenasAPedir, sumarDias } from './caea.js';

describe('CAEA fortnights (decision 0047)', () => {
  it('the first is days 1–15, the second 16 to the month’s last day (leap years too)', () => {
    expect(quincenaDe('2026-12-15')).toEqual({ periodo: 202612, orden: 1, desde: '2026-12-01', hasta: '2026-12-15' });
    expect(quincenaDe('2026-12-16')).toEqual({ periodo: 202612, orden: 2, desde: '2026-12-16', hasta: '2026-12-31' });
    expect(quincena(202602, 2).hasta).toBe('2026-02-28');
    expect(quincena(202802, 2).hasta).toBe('2028-02-29');
    expect(quincena(202611, 2).hasta).toBe('2026-11-30');
  });

  it('the next one crosses months and years', () => {
    expect(quincenaSiguiente(quincena(202612, 1))).toMatchObject({ periodo: 202612, orden: 2 });
    expect(quincenaSiguiente(quincena(202612, 2))).toMatchObject({ periodo: 202701, orden: 1, desde: '2027-01-01' });
    expect(sumarDias('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('asks the current one always and the next from 5 calendar days before it starts', () => {
    expect(quincenasAPedir('2026-12-10').map((q) => `${q.periodo}/${q.orden}`)).toEqual(['202612/1']);
    expect(quincenasAPedir('2026-12-11').map((q) => `${q.periodo}/${q.orden}`)).toEqual(['202612/1', '202612/2']);
    expect(quincenasAPedir('2026-12-27').map((q) => `${q.periodo}/${q.orden}`)).toEqual(['202612/2', '202701/1']);
    expect(quincenasAPedir('2026-12-26').map((q) => `${q.periodo}/${q.orden}`)).toEqual(['202612/2']);
  });

  it('CAEA codes in Spanish; others as the rest of ARCA’s, else ARCA’s own text', () => {
    expect(caeaErrorMessage('15003')).toMatch(/no tiene puntos de venta para CAEA/);
    expect(caeaErrorMessage('10048')).toMatch(/El total no coincide/);
    expect(caeaErrorMessage('99999', 'Algo raro')).toBe('ARCA rechazó el comprobante: Algo raro');
  });
});
