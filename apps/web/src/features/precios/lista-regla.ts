import { LISTA_MINORISTA_NOMBRE, type ListaPrecios } from '@mostrador/shared';
import { formatNumber } from '@/lib/format';

/** How a list computes its prices, in words. */
export function listaRegla(l: ListaPrecios, listas: ListaPrecios[]): string {
  const base = l.base_lista_id ? (listas.find((x) => x.id === l.base_lista_id)?.nombre ?? '—') : LISTA_MINORISTA_NOMBRE;
  const desde = l.cantidad_minima ? ` desde ${formatNumber(l.cantidad_minima)} unidades` : '';
  if (l.tipo === 'fija') return `Precio fijo por producto (los demás, como ${base})${desde}`;
  const pct = l.porcentaje ?? 0;
  const amount = formatNumber(Math.abs(pct), undefined, 2);
  return `${pct === 0 ? 'Igual que' : pct < 0 ? `${amount} % menos que` : `${amount} % más que`} ${base}${desde}`;
}
