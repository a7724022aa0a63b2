import type { CambioListaProveedor, ListaProveedorResult } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { formatMoney, formatNumber } from '@/lib/format';
import { REGLA_LABELS } from './regla-labels';

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
        <div className="max-h-72 overflow-auto rounded-lg border border-slate-200">
          <table className="w-full text-sm">
            <thead className="sticky top-0 bg-slate-50 text-left text-xs text-slate-500">
              <tr>
                <th className="px-2 py-1">Aplicar</th>
                <th className="px-2 py-1">Producto</th>
                <th className="px-2 py-1 text-right">Costo</th>
                <th className="px-2 py-1 text-right">Precio</th>
                <th className="px-2 py-1 text-right">Margen</th>
                <th className="px-2 py-1">Margen usado</th>
              </tr>
            </thead>
            <tbody>
              {preview.cambios.map((c) => (
                <tr key={c.producto_id} className="border-t border-slate-100">
                  <td className="px-2 py-1">
                    <input
                      type="checkbox"
                      aria-label={`Aplicar a ${c.nombre}`}
                      checked={!excluir.has(c.producto_id)}
                      onChange={(e) => toggle(c, e.target.checked)}
                    />
                  </td>
                  <td className="min-w-[8rem] px-2 py-1">{c.nombre}</td>
                  <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                    {money(c.costo_anterior)} → {money(c.costo_nuevo)}
                  </td>
                  <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                    {money(c.precio_anterior)} → <strong>{money(c.precio_nuevo)}</strong>
                  </td>
                  <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                    {c.margen === null ? '—' : `${formatNumber(c.margen, formatting, 2)} %`}
                  </td>
                  <td className="whitespace-nowrap px-2 py-1 text-slate-600">
                    {c.regla ? REGLA_LABELS[c.regla] : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
