import {
  ArrowDownCircle,
  ArrowUpCircle,
  Clock,
  List,
  RefreshCw,
  Scale,
  TrendingDown,
  TrendingUp,
  Wallet,
} from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { FINANCE_RECENT_MOVEMENTS, type MovementType } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Card, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney, MONTH_NAMES } from '@/lib/format';
import { AccountStatusBadge } from './accounts-page';
import { useFinanceSummary, useMovements, usePendingAccountsTop } from './finance.api';
import { SignedAmount, signColor, TypeBadge, useFinanceCan } from './finance-ui';
import { MovementFormDialog } from './movement-form-dialog';
import { DataAgeNotice } from '@/lib/data-age';

/** A summary card: its icon and label over whatever figures it shows. */
function StatFrame({ label, icon, children }: { label: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Card className="min-w-0">
      <div role="group" aria-label={label}>
        <p className="flex items-center gap-2 text-sm font-medium text-slate-500">
          <span className="rounded-md bg-blue-50 p-1.5 text-blue-600">{icon}</span>
          {label}
        </p>
        {children}
      </div>
    </Card>
  );
}

function StatCard({ label, value, icon, tone }: { label: string; value: string; icon: ReactNode; tone?: string }) {
  return (
    <StatFrame label={label} icon={icon}>
      <p
        className={cn(
          'mt-2 break-words text-2xl font-semibold tabular-nums xl:text-xl 2xl:text-2xl',
          tone ?? 'text-slate-900',
        )}
      >
        {value}
      </p>
    </StatFrame>
  );
}

/** What others owe the business and what it owes, apart: their sum would mean nothing. */
function PendingCard({ porCobrar, porPagar, vencidas }: { porCobrar: string; porPagar: string; vencidas: number }) {
  return (
    <StatFrame label="Cuentas Pendientes" icon={<Wallet className="h-4 w-4" />}>
      <dl className="mt-2 space-y-1 text-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-x-2">
          <dt className="whitespace-nowrap text-slate-500">A cobrar</dt>
          <dd className="break-words text-lg font-semibold tabular-nums text-emerald-700">{porCobrar}</dd>
        </div>
        <div className="flex flex-wrap items-baseline justify-between gap-x-2">
          <dt className="whitespace-nowrap text-slate-500">A pagar</dt>
          <dd className="break-words text-lg font-semibold tabular-nums text-red-700">{porPagar}</dd>
        </div>
      </dl>
      {vencidas > 0 && (
        <p className="mt-1 text-xs text-red-700">
          {vencidas} {vencidas === 1 ? 'vencida' : 'vencidas'}
        </p>
      )}
    </StatFrame>
  );
}

function SummarySkeleton() {
  return (
    <div aria-busy="true" aria-label="Cargando resumen">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-28" />
        ))}
      </div>
      <Skeleton className="mt-6 h-24" />
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-72" />
        <Skeleton className="h-72" />
      </div>
    </div>
  );
}

const actionClass =
  'flex items-center gap-3 rounded-lg border border-slate-200 p-4 text-sm font-medium text-slate-700 hover:border-blue-300 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

/** Resumen Financiero (SPEC §2): the month's figures, quick actions and what needs attention. */
export function SummaryPage() {
  const { formatting } = useBusiness();
  const can = useFinanceCan();
  const summary = useFinanceSummary();
  const recent = useMovements({ limit: FINANCE_RECENT_MOVEMENTS, offset: 0 });
  const pending = usePendingAccountsTop();
  const [preset, setPreset] = useState<MovementType | null>(null);
  const canEdit = can('movimientos_financieros', 'edit');
  const s = summary.data;
  const loading = summary.isLoading || recent.isLoading || pending.isLoading;
  const refreshing = summary.isFetching || recent.isFetching || pending.isFetching;
  const updatedAt = Math.max(summary.dataUpdatedAt, recent.dataUpdatedAt, pending.dataUpdatedAt);
  const refresh = () => Promise.all([summary.refetch(), recent.refetch(), pending.refetch()]);
  const time = new Intl.DateTimeFormat(formatting.locale, { timeStyle: 'medium', timeZone: formatting.timezone });

  return (
    <div>
      <PageHeader
        title="Resumen Financiero"
        description={s ? `${MONTH_NAMES[s.mes - 1]} ${s.anio}` : undefined}
        actions={
          <div className="flex items-center gap-3">
            {updatedAt > 0 && (
              <span className="flex items-center gap-1 text-xs text-slate-500">
                <Clock className="h-3.5 w-3.5" aria-hidden />
                Última actualización: {time.format(updatedAt)}
              </span>
            )}
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void refresh()}
              loading={refreshing}
              aria-label="Actualizar resumen"
            >
              {!refreshing && <RefreshCw className="h-4 w-4" aria-hidden />}
              Actualizar
            </Button>
          </div>
        }
      />
      <DataAgeNotice />
      {summary.error && <ErrorNote>{errorMessage(summary.error, 'Error al cargar el resumen financiero')}</ErrorNote>}
      {loading ? (
        <SummarySkeleton />
      ) : (
        <>
          {s && (
            <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
              <StatCard
                label="Total Ingresos"
                value={formatMoney(s.total_ingresos, formatting)}
                tone="text-emerald-700"
                icon={<TrendingUp className="h-4 w-4" />}
              />
              <StatCard
                label="Total Egresos"
                value={formatMoney(s.total_egresos, formatting)}
                tone="text-red-700"
                icon={<TrendingDown className="h-4 w-4" />}
              />
              <StatCard
                label="Balance"
                value={formatMoney(s.balance, formatting)}
                tone={signColor(s.balance)}
                icon={<Scale className="h-4 w-4" />}
              />
              <PendingCard
                porCobrar={formatMoney(s.por_cobrar_pendiente, formatting)}
                porPagar={formatMoney(s.por_pagar_pendiente, formatting)}
                vencidas={s.cuentas_vencidas}
              />
            </div>
          )}

          <Card className="mt-6">
            <h2 className="mb-4 font-semibold text-slate-900">Acciones rápidas</h2>
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              {canEdit && (
                <>
                  <button type="button" className={actionClass} onClick={() => setPreset('ingreso')}>
                    <ArrowUpCircle className="h-5 w-5 text-emerald-600" aria-hidden />
                    Agregar Ingreso
                  </button>
                  <button type="button" className={actionClass} onClick={() => setPreset('egreso')}>
                    <ArrowDownCircle className="h-5 w-5 text-red-600" aria-hidden />
                    Agregar Egreso
                  </button>
                </>
              )}
              <Link to="/finanzas/movimientos" className={actionClass}>
                <List className="h-5 w-5 text-blue-600" aria-hidden />
                Ver Movimientos
              </Link>
              <Link to="/finanzas/cuentas" className={actionClass}>
                <Wallet className="h-5 w-5 text-blue-600" aria-hidden />
                Ver Cuentas
              </Link>
            </div>
          </Card>

          <div className="mt-6 grid gap-6 lg:grid-cols-2">
            <Card className="min-w-0">
              <div className="mb-3 flex items-center justify-between">
                <h2 className="font-semibold text-slate-900">Movimientos Recientes</h2>
                <Link to="/finanzas/movimientos" className="text-sm font-medium text-blue-700 hover:underline">
                  Ver todos
                </Link>
              </div>
              {recent.error ? (
                <ErrorNote>{errorMessage(recent.error)}</ErrorNote>
              ) : (recent.data?.rows ?? []).length === 0 ? (
                <p className="py-8 text-center text-sm text-slate-500">No hay movimientos recientes</p>
              ) : (
                <ul className="divide-y divide-slate-100">
                  {recent.data!.rows.map((m) => (
                    <li key={m.id} className="flex items-center justify-between gap-3 py-3">
                      <div className="min-w-0">
                        <p className="truncate text-sm font-medium text-slate-800">
                          {m.descripcion || 'Sin descripción'}
                        </p>
                        <p className="mt-0.5 flex items-center gap-2 text-xs text-slate-500">
                          <TypeBadge tipo={m.tipo} />
                          {formatDate(m.fecha, formatting)}
                          {m.categoria_nombre && <span className="truncate">· {m.categoria_nombre}</span>}
                        </p>
                      </div>
                      <SignedAmount tipo={m.tipo} monto={m.monto} className="text-sm" />
                    </li>
                  ))}
                </ul>
              )}
            </Card>

            <Card className="min-w-0">
              <div className="mb-3 flex items-center justify-between">
                <h2 className="font-semibold text-slate-900">Cuentas Pendientes</h2>
                <Link to="/finanzas/cuentas" className="text-sm font-medium text-blue-700 hover:underline">
                  Ver todas
                </Link>
              </div>
              {pending.error ? (
                <ErrorNote>{errorMessage(pending.error)}</ErrorNote>
              ) : (pending.data ?? []).length === 0 ? (
                <p className="py-8 text-center text-sm text-slate-500">No hay cuentas pendientes</p>
              ) : (
                <ul className="divide-y divide-slate-100">
                  {pending.data!.map((a) => (
                    <li key={a.id} className="flex items-center justify-between gap-3 py-3">
                      <div className="min-w-0">
                        <p className="truncate text-sm font-medium text-slate-800">
                          {a.cliente_nombre || a.proveedor_nombre || 'Sin nombre'}
                          <span className="font-normal text-slate-500">
                            {' '}
                            · {a.tipo === 'por_cobrar' ? 'Por cobrar' : 'Por pagar'}
                          </span>
                        </p>
                        <p className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                          <AccountStatusBadge account={a} />
                          Vence {formatDate(a.fecha_vencimiento, formatting)}
                        </p>
                      </div>
                      <span className="whitespace-nowrap text-sm font-semibold tabular-nums text-slate-900">
                        {formatMoney(a.monto, formatting)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
        </>
      )}

      <MovementFormDialog
        open={preset !== null}
        onOpenChange={(o) => !o && setPreset(null)}
        presetTipo={preset ?? undefined}
      />
    </div>
  );
}
