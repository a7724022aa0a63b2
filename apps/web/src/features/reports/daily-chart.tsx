import type { ReportDay } from '@mostrador/shared/sales';
import { MoneyChart } from '@/components/charts/money-chart';
import { formatDate, plural, type Formatting } from '@/lib/format';

/** Sales by day: the day's total, with the number of sales in its tooltip. */
export function DailySalesChart({ days, formatting }: { days: ReportDay[]; formatting: Formatting }) {
  const short = days.length <= 7;
  return (
    <MoneyChart
      label="Ventas por día"
      formatting={formatting}
      data={days.map((d) => ({
        key: d.fecha,
        label: short ? formatDate(d.fecha, formatting).slice(0, 5) : String(Number(d.fecha.slice(8))),
        title: formatDate(d.fecha, formatting),
        value: d.total,
        detail: `${d.cantidad_ventas} ${plural(d.cantidad_ventas, 'venta', 'ventas')}`,
      }))}
    />
  );
}
