import type { ColumnDef } from '@tanstack/react-table';
import { Download, Minus, Plus, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { CashFlowDay, MovementType } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/input';
import { MoneyChart } from '@/components/charts/money-chart';
import { Card, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney, MONTH_NAMES, todayIn, type Formatting } from '@/lib/format';
import { useCashFlow, useCashFlowExport } from './finance.api';
import { signColor, useFinanceCan } from './finance-ui';
import { MovementFormDialog } from './movement-form-dialog';
import { DataAgeNotice } from '@/lib/data-age';

/** SPEC §8: the server's detail, else the error's message, else the fixed text. */
function loadError(e: unknown): string {
  if (e instanceof ApiError && typeof e.detail === 'string' && e.detail) return e.detail;
  if (e instanceof Error && e.message) return e.message;
  return 'Error al cargar el flujo de caja';
}

/**
 * The month's last load error stays on screen while "Actualizar" tries again, instead of giving
 * way to a skeleton (and coming back seconds later); a success clears it.
 */
function useStickyError(q: { error: unknown; isSuccess: boolean; isPlaceholderData: boolean }, key: string) {
  const [sticky, setSticky] = useState<{ key: string; error: unknown } | null>(null);
  if (q.error && sticky?.error !== q.error) setSticky({ key, error: q.error });
  else if (!q.error && q.isSuccess && !q.isPlaceholderData && sticky) setSticky(null);
  return q.error ?? (sticky?.key === key ? sticky.error : null);
}

/** Zero is shown as '-'. */
const money = (n: number, f: Formatting) => (n === 0 ? '-' : formatMoney(n, f));

/** Accumulated balance per day: the negative days go below the zero line, in red. */
function BalanceChart({ days }: { days: CashFlowDay[] }) {
  const { formatting } = useBusiness();
  return (
    <Card className="mb-6">
      <h2 className="mb-4 font-semibold text-slate-900">Saldo acumulado por día</h2>
      <MoneyChart
        label="Gráfico del saldo acumulado por día"
        formatting={formatting}
        data={days.map((d) => ({
          key: d.fecha,
          label: String(Number(d.fecha.slice(8))),
          title: formatDate(d.fecha, formatting),
          value: d.saldo_acumulado,
          detail: `Ingresos ${formatMoney(d.ingresos, formatting)} · egresos ${formatMoney(d.egresos, formatting)}`,
        }))}
      />
    </Card>
  );
}

function Totals({
  label,
  value,
  tone,
  failed,
}: {
  label: string;
  value: number | undefined;
  tone: string;
  failed: boolean;
}) {
  const { formatting } = useBusiness();
  return (
    <Card>
      <div role="group" aria-label={label}>
        <p className="text-sm font-medium text-slate-500">{label}</p>
        {value === undefined && failed ? (
          <p className="mt-1 text-2xl font-semibold text-slate-400" title="No se pudo cargar">
            —
          </p>
        ) : value === undefined ? (
          <Skeleton className="mt-2 h-8 w-32" />
        ) : (
          <p className={cn('mt-1 break-words text-xl font-semibold tabular-nums sm:text-2xl', tone)}>
            {formatMoney(value, formatting)}
          </p>
        )}
      </div>
    </Card>
  );
}

const active = (d: CashFlowDay) => d.ingresos !== 0 || d.egresos !== 0;

/** The month's days (the browser has them all and sorts them itself); a day without movements is grey. */
function cashFlowColumns(formatting: Formatting): ColumnDef<CashFlowDay, unknown>[] {
  const amount = (
    id: 'ingresos' | 'egresos' | 'saldo_diario' | 'saldo_acumulado',
    header: string,
    tone: (d: CashFlowDay) => string | false,
  ): ColumnDef<CashFlowDay, unknown> => ({
    id,
    header,
    accessorKey: id,
    meta: { label: header, align: 'right', className: 'whitespace-nowrap' },
    cell: ({ row: { original: d } }) => <span className={tone(d) || undefined}>{money(d[id], formatting)}</span>,
  });
  return [
    {
      id: 'fecha',
      header: 'Fecha',
      accessorKey: 'fecha',
      enableHiding: false,
      meta: { label: 'Fecha', primary: true, className: 'whitespace-nowrap' },
      cell: ({ row }) => formatDate(row.original.fecha, formatting),
    },
    amount('ingresos', 'Ingresos', (d) => d.ingresos !== 0 && 'text-emerald-700'),
    amount('egresos', 'Egresos', (d) => d.egresos !== 0 && 'text-red-700'),
    amount('saldo_diario', 'Saldo diario', (d) => active(d) && signColor(d.saldo_diario)),
    amount('saldo_acumulado', 'Saldo acumulado', (d) => active(d) && cn('font-medium', signColor(d.saldo_acumulado))),
  ];
}

/** Flujo de Caja (SPEC §2): one month, day by day. */
export function CashFlowPage() {
  const { formatting } = useBusiness();
  const can = useFinanceCan();
  const today = todayIn(formatting.timezone);
  const currentYear = Number(today.slice(0, 4));
  const [mes, setMes] = useState(() => Number(today.slice(5, 7)));
  const [anio, setAnio] = useState(currentYear);
  const flow = useCashFlow(mes, anio);
  const exporter = useCashFlowExport();
  const error = useStickyError(flow, `${anio}-${mes}`);
  const [preset, setPreset] = useState<MovementType | null>(null);
  const years = [currentYear - 2, currentYear - 1, currentYear, currentYear + 1];
  const days = flow.data?.flujo_diario ?? [];
  const hasData = days.some(active);
  const canEdit = can('movimientos_financieros', 'edit');

  return (
    <div>
      <PageHeader title="Flujo de Caja" description="Ingresos, egresos y saldo acumulado de cada día del mes." />
      <Card className="mb-6">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="grid flex-1 grid-cols-2 gap-3 sm:max-w-sm">
            <Field id="fc-mes" label="Mes">
              <Select id="fc-mes" value={mes} onChange={(e) => setMes(Number(e.target.value))}>
                {MONTH_NAMES.map((name, i) => (
                  <option key={name} value={i + 1}>
                    {name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="fc-anio" label="Año">
              <Select id="fc-anio" value={anio} onChange={(e) => setAnio(Number(e.target.value))}>
                {years.map((y) => (
                  <option key={y} value={y}>
                    {y}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className="flex flex-wrap gap-2">
            {canEdit && (
              <>
                <Button variant="success" onClick={() => setPreset('ingreso')}>
                  <Plus className="h-4 w-4" aria-hidden />
                  Nuevo Ingreso
                </Button>
                <Button variant="danger" onClick={() => setPreset('egreso')}>
                  <Minus className="h-4 w-4" aria-hidden />
                  Nuevo Egreso
                </Button>
              </>
            )}
            <Button variant="secondary" onClick={() => void flow.refetch()} loading={flow.isFetching}>
              {!flow.isFetching && <RefreshCw className="h-4 w-4" aria-hidden />}
              Actualizar
            </Button>
            <Button variant="secondary" loading={exporter.busy} onClick={() => exporter.run(mes, anio)}>
              {!exporter.busy && <Download className="h-4 w-4" aria-hidden />}
              Exportar
            </Button>
          </div>
        </div>
        {exporter.error && (
          <div className="mt-3">
            <ErrorNote>{exporter.error}</ErrorNote>
          </div>
        )}
      </Card>

      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <Totals label="Total Ingresos" value={flow.data?.total_ingresos} tone="text-emerald-700" failed={!!error} />
        <Totals label="Total Egresos" value={flow.data?.total_egresos} tone="text-red-700" failed={!!error} />
        <Totals
          label="Saldo Final"
          value={flow.data?.saldo_final}
          tone={signColor(flow.data?.saldo_final ?? 0)}
          failed={!!error}
        />
      </div>

      {error ? (
        <ErrorNote>
          {loadError(error)}{' '}
          <button type="button" className="font-medium underline" onClick={() => void flow.refetch()}>
            Reintentar
          </button>
        </ErrorNote>
      ) : flow.isLoading ? (
        <Skeleton className="h-64" />
      ) : !hasData ? (
        <EmptyState title="No hay datos de flujo de caja para este período" />
      ) : (
        <>
          <BalanceChart days={days} />
          <DataTable
            screen="flujo-caja"
            label={`Flujo de caja de ${MONTH_NAMES[mes - 1]} ${anio}`}
            columns={cashFlowColumns(formatting)}
            rows={days}
            rowId={(d) => d.fecha}
            pageSize={31}
            countLabel={['día', 'días']}
            rowClassName={(d) => !active(d) && 'bg-slate-50 text-slate-400'}
            empty={<EmptyState title="No hay datos de flujo de caja para este período" />}
          />
        </>
      )}

      <MovementFormDialog
        open={preset !== null}
        onOpenChange={(o) => !o && setPreset(null)}
        presetTipo={preset ?? undefined}
      />
      <DataAgeNotice />
    </div>
  );
}
