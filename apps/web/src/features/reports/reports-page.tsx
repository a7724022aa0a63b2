import { useDownload } from '@/lib/download';
import { Ban, ChevronDown, ChevronRight, Download, Printer, Receipt, Undo2 } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Devolucion } from '@mostrador/shared/devoluciones';
import { SALE_STATE_LABELS, saleMedioNombre, type Sale, type SalesReport } from '@mostrador/shared/sales';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Textarea } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { DevolucionDialog, DevolucionDoneDialog, SaleReturns } from '@/features/devoluciones/devolucion-dialog';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan, useCounterControls } from '@/features/permissions/permissions.api';
import { PrintableTicket, printTicket } from '@/features/pos/ticket';
import { useTicketBusiness } from '@/features/pos/ticket-business';
import { StatusNote } from '@/features/products/inventory-ui';
import { DataTable, useServerSorting } from '@/components/data-table';
import type { ColumnDef } from '@tanstack/react-table';
import { useSales, useSalesReport, useVoidSale } from '@/features/sales/sales.api';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, formatDateTime, formatMoney, formatNumber, todayIn, type Formatting } from '@/lib/format';
import { DailySalesChart } from './daily-chart';
import { daysBetween, PERIOD_LABELS, periodRange, type PeriodId } from './periods';
import { DataAgeNotice } from '@/lib/data-age';

const PAGE_SIZE = 20;

/** A sale's factura and notas de crédito (issue 16), loaded with the first detail opened. */
const SaleComprobantes = lazy(() => import('@/features/facturacion/sale-comprobantes'));

export default function ReportsPage() {
  return (
    <PermissionGate modulo="ventas" accion="ver">
      <Reports />
    </PermissionGate>
  );
}

function Reports() {
  const { business, businessId, formatting } = useBusiness();
  const { verCostos } = useCounterControls();
  const today = todayIn(formatting.timezone);
  const [period, setPeriod] = useState<PeriodId>('mes');
  const [custom, setCustom] = useState(() => periodRange('mes', today));
  const range = period === 'personalizado' ? custom : periodRange(period, today);
  const rangeError =
    period === 'personalizado'
      ? !custom.desde || !custom.hasta
        ? 'Elegí las dos fechas.'
        : custom.desde > custom.hasta
          ? 'La fecha desde no puede ser posterior a la fecha hasta.'
          : daysBetween(custom.desde, custom.hasta) + 1 > 366
            ? 'El rango máximo es de 366 días.'
            : null
      : null;
  const report = useSalesReport(range.desde, range.hasta, !rangeError);
  const exporter = useDownload('No se pudo exportar el reporte.');
  const r = report.data;

  async function exportXlsx() {
    await exporter.run(`/businesses/${businessId}/ventas/reporte`, {
      fecha_desde: range.desde,
      fecha_hasta: range.hasta,
      formato: 'xlsx',
    });
  }

  return (
    <div>
      <PageHeader
        title="Reporte de ventas"
        description={
          business
            ? rangeError
              ? business.nombre
              : `${business.nombre} · ${formatDate(range.desde, formatting)} al ${formatDate(range.hasta, formatting)}`
            : undefined
        }
        actions={
          <Button
            variant="secondary"
            onClick={() => void exportXlsx()}
            loading={exporter.busy}
            disabled={Boolean(rangeError)}
          >
            <Download className="h-4 w-4" aria-hidden /> Exportar a Excel
          </Button>
        }
      />
      <DataAgeNotice />
      {exporter.error && <ErrorNote>{exporter.error}</ErrorNote>}

      <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div role="group" aria-label="Período" className="inline-flex w-fit rounded-lg bg-slate-100 p-1">
          {(Object.keys(PERIOD_LABELS) as PeriodId[]).map((p) => (
            <button
              key={p}
              type="button"
              aria-pressed={period === p}
              onClick={() => setPeriod(p)}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-medium',
                period === p ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-700',
              )}
            >
              {PERIOD_LABELS[p]}
            </button>
          ))}
        </div>
        {period === 'personalizado' && (
          <div className="flex gap-3">
            <Field id="rep-desde" label="Desde">
              <Input
                id="rep-desde"
                type="date"
                value={custom.desde}
                onChange={(e) => setCustom((c) => ({ ...c, desde: e.target.value }))}
              />
            </Field>
            <Field id="rep-hasta" label="Hasta">
              <Input
                id="rep-hasta"
                type="date"
                value={custom.hasta}
                onChange={(e) => setCustom((c) => ({ ...c, hasta: e.target.value }))}
              />
            </Field>
          </div>
        )}
      </div>
      {rangeError && <ErrorNote>{rangeError}</ErrorNote>}
      {report.error && <ErrorNote>{errorMessage(report.error)}</ErrorNote>}

      {/* A range that cannot be asked for shows no figures: the previous ones would look like its own. */}
      {!rangeError && (
        <>
          <div className="grid grid-cols-2 gap-3 xl:grid-cols-4">
            <Stat label="Total vendido" loading={!r} value={r && formatMoney(r.total_ingresos, formatting)}>
              {r && r.devoluciones > 0 && (
                <span className="text-xs text-slate-500">
                  Neto de {formatMoney(r.devoluciones, formatting)} en devoluciones
                </span>
              )}
            </Stat>
            <Stat label="Cantidad de ventas" loading={!r} value={r && formatNumber(r.total_ventas, formatting)}>
              {r && r.ventas_anuladas > 0 && (
                <span className="text-xs text-slate-500">
                  {r.ventas_anuladas} {r.ventas_anuladas === 1 ? 'anulada' : 'anuladas'}
                </span>
              )}
            </Stat>
            <Stat label="Ticket promedio" loading={!r} value={r && formatMoney(r.ticket_promedio, formatting)} />
            {verCostos && (
              <Stat
                label="Ganancia estimada"
                loading={!r}
                value={r && formatMoney(r.ganancias_netas, formatting)}
                tone={r && r.ganancias_netas < 0 ? 'red' : 'green'}
              >
                {r && <span className="text-xs text-slate-500">Costo {formatMoney(r.costo_estimado, formatting)}</span>}
              </Stat>
            )}
          </div>

          <Card className="mt-5">
            <h2 className="mb-3 font-semibold text-slate-900">Ventas por día</h2>
            {r ? <DailySalesChart days={r.por_dia} formatting={formatting} /> : <Skeleton className="h-48" />}
          </Card>

          <div className="mt-5 grid gap-5 lg:grid-cols-2">
            <Breakdown title="Por producto o servicio" report={r} className="lg:row-span-2">
              {(rep) =>
                rep.productos_mas_vendidos.length === 0 ? null : <TopItems items={rep.productos_mas_vendidos} />
              }
            </Breakdown>
            <Breakdown title="Por medio de pago" report={r}>
              {(rep) =>
                rep.por_medio_pago.length === 0 ? null : (
                  <Rows
                    rows={rep.por_medio_pago.map((m) => ({
                      key: `${m.metodo_pago}-${m.medio_pago_id ?? ''}`,
                      label: m.nombre,
                      detail: `${m.cantidad_ventas} ${m.cantidad_ventas === 1 ? 'venta' : 'ventas'}`,
                      value: formatMoney(m.total, formatting),
                      share: rep.total_ingresos > 0 ? m.total / rep.total_ingresos : 0,
                    }))}
                  />
                )
              }
            </Breakdown>
            <Breakdown title="Por cliente" report={r}>
              {(rep) =>
                rep.por_cliente.length === 0 ? null : (
                  <Rows
                    rows={rep.por_cliente.slice(0, 10).map((c) => ({
                      key: c.cliente_id ?? 'cf',
                      label: c.cliente_nombre,
                      detail: `${c.cantidad_ventas} ${c.cantidad_ventas === 1 ? 'venta' : 'ventas'}`,
                      value: formatMoney(c.total, formatting),
                      share: rep.total_ingresos > 0 ? c.total / rep.total_ingresos : 0,
                    }))}
                  />
                )
              }
            </Breakdown>
          </div>

          <SalesList desde={range.desde} hasta={range.hasta} />
        </>
      )}
    </div>
  );
}

function Stat({
  label,
  value,
  loading,
  tone,
  children,
}: {
  label: string;
  value?: string;
  loading: boolean;
  tone?: 'green' | 'red';
  children?: ReactNode;
}) {
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
      <p className="text-sm font-medium text-slate-500">{label}</p>
      {loading ? (
        <Skeleton className="mt-2 h-7 w-24" />
      ) : (
        <p
          className={cn(
            'mt-1 text-lg font-semibold tracking-tight sm:text-2xl',
            tone === 'red' ? 'text-red-600' : tone === 'green' ? 'text-emerald-700' : 'text-slate-900',
          )}
        >
          {value}
        </p>
      )}
      {children}
    </div>
  );
}

function Breakdown({
  title,
  report,
  className,
  children,
}: {
  title: string;
  report: SalesReport | undefined;
  className?: string;
  children: (r: SalesReport) => ReactNode;
}) {
  const content = report ? children(report) : undefined;
  return (
    <Card className={cn('min-w-0', className)}>
      <h2 className="mb-3 font-semibold text-slate-900">{title}</h2>
      {!report ? (
        <div className="space-y-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-8" />
          ))}
        </div>
      ) : (
        (content ?? <p className="py-6 text-center text-sm text-slate-500">Sin ventas en el período.</p>)
      )}
    </Card>
  );
}

function Rows({ rows }: { rows: { key: string; label: string; detail: string; value: string; share: number }[] }) {
  return (
    <ul className="space-y-2.5">
      {rows.map((row) => (
        <li key={row.key}>
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span className="min-w-0 truncate font-medium text-slate-800">{row.label}</span>
            <span className="shrink-0 font-semibold text-slate-900">{row.value}</span>
          </div>
          <div className="mt-1 flex items-center gap-2">
            <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-100">
              <div className="h-full rounded-full bg-blue-500" style={{ width: `${Math.round(row.share * 100)}%` }} />
            </div>
            <span className="w-20 text-right text-xs text-slate-500">{row.detail}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

function TopItems({ items }: { items: SalesReport['productos_mas_vendidos'] }) {
  const { formatting } = useBusiness();
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, 8);
  return (
    <>
      <ol className="divide-y divide-slate-100">
        {shown.map((p, i) => (
          <li key={`${p.tipo}:${p.id}`} className="flex items-center gap-2 py-2 text-sm">
            <span className="w-5 text-xs font-semibold text-slate-400">{i + 1}</span>
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium text-slate-800">{p.nombre}</span>
              <span className="text-xs text-slate-500">
                {formatNumber(p.cantidad, formatting)} {p.tipo === 'servicio' ? 'serv.' : 'u.'}
                {p.ganancia != null && ` · ganancia ${formatMoney(p.ganancia, formatting)}`}
              </span>
            </span>
            <span className="font-semibold text-slate-900">{formatMoney(p.total, formatting)}</span>
          </li>
        ))}
      </ol>
      {items.length > 8 && (
        <Button variant="ghost" size="sm" className="mt-2" onClick={() => setAll((a) => !a)}>
          {all ? 'Ver menos' : `Ver los ${items.length}`}
        </Button>
      )}
    </>
  );
}

/** The sales table's columns: the number opens the sale's detail under its row. */
function saleColumns({
  formatting,
  open,
  onToggle,
}: {
  formatting: Formatting;
  open: string | null;
  onToggle: (s: Sale) => void;
}): ColumnDef<Sale, unknown>[] {
  return [
    {
      id: 'numero',
      header: 'Venta',
      accessorKey: 'numero',
      meta: { label: 'Venta', primary: true },
      cell: ({ row: { original: s } }) => {
        const expanded = open === s.id;
        return (
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={`venta-${s.id}`}
            onClick={() => onToggle(s)}
            className="inline-flex items-center gap-2 whitespace-nowrap font-semibold text-slate-900 hover:text-blue-700"
          >
            {expanded ? (
              <ChevronDown className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
            ) : (
              <ChevronRight className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
            )}
            Venta #{s.numero}
          </button>
        );
      },
    },
    {
      id: 'fecha',
      header: 'Fecha',
      // Newest first is the default order: the first click shows the oldest first.
      accessorKey: 'fecha',
      meta: { label: 'Fecha', className: 'whitespace-nowrap text-slate-500' },
      cell: ({ row: { original: s } }) => formatDateTime(s.fecha, formatting),
    },
    {
      id: 'cliente',
      header: 'Cliente',
      enableSorting: false,
      meta: { label: 'Cliente', className: 'text-slate-600' },
      cell: ({ row: { original: s } }) => s.cliente_nombre ?? 'Consumidor final',
    },
    {
      id: 'medio',
      header: 'Medio de pago',
      enableSorting: false,
      meta: { label: 'Medio de pago', className: 'text-slate-600' },
      cell: ({ row: { original: s } }) => saleMedioNombre(s),
    },
    {
      id: 'vendedor',
      header: 'Atendió',
      enableSorting: false,
      meta: { label: 'Atendió', defaultHidden: true },
      cell: ({ row: { original: s } }) => s.vendedor?.nombre ?? '—',
    },
    {
      id: 'total',
      header: 'Total',
      accessorKey: 'total',
      meta: { label: 'Total', align: 'right', className: 'whitespace-nowrap' },
      cell: ({ row: { original: s } }) => (
        <span className="inline-flex items-center justify-end gap-2">
          {s.estado === 'anulada' && <Badge color="red">{SALE_STATE_LABELS.anulada}</Badge>}
          <span
            className={cn('font-semibold', s.estado === 'anulada' ? 'text-slate-400 line-through' : 'text-slate-900')}
          >
            {formatMoney(s.total, formatting)}
          </span>
        </span>
      ),
    },
  ];
}

/** An opened sale: its items, returns, comprobantes, and the ticket, return and void buttons. */
function SaleDetail({
  s,
  canVoid,
  onPrint,
  onReturn,
  onVoid,
  onShowReturn,
}: {
  s: Sale;
  canVoid: boolean;
  onPrint: () => void;
  onReturn: () => void;
  onVoid: () => void;
  onShowReturn: (d: Devolucion) => void;
}) {
  const { formatting } = useBusiness();
  return (
    <div id={`venta-${s.id}`} className="border-t border-slate-100 bg-slate-50/60 px-4 py-3 sm:pl-12">
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th className="pb-1 font-medium">Ítem</th>
            <th className="pb-1 text-right font-medium">Cantidad</th>
            {s.total_devuelto > 0 && <th className="pb-1 text-right font-medium">Devuelto</th>}
            <th className="hidden pb-1 text-right font-medium sm:table-cell">Precio</th>
            <th className="pb-1 pl-3 text-right font-medium">Subtotal</th>
          </tr>
        </thead>
        <tbody>
          {s.items.map((i) => (
            <tr key={i.id}>
              <td className="py-0.5 text-slate-800">{i.nombre}</td>
              <td className="py-0.5 text-right">{formatNumber(i.cantidad, formatting)}</td>
              {s.total_devuelto > 0 && (
                <td className="py-0.5 text-right">{formatNumber(i.cantidad_devuelta, formatting)}</td>
              )}
              <td className="hidden py-0.5 text-right sm:table-cell">{formatMoney(i.precio_unitario, formatting)}</td>
              <td className="py-0.5 pl-3 text-right">{formatMoney(i.subtotal, formatting)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {s.total_devuelto > 0 && <SaleReturns ventaId={s.id} onShow={onShowReturn} />}
      <Suspense fallback={null}>
        <SaleComprobantes sale={s} />
      </Suspense>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
        <span>
          {s.descuento > 0 && `Descuento ${formatMoney(s.descuento, formatting)} · `}
          {s.vendedor && `Atendió ${s.vendedor.nombre}`}
          {s.observaciones && ` · ${s.observaciones}`}
          {s.total_devuelto > 0 && ` · Devuelto ${formatMoney(s.total_devuelto, formatting)}`}
          {s.estado === 'anulada' &&
            ` · Anulada el ${formatDateTime(s.anulada_en, formatting)}${s.motivo_anulacion ? `: ${s.motivo_anulacion}` : ''}`}
        </span>
        <span className="flex gap-2">
          <Button size="sm" variant="secondary" onClick={onPrint}>
            <Printer className="h-4 w-4" aria-hidden /> Ticket
          </Button>
          {canVoid && s.estado === 'completada' && s.items.some((i) => i.cantidad_devuelta < i.cantidad) && (
            <Button size="sm" variant="secondary" onClick={onReturn}>
              <Undo2 className="h-4 w-4" aria-hidden /> Devolver
            </Button>
          )}
          {canVoid && s.estado === 'completada' && s.total_devuelto === 0 && (
            <Button size="sm" variant="danger" onClick={onVoid}>
              <Ban className="h-4 w-4" aria-hidden /> Anular
            </Button>
          )}
        </span>
      </div>
    </div>
  );
}

function SalesList({ desde, hasta }: { desde: string; hasta: string }) {
  const { formatting } = useBusiness();
  const can = useCan();
  const [page, setPage] = useState(0);
  const sorting = useServerSorting(() => setPage(0));
  const [open, setOpen] = useState<string | null>(null);
  const [voiding, setVoiding] = useState<Sale | null>(null);
  const [returning, setReturning] = useState<Sale | null>(null);
  const [returned, setReturned] = useState<{ d: Devolucion; fresh: boolean } | null>(null);
  const [printing, setPrinting] = useState<Sale | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const list = useSales({
    fecha_desde: desde,
    fecha_hasta: hasta,
    ...sorting.query,
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
  });
  const [lastRange, setLastRange] = useState(`${desde}|${hasta}`);
  if (lastRange !== `${desde}|${hasta}`) {
    setLastRange(`${desde}|${hasta}`);
    setPage(0);
  }
  const canVoid = can('ventas', 'eliminar');
  const columns = saleColumns({ formatting, open, onToggle: (s) => setOpen(open === s.id ? null : s.id) });
  return (
    <section className="mt-6" aria-labelledby="ventas-list">
      <div className="mb-3 flex items-center justify-between">
        <h2 id="ventas-list" className="text-lg font-semibold text-slate-900">
          Ventas del período
        </h2>
        <Link to="/pos" className="text-sm font-medium text-blue-700 hover:underline">
          Nueva venta
        </Link>
      </div>
      {status && <StatusNote onClose={() => setStatus(null)}>{status}</StatusNote>}
      <DataTable
        screen="ventas"
        label="Ventas del período"
        columns={columns}
        rows={list.data?.ventas}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.error ? errorMessage(list.error, 'No se pudieron cargar las ventas.') : null}
        rowId={(s) => s.id}
        rowClassName={(s) => s.estado === 'anulada' && 'bg-slate-50'}
        sorting={sorting}
        pagination={{
          page,
          pageSize: PAGE_SIZE,
          total: list.data?.total_ventas ?? 0,
          onPage: setPage,
          label: 'ventas',
          one: 'venta',
        }}
        detail={(s) =>
          open === s.id ? (
            <SaleDetail
              s={s}
              canVoid={canVoid}
              onPrint={() => {
                setPrinting(s);
                setTimeout(() => printTicket('80mm'), 50);
              }}
              onReturn={() => setReturning(s)}
              onVoid={() => setVoiding(s)}
              onShowReturn={(d) => setReturned({ d, fresh: false })}
            />
          ) : null
        }
        empty={
          <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <EmptyState icon={<Receipt className="h-8 w-8" />} title="No hay ventas en este período" />
          </div>
        }
      />
      {voiding && (
        <VoidDialog
          sale={voiding}
          onClose={() => setVoiding(null)}
          onDone={(s) => {
            setVoiding(null);
            setStatus(`La venta #${s.numero} quedó anulada: el stock y el ingreso se revirtieron.`);
          }}
        />
      )}
      {returning && (
        <DevolucionDialog
          sale={returning}
          onClose={() => setReturning(null)}
          onDone={(d) => {
            setReturning(null);
            setReturned({ d, fresh: true });
            setStatus(`Devolución #${d.numero} de la venta #${d.venta_numero}: ${formatMoney(d.monto, formatting)}.`);
          }}
        />
      )}
      {returned && (
        <DevolucionDoneDialog devolucion={returned.d} fresh={returned.fresh} onClose={() => setReturned(null)} />
      )}
      {printing && !returned && <PrintableTicketOf sale={printing} />}
    </section>
  );
}

function PrintableTicketOf({ sale }: { sale: Sale }) {
  const { formatting } = useBusiness();
  const business = useTicketBusiness();
  return <PrintableTicket sale={sale} business={business} formatting={formatting} />;
}

function VoidDialog({ sale, onClose, onDone }: { sale: Sale; onClose: () => void; onDone: (s: Sale) => void }) {
  const { formatting } = useBusiness();
  const voidSale = useVoidSale();
  const [motivo, setMotivo] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`¿Anular la venta #${sale.numero}?`}
      description={`Total ${formatMoney(sale.total, formatting)}. El stock de los productos vuelve y el ingreso deja de contar en finanzas. La venta no se borra: queda registrada como anulada.`}
    >
      {sale.pagos.some((p) => p.mercadopago_orden_id) && (
        <p className="mb-3 rounded-md bg-blue-50 p-3 text-sm text-blue-900" data-testid="anular-mp">
          Lo cobrado con Mercado Pago se le devuelve al cliente por Mercado Pago.
        </p>
      )}
      <Field id="void-motivo" label="Motivo">
        <Textarea
          id="void-motivo"
          value={motivo}
          maxLength={200}
          onChange={(e) => setMotivo(e.target.value)}
          placeholder="Ej.: el cliente devolvió la mercadería"
          autoFocus
        />
      </Field>
      {error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Cancelar
        </Button>
        <Button
          variant="danger"
          loading={voidSale.isPending}
          onClick={async () => {
            setError(null);
            try {
              const s = await voidSale.mutateAsync({ id: sale.id, motivo: motivo.trim() || null });
              onDone(s);
            } catch (e) {
              setError(errorMessage(e, 'No se pudo anular la venta.'));
            }
          }}
        >
          Anular venta
        </Button>
      </div>
    </Dialog>
  );
}
