import { useState } from 'react';
import { PRECIO_ORIGEN_LABELS, type PrecioOrigen, type Product } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Badge, EmptyState, ErrorNote } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatMoney } from '@/lib/format';
import { Pager, RowsSkeleton } from '../products/inventory-ui';
import { ProductHistoryDialog } from '../products/stock-dialogs';
import { useCounterControls } from '@/features/permissions/permissions.api';
import { HISTORIAL_PAGE, usePrecioHistorial } from './precios.api';

const ORIGIN_COLORS: Record<PrecioOrigen, 'gray' | 'green' | 'red' | 'blue' | 'purple' | 'yellow'> = {
  alta: 'gray',
  manual: 'blue',
  masivo: 'purple',
  importacion: 'gray',
  lista_proveedor: 'yellow',
  compra: 'green',
  cotizacion: 'yellow',
};

function Change({ label, from, to }: { label: string; from: number | null; to: number | null }) {
  const { formatting } = useBusiness();
  if (from === to) return null;
  return (
    <p className="text-sm tabular-nums">
      <span className="text-slate-500">{label}: </span>
      {from !== null && <span className="text-slate-500 line-through">{formatMoney(from, formatting)}</span>}
      {from !== null && ' → '}
      <span className="font-semibold text-slate-900">{to === null ? '—' : formatMoney(to, formatting)}</span>
    </p>
  );
}

function Historial({ product }: { product: Product }) {
  const { formatting } = useBusiness();
  const { verCostos } = useCounterControls();
  const [page, setPage] = useState(0);
  const q = usePrecioHistorial(product.id, page);
  if (q.error) return <ErrorNote>{errorMessage(q.error, 'No se pudo cargar el historial de precios.')}</ErrorNote>;
  if (q.isLoading) return <RowsSkeleton rows={4} />;
  const rows = q.data?.rows ?? [];
  if (!rows.length) return <EmptyState title="Este producto todavía no tiene cambios de precio" />;
  return (
    <div>
      <ul className="divide-y divide-slate-100" aria-label="Cambios de precio">
        {rows.map((h) => (
          <li key={h.id} className="flex items-start justify-between gap-3 py-3">
            <div className="min-w-0">
              <Badge color={ORIGIN_COLORS[h.origen]}>{PRECIO_ORIGEN_LABELS[h.origen]}</Badge>
              <p className="mt-1 text-xs text-slate-500">
                {formatDateTime(h.fecha, formatting)}
                {h.usuario && ` · ${h.usuario.nombre}`}
              </p>
            </div>
            <div className="text-right">
              <Change label="Precio" from={h.precio_anterior} to={h.precio_nuevo} />
              {verCostos && <Change label="Costo" from={h.costo_anterior ?? null} to={h.costo_nuevo ?? null} />}
            </div>
          </li>
        ))}
      </ul>
      <Pager
        page={page}
        pageSize={HISTORIAL_PAGE}
        total={q.data?.total ?? 0}
        onPage={setPage}
        label="cambios"
        one="cambio"
      />
    </div>
  );
}

/** Every change of the product's price (and cost, for who sees costs): when, who and from where. */
export function PriceHistoryDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  return (
    <ProductHistoryDialog
      product={product}
      onClose={onClose}
      title="Historial de precios"
      body={(p) => <Historial product={p} />}
    />
  );
}
