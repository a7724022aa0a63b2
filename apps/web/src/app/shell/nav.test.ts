import { describe, expect, it } from 'vitest';
import { NAV, visibleNav } from './nav';

const labels = (items: ReturnType<typeof visibleNav>) =>
  items.flatMap((i) => (i.children ? i.children.map((c) => `${i.label}/${c.label}`) : [i.label]));

describe('visibleNav', () => {
  it('shows every item while no business is selected (they say "Sin negocio")', () => {
    expect(visibleNav(NAV, false, () => false)).toBe(NAV);
  });

  it('keeps only the modules the member may see, plus Dashboard, Negocios and the disabled items (Facturación goes with ventas)', () => {
    const allowed = new Set(['ventas', 'clientes']);
    expect(labels(visibleNav(NAV, true, (m) => allowed.has(m)))).toEqual([
      'Dashboard',
      'Negocios',
      'Ventas/Punto de venta',
      'Ventas/Caja',
      'Ventas/Reporte de ventas',
      'Clientes',
      'Facturación',
      'Configuración',
    ]);
  });

  it('filters the children of a group one by one', () => {
    const items = visibleNav(NAV, true, (m) => m === 'categorias' || m === 'tareas');
    expect(labels(items)).toEqual(['Dashboard', 'Negocios', 'Inventario/Categorías', 'Tareas', 'Configuración']);
  });

  it('shows everything with full access', () => {
    expect(labels(visibleNav(NAV, true, () => true))).toEqual(labels(NAV));
  });
});
