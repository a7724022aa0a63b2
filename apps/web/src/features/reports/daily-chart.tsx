import type { ReportDay } from '@mostrador/shared/sales';
import { formatDate, formatMoney, type Formatting } from '@/lib/format';

/**
 * Sales by day as bars made of plain divs (no chart library): each bar's height follows the
 * day's total; its title tells the date, number of sales and total. Fits any width.
 */
export function DailySalesChart({ days, formatting }: { days: ReportDay[]; formatting: Formatting }) {
  const max = Math.max(0, ...days.map((d) => d.total));
  const n = days.length;
  // Label a few days only, so the labels never overlap.
  const every = Math.max(1, Math.ceil(n / (n <= 7 ? 7 : 10)));
  const label = (fecha: string) =>
    n <= 7 ? formatDate(fecha, formatting).slice(0, 5) : String(Number(fecha.slice(8)));
  return (
    <figure>
      <div className="flex items-end gap-px border-b border-slate-200 sm:gap-1" style={{ height: 180 }} aria-hidden>
        {days.map((d) => {
          const pct = max > 0 && d.total > 0 ? Math.max(2, (d.total / max) * 100) : 0;
          return (
            <div
              key={d.fecha}
              className="group relative flex h-full min-w-0 flex-1 items-end"
              title={`${formatDate(d.fecha, formatting)}: ${d.cantidad_ventas} ${d.cantidad_ventas === 1 ? 'venta' : 'ventas'}, ${formatMoney(d.total, formatting)}`}
            >
              <div
                className="mx-auto w-full max-w-8 rounded-t bg-blue-500 group-hover:bg-blue-700"
                style={{ height: `${pct}%` }}
              />
            </div>
          );
        })}
      </div>
      <div className="mt-1 flex gap-px sm:gap-1" aria-hidden>
        {days.map((d, i) => (
          <span key={d.fecha} className="min-w-0 flex-1 overflow-visible text-center text-[10px] text-slate-500">
            {i % every === 0 ? label(d.fecha) : ''}
          </span>
        ))}
      </div>
      <figcaption className="sr-only">
        Ventas por día:{' '}
        {days
          .filter((d) => d.cantidad_ventas > 0)
          .map((d) => `${formatDate(d.fecha, formatting)} ${formatMoney(d.total, formatting)}`)
          .join('; ') || 'sin ventas'}
      </figcaption>
    </figure>
  );
}
