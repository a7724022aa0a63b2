import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar, Line } from '@visx/shape';
import { TooltipWithBounds } from '@visx/tooltip';
import { formatMoney, formatMoneyShort } from '@/lib/format';
import type { MoneyBarChartProps, MoneyPoint } from './money-chart';

const BLUE = '#3b82f6';
const DARK_BLUE = '#1d4ed8';
const HOVER = '#2563eb';
const RED = '#ef4444';
const TICK = { fontSize: 11, fill: '#64748b', fontFamily: 'inherit' };
const MARGIN = { top: 8, right: 8, bottom: 24, left: 64 };

function Plot({
  data,
  formatting,
  height,
  highlightLast,
  width,
}: MoneyBarChartProps & { width: number; height: number }) {
  const [active, setActive] = useState<number | null>(null);
  const innerW = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerH = Math.max(0, height - MARGIN.top - MARGIN.bottom);
  const values = data.map((d) => d.value);
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const x = scaleBand<string>({ domain: data.map((d) => d.key), range: [0, innerW], padding: 0.2 });
  const y = scaleLinear<number>({ domain: [min, max === min ? 1 : max], range: [innerH, 0], nice: 4 });
  // Labels at least ~32 px apart, so a phone shows every few days and a desktop every one.
  const every = Math.max(1, Math.ceil(32 / Math.max(1, x.step())));
  const labels = new Map(data.map((d) => [d.key, d.label]));
  // Counted from the end, so the last bar (today, this month) always has its label.
  const shown = data.filter((_, i) => (data.length - 1 - i) % every === 0).map((d) => d.key);
  const point: MoneyPoint | undefined = active === null ? undefined : data[active];
  const barX = (i: number) => (x(data[i].key) ?? 0) + MARGIN.left;

  const onKey = (e: KeyboardEvent) => {
    const last = data.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? Math.min(last, (active ?? -1) + 1)
        : e.key === 'ArrowLeft'
          ? Math.max(0, (active ?? data.length) - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : e.key === 'Escape'
                ? null
                : undefined;
    if (next === undefined) return;
    e.preventDefault();
    setActive(next);
  };

  return (
    <div className="relative">
      <svg
        width={width}
        height={height}
        tabIndex={0}
        role="img"
        aria-label="Gráfico: usá las flechas para recorrer las barras"
        className="rounded focus-visible:outline-2 focus-visible:outline-blue-600"
        onKeyDown={onKey}
        onBlur={() => setActive(null)}
        onMouseLeave={() => setActive(null)}
      >
        <Group left={MARGIN.left} top={MARGIN.top}>
          <GridRows scale={y} width={innerW} numTicks={4} stroke="#e2e8f0" />
          {data.map((d, i) => {
            const y0 = y(0);
            const yv = y(d.value);
            const fill =
              d.value < 0 ? RED : active === i ? HOVER : highlightLast && i === data.length - 1 ? DARK_BLUE : BLUE;
            return (
              <g key={d.key} onMouseEnter={() => setActive(i)}>
                {/* The whole column answers the pointer, so thin bars and zero days show their tooltip too. */}
                <rect x={x(d.key)} y={0} width={x.step()} height={innerH} fill="transparent" />
                <Bar
                  x={x(d.key)}
                  y={Math.min(y0, yv)}
                  width={x.bandwidth()}
                  height={Math.max(d.value === 0 ? 0 : 1, Math.abs(y0 - yv))}
                  fill={fill}
                  rx={2}
                />
              </g>
            );
          })}
          {/* The zero line: negative bars hang below it. */}
          <Line from={{ x: 0, y: y(0) }} to={{ x: innerW, y: y(0) }} stroke="#475569" strokeWidth={1} />
          <AxisLeft
            scale={y}
            numTicks={4}
            hideAxisLine
            hideTicks
            tickFormat={(v) => formatMoneyShort(Number(v), formatting)}
            tickLabelProps={{ ...TICK, textAnchor: 'end', dx: -4, dy: 3 }}
          />
          <AxisBottom
            top={innerH}
            scale={x}
            tickValues={shown}
            hideAxisLine
            hideTicks
            tickFormat={(k) => labels.get(k) ?? ''}
            tickLabelProps={{ ...TICK, textAnchor: 'middle', dy: -2 }}
          />
        </Group>
      </svg>
      {point && active !== null && (
        <TooltipWithBounds
          left={barX(active) + x.bandwidth() / 2}
          top={MARGIN.top + Math.min(y(0), y(point.value))}
          className="pointer-events-none"
        >
          <p className="font-medium capitalize text-slate-900">{point.title ?? point.label}</p>
          <p className={point.value < 0 ? 'tabular-nums text-red-700' : 'tabular-nums text-slate-700'}>
            {formatMoney(point.value, formatting)}
          </p>
          {point.detail && <p className="text-xs text-slate-500">{point.detail}</p>}
        </TooltipWithBounds>
      )}
    </div>
  );
}

/**
 * Money by period as bars (visx, loaded on demand through ./money-chart): the axis in the
 * business's currency, a zero line that negative bars go below (in red), a tooltip per bar (pointer
 * or arrow keys), and the width of its container (measured, so it follows a phone's turn too).
 */
export default function MoneyBarChart(props: MoneyBarChartProps) {
  const height = props.height ?? 220;
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} className="w-full" style={{ minHeight: height }}>
      {width > 0 && <Plot {...props} width={width} height={height} />}
    </div>
  );
}
