import { describe, expect, it } from 'vitest';
import {
  applyPercent,
  formaCiclo,
  listaDeVenta,
  listaPreciosInput,
  precioDeLista,
  type ListaRegla,
  type PrecioFijoRegla,
} from './precios.js';

const lista = (l: Partial<ListaRegla> & { id: string }): ListaRegla => ({
  tipo: 'porcentaje',
  baseListaId: null,
  porcentaje: 0,
  cantidadMinima: null,
  ...l,
});

const listas = new Map<string, ListaRegla>(
  [
    lista({ id: 'may', porcentaje: -1000 }),
    lista({ id: 'gremio', porcentaje: 550, baseListaId: 'may' }),
    lista({ id: 'bulto', porcentaje: -2000, cantidadMinima: 12_000 }),
    lista({ id: 'obra', tipo: 'fija', porcentaje: null, baseListaId: 'may' }),
    lista({ id: 'off', porcentaje: -5000, activo: false }),
  ].map((l) => [l.id, l]),
);
const fijos = new Map<string, PrecioFijoRegla>([['obra:martillo', { precio: 85_000, cantidadMinima: 6_000 }]]);
const price = (listaId: string | null, cantidad = 1000, producto = 'martillo', precioBase = 100_000) =>
  precioDeLista({ precioBase, listaId, cantidad, listas, fijo: (id) => fijos.get(`${id}:${producto}`) });

describe('precioDeLista', () => {
  it('Minorista, an unknown or an inactive list is the product’s own price', () => {
    expect(price(null)).toBe(100_000);
    expect(price('nada')).toBe(100_000);
    expect(price('off')).toBe(100_000);
  });

  it('a percentage over or under its base, chained, to the cent half up', () => {
    expect(price('may')).toBe(90_000);
    // 900 × 1.055 = 949.50
    expect(price('gremio')).toBe(94_950);
    // 333.33 × 0.9 = 299.997 → 300.00; 0.05 × 0.9 = 0.045 → 0.05
    expect(price('may', 1000, 'x', 33_333)).toBe(30_000);
    expect(price('may', 1000, 'x', 5)).toBe(5);
  });

  it('below the list’s minimum quantity the base applies', () => {
    expect(price('bulto', 11_999)).toBe(100_000);
    expect(price('bulto', 12_000)).toBe(80_000);
  });

  it('a fixed price from its own minimum; without one, the list’s base', () => {
    expect(price('obra', 6_000)).toBe(85_000);
    expect(price('obra', 5_999)).toBe(90_000);
    expect(price('obra', 6_000, 'clavos', 50_000)).toBe(45_000);
  });
});

describe('applyPercent', () => {
  it('is exact for large amounts and negative rounding ties', () => {
    expect(applyPercent(99_999_999_999_999, 1000)).toBe(109_999_999_999_999);
    expect(applyPercent(15, -5000)).toBe(8);
    expect(applyPercent(0, 1000)).toBe(0);
  });
});

describe('formaCiclo and listaDeVenta', () => {
  it('finds a loop through the chain of bases', () => {
    expect(formaCiclo(listas, 'may', 'gremio')).toBe(true);
    expect(formaCiclo(listas, 'may', 'may')).toBe(true);
    expect(formaCiclo(listas, 'gremio', 'bulto')).toBe(false);
    expect(formaCiclo(listas, 'bulto', null)).toBe(false);
  });

  it('uses the customer’s list unless another is asked for, which is an override', () => {
    expect(listaDeVenta(undefined, 'may')).toEqual({ lista: 'may', override: false });
    expect(listaDeVenta('may', 'may')).toEqual({ lista: 'may', override: false });
    expect(listaDeVenta(null, 'may')).toEqual({ lista: null, override: true });
    expect(listaDeVenta(undefined, null)).toEqual({ lista: null, override: false });
    expect(listaDeVenta('obra', null)).toEqual({ lista: 'obra', override: true });
  });
});

describe('listaPreciosInput', () => {
  it('reads the percentage in hundredths and needs one for a percentage list', () => {
    expect(listaPreciosInput.parse({ nombre: 'Mayorista', tipo: 'porcentaje', porcentaje: '-10.5' }).porcentaje).toBe(
      -1050,
    );
    expect(listaPreciosInput.safeParse({ nombre: 'M', tipo: 'porcentaje' }).success).toBe(false);
    expect(listaPreciosInput.safeParse({ nombre: 'M', tipo: 'porcentaje', porcentaje: -100 }).success).toBe(false);
    expect(listaPreciosInput.parse({ nombre: 'Obra', tipo: 'fija', cantidad_minima: 6 }).cantidad_minima).toBe(6000);
  });
});
