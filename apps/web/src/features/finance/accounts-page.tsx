import { CheckCircle2, Plus } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { accountDisplayStatus, type Account, type AccountType } from '@mostrador/shared';
import type { Deudor } from '@mostrador/shared/caja';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote, PageHeader } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney, type Formatting } from '@/lib/format';
import { AccountFormDialog, MarkPaidDialog } from './account-dialogs';
import {
  useAccounts,
  useCustomerBalances,
  useDeleteAccount,
  useFinanceSummary,
  type AccountFilters,
} from './finance.api';
import { ListSkeleton, useFinanceCan } from './finance-ui';

const TABS: { id: AccountType; label: string; empty: string }[] = [
  { id: 'por_cobrar', label: 'Por Cobrar', empty: 'No hay cuentas por cobrar registradas' },
  { id: 'por_pagar', label: 'Por Pagar', empty: 'No hay cuentas por pagar registradas' },
];

const plural = (n: number) => (n === 1 ? 'día' : 'días');

/** Days remaining or overdue (or the payment date). */
export function dueText(a: Account, f: Formatting): string {
  if (a.estado === 'pagado') return a.fecha_pago ? `Pagada el ${formatDate(a.fecha_pago, f)}` : 'Pagada';
  const d = a.dias_vencimiento;
  if (d < 0) return `Vencida hace ${-d} ${plural(-d)}`;
  if (d === 0) return 'Vence hoy';
  return `${d === 1 ? 'Falta' : 'Faltan'} ${d} ${plural(d)}`;
}

export function AccountStatusBadge({ account }: { account: Account }) {
  const s = accountDisplayStatus(account);
  return <Badge color={s.color}>{s.label}</Badge>;
}

function AccountRow({
  a,
  canEdit,
  canDelete,
  onPay,
  onEdit,
  onDelete,
}: {
  a: Account;
  canEdit: boolean;
  canDelete: boolean;
  onPay: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { formatting } = useBusiness();
  const name = a.cliente_nombre || a.proveedor_nombre || 'Sin nombre';
  const paid = a.estado === 'pagado';
  return (
    <li className="flex flex-col gap-3 py-4 md:flex-row md:items-center">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-medium text-slate-900">{name}</p>
          <AccountStatusBadge account={a} />
        </div>
        <p className="mt-0.5 text-sm text-slate-700">{a.descripcion}</p>
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-500">
          <span>Vence: {formatDate(a.fecha_vencimiento, formatting)}</span>
          <span className={cn(!paid && a.dias_vencimiento < 0 && 'font-medium text-red-700')}>
            {dueText(a, formatting)}
          </span>
          <span>Emitida: {formatDate(a.fecha_emision, formatting)}</span>
        </p>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 md:justify-end">
        <span className="text-right">
          <span className="block text-base font-semibold tabular-nums text-slate-900">
            {formatMoney(a.monto, formatting)}
          </span>
          {!paid && a.monto_pagado > 0 && (
            <span className="block text-xs text-slate-500">
              Pagado {formatMoney(a.monto_pagado, formatting)} · falta {formatMoney(a.saldo_pendiente, formatting)}
            </span>
          )}
        </span>
        <RowActions
          name={a.descripcion}
          className="items-center"
          onEdit={canEdit && onEdit}
          onDelete={canDelete && !paid && onDelete}
        >
          {canEdit && !paid && (
            <Button variant="success" size="sm" onClick={onPay}>
              <CheckCircle2 className="h-4 w-4" aria-hidden />
              Marcar como pagada
            </Button>
          )}
        </RowActions>
      </div>
    </li>
  );
}

/**
 * What customers owe on account, in the Por cobrar tab: receivables kept in their cuenta
 * corriente, not as accounts (decision 0045), each linking to the customers' screen.
 */
function CustomerBalances({ list, total }: { list: Deudor[]; total: number }) {
  const { formatting } = useBusiness();
  return (
    <Card className="mt-4 py-0">
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 py-3">
        <h2 className="text-sm font-semibold text-slate-900">Cuentas corrientes de clientes</h2>
        <Link to="/customers" className="text-sm font-medium text-blue-600 hover:underline">
          Ver en Clientes
        </Link>
      </div>
      <ul className="divide-y divide-slate-100" aria-label="Cuentas corrientes de clientes">
        {list.map((d) => (
          <li key={d.cliente_id} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div className="min-w-0">
              <p className="font-medium text-slate-900">{d.cliente_nombre}</p>
              <p className="text-sm text-slate-500">
                Cuenta corriente{d.desde ? ` · debe desde el ${formatDate(d.desde, formatting)}` : ''}
              </p>
            </div>
            <span className="text-base font-semibold tabular-nums text-slate-900">
              {formatMoney(d.saldo, formatting)}
            </span>
          </li>
        ))}
      </ul>
      <p className="flex justify-between border-t border-slate-100 py-3 text-sm">
        <span className="text-slate-500">Total en cuentas corrientes</span>
        <span className="font-semibold tabular-nums text-slate-900">{formatMoney(total, formatting)}</span>
      </p>
    </Card>
  );
}

const NO_FILTERS: AccountFilters = { estado: '', fecha_desde: '', fecha_hasta: '' };

/** Cuentas Pendientes (SPEC §2): receivables and payables in two tabs. */
export function AccountsPage() {
  const can = useFinanceCan();
  const [tab, setTab] = useState<AccountType>('por_cobrar');
  const [filters, setFilters] = useState<AccountFilters>(NO_FILTERS);
  const { formatting } = useBusiness();
  const cobrar = useAccounts('por_cobrar', filters);
  const pagar = useAccounts('por_pagar', filters);
  const balances = useCustomerBalances();
  const summary = useFinanceSummary();
  // Customers' balances are pending and have no due date: they belong to the unfiltered and the
  // "Pendiente" views, where tab count and list tell the same story as the summary's "A cobrar".
  const withBalances =
    (filters.estado === '' || filters.estado === 'pendiente') && !filters.fecha_desde && !filters.fecha_hasta;
  const owing = withBalances ? (balances.data ?? []) : [];
  const owingTotal = owing.reduce((s, d) => s + Math.round(d.saldo * 100), 0) / 100;
  const current = tab === 'por_cobrar' ? cobrar : pagar;
  const remove = useDeleteAccount();
  const [editing, setEditing] = useState<Account | undefined>();
  const [formOpen, setFormOpen] = useState(false);
  const [paying, setPaying] = useState<Account | null>(null);
  const [deleting, setDeleting] = useState<Account | null>(null);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const canEdit = can('cuentas_pendientes', 'edit');
  const canDelete = can('cuentas_pendientes', 'delete');
  const counts: Record<AccountType, number | undefined> = {
    por_cobrar: cobrar.data ? cobrar.data.total + owing.length : undefined,
    por_pagar: pagar.data?.total,
  };
  const rows = current.data?.rows ?? [];
  const tabInfo = TABS.find((t) => t.id === tab)!;

  const onTabKey = (e: KeyboardEvent, i: number) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const next = (i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    setTab(TABS[next].id);
    tabRefs.current[next]?.focus();
  };

  return (
    <div>
      <PageHeader
        title="Cuentas Pendientes"
        description="Lo que te deben y lo que debés."
        actions={
          canEdit && (
            <Button
              onClick={() => {
                setEditing(undefined);
                setFormOpen(true);
              }}
            >
              <Plus className="h-4 w-4" aria-hidden />
              Nueva Cuenta
            </Button>
          )
        }
      />

      <div role="tablist" aria-label="Tipo de cuenta" className="mb-4 flex gap-1 border-b border-slate-200">
        {TABS.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            id={`tab-${t.id}`}
            role="tab"
            type="button"
            aria-selected={tab === t.id}
            aria-controls="cuentas-panel"
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => onTabKey(e, i)}
            className={cn(
              '-mb-px border-b-2 px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
              tab === t.id ? 'border-blue-600 text-blue-700' : 'border-transparent text-slate-500 hover:text-slate-700',
            )}
          >
            {t.label} ({counts[t.id] ?? 0})
          </button>
        ))}
      </div>

      <Card className="mb-4">
        <div className="grid gap-3 sm:grid-cols-3" role="search" aria-label="Filtros de cuentas">
          <Field id="c-estado" label="Estado">
            <Select
              id="c-estado"
              value={filters.estado}
              onChange={(e) => setFilters((f) => ({ ...f, estado: e.target.value as AccountFilters['estado'] }))}
            >
              <option value="">Todos</option>
              <option value="pendiente">Pendiente</option>
              <option value="pagado">Pagado</option>
              <option value="vencido">Vencido</option>
            </Select>
          </Field>
          <Field id="c-desde" label="Vencimiento desde">
            <Input
              id="c-desde"
              type="date"
              value={filters.fecha_desde}
              onChange={(e) => setFilters((f) => ({ ...f, fecha_desde: e.target.value }))}
            />
          </Field>
          <Field id="c-hasta" label="Vencimiento hasta">
            <Input
              id="c-hasta"
              type="date"
              value={filters.fecha_hasta}
              onChange={(e) => setFilters((f) => ({ ...f, fecha_hasta: e.target.value }))}
            />
          </Field>
        </div>
      </Card>

      <div id="cuentas-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {current.error ? (
          <ErrorNote>{errorMessage(current.error, 'Error al cargar las cuentas')}</ErrorNote>
        ) : current.isLoading ? (
          <ListSkeleton />
        ) : rows.length === 0 && (tab === 'por_pagar' || owing.length === 0) ? (
          Object.values(filters).some(Boolean) ? (
            <EmptyState title="Ninguna cuenta coincide con los filtros">
              <button
                type="button"
                className="font-medium text-blue-700 underline"
                onClick={() => setFilters(NO_FILTERS)}
              >
                Limpiar filtros
              </button>
            </EmptyState>
          ) : (
            <EmptyState title={tabInfo.empty} />
          )
        ) : (
          <>
            {tab === 'por_cobrar' && withBalances && summary.data && (
              <p className="mb-3 text-sm text-slate-600" data-testid="a-cobrar">
                A cobrar{' '}
                <strong className="tabular-nums text-slate-900">
                  {formatMoney(summary.data.por_cobrar_pendiente, formatting)}
                </strong>
                {summary.data.cuentas_corrientes_clientes > 0 && (
                  <>
                    :{' '}
                    {formatMoney(
                      (Math.round(summary.data.por_cobrar_pendiente * 100) -
                        Math.round(summary.data.cuentas_corrientes_clientes * 100)) /
                        100,
                      formatting,
                    )}{' '}
                    en cuentas y {formatMoney(summary.data.cuentas_corrientes_clientes, formatting)} en cuentas
                    corrientes de clientes
                  </>
                )}
                .
              </p>
            )}
            {rows.length > 0 && (
              <Card className="py-0">
                <ul className="divide-y divide-slate-100" aria-label={`Cuentas ${tabInfo.label.toLowerCase()}`}>
                  {rows.map((a) => (
                    <AccountRow
                      key={a.id}
                      a={a}
                      canEdit={canEdit}
                      canDelete={canDelete}
                      onPay={() => setPaying(a)}
                      onEdit={() => {
                        setEditing(a);
                        setFormOpen(true);
                      }}
                      onDelete={() => setDeleting(a)}
                    />
                  ))}
                </ul>
              </Card>
            )}
            {tab === 'por_cobrar' && owing.length > 0 && <CustomerBalances list={owing} total={owingTotal} />}
          </>
        )}
      </div>

      <AccountFormDialog open={formOpen} onOpenChange={setFormOpen} account={editing} presetTipo={tab} />
      <MarkPaidDialog account={paying} onOpenChange={(o) => !o && setPaying(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Eliminar cuenta"
        message="¿Estás seguro de que querés eliminar esta cuenta?"
        onConfirm={() => remove.mutateAsync(deleting!.id)}
      />
    </div>
  );
}
