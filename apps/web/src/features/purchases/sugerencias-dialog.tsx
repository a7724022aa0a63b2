import { useState, type ReactNode } from 'react';
import type { SugerenciaPrecio } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatMoney, formatNumber } from '@/lib/format';
import { REGLA_LABELS } from '@/features/precios/regla-labels';
import { useAplicarPrecios } from './recepciones.api';

/** One value of a suggestion: its label shows on phones, where there is no header row. */
function Cell({ label, strong, children }: { label: string; strong?: boolean; children: ReactNode }) {
  return (
    <div className="md:text-right">
      <dt className="md:sr-only">{label}</dt>
      <dd className={cn('tabular-nums', strong ? 'font-semibold text-slate-900' : 'text-slate-700')}>{children}</dd>
    </div>
  );
}

export interface SugerenciasTarget {
  compraId: string;
  recepcionId: string;
  sugerencias: SugerenciaPrecio[];
}

/**
 * The costs that rose on a reception and the sale price by each product's margin rule (decision
 * 0024), as the server computed them: the user ticks the lines to apply (or "Aplicar a todos").
 */
export function SugerenciasDialog({
  target,
  onClose,
  onApplied,
}: {
  target: SugerenciasTarget | null;
  onClose: () => void;
  onApplied: (n: number) => void;
}) {
  const { formatting } = useBusiness();
  const aplicar = useAplicarPrecios();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const rows = target?.sugerencias ?? [];
  const all = rows.length > 0 && chosen.size === rows.length;

  const close = () => {
    setChosen(new Set());
    setError(null);
    onClose();
  };
  const toggle = (id: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const money = (v: number | undefined) => (v === undefined ? '—' : formatMoney(v, formatting));
  const margen = (m?: number | null) => (m == null ? '—' : `${formatNumber(m, formatting, 2)} %`);

  return (
    <Dialog
      open={target !== null}
      onOpenChange={(o) => !o && close()}
      title="Subió el costo: ¿actualizás los precios?"
      description="Cada precio sugerido sigue el margen guardado del producto, de su categoría o del proveedor; si no hay, mantiene el que tenía sobre su costo anterior. Elegí cuáles aplicar."
      className="sm:max-w-3xl"
    >
      <label className="mb-2 inline-flex items-center gap-2 text-sm font-medium text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4 accent-blue-600"
          checked={all}
          onChange={() => setChosen(all ? new Set() : new Set(rows.map((r) => r.producto_id)))}
        />
        Aplicar a todos
      </label>
      <div
        aria-hidden
        className="hidden grid-cols-[1.5rem_minmax(0,1.6fr)_minmax(0,1.8fr)_repeat(4,minmax(0,1fr))] gap-3 border-b border-slate-200 pb-2 text-xs font-medium uppercase tracking-wide text-slate-500 md:grid"
      >
        <span />
        <span>Producto</span>
        <span className="text-right">Costo anterior → nuevo</span>
        <span className="text-right">Precio actual</span>
        <span className="text-right">Sugerido</span>
        <span className="text-right">Margen</span>
        <span className="text-right">Margen usado</span>
      </div>
      <ul className="divide-y divide-slate-100 border-b border-slate-200" aria-label="Precios sugeridos">
        {rows.map((s) => {
          const id = `sugerencia-${s.producto_id}`;
          return (
            <li
              key={s.producto_id}
              className={cn(
                'grid grid-cols-[1.5rem_minmax(0,1fr)] gap-x-3 gap-y-1 py-3 text-sm md:grid-cols-[1.5rem_minmax(0,1.6fr)_minmax(0,1.8fr)_repeat(4,minmax(0,1fr))] md:items-center',
                chosen.has(s.producto_id) && 'bg-blue-50/60',
              )}
            >
              <input
                id={id}
                type="checkbox"
                className="mt-0.5 h-4 w-4 accent-blue-600 md:mt-0"
                checked={chosen.has(s.producto_id)}
                onChange={() => toggle(s.producto_id)}
                aria-label={`Aplicar el precio sugerido a ${s.producto_nombre}`}
              />
              <label htmlFor={id} className="font-medium text-slate-900">
                {s.producto_nombre}
              </label>
              <dl className="col-start-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs text-slate-600 md:col-span-5 md:col-start-3 md:grid-cols-[minmax(0,1.8fr)_repeat(4,minmax(0,1fr))] md:text-sm">
                <Cell label="Costo">
                  {money(s.costo_anterior)} → <span className="text-slate-900">{money(s.costo_nuevo)}</span>
                </Cell>
                <Cell label="Precio actual">{money(s.precio_actual)}</Cell>
                <Cell label="Sugerido" strong>
                  {money(s.precio_sugerido)}
                </Cell>
                <Cell label="Margen">{margen(s.margen)}</Cell>
                <Cell label="Margen usado">{REGLA_LABELS[s.regla]}</Cell>
              </dl>
            </li>
          );
        })}
      </ul>
      {error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={close}>
          Ahora no
        </Button>
        <Button
          disabled={chosen.size === 0}
          loading={aplicar.isPending}
          onClick={async () => {
            if (!target) return;
            setError(null);
            try {
              const r = await aplicar.mutateAsync({
                compraId: target.compraId,
                recepcionId: target.recepcionId,
                ids: [...chosen],
              });
              close();
              onApplied(r.aplicados.length);
            } catch (e) {
              setError(errorMessage(e, 'No se pudieron actualizar los precios.'));
            }
          }}
        >
          {chosen.size === 0
            ? 'Aplicar precios'
            : `Aplicar ${chosen.size === 1 ? '1 precio' : `${chosen.size} precios`}`}
        </Button>
      </div>
    </Dialog>
  );
}
