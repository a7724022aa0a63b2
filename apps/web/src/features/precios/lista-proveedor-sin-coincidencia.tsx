import type { ListaProveedorResult } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { formatMoney } from '@/lib/format';

/** The rows of the list that matched no product: row number, code, description and cost, as the file has them. */
export function FilasSinCoincidencia({ result }: { result: ListaProveedorResult }) {
  const { formatting } = useBusiness();
  const filas = result.filas_sin_coincidencia;
  if (!filas.length) return null;
  const conCosto = filas.some((f) => f.costo !== undefined);
  const faltan = result.sin_coincidencia_total - filas.length;
  return (
    <section aria-labelledby="prov-sin-coincidencia" className="space-y-1">
      <h3 id="prov-sin-coincidencia" className="text-sm font-semibold text-slate-800">
        {result.sin_coincidencia_total === 1
          ? '1 fila sin coincidencia'
          : `${result.sin_coincidencia_total} filas sin coincidencia`}
      </h3>
      <p className="text-xs text-slate-600">
        Ningún producto tiene este código: no se actualizan. Revisá el código o cargá el producto.
      </p>
      <div className="max-h-48 overflow-y-auto rounded-lg border border-slate-200">
        <table className="w-full text-sm">
          <thead className="sticky top-0 bg-slate-50 text-left text-xs text-slate-500">
            <tr>
              <th className="px-2 py-1">Fila</th>
              <th className="px-2 py-1">Código</th>
              <th className="px-2 py-1">Descripción</th>
              {conCosto && <th className="px-2 py-1 text-right">Costo</th>}
            </tr>
          </thead>
          <tbody>
            {filas.map((f) => (
              <tr key={f.fila} className="border-t border-slate-100">
                <td className="px-2 py-1 tabular-nums text-slate-600">{f.fila}</td>
                <td className="px-2 py-1 font-mono text-xs break-all">{f.codigo}</td>
                <td className="px-2 py-1">{f.descripcion ?? '—'}</td>
                {conCosto && (
                  <td className="px-2 py-1 text-right tabular-nums">
                    {f.costo == null ? '—' : formatMoney(f.costo, formatting)}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {faltan > 0 && <p className="text-xs text-slate-500">Y {faltan} filas más sin coincidencia.</p>}
    </section>
  );
}
