import { Download, Plus } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import {
  chequeAccionLabel,
  CHEQUE_AVISO_DIAS,
  CHEQUE_ESTADO_LABELS,
  type Cheque,
  type ChequeAccion,
  type ChequeEstado,
  type ChequeTipo,
} from '@mostrador/shared/cheques';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote, PageHeader } from '@/components/ui/misc';
import { useCan } from '@/features/permissions/permissions.api';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney } from '@/lib/format';
import { ListSkeleton } from '@/features/finance/finance-ui';
import { ChequeAccionDialog, NewChequeDialog } from './cheque-dialogs';
import { useCheques, useChequesExport, type ChequeFilters } from './cheques.api';

const TABS: { id: ChequeTipo; label: string; activo: ChequeEstado; empty: string }[] = [
  { id: 'tercero', label: 'En cartera (de terceros)', activo: 'en_cartera', empty: 'No hay cheques de terceros' },
  { id: 'propio', label: 'Propios', activo: 'entregado', empty: 'No hay cheques propios' },
];

/** The states a kind of cheque goes through, for the filter. */
const ESTADOS: Record<ChequeTipo, ChequeEstado[]> = {
  tercero: ['en_cartera', 'depositado', 'endosado', 'cobrado', 'rechazado', 'anulado'],
  propio: ['entregado', 'cobrado', 'anulado'],
};

const ESTADO_COLOR: Record<ChequeEstado, 'gray' | 'green' | 'red' | 'yellow' | 'blue' | 'purple'> = {
  en_cartera: 'blue',
  depositado: 'yellow',
  endosado: 'purple',
  cobrado: 'green',
  rechazado: 'red',
  entregado: 'yellow',
  anulado: 'gray',
};

/** "No hay cheques …" of each state. */
const EMPTY_ESTADO: Record<ChequeEstado, string> = {
  en_cartera: 'en cartera',
  depositado: 'depositados',
  endosado: 'endosados',
  cobrado: 'cobrados',
  rechazado: 'rechazados',
  entregado: 'entregados',
  anulado: 'anulados',
};

const pending = (c: Cheque) => c.estado === 'en_cartera' || c.estado === 'entregado' || c.estado === 'depositado';

/** How far its due date is, highlighted when it is past or within the notice days. */
function Due({ c }: { c: Cheque }) {
  if (!pending(c)) return null;
  const d = c.dias;
  const text =
    d < 0
      ? `Venció hace ${-d} ${-d === 1 ? 'día' : 'días'}`
      : d === 0
        ? 'Vence hoy'
        : `Vence en ${d} ${d === 1 ? 'día' : 'días'}`;
  return (
    <span
      className={cn(
        'text-sm',
        d < 0 ? 'font-medium text-red-700' : d <= CHEQUE_AVISO_DIAS ? 'font-medium text-amber-700' : 'text-slate-500',
      )}
    >
      {text}
    </span>
  );
}

function ChequeRow({ c, canEdit, onAccion }: { c: Cheque; canEdit: boolean; onAccion: (a: ChequeAccion) => void }) {
  const { formatting } = useBusiness();
  const quien = c.tipo === 'propio' ? c.proveedor?.nombre : c.cliente?.nombre;
  const overdue = pending(c) && c.dias < 0;
  return (
    <li
      className={cn('flex flex-col gap-3 py-4 md:flex-row md:items-center', overdue && 'bg-red-50/50')}
      data-testid="cheque-row"
    >
      <div className="flex shrink-0 items-baseline gap-2 md:block md:w-28">
        <p className="font-medium tabular-nums text-slate-900">{formatDate(c.fecha_pago, formatting)}</p>
        <Due c={c} />
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-medium text-slate-900">
            {c.banco} N° {c.numero}
          </p>
          <Badge color={ESTADO_COLOR[c.estado]}>{CHEQUE_ESTADO_LABELS[c.estado]}</Badge>
          {c.electronico && <Badge color="gray">E-cheq</Badge>}
        </div>
        <p className="mt-0.5 flex flex-wrap gap-x-3 text-sm text-slate-500">
          {c.librador_nombre && (
            <span>
              {c.librador_nombre}
              {c.librador_cuit ? ` (${c.librador_cuit})` : ''}
            </span>
          )}
          {quien && <span>{c.tipo === 'propio' ? `A ${quien}` : `De ${quien}`}</span>}
          {c.tipo === 'tercero' && c.proveedor && <span>Endosado a {c.proveedor.nombre}</span>}
          {c.venta && <span>Venta #{c.venta.numero}</span>}
          {c.cobro && <span>Cobro #{c.cobro.numero}</span>}
        </p>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 md:justify-end">
        <span className="text-base font-semibold tabular-nums text-slate-900">{formatMoney(c.monto, formatting)}</span>
        {canEdit && c.acciones.length > 0 && (
          <div className="flex flex-wrap gap-1.5">
            {c.acciones.map((a) => (
              <Button
                key={a}
                size="sm"
                variant={a === 'rechazar' || a === 'anular' ? 'secondary' : 'primary'}
                onClick={() => onAccion(a)}
              >
                {chequeAccionLabel(c.tipo, a)}
              </Button>
            ))}
          </div>
        )}
      </div>
    </li>
  );
}

/** Finanzas → Cheques: the cartera by due date, own cheques by due date, their changes and the export. */
export function ChequesPage() {
  const can = useCan();
  const canEdit = can('finanzas', 'editar');
  const { formatting } = useBusiness();
  const [filters, setFilters] = useState<ChequeFilters>({ tipo: 'tercero', estado: 'en_cartera' });
  const list = useCheques(filters);
  const exporter = useChequesExport();
  const [acting, setActing] = useState<{ c: Cheque; a: ChequeAccion } | null>(null);
  const [creating, setCreating] = useState(false);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const rows = list.data?.cheques ?? [];
  const tab = TABS.find((t) => t.id === filters.tipo)!;
  const setTab = (tipo: ChequeTipo) => setFilters({ tipo, estado: TABS.find((t) => t.id === tipo)!.activo });
  const onTabKey = (e: KeyboardEvent, i: number) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const next = (i + 1) % TABS.length;
    setTab(TABS[next].id);
    tabRefs.current[next]?.focus();
  };

  return (
    <div>
      <PageHeader
        title="Cheques"
        description="Los cheques de terceros en cartera y los propios que entregaste, por fecha de pago."
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" loading={exporter.busy} onClick={() => exporter.run(filters)}>
              <Download className="h-4 w-4" aria-hidden />
              Exportar
            </Button>
            {canEdit && (
              <Button onClick={() => setCreating(true)}>
                <Plus className="h-4 w-4" aria-hidden />
                {filters.tipo === 'propio' ? 'Nuevo cheque propio' : 'Nuevo cheque'}
              </Button>
            )}
          </div>
        }
      />
      {exporter.error && <ErrorNote>{exporter.error}</ErrorNote>}

      <div role="tablist" aria-label="Tipo de cheque" className="mb-4 flex gap-1 border-b border-slate-200">
        {TABS.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            id={`tab-cheques-${t.id}`}
            role="tab"
            type="button"
            aria-selected={filters.tipo === t.id}
            aria-controls="cheques-panel"
            tabIndex={filters.tipo === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => onTabKey(e, i)}
            className={cn(
              '-mb-px border-b-2 px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
              filters.tipo === t.id
                ? 'border-blue-600 text-blue-700'
                : 'border-transparent text-slate-500 hover:text-slate-700',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>

      <Card className="mb-4">
        <div className="flex flex-wrap items-end justify-between gap-3" role="search" aria-label="Filtros de cheques">
          <div className="w-full sm:w-56">
            <Field id="ch-estado" label="Estado">
              <Select
                id="ch-estado"
                value={filters.estado}
                onChange={(e) => setFilters((f) => ({ ...f, estado: e.target.value as ChequeEstado | '' }))}
              >
                <option value="">Todos</option>
                {ESTADOS[filters.tipo].map((s) => (
                  <option key={s} value={s}>
                    {CHEQUE_ESTADO_LABELS[s]}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          {list.data && (
            <p className="text-sm text-slate-600" data-testid="cheques-total">
              {list.data.total} {list.data.total === 1 ? 'cheque' : 'cheques'} ·{' '}
              <strong className="tabular-nums text-slate-900">{formatMoney(list.data.monto_total, formatting)}</strong>
            </p>
          )}
        </div>
      </Card>

      <div id="cheques-panel" role="tabpanel" aria-labelledby={`tab-cheques-${filters.tipo}`}>
        {list.error ? (
          <ErrorNote>{errorMessage(list.error, 'Error al cargar los cheques')}</ErrorNote>
        ) : list.isLoading ? (
          <ListSkeleton />
        ) : rows.length === 0 ? (
          <EmptyState
            title={
              filters.estado
                ? `No hay cheques ${filters.tipo === 'propio' ? 'propios ' : ''}${EMPTY_ESTADO[filters.estado]}`
                : tab.empty
            }
          >
            {filters.tipo === 'tercero'
              ? 'Los cheques que te dan en una venta o un cobro aparecen acá.'
              : 'Registrá los cheques que entregás a tus proveedores para verlos por fecha de pago.'}
          </EmptyState>
        ) : (
          <Card className="py-0">
            <ul className="divide-y divide-slate-100" aria-label="Cheques">
              {rows.map((c) => (
                <ChequeRow key={c.id} c={c} canEdit={canEdit} onAccion={(a) => setActing({ c, a })} />
              ))}
            </ul>
          </Card>
        )}
      </div>

      <ChequeAccionDialog cheque={acting?.c ?? null} accion={acting?.a ?? null} onClose={() => setActing(null)} />
      <NewChequeDialog open={creating} onOpenChange={setCreating} tipo={filters.tipo} />
    </div>
  );
}
