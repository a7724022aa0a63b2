import { ChevronLeft, ChevronRight, Search, X } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/misc';
import { useBusiness } from '@/app/business-context';
import { cn } from '@/lib/cn';
import { formatNumber, plural } from '@/lib/format';

/* Small pieces shared by the inventory and customer screens. */

/** The value after it stopped changing for `ms` (search as you type without a request per key). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

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

/** "1–50 de 1.234" with previous and next. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label = 'resultados',
  one = 'resultado',
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
  label?: string;
  /** The label for exactly one ("proveedor"), chosen by the locale's plural rules. */
  one?: string;
}) {
  const { formatting } = useBusiness();
  label = plural(total, one, label, formatting.locale);
  if (total <= pageSize) {
    return (
      <p className="px-1 py-3 text-sm text-slate-500">
        {formatNumber(total, formatting)} {label}
      </p>
    );
  }
  const last = Math.ceil(total / pageSize) - 1;
  return (
    <nav className="flex items-center justify-between gap-2 px-1 py-3 text-sm text-slate-600" aria-label="Paginación">
      <span>
        {formatNumber(page * pageSize + 1, formatting)}–
        {formatNumber(Math.min(total, (page + 1) * pageSize), formatting)} de {formatNumber(total, formatting)} {label}
      </span>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
          <ChevronLeft className="h-4 w-4" aria-hidden />
          <span className="hidden sm:inline">Anterior</span>
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= last} onClick={() => onPage(page + 1)}>
          <span className="hidden sm:inline">Siguiente</span>
          <ChevronRight className="h-4 w-4" aria-hidden />
        </Button>
      </div>
    </nav>
  );
}

export function RowsSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div className="space-y-2" aria-busy="true" aria-label="Cargando">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-14" />
      ))}
    </div>
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
    <div role="tablist" aria-label={label} className="mb-5 flex gap-1 overflow-x-auto border-b border-slate-200">
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
            '-mb-px whitespace-nowrap border-b-2 px-4 py-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-600',
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
