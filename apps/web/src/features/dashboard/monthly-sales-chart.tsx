import { Skeleton } from '@/components/ui/misc';
import { MoneyChart } from '@/components/charts/money-chart';
import { useBusiness } from '@/app/business-context';
import { useMonthlySalesChart } from '@/features/sales/sales.api';
import { errorMessage } from '@/lib/api';
import { formatMoney, plural } from '@/lib/format';

/** The last 12 months of sales (loaded apart from the dashboard page, with its chart library). */
export default function MonthlySalesChart() {
  const { formatting } = useBusiness();
  const chart = useMonthlySalesChart(true);
  if (chart.error) return <p className="text-sm text-red-700">{errorMessage(chart.error)}</p>;
  if (!chart.data) return <Skeleton className="h-56" />;
  const { datos, total_ingresos, total_ventas } = chart.data;
  return (
    <div>
      <p className="mb-3 text-sm text-slate-500">
        Últimos 12 meses: {formatMoney(total_ingresos, formatting)} en {total_ventas}{' '}
        {plural(total_ventas, 'venta', 'ventas')}
      </p>
      <MoneyChart
        label="Ventas por mes"
        formatting={formatting}
        highlightLast
        data={datos.map((d) => ({
          key: d.mes,
          label: d.etiqueta.slice(0, 3),
          title: d.etiqueta,
          value: d.total,
          detail: `${d.ventas} ${plural(d.ventas, 'venta', 'ventas')}`,
        }))}
      />
    </div>
  );
}
