import { describe, expect, it } from 'vitest';
import { NAV, visibleNav } from './nav';

const labels = (items: ReturnType<typeof visibleNav>) =>
  items.flatMap((i) => (i.children ? i.children.map((c) => `${i.label}/${c.label}`) : [i.label]));

describe('visibleNav', () => {
  it('shows every item while no business is selected (they say "Sin negocio")', () => {
    expect(visibleNav(NAV, false, () => false)).toBe(NAV);
  });

  it('keeps only the modules the member may see, plus Inicio and Negocios (Facturación goes with ventas; no settings for a member)', () => {
    const allowed = new Set(['ventas', 'clientes']);
    expect(labels(visibleNav(NAV, true, (m) => allowed.has(m)))).toEqual([
      'Inicio',
      'Negocios',
      'Ventas/Punto de venta',
      'Ventas/Caja',
      'Ventas/Reporte de ventas',
      'Clientes',
      'Facturación',
    ]);
  });

  it('filters the children of a group one by one', () => {
    const items = visibleNav(NAV, true, (m) => m === 'categorias' || m === 'tareas');
    expect(labels(items)).toEqual(['Inicio', 'Negocios', 'Inventario/Categorías', 'Tareas']);
  });

  it('shows everything to an administrator, Configuración included', () => {
    expect(labels(visibleNav(NAV, true, () => true, true))).toEqual(labels(NAV));
    expect(labels(visibleNav(NAV, true, () => true, true)).at(-1)).toBe('Configuración');
  });

  it('leaves the settings out for a member with every module but not an administrator', () => {
    expect(labels(visibleNav(NAV, true, () => true, false))).not.toContain('Configuración');
  });
});
