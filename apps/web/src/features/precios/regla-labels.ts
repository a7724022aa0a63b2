import type { MargenOrigen } from '@mostrador/shared';

/** What set a new price, as the supplier list's preview and a purchase's suggestions show it. */
export const REGLA_LABELS: Record<MargenOrigen, string> = {
  precio: 'Precio de la lista',
  producto: 'Del producto',
  categoria: 'De la categoría',
  proveedor: 'Del proveedor',
  lista: 'De esta lista',
  actual: 'El que tenía',
};
