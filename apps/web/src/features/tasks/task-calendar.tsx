import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { instantDate, TASK_STATE_LABELS, type CalendarTask } from '@mostrador/shared/tasks';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Card, ErrorNote, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, MONTH_NAMES, todayIn } from '@/lib/format';
import { useTaskCalendar } from './tasks.api';
import { OverdueBadge, PriorityBadge } from './task-ui';

const WEEKDAYS = ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'];
const WEEKDAYS_LONG = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'];

/** Calendar arithmetic on 'YYYY-MM-DD' strings (no time zone involved). */
const toUtc = (d: string) => new Date(`${d}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);
function addDays(d: string, n: number) {
  const x = toUtc(d);
  x.setUTCDate(x.getUTCDate() + n);
  return iso(x);
}
/** Monday = 0 … Sunday = 6. */
const weekday = (d: string) => (toUtc(d).getUTCDay() + 6) % 7;
function monthBounds(month: string) {
  const first = `${month}-01`;
  const next = toUtc(first);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return { first, last: addDays(iso(next), -1) };
}
function shiftMonth(month: string, n: number) {
  const d = toUtc(`${month}-01`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return iso(d).slice(0, 7);
}

/** The weeks shown for a month: Monday of its first week to Sunday of its last. */
function gridOf(month: string) {
  const { first, last } = monthBounds(month);
  const start = addDays(first, -weekday(first));
  const end = addDays(last, 6 - weekday(last));
  const days: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) days.push(d);
  return { start, end, days };
}

/**
 * The month view: each task on every day its span covers (a task with one date on that day),
 * coloured as the server says. Days are buttons: picking one lists its tasks below.
 */
export function TaskCalendar({
  onOpen,
  onCreate,
}: {
  onOpen: (t: CalendarTask) => void;
  onCreate?: (day: string) => void;
}) {
  const { formatting } = useBusiness();
  const tz = formatting.timezone;
  const today = todayIn(tz);
  const [month, setMonth] = useState(today.slice(0, 7));
  const [selected, setSelected] = useState<string>(today);
  const grid = useMemo(() => gridOf(month), [month]);
  const cal = useTaskCalendar(grid.start, grid.end);

  const byDay = useMemo(() => {
    const map = new Map<string, CalendarTask[]>();
    for (const t of cal.data ?? []) {
      const from = instantDate(t.fecha_inicio ?? t.fecha_fin!, tz);
      const to = instantDate(t.fecha_fin ?? t.fecha_inicio!, tz);
      for (let d = from < grid.start ? grid.start : from; d <= to && d <= grid.end; d = addDays(d, 1)) {
        map.set(d, [...(map.get(d) ?? []), t]);
      }
    }
    return map;
  }, [cal.data, tz, grid]);

  const [y, m] = month.split('-').map(Number);
  const title = `${MONTH_NAMES[m - 1]} ${y}`;
  const dayTasks = byDay.get(selected) ?? [];
  const go = (n: number) => {
    const next = shiftMonth(month, n);
    setMonth(next);
    setSelected(next === today.slice(0, 7) ? today : `${next}-01`);
  };

  return (
    <div className="space-y-4">
      <Card className="p-3 sm:p-5">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 className="text-lg font-semibold text-slate-900" aria-live="polite" data-testid="calendario-mes">
            {title}
          </h2>
          <div className="flex items-center gap-1">
            <Button variant="secondary" size="sm" onClick={() => go(-1)} aria-label="Mes anterior">
              <ChevronLeft className="h-4 w-4" />
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                setMonth(today.slice(0, 7));
                setSelected(today);
              }}
            >
              Hoy
            </Button>
            <Button variant="secondary" size="sm" onClick={() => go(1)} aria-label="Mes siguiente">
              <ChevronRight className="h-4 w-4" />
            </Button>
          </div>
        </div>
        {cal.error && <ErrorNote>{errorMessage(cal.error, 'No se pudo cargar el calendario.')}</ErrorNote>}
        <div
          role="grid"
          aria-label={`Calendario de tareas, ${title}`}
          className="overflow-hidden rounded-lg border border-slate-200"
        >
          <div role="row" className="grid grid-cols-7 border-b border-slate-200 bg-slate-50">
            {WEEKDAYS.map((w) => (
              <div key={w} role="columnheader" className="py-1.5 text-center text-xs font-medium text-slate-500">
                {w}
              </div>
            ))}
          </div>
          {Array.from({ length: grid.days.length / 7 }, (_, week) => (
            <div role="row" key={week} className="grid grid-cols-7">
              {grid.days.slice(week * 7, week * 7 + 7).map((d) => {
                const tasks = byDay.get(d) ?? [];
                const outside = d.slice(0, 7) !== month;
                const isToday = d === today;
                const isSelected = d === selected;
                return (
                  <div
                    role="gridcell"
                    key={d}
                    aria-selected={isSelected}
                    data-fecha={d}
                    className={cn(
                      'min-h-12 border-b border-r border-slate-100 p-0.5 sm:min-h-28 sm:p-1',
                      outside && 'bg-slate-50/70',
                      isSelected && 'bg-blue-50/60',
                    )}
                  >
                    <button
                      type="button"
                      onClick={() => setSelected(d)}
                      className={cn(
                        'flex w-full items-center justify-between rounded px-1 py-0.5 text-left text-xs focus-visible:outline-2 focus-visible:outline-blue-600',
                        outside ? 'text-slate-400' : 'text-slate-700',
                      )}
                      aria-label={`${WEEKDAYS_LONG[weekday(d)]} ${formatDate(d, formatting)}: ${tasks.length} ${tasks.length === 1 ? 'tarea' : 'tareas'}`}
                    >
                      <span
                        className={cn(
                          'flex h-6 w-6 items-center justify-center rounded-full font-medium',
                          isToday && 'bg-blue-600 text-white',
                        )}
                      >
                        {Number(d.slice(8))}
                      </span>
                      {tasks.length > 0 && (
                        <span className="flex gap-0.5 sm:hidden" aria-hidden>
                          {tasks.slice(0, 3).map((t) => (
                            <span key={t.id} className="h-1.5 w-1.5 rounded-full" style={{ background: t.color }} />
                          ))}
                        </span>
                      )}
                    </button>
                    <ul className="mt-0.5 hidden space-y-0.5 sm:block">
                      {tasks.slice(0, 3).map((t) => (
                        <li key={t.id}>
                          <button
                            type="button"
                            onClick={() => onOpen(t)}
                            className="block w-full truncate rounded border-l-4 px-1.5 py-0.5 text-left text-xs text-slate-800 hover:brightness-95 focus-visible:outline-2 focus-visible:outline-blue-600"
                            style={{ borderLeftColor: t.color, background: `${t.color}1f` }}
                            title={`${t.titulo} · ${TASK_STATE_LABELS[t.estado]}`}
                          >
                            {t.titulo}
                          </button>
                        </li>
                      ))}
                      {tasks.length > 3 && (
                        <li>
                          <button
                            type="button"
                            onClick={() => setSelected(d)}
                            className="px-1.5 text-xs font-medium text-blue-700 hover:underline"
                          >
                            +{tasks.length - 3} más
                          </button>
                        </li>
                      )}
                    </ul>
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        {cal.isLoading && <Skeleton className="mt-2 h-2" />}
      </Card>

      <Card>
        <div className="mb-3 flex items-center justify-between gap-2">
          <h3 className="font-semibold text-slate-900">
            Tareas del {WEEKDAYS_LONG[weekday(selected)]} {formatDate(selected, formatting)}
          </h3>
          {onCreate && (
            <Button size="sm" variant="secondary" onClick={() => onCreate(selected)}>
              <Plus className="h-4 w-4" aria-hidden /> Nueva
            </Button>
          )}
        </div>
        {dayTasks.length === 0 ? (
          <p className="text-sm text-slate-500">No hay tareas para este día.</p>
        ) : (
          <ul className="space-y-2" aria-label="Tareas del día">
            {dayTasks.map((t) => (
              <li key={t.id}>
                <button
                  type="button"
                  onClick={() => onOpen(t)}
                  className="flex w-full flex-wrap items-center gap-2 rounded-lg border border-slate-200 border-l-4 px-3 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600"
                  style={{ borderLeftColor: t.color }}
                >
                  <span className="min-w-0 basis-full font-medium text-slate-900 sm:flex-1 sm:basis-auto sm:truncate">
                    {t.titulo}
                  </span>
                  <span className="text-xs text-slate-500">{TASK_STATE_LABELS[t.estado]}</span>
                  <PriorityBadge prioridad={t.prioridad} />
                  {t.vencida && <OverdueBadge />}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
