import type { ListaProveedorResult } from '@mostrador/shared';
import type { ReactNode } from 'react';
import { useBusiness } from '@/app/business-context';
import { Badge } from '@/components/ui/misc';
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

/** A change as the answer has it (costs and margin absent for a member without ver_costos). */
type CambioListaProveedor = ListaProveedorResult['cambios'][number];

/** A price decrease kept by «No bajar precios»: the price stays, the cost still changes. */
const kept = (c: CambioListaProveedor) => Boolean(c.baja) && c.precio_nuevo === c.precio_anterior;

/** The changes as a table from md up (cards on a phone), each with its box to leave it out. */
function CambiosTabla({
  cambios,
  label,
  excluir,
  onToggle,
}: {
  cambios: CambioListaProveedor[];
  label: string;
  excluir: Set<string>;
  onToggle: (c: CambioListaProveedor, on: boolean) => void;
}) {
  const { formatting } = useBusiness();
  const money = (n: number | null | undefined) => (n == null ? '—' : formatMoney(n, formatting));
  return (
    <div className="max-h-72 overflow-y-auto rounded-lg border border-slate-200 md:overflow-x-auto">
      {/* A table from md up; on a phone each change is a card with its labels, with no sideways scroll. */}
      <table role="table" aria-label={label} className="block w-full text-sm md:table">
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
          {cambios.map((c) => (
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
                  onChange={(e) => onToggle(c, e.target.checked)}
                />
              </td>
              <td role="cell" className="font-medium md:min-w-[8rem] md:px-2 md:py-1 md:font-normal">
                {c.nombre}{' '}
                {c.baja && (
                  <Badge color={kept(c) ? 'gray' : 'yellow'}>{kept(c) ? 'Mantiene su precio' : 'Baja de precio'}</Badge>
                )}
              </td>
              <Dato label="Costo">
                {money(c.costo_anterior)} → {money(c.costo_nuevo)}
              </Dato>
              <Dato label="Precio">
                {kept(c) ? (
                  <>
                    <strong>{money(c.precio_nuevo)}</strong>{' '}
                    <span className="text-xs text-slate-500">(bajaba a {money(c.precio_calculado)})</span>
                  </>
                ) : (
                  <>
                    {money(c.precio_anterior)} → <strong>{money(c.precio_nuevo)}</strong>
                  </>
                )}
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
  );
}

/**
 * The preview: the changes that lower a sale price first, apart and flagged, with «No bajar
 * precios»; then the rest (each product's cost and price before and after, the margin and the
 * rule that set it). The rows that matched no product follow, outside (FilasSinCoincidencia).
 */
export function ListaProveedorCambios({
  preview,
  excluir,
  onExcluir,
  noBajar,
  onNoBajar,
  busy,
}: {
  preview: ListaProveedorResult;
  excluir: Set<string>;
  onExcluir: (next: Set<string>) => void;
  noBajar: boolean;
  onNoBajar: (on: boolean) => void;
  busy?: boolean;
}) {
  const toggle = (c: Pick<CambioListaProveedor, 'producto_id'>, on: boolean) => {
    const next = new Set(excluir);
    if (on) next.delete(c.producto_id);
    else next.add(c.producto_id);
    onExcluir(next);
  };
  const bajas = preview.cambios.filter((c) => c.baja);
  const resto = preview.cambios.filter((c) => !c.baja);
  return (
    <div className="space-y-3" aria-label="Cambios de la lista" role="region">
      <p className="text-sm text-slate-700">
        {preview.filas} filas · {preview.cambios.length} productos cambian
        {preview.bajas > 0 && ` · ${preview.bajas} ${preview.bajas === 1 ? 'baja' : 'bajan'} de precio`}
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
        <>
          {bajas.length > 0 && (
            <section
              aria-labelledby="prov-bajas"
              className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3"
            >
              <h3 id="prov-bajas" className="text-sm font-semibold text-amber-900">
                {bajas.length === 1
                  ? 'Atención: 1 producto baja de precio con esta lista'
                  : `Atención: ${bajas.length} productos bajan de precio con esta lista`}
              </h3>
              <p className="text-xs text-amber-900">
                El margen guardado (o el precio de la lista) da un precio de venta menor que el actual.
              </p>
              <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-slate-900">
                <input
                  type="checkbox"
                  className="size-5"
                  checked={noBajar}
                  disabled={busy}
                  onChange={(e) => onNoBajar(e.target.checked)}
                />
                No bajar precios: estos productos mantienen su precio actual (el costo se actualiza igual)
              </label>
              <CambiosTabla cambios={bajas} label="Productos que bajan de precio" excluir={excluir} onToggle={toggle} />
            </section>
          )}
          {resto.length > 0 && (
            <section aria-label="Productos que suben o mantienen su precio" className="space-y-1">
              {bajas.length > 0 && (
                <h3 className="text-sm font-semibold text-slate-800">Suben o mantienen su precio</h3>
              )}
              <CambiosTabla
                cambios={resto}
                label="Productos que suben o mantienen su precio"
                excluir={excluir}
                onToggle={toggle}
              />
            </section>
          )}
        </>
      )}
    </div>
  );
}
