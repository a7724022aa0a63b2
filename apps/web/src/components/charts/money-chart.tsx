import { lazy, Suspense } from 'react';
import { Skeleton } from '@/components/ui/misc';
import { formatMoney, type Formatting } from '@/lib/format';

/** One bar: its axis label, its amount, and what the tooltip adds. */
export interface MoneyPoint {
  key: string;
  /** Short, for the axis («mar», «15»). */
  label: string;
  /** Long, for the tooltip and screen readers («marzo 2026», «15/03/2026»). */
  title?: string;
  value: number;
  detail?: string;
}

export interface MoneyBarChartProps {
  data: MoneyPoint[];
  formatting: Formatting;
  height?: number;
  /** The last bar (the current month) in a darker blue. */
  highlightLast?: boolean;
}

// The charting library is loaded with the first chart shown, never with the page around it.
const Chart = lazy(() => import('./money-bar-chart'));

/** A money bar chart with its accessible name and, for screen readers, the list of its values. */
export function MoneyChart({ label, ...props }: MoneyBarChartProps & { label: string }) {
  const height = props.height ?? 220;
  return (
    <figure role="group" aria-label={label} data-testid="money-chart">
      <div style={{ minHeight: height }}>
        <Suspense
          fallback={
            <div style={{ height }}>
              <Skeleton className="h-full w-full" />
            </div>
          }
        >
          <Chart {...props} />
        </Suspense>
      </div>
      <figcaption className="sr-only">
        <ul>
          {props.data.map((d) => (
            <li key={d.key}>
              {d.title ?? d.label}: {formatMoney(d.value, props.formatting)}
              {d.detail ? `, ${d.detail}` : ''}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
