import type { CambioListaProveedor, ListaProveedorResult } from '@mostrador/shared';
import type { ReactNode } from 'react';
import { useBusiness } from '@/app/business-context';
import { cn } from '@/lib/cn';
import { formatMoney, formatNumber } from '@/lib/format';
import { REGLA_LABELS } from './regla-labels';

/** One value of a change: a labelled line of the card on a phone, a cell of the table from md up. */
function Dato({ label, left, children }: { label: string; left?: boolean; children: ReactNode }) {
  return (
    <td
      role="cell"
      className={cn(
        'col-start-2 flex justify-between gap-2 text-slate-700 tabular-nums md:table-cell md:whitespace-nowrap md:px-2 md:py-1',
        left ? 'md:text-slate-600' : 'md:text-right',
      )}
    >
      <span className="text-xs text-slate-500 md:hidden">{label}</span>
      <span>{children}</span>
    </td>
  );
}

/** The preview: each product's cost and price, before and after, the margin and the rule that set it. */
export function ListaProveedorCambios({
  preview,
  excluir,
  onExcluir,
}: {
  preview: ListaProveedorResult;
  excluir: Set<string>;
  onExcluir: (next: Set<string>) => void;
}) {
  const { formatting } = useBusiness();
  const money = (n: number | null | undefined) => (n == null ? '—' : formatMoney(n, formatting));
  const toggle = (c: Pick<CambioListaProveedor, 'producto_id'>, on: boolean) => {
    const next = new Set(excluir);
    if (on) next.delete(c.producto_id);
    else next.add(c.producto_id);
    onExcluir(next);
  };
  return (
    <div className="space-y-2" aria-label="Cambios de la lista" role="region">
      <p className="text-sm text-slate-700">
        {preview.filas} filas · {preview.cambios.length} productos cambian
        {preview.sin_coincidencia_total > 0 && ` · ${preview.sin_coincidencia_total} sin coincidencia`}
        {preview.codigos_aprendidos > 0 &&
          ` · ${preview.codigos_aprendidos} ${
            preview.codigos_aprendidos === 1 ? 'código nuevo del proveedor' : 'códigos nuevos del proveedor'
          } (por código de barras)`}
      </p>
      {preview.cambios.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600">
          Ningún producto cambia con esta lista.
        </p>
      ) : (
        <div className="max-h-72 overflow-y-auto rounded-lg border border-slate-200 md:overflow-x-auto">
          {/* A table from md up; on a phone each change is a card with its labels, with no sideways scroll. */}
          <table role="table" className="block w-full text-sm md:table">
            <thead className="sticky top-0 hidden bg-slate-50 text-left text-xs text-slate-500 md:table-header-group">
              <tr>
                <th className="px-2 py-1">Aplicar</th>
                <th className="px-2 py-1">Producto</th>
                <th className="px-2 py-1 text-right">Costo</th>
                <th className="px-2 py-1 text-right">Precio</th>
                <th className="px-2 py-1 text-right">Margen</th>
                <th className="px-2 py-1">Margen usado</th>
              </tr>
            </thead>
            <tbody className="block md:table-row-group">
              {preview.cambios.map((c) => (
                <tr
                  key={c.producto_id}
                  role="row"
                  className="grid grid-cols-[1.5rem_minmax(0,1fr)] gap-x-2 border-t border-slate-100 px-2 py-2 first:border-t-0 md:table-row md:p-0 md:first:border-t"
                >
                  <td role="cell" className="md:px-2 md:py-1">
                    <input
                      type="checkbox"
                      aria-label={`Aplicar a ${c.nombre}`}
                      checked={!excluir.has(c.producto_id)}
                      onChange={(e) => toggle(c, e.target.checked)}
                    />
                  </td>
                  <td role="cell" className="font-medium md:min-w-[8rem] md:px-2 md:py-1 md:font-normal">
                    {c.nombre}
                  </td>
                  <Dato label="Costo">
                    {money(c.costo_anterior)} → {money(c.costo_nuevo)}
                  </Dato>
                  <Dato label="Precio">
                    {money(c.precio_anterior)} → <strong>{money(c.precio_nuevo)}</strong>
                  </Dato>
                  <Dato label="Margen">{c.margen == null ? '—' : `${formatNumber(c.margen, formatting, 2)} %`}</Dato>
                  <Dato label="Margen usado" left>
                    {c.regla ? REGLA_LABELS[c.regla] : '—'}
                  </Dato>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
