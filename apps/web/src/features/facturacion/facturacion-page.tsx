import { Download, FileText, Settings } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  COMPROBANTE_ESTADO_LABELS,
  COMPROBANTE_ESTADOS,
  COMPROBANTE_TIPO_LABELS,
  COMPROBANTE_TIPOS,
} from '@mostrador/shared/facturacion';
import { useBusiness } from '@/app/business-context';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { FilterSelect, Input } from '@/components/ui/input';
import { EmptyState, ErrorNote, FilterBar, PageHeader } from '@/components/ui/misc';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan } from '@/features/permissions/permissions.api';
import { RowsSkeleton, SearchBox, StatusNote, Tabs, useDebounced } from '@/features/products/inventory-ui';
import { errorMessage } from '@/lib/api';
import { todayIn } from '@/lib/format';
import { useDownload } from '@/lib/download';
import { comprobanteColumns } from './comprobante-columns';
import { comprobanteTitulo, InvoicePreviewDialog, rechazoMensaje } from './comprobante-ui';
import {
  libroIvaDigitalPath,
  libroIvaPath,
  useComprobantes,
  useFacturacionConfig,
  useReintentar,
  type ComprobanteFilters,
} from './facturacion.api';
import { useIsAdmin } from '@/features/permissions/permissions.api';

const ConfigTab = lazy(() => import('./config-form'));

const PAGE_SIZE = 50;

type Tab = 'comprobantes' | 'config';

/** /facturacion (issue 16): the comprobantes for whoever sees the sales; the fiscal setup for admins. */
export default function FacturacionPage() {
  return (
    <PermissionGate modulo="ventas">
      <Facturacion />
    </PermissionGate>
  );
}

function Facturacion() {
  const admin = useIsAdmin();
  const [params, setParams] = useSearchParams();
  const tab: Tab = admin && params.get('tab') === 'config' ? 'config' : 'comprobantes';
  const tabs: { value: Tab; label: string }[] = [
    { value: 'comprobantes', label: 'Comprobantes' },
    ...(admin ? [{ value: 'config' as const, label: 'Configuración' }] : []),
  ];
  return (
    <div>
      <PageHeader title="Facturación" description="Facturas y notas de crédito electrónicas autorizadas por ARCA." />
      {tabs.length > 1 && (
        <Tabs
          label="Facturación"
          tabs={tabs}
          value={tab}
          onChange={(v) => setParams(v === 'config' ? { tab: 'config' } : {}, { replace: true })}
        />
      )}
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={tabs.length > 1 ? `tab-${tab}` : undefined}>
        {tab === 'comprobantes' ? (
          <Comprobantes admin={admin} />
        ) : (
          <Suspense fallback={<RowsSkeleton rows={4} />}>
            <ConfigTab />
          </Suspense>
        )}
      </div>
    </div>
  );
}

function Comprobantes({ admin }: { admin: boolean }) {
  const { businessId, formatting } = useBusiness();
  const can = useCan();
  const canEmit = can('ventas', 'editar');
  const config = useFacturacionConfig(admin);
  const [estado, setEstado] = useState('');
  const [tipo, setTipo] = useState('');
  const [desde, setDesde] = useState('');
  const [hasta, setHasta] = useState('');
  const [search, setSearch] = useState('');
  const q = useDebounced(search);
  const [page, setPage] = useState(0);
  const [viewing, setViewing] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [retryError, setRetryError] = useState<string | null>(null);
  const filters: ComprobanteFilters = { estado, tipo, desde, hasta, q, limit: PAGE_SIZE, offset: page * PAGE_SIZE };
  const list = useComprobantes(filters);
  const retry = useReintentar();
  const filtered = Boolean(estado || tipo || desde || hasta || q.trim());
  const set = (f: (v: string) => void) => (v: string) => {
    f(v);
    setPage(0);
  };
  const today = todayIn(formatting.timezone);
  const [mes, setMes] = useState(today.slice(0, 7));
  const libro = useDownload('No se pudo exportar el Libro IVA Ventas.');
  const digital = useDownload('No se pudo descargar el Libro IVA Digital.');
  const columns = comprobanteColumns({
    formatting,
    retrying: retry.isPending ? (retry.variables ?? null) : null,
    onView: (c) => setViewing(c.id),
    onRetry:
      canEmit &&
      (async (c) => {
        setRetryError(null);
        try {
          const r = await retry.mutateAsync(c.id);
          setStatus(
            r.estado === 'autorizado'
              ? `${comprobanteTitulo(r)} autorizada. CAE ${r.cae}.`
              : r.estado === 'pendiente'
                ? `${r.tipo_label}: se pidió de nuevo a ARCA; la lista se actualiza sola.`
                : `${r.tipo_label} rechazada otra vez: ${rechazoMensaje(r)}`,
          );
        } catch (e) {
          setRetryError(errorMessage(e, 'No se pudo reintentar.'));
        }
      }),
  });

  return (
    <>
      {admin && config.data && !config.data.configurado && (
        <div className="mb-4 flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between">
          <p>
            La facturación electrónica todavía no está configurada: cargá el CUIT, el punto de venta y el certificado de
            ARCA.
          </p>
          <Link
            to="/facturacion?tab=config"
            className="inline-flex shrink-0 items-center gap-1 font-medium text-amber-900 underline"
          >
            <Settings className="h-4 w-4" aria-hidden /> Configurar
          </Link>
        </div>
      )}
      {status && <StatusNote onClose={() => setStatus(null)}>{status}</StatusNote>}
      <FilterBar
        label="Buscar comprobantes"
        className="sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]"
      >
        <div className="sm:col-span-2 lg:col-span-1">
          <SearchBox
            id="fc-q"
            label="Buscar por cliente, documento, número o CAE"
            placeholder="Cliente, CUIT/DNI, número o CAE"
            value={search}
            onChange={set(setSearch)}
          />
        </div>
        <FilterSelect id="fc-estado" label="Estado" value={estado} onChange={(e) => set(setEstado)(e.target.value)}>
          <option value="">Todos los estados</option>
          {COMPROBANTE_ESTADOS.map((e) => (
            <option key={e} value={e}>
              {COMPROBANTE_ESTADO_LABELS[e]}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect id="fc-tipo" label="Tipo" value={tipo} onChange={(e) => set(setTipo)(e.target.value)}>
          <option value="">Todos los tipos</option>
          {COMPROBANTE_TIPOS.map((t) => (
            <option key={t} value={t}>
              {COMPROBANTE_TIPO_LABELS[t]}
            </option>
          ))}
        </FilterSelect>
        <div className="flex min-w-0 items-center gap-2">
          <label htmlFor="fc-desde" className="shrink-0 text-sm text-slate-600">
            Desde
          </label>
          <Input
            id="fc-desde"
            type="date"
            value={desde}
            max={hasta || undefined}
            onChange={(e) => set(setDesde)(e.target.value)}
          />
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <label htmlFor="fc-hasta" className="shrink-0 text-sm text-slate-600">
            Hasta
          </label>
          <Input
            id="fc-hasta"
            type="date"
            value={hasta}
            min={desde || undefined}
            onChange={(e) => set(setHasta)(e.target.value)}
          />
        </div>
      </FilterBar>
      {retryError && <ErrorNote>{retryError}</ErrorNote>}
      <DataTable
        screen="comprobantes"
        label="Comprobantes"
        columns={columns}
        rows={list.data?.comprobantes}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.error ? errorMessage(list.error, 'No se pudieron cargar los comprobantes.') : null}
        rowId={(c) => c.id}
        pagination={{
          page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onPage: setPage,
          label: 'comprobantes',
          one: 'comprobante',
        }}
        empty={
          filtered ? (
            <EmptyState icon={<FileText className="h-8 w-8" />} title="No hay comprobantes con esos filtros" />
          ) : (
            <EmptyState icon={<FileText className="h-8 w-8" />} title="Todavía no emitiste comprobantes">
              {admin && config.data && !config.data.configurado ? (
                <p>
                  Primero{' '}
                  <Link to="/facturacion?tab=config" className="font-medium text-blue-700 hover:underline">
                    configurá la facturación
                  </Link>
                  ; después facturá desde el punto de venta o desde el detalle de una venta.
                </p>
              ) : (
                <p>Facturá desde el punto de venta o desde el detalle de una venta en el Reporte de ventas.</p>
              )}
            </EmptyState>
          )
        }
      />
      <section className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby="libro-iva">
        <h2 id="libro-iva" className="text-base font-semibold text-slate-900">
          Libro IVA Ventas
        </h2>
        <p className="mt-1 text-sm text-slate-500">
          Los comprobantes autorizados del mes, con neto e IVA por alícuota y una fila de totales, en Excel; y los
          archivos .txt que importa el Libro IVA Digital de ARCA.
        </p>
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="libro-mes" className="block text-sm font-medium text-slate-700">
              Mes
            </label>
            <Input
              id="libro-mes"
              type="month"
              value={mes}
              max={today.slice(0, 7)}
              onChange={(e) => setMes(e.target.value)}
              className="w-44"
            />
          </div>
          <Button
            variant="secondary"
            loading={libro.busy}
            disabled={!/^\d{4}-\d{2}$/.test(mes)}
            onClick={() => void libro.run(libroIvaPath(businessId ?? ''), { mes })}
          >
            <Download className="h-4 w-4" aria-hidden /> Exportar Libro IVA Ventas
          </Button>
        </div>
        <div className="mt-3 flex flex-wrap gap-3" role="group" aria-label="Libro IVA Digital (ARCA)">
          {(['comprobantes', 'alicuotas'] as const).map((parte) => (
            <Button
              key={parte}
              variant="secondary"
              loading={digital.busy}
              disabled={!/^\d{4}-\d{2}$/.test(mes)}
              onClick={() => void digital.run(libroIvaDigitalPath(businessId ?? '', parte), { mes })}
            >
              <FileText className="h-4 w-4" aria-hidden /> Libro IVA Digital (ARCA) — ventas:{' '}
              {parte === 'comprobantes' ? 'comprobantes' : 'alícuotas'}
            </Button>
          ))}
        </div>
        {(libro.error || digital.error) && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {libro.error ?? digital.error}
          </p>
        )}
      </section>
      {viewing && <InvoicePreviewDialog id={viewing} onClose={() => setViewing(null)} />}
    </>
  );
}
