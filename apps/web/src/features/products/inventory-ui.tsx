import { Search, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { FilterSelect, Input } from '@/components/ui/input';
import { FilterBar } from '@/components/ui/misc';
import { cn } from '@/lib/cn';

/* Small pieces shared by the inventory and customer screens. */

// The pager and the rows' skeleton live with the table component; the lists still import them here.
export { Pager, RowsSkeleton } from '@/components/data-table/pager';
export { useDebounced } from '@/lib/use-debounced';

export function SearchBox({
  id,
  value,
  onChange,
  placeholder,
  label,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  placeholder: string;
  label: string;
}) {
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search
        className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
        aria-hidden
      />
      <Input
        id={id}
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        // The clear button below replaces the browser's own.
        className="pl-9 pr-9 [&::-webkit-search-cancel-button]:appearance-none"
        autoComplete="off"
      />
      {value && (
        <button
          type="button"
          onClick={() => onChange('')}
          className="absolute right-2 top-1/2 -translate-y-1/2 rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600"
          aria-label="Borrar búsqueda"
        >
          <X className="h-4 w-4" />
        </button>
      )}
    </div>
  );
}

/** A list's filters when they are a search and one select of a fixed set (a kind, an estado). */
export function SearchFilterBar<K extends string, V extends string>({
  label,
  list,
  filterKey,
  search,
  filter,
}: {
  label: string;
  /** The list's state (`useListState`): what was typed and the filter's value. */
  list: {
    q: string;
    setQ: (v: string) => void;
    filters: Record<K, V | ''>;
    setFilter: (key: K, value: V | '') => void;
  };
  filterKey: K;
  search: { id: string; label: string; placeholder: string };
  /** `all` is the first option, for no filter ("Todos los estados"). */
  filter: { id: string; label: string; all: string; options: readonly V[]; labels: Record<V, string> };
}) {
  return (
    <FilterBar label={label} className="md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <SearchBox {...search} value={list.q} onChange={list.setQ} />
      <FilterSelect
        id={filter.id}
        label={filter.label}
        value={list.filters[filterKey]}
        onChange={(e) => list.setFilter(filterKey, e.target.value as V | '')}
      >
        <option value="">{filter.all}</option>
        {filter.options.map((o) => (
          <option key={o} value={o}>
            {filter.labels[o]}
          </option>
        ))}
      </FilterSelect>
    </FilterBar>
  );
}

/** A card for lists whose rows run edge to edge, with a footer (the Pager) below a rule. */
export function ListCard({ children, dimmed, footer }: { children: ReactNode; dimmed?: boolean; footer?: ReactNode }) {
  return (
    <div
      className={cn('overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm', dimmed && 'opacity-70')}
    >
      {children}
      {footer && <div className="border-t border-slate-100 px-3">{footer}</div>}
    </div>
  );
}

/** A success note that says what just happened, read out by screen readers. */
export function StatusNote({ children, onClose }: { children: ReactNode; onClose?: () => void }) {
  return (
    <div
      role="status"
      className="mb-4 flex items-start justify-between gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-800"
    >
      <div>{children}</div>
      {onClose && (
        <button
          type="button"
          onClick={onClose}
          className="rounded p-0.5 text-emerald-700 hover:bg-emerald-100"
          aria-label="Cerrar aviso"
        >
          <X className="h-4 w-4" />
        </button>
      )}
    </div>
  );
}

/** Tabs as buttons with the ARIA tab pattern (arrow keys move between them). */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: { value: T; label: string; count?: number }[];
  value: T;
  onChange: (v: T) => void;
  label: string;
}) {
  return (
    <div
      role="tablist"
      aria-label={label}
      className="mb-5 flex flex-wrap gap-x-1 border-b border-slate-200 sm:flex-nowrap sm:overflow-x-auto"
    >
      {tabs.map((t, i) => (
        <button
          key={t.value}
          role="tab"
          type="button"
          id={`tab-${t.value}`}
          aria-selected={value === t.value}
          aria-controls={`panel-${t.value}`}
          tabIndex={value === t.value ? 0 : -1}
          onClick={() => onChange(t.value)}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
            const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
            onChange(next.value);
            document.getElementById(`tab-${next.value}`)?.focus();
          }}
          className={cn(
            '-mb-px whitespace-nowrap border-b-2 px-3 py-2.5 text-sm sm:px-4 font-medium focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-600',
            value === t.value
              ? 'border-blue-600 text-blue-700'
              : 'border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-700',
          )}
        >
          {t.label}
          {t.count !== undefined && <span className="ml-1.5 text-xs text-slate-400">({t.count})</span>}
        </button>
      ))}
    </div>
  );
}
