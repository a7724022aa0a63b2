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
  const grid = withSamples ? 'sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(9rem,1fr)]' : 'sm:grid-cols-2';
  // A grid rather than a table: on a phone each column stacks its title, samples and choice.
  return (
    <div className="max-h-80 overflow-y-auto rounded-lg border border-slate-200 text-sm">
      <div
        className={`sticky top-0 hidden gap-3 bg-slate-50 px-3 py-2 text-left text-xs font-medium uppercase text-slate-500 sm:grid ${grid}`}
        aria-hidden
      >
        <span>Columna del archivo</span>
        {withSamples && <span>Valores de ejemplo</span>}
        <span>{readAs}</span>
      </div>
      <ul className="divide-y divide-slate-100" aria-label="Columnas del archivo">
        {columns.map((c, i) => (
          <li key={`${c.columna}-${i}`} className={`grid items-start gap-x-3 gap-y-1 px-3 py-2 ${grid}`}>
            <label htmlFor={`${idPrefix}-${i}`} className="font-medium text-slate-800 sm:pt-2">
              {c.columna}
            </label>
            {withSamples &&
              (c.muestras?.length ? (
                <ul
                  className="flex min-w-0 flex-wrap gap-x-2 text-xs text-slate-600 sm:block sm:pt-2 sm:text-sm"
                  aria-label={`Valores de ejemplo de ${c.columna}`}
                >
                  {c.muestras.map((m, j) => (
                    <li key={j} className="truncate tabular-nums">
                      {m}
                    </li>
                  ))}
                </ul>
              ) : (
                <span className="text-xs text-slate-400 sm:pt-2 sm:text-sm">Sin valores</span>
              ))}
            <select
              id={`${idPrefix}-${i}`}
              value={value[c.columna] ?? ''}
              onChange={(e) => onChange({ ...value, [c.columna]: e.target.value })}
              className="block h-9 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm"
            >
              <option value="">{ignoreLabel}</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </li>
        ))}
      </ul>
    </div>
  );
}
