import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/misc';
import { formatNumber, plural } from '@/lib/format';

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
