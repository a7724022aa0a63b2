import { FileText, Package, ShoppingCart, Upload, Users, Wallet } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useBusiness } from '@/app/business-context';
import { StaleTurnos } from '@/features/caja/stale-turnos';
import { Card, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { useCan, usePermissions } from '@/features/permissions/permissions.api';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDateTime, formatMoney, formatNumber } from '@/lib/format';
import { useDashboardStats, type Periodo } from './dashboard.api';
import { DataAgeNotice } from '@/lib/data-age';

const MonthlySalesChart = lazy(() => import('./monthly-sales-chart'));

const PERIODOS: { id: Periodo; label: string }[] = [
  { id: 'dia', label: 'Día' },
  { id: 'semana', label: 'Semana' },
  { id: 'mes', label: 'Mes' },
];

function StatCard({
  label,
  value,
  icon,
  note,
  loading,
}: {
  label: string;
  value: string;
  icon: ReactNode;
  note?: ReactNode;
  loading: boolean;
}) {
  return (
    <Card>
      <div className="flex items-start justify-between gap-2">
        <p className="min-w-0 text-sm font-medium text-slate-500">{label}</p>
        <div className="shrink-0 rounded-lg bg-blue-50 p-2 text-blue-600">{icon}</div>
      </div>
      {loading ? (
        <Skeleton className="h-8 w-28" />
      ) : (
        <p className="whitespace-nowrap text-2xl font-semibold tracking-tight text-slate-900 xl:text-xl 2xl:text-2xl">
          {value}
        </p>
      )}
      {note && <div className="mt-1">{note}</div>}
    </Card>
  );
}

export default function DashboardPage() {
  const { business, businessId, formatting, isLoading: loadingBusinesses } = useBusiness();
  const can = useCan();
  const perms = usePermissions();
  const [periodo, setPeriodo] = useState<Periodo>('mes');
  const canSeeSales = can('ventas', 'ver');
  const stats = useDashboardStats(businessId, periodo, canSeeSales);
  // Skeletons until every answer is in: a query not yet enabled (the business still loading) is
  // pending too, and must not read as "no permission" or "no sales".
  const loading = loadingBusinesses || (!perms.data && !perms.error) || (canSeeSales && stats.isPending);
  const s = stats.data;
  // Until the business is known the quick actions lead to the module pages themselves.
  const base = businessId ? `/business/${businessId}` : '';

  // Only the actions this member can carry out (the others would end on "Acceso Restringido").
  const actions = [
    { label: 'Nueva venta', to: `${base}/pos`, icon: ShoppingCart, allowed: can('ventas', 'editar') },
    { label: 'Ver productos', to: `${base}/products-and-services`, icon: Package, allowed: can('productos', 'ver') },
    { label: 'Ver clientes', to: `${base}/customers`, icon: Users, allowed: can('clientes', 'ver') },
    {
      label: 'Importar',
      to: `${base}/products-and-services?importar=1`,
      icon: Upload,
      allowed: can('productos', 'editar'),
    },
  ].filter((a) => a.allowed);

  return (
    <div>
      <PageHeader title="Inicio" description={business ? `Resumen de ${business.nombre}` : undefined} />
      {!canSeeSales && !loading && (
        <p className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-800">
          No tenés permiso para ver las ventas de este negocio: las cifras de ventas no se muestran.
        </p>
      )}
      <StaleTurnos enabled={canSeeSales} />
      {stats.error && <ErrorNote>{errorMessage(stats.error)}</ErrorNote>}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label="Ventas del Mes"
          value={canSeeSales ? formatMoney(s?.ventas_mes ?? 0, formatting) : '—'}
          icon={<Wallet className="h-5 w-5" />}
          loading={loading}
        />
        <DataAgeNotice />
        <StatCard
          label="Facturas Emitidas"
          value={canSeeSales ? formatNumber(s?.facturas_emitidas ?? 0, formatting) : '—'}
          icon={<FileText className="h-5 w-5" />}
          loading={loading}
        />
        <StatCard
          label="Productos Activos"
          value={canSeeSales ? formatNumber(s?.productos_activos ?? 0, formatting) : '—'}
          icon={<Package className="h-5 w-5" />}
          loading={loading}
        />
        <StatCard
          label="Clientes Registrados"
          value={canSeeSales ? formatNumber(s?.clientes_registrados ?? 0, formatting) : '—'}
          icon={<Users className="h-5 w-5" />}
          loading={loading}
        />
      </div>

      {canSeeSales && (
        <Card className="mt-6">
          <h2 className="mb-1 font-semibold text-slate-900">Ventas mensuales</h2>
          <Suspense fallback={<Skeleton className="h-56" />}>
            <MonthlySalesChart />
          </Suspense>
        </Card>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card className="min-w-0">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
            <h2 className="font-semibold text-slate-900">Productos más vendidos</h2>
            <div role="group" aria-label="Período" className="inline-flex rounded-lg bg-slate-100 p-1">
              {PERIODOS.map((p) => (
                <button
                  key={p.id}
                  type="button"
                  aria-pressed={periodo === p.id}
                  onClick={() => setPeriodo(p.id)}
                  className={cn(
                    'rounded-md px-3 py-1 text-sm font-medium',
                    periodo === p.id ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-700',
                  )}
                >
                  {p.label}
                </button>
              ))}
            </div>
          </div>
          {loading ? (
            <div className="space-y-3">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-10" />
              ))}
            </div>
          ) : s && s.top_productos.length > 0 ? (
            <ol className="divide-y divide-slate-100">
              {s.top_productos.slice(0, 5).map((p, i) => (
                <li key={p.id} className="flex items-center gap-3 py-2.5">
                  <span className="flex h-7 w-7 items-center justify-center rounded-full bg-blue-50 text-xs font-semibold text-blue-700">
                    {i + 1}
                  </span>
                  <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-800">{p.nombre}</span>
                  <span className="whitespace-nowrap text-sm text-slate-500">
                    {formatNumber(p.cantidad_total, formatting)} u.
                  </span>
                  <span className="whitespace-nowrap text-right text-sm font-medium sm:w-28">
                    {formatMoney(p.precio_venta, formatting)}
                  </span>
                </li>
              ))}
            </ol>
          ) : (
            <EmptyState title="Todavía no hay ventas en este período">
              Cuando registres ventas vas a ver acá los productos que más salen.
            </EmptyState>
          )}
        </Card>

        <Card className="min-w-0">
          <h2 className="mb-4 font-semibold text-slate-900">Ventas recientes</h2>
          {loading ? (
            <div className="space-y-3">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-10" />
              ))}
            </div>
          ) : s && s.ventas_recientes.length > 0 ? (
            <ul className="divide-y divide-slate-100">
              {s.ventas_recientes.map((v) => (
                <li key={v.id} className="flex flex-wrap items-center justify-between gap-x-3 py-2.5 text-sm">
                  <span className="font-medium text-slate-800">Venta #{v.numero}</span>
                  <span className="order-3 w-full text-slate-500 sm:order-none sm:w-auto">
                    {formatDateTime(v.fecha, formatting)}
                  </span>
                  <span className="font-semibold">{formatMoney(v.total, formatting)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState title="No hay ventas registradas">
              Registrá tu primera venta desde el punto de venta.
            </EmptyState>
          )}
        </Card>
      </div>

      {actions.length > 0 && (
        <Card className="mt-6">
          <h2 className="mb-4 font-semibold text-slate-900">Acciones rápidas</h2>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {actions.map((a) => (
              <Link
                key={a.label}
                to={a.to}
                className="flex items-center gap-3 rounded-lg border border-slate-200 p-4 text-sm font-medium text-slate-700 hover:border-blue-300 hover:bg-blue-50"
              >
                <a.icon className="h-5 w-5 text-blue-600" aria-hidden />
                {a.label}
              </Link>
            ))}
          </div>
        </Card>
      )}
    </div>
  );
}
