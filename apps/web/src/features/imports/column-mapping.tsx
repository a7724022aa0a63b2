/**
 * The column step's table: each column of the file, what it is read as, and (when the server sent
 * them) its first values, so a column is recognised by what it holds and not only by its title.
 * Used by the product import and by the supplier's list.
 */
export interface MappingColumn {
  columna: string;
  muestras?: string[];
}

export function ColumnMappingTable({
  columns,
  value,
  onChange,
  options,
  idPrefix = 'map',
  readAs = 'Se importa como',
  ignoreLabel = 'No importar',
}: {
  columns: MappingColumn[];
  /** Field per column title ('' = ignored). */
  value: Record<string, string>;
  onChange: (next: Record<string, string>) => void;
  options: { value: string; label: string }[];
  idPrefix?: string;
  readAs?: string;
  ignoreLabel?: string;
}) {
  const withSamples = columns.some((c) => c.muestras !== undefined);
  return (
    <div className="max-h-80 overflow-auto rounded-lg border border-slate-200">
      <table className="w-full text-sm">
        <thead className="sticky top-0 bg-slate-50 text-left text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Columna del archivo
            </th>
            {withSamples && (
              <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                Valores de ejemplo
              </th>
            )}
            <th scope="col" className="px-3 py-2 font-medium">
              {readAs}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {columns.map((c, i) => (
            <tr key={`${c.columna}-${i}`}>
              <td className="px-3 py-2 align-top font-medium text-slate-800">
                <label htmlFor={`${idPrefix}-${i}`}>{c.columna}</label>
                {withSamples && (
                  // On a narrow screen the samples go under the title.
                  <span className="mt-0.5 block truncate text-xs font-normal text-slate-500 sm:hidden">
                    {c.muestras?.length ? c.muestras.join(' · ') : 'Sin valores'}
                  </span>
                )}
              </td>
              {withSamples && (
                <td className="hidden max-w-[16rem] px-3 py-2 align-top text-slate-600 sm:table-cell">
                  {c.muestras?.length ? (
                    <ul className="space-y-0.5" aria-label={`Valores de ejemplo de ${c.columna}`}>
                      {c.muestras.map((m, j) => (
                        <li key={j} className="truncate tabular-nums">
                          {m}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <span className="text-slate-400">Sin valores</span>
                  )}
                </td>
              )}
              <td className="px-3 py-2 align-top">
                <select
                  id={`${idPrefix}-${i}`}
                  value={value[c.columna] ?? ''}
                  onChange={(e) => onChange({ ...value, [c.columna]: e.target.value })}
                  className="block h-9 w-full min-w-[9rem] rounded-lg border border-slate-300 bg-white px-2 text-sm"
                >
                  <option value="">{ignoreLabel}</option>
                  {options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
