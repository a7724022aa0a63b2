import type { Product, ProductConListas } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { formatMoney, formatNumber } from '@/lib/format';

/** Under a product's price: its price in each active list (the products list sends them). */
export function ListPrices({ p }: { p: Product }) {
  const { formatting } = useBusiness();
  const listas = (p as ProductConListas).precios_listas ?? [];
  const usd =
    p.moneda === 'USD' && p.precio_usd != null ? (
      <span className="block text-xs font-normal text-emerald-700" aria-label="Precio en dólares">
        US$ {formatNumber(p.precio_usd, formatting, 2)}
      </span>
    ) : null;
  if (!listas.length) return usd;
  return (
    <span className="block text-xs font-normal text-slate-500" aria-label="Precios por lista">
      {usd}
      {listas.map((l) => (
        <span key={l.lista_id} className="block">
          {l.nombre}: {formatMoney(l.precio, formatting)}
          {l.cantidad_minima !== null && ` (desde ${formatNumber(l.cantidad_minima, formatting)})`}
        </span>
      ))}
    </span>
  );
}
