import { describe, expect, it } from 'vitest';
import { milliToDecimal, neutralizeCell, parseMilli } from './catalog.js';
import { fieldOfHeader, foldHeader } from './imports.js';
import { effectiveState, nextCharge } from './subscriptions.js';
import { normalizeDocument } from './customers.js';

describe('quantities', () => {
  it('parses up to three decimals exactly, as thousandths', () => {
    expect(parseMilli('12.345')).toBe(12345);
    expect(parseMilli(0.1)).toBe(100);
    expect(parseMilli('-2')).toBe(-2000);
    expect(parseMilli('1e3')).toBeNull();
    expect(parseMilli('1,5')).toBeNull();
    expect(milliToDecimal(-1500)).toBe('-1.500');
  });
});

describe('exports', () => {
  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(['=SUM(A1)', '+54 11', '-3', '@x', '\tA', '\rB', 'Yerba'].map(neutralizeCell)).toEqual([
      "'=SUM(A1)",
      "'+54 11",
      "'-3",
      "'@x",
      "'\tA",
      "'\rB",
      'Yerba',
    ]);
  });
});

describe('import headers', () => {
  it('recognises Spanish headers and synonyms ignoring case, accents, spaces and punctuation', () => {
    expect(foldHeader(' Código de Barras ')).toBe('codigodebarras');
    expect(
      [
        'Artículo',
        'PVP',
        'Cód.',
        'EAN',
        'Costo',
        'Existencias',
        'Stock mín.',
        'U.M.',
        'Rubro',
        'Habilitado',
        'Proveedor',
      ].map(fieldOfHeader),
    ).toEqual([
      'nombre',
      'precio_venta',
      'codigo',
      'codigo_barras',
      'precio_compra',
      'stock_actual',
      'stock_minimo',
      'unidad',
      'categoria_nombre',
      'activo',
      null,
    ]);
  });
});

describe('documents', () => {
  it('normalises DNI digits and CUIT/CUIL with their check digit', () => {
    expect(normalizeDocument('DNI', '30.111.222')).toEqual({ ok: true, value: '30111222' });
    expect(normalizeDocument('DNI', '123')).toMatchObject({ ok: false });
    expect(normalizeDocument('CUIT', '20123456786')).toEqual({ ok: true, value: '20-12345678-6' });
    expect(normalizeDocument('CUIL', '20-12345678-0')).toMatchObject({ ok: false, message: 'CUIT/CUIL no válido.' });
  });
});

describe('subscriptions', () => {
  const s = (
    frecuencia: Parameters<typeof nextCharge>[0]['frecuencia'],
    fecha_inicio: string,
    fecha_fin: string | null = null,
  ) => ({
    frecuencia,
    fecha_inicio,
    fecha_fin,
  });
  it('finds the next charge on or after today, clamping the day to the month end', () => {
    expect(nextCharge(s('mensual', '2026-01-31'), '2026-02-01')).toBe('2026-02-28');
    expect(nextCharge(s('mensual', '2026-01-31'), '2026-03-01')).toBe('2026-03-31');
    expect(nextCharge(s('mensual', '2024-01-31'), '2024-02-29')).toBe('2024-02-29');
    expect(nextCharge(s('semanal', '2026-03-02'), '2026-03-09')).toBe('2026-03-09');
    expect(nextCharge(s('anual', '2024-02-29'), '2025-03-01')).toBe('2026-02-28');
    expect(nextCharge(s('mensual', '2026-01-10', '2026-03-09'), '2026-03-01')).toBeNull();
  });
  it('reads an active subscription past its end as vencida', () => {
    expect(effectiveState('activa', '2026-03-01', '2026-03-02')).toBe('vencida');
    expect(effectiveState('activa', '2026-03-02', '2026-03-02')).toBe('activa');
    expect(effectiveState('pausada', '2026-03-01', '2026-03-02')).toBe('pausada');
  });
});
