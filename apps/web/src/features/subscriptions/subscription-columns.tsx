import type { ColumnDef } from '@tanstack/react-table';
import {
  SUBSCRIPTION_FREQUENCY_LABELS,
  SUBSCRIPTION_STATE_LABELS,
  type Subscription,
  type SubscriptionState,
} from '@mostrador/shared';
import { Badge } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { formatDate, formatMoney, type Formatting } from '@/lib/format';
import { SubscriptionEstado } from './subscription-estado';

export const STATE_COLORS: Record<SubscriptionState, 'green' | 'yellow' | 'gray' | 'red'> = {
  activa: 'green',
  pausada: 'yellow',
  cancelada: 'gray',
  vencida: 'red',
};

/** "Desde 01/03/2026 hasta 28/02/2027". */
export const vigencia = (s: Subscription, formatting: Formatting) =>
  `Desde ${formatDate(s.fecha_inicio, formatting)}${s.fecha_fin ? ` hasta ${formatDate(s.fecha_fin, formatting)}` : ''}`;

/**
 * The subscriptions table's columns. The API pages the list (by customer) and sorts it by nothing
 * else, so no header sorts.
 */
export function subscriptionColumns({
  formatting,
  onEdit,
  onDelete,
  onStateChanged,
}: {
  formatting: Formatting;
  onEdit: false | ((s: Subscription) => void);
  onDelete: false | ((s: Subscription) => void);
  onStateChanged: (s: Subscription) => void;
}): ColumnDef<Subscription, unknown>[] {
  const columns: ColumnDef<Subscription, unknown>[] = [
    {
      id: 'cliente',
      header: 'Cliente',
      enableHiding: false,
      meta: { label: 'Cliente', primary: true },
      cell: ({ row: { original: s } }) => <span className="font-medium text-slate-900">{s.cliente_nombre}</span>,
    },
    {
      id: 'nombre',
      header: 'Suscripción',
      meta: { label: 'Suscripción' },
      cell: ({ row: { original: s } }) => s.nombre,
    },
    {
      id: 'precio',
      header: 'Precio',
      meta: { label: 'Precio', align: 'right', className: 'whitespace-nowrap' },
      cell: ({ row: { original: s } }) => (
        <span>
          <span className="font-semibold text-slate-900">{formatMoney(s.precio, formatting)}</span>
          <span className="block text-xs text-slate-500">{SUBSCRIPTION_FREQUENCY_LABELS[s.frecuencia]}</span>
        </span>
      ),
    },
    {
      id: 'vigencia',
      header: 'Vigencia',
      meta: { label: 'Vigencia', defaultHidden: true, className: 'text-slate-600' },
      cell: ({ row: { original: s } }) => vigencia(s, formatting),
    },
    {
      id: 'proximo',
      header: 'Próximo cobro',
      meta: { label: 'Próximo cobro', className: 'whitespace-nowrap' },
      cell: ({ row: { original: s } }) =>
        s.proximo_cobro ? (
          <strong className="text-slate-900">{formatDate(s.proximo_cobro, formatting)}</strong>
        ) : (
          <span className="text-slate-500">Sin próximo cobro</span>
        ),
    },
    {
      id: 'estado',
      header: 'Estado',
      meta: { label: 'Estado' },
      cell: ({ row: { original: s } }) =>
        onEdit ? (
          <SubscriptionEstado s={s} onStateChanged={onStateChanged} />
        ) : (
          <Badge color={STATE_COLORS[s.estado]}>{SUBSCRIPTION_STATE_LABELS[s.estado]}</Badge>
        ),
    },
    {
      id: 'acciones',
      header: 'Acciones',
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: s } }) => (
        <RowActions
          name={`suscripción ${s.nombre}`}
          className="justify-end"
          onEdit={onEdit && (() => onEdit(s))}
          onDelete={onDelete && (() => onDelete(s))}
        />
      ),
    },
  ];
  return columns.map((c) => ({ ...c, enableSorting: false }));
}
