import { Skeleton } from '@/components/ui/misc';
import { useBusiness } from '@/app/business-context';
import { useMonthlySalesChart } from '@/features/sales/sales.api';
import { errorMessage } from '@/lib/api';
import { formatMoney } from '@/lib/format';

/** The last 12 months of sales as bars of plain divs (loaded apart from the dashboard page). */
export default function MonthlySalesChart() {
  const { formatting } = useBusiness();
  const chart = useMonthlySalesChart(true);
  if (chart.error) return <p className="text-sm text-red-700">{errorMessage(chart.error)}</p>;
  if (!chart.data) return <Skeleton className="h-56" />;
  const { datos, total_ingresos, total_ventas } = chart.data;
  const max = Math.max(0, ...datos.map((d) => d.total));
  const money = (n: number) => formatMoney(n, formatting);
  return (
    <figure>
      <figcaption className="mb-3 text-sm text-slate-500">
        Últimos 12 meses: {money(total_ingresos)} en {total_ventas} {total_ventas === 1 ? 'venta' : 'ventas'}
      </figcaption>
      <div
        className="flex h-44 items-end gap-1 border-b border-slate-200 sm:gap-2"
        role="list"
        aria-label="Ventas por mes"
      >
        {datos.map((d) => {
          const pct = max > 0 && d.total > 0 ? Math.max(2, (d.total / max) * 100) : 0;
          return (
            <div
              key={d.mes}
              role="listitem"
              aria-label={`${d.etiqueta}: ${money(d.total)}, ${d.ventas} ${d.ventas === 1 ? 'venta' : 'ventas'}`}
              title={`${d.etiqueta}: ${money(d.total)} (${d.ventas} ${d.ventas === 1 ? 'venta' : 'ventas'})`}
              className="group flex h-full min-w-0 flex-1 items-end"
            >
              <div
                className="mx-auto w-full max-w-10 rounded-t bg-blue-500 group-last:bg-blue-700 group-hover:bg-blue-600"
                style={{ height: `${pct}%` }}
              />
            </div>
          );
        })}
      </div>
      <div className="mt-1 flex gap-1 sm:gap-2" aria-hidden>
        {datos.map((d, i) => (
          <span
            key={d.mes}
            className="min-w-0 flex-1 truncate text-center text-[10px] capitalize text-slate-500 sm:text-xs"
          >
            {/* Every month on wide screens, every other one on a phone. */}
            <span className={i % 2 === 0 ? 'hidden sm:inline' : undefined}>{d.etiqueta.slice(0, 3)}</span>
          </span>
        ))}
      </div>
    </figure>
  );
}
