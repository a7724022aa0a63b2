import { CalendarClock, Plus, Repeat } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  centsToNumber,
  customerDisplayName,
  SUBSCRIPTION_FREQUENCIES,
  SUBSCRIPTION_FREQUENCY_LABELS,
  SUBSCRIPTION_STATE_LABELS,
  SUBSCRIPTION_STATES,
  subscriptionFormSchema,
  type Subscription,
  type SubscriptionFrequency,
  type SubscriptionState,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, InputField, MoneyField, Select, Textarea } from '@/components/ui/input';
import { Badge, EmptyState } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { useCustomers } from '@/features/customers/customers.api';
import { DataTable, useListDialogs, useListState } from '@/components/data-table';
import { useCan } from '@/features/permissions/permissions.api';
import { SearchBox, SearchFilterBar, StatusNote, useDebounced } from '@/features/products/inventory-ui';
import { useServices } from '@/features/services/services.api';
import { decimalResolver, decimalText } from '@/lib/decimal-input';
import { applyServerErrors } from '@/lib/forms';
import { formatDate, formatMoney, todayIn } from '@/lib/format';
import { STATE_COLORS, subscriptionColumns, vigencia } from './subscription-columns';
import { SubscriptionEstado } from './subscription-estado';
import { useDeleteSubscription, useSaveSubscription, useSubscriptions } from './subscriptions.api';

const PAGE_SIZE = 50;

interface Values {
  cliente_id: string;
  servicio_id: string;
  nombre: string;
  precio: string;
  frecuencia: SubscriptionFrequency;
  fecha_inicio: string;
  fecha_fin: string;
  descripcion: string;
}
type Output = z.output<typeof subscriptionFormSchema>;

/** A customer search plus a select of the matches (a book may hold thousands of customers). */
function CustomerPicker({
  value,
  onChange,
  current,
  error,
}: {
  value: string;
  onChange: (id: string) => void;
  current?: { id: string; nombre: string };
  error?: string;
}) {
  const [q, setQ] = useState('');
  const search = useDebounced(q, 250);
  const customers = useCustomers({ q: search, limit: 100, offset: 0 });
  const rows = customers.data?.rows ?? [];
  return (
    <Field id="sub-cliente" label="Cliente" required error={error}>
      <div className="space-y-2">
        <SearchBox
          id="sub-cliente-q"
          label="Buscar cliente"
          value={q}
          onChange={setQ}
          placeholder="Buscar cliente por nombre o documento…"
        />
        <Select id="sub-cliente" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={Boolean(error)}>
          <option value="">Elegí un cliente</option>
          {current && !rows.some((c) => c.id === current.id) && <option value={current.id}>{current.nombre}</option>}
          {rows.map((c) => (
            <option key={c.id} value={c.id}>
              {customerDisplayName(c)}
              {c.documento_numero ? ` · ${c.documento_numero}` : ''}
            </option>
          ))}
        </Select>
      </div>
    </Field>
  );
}

function SubscriptionForm({
  subscription,
  presetCustomer,
  onDone,
}: {
  subscription?: Subscription;
  presetCustomer?: { id: string; nombre: string };
  onDone: (saved?: Subscription) => void;
}) {
  const { formatting } = useBusiness();
  const services = useServices({ activo: 'true', limit: 500, offset: 0 });
  const save = useSaveSubscription();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState, control, setValue } = useForm<Values, unknown, Output>({
    resolver: decimalResolver<Values, Output>(subscriptionFormSchema, { precio: 'money' }),
    defaultValues: subscription
      ? {
          cliente_id: subscription.cliente_id,
          servicio_id: subscription.servicio_id ?? '',
          nombre: subscription.nombre,
          precio: decimalText(subscription.precio, 'money'),
          frecuencia: subscription.frecuencia,
          fecha_inicio: subscription.fecha_inicio,
          fecha_fin: subscription.fecha_fin ?? '',
          descripcion: subscription.descripcion ?? '',
        }
      : {
          cliente_id: presetCustomer?.id ?? '',
          servicio_id: '',
          nombre: '',
          precio: '',
          frecuencia: 'mensual',
          fecha_inicio: todayIn(formatting.timezone),
          fecha_fin: '',
          descripcion: '',
        },
  });
  const err = formState.errors;
  const [clienteId, servicioId] = useWatch({ control, name: ['cliente_id', 'servicio_id'] });
  const service = (services.data?.rows ?? []).find((s) => s.id === servicioId);
  const current = subscription ? { id: subscription.cliente_id, nombre: subscription.cliente_nombre } : presetCustomer;

  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({
        id: subscription?.id,
        body: {
          cliente_id: v.cliente_id,
          servicio_id: v.servicio_id ?? null,
          nombre: v.nombre ?? null,
          descripcion: v.descripcion ?? null,
          precio: v.precio === null || v.precio === undefined ? null : centsToNumber(v.precio),
          frecuencia: v.frecuencia,
          fecha_inicio: v.fecha_inicio ?? null,
          fecha_fin: v.fecha_fin ?? null,
        },
      });
      onDone(saved);
    } catch (e) {
      setFormError(applyServerErrors(e, setError, 'No se pudo guardar la suscripción.'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <CustomerPicker
        value={clienteId}
        onChange={(id) => setValue('cliente_id', id, { shouldValidate: formState.isSubmitted })}
        current={current}
        error={err.cliente_id?.message}
      />
      <Field
        id="sub-servicio"
        label="Servicio"
        hint="Opcional: toma su nombre y precio si los dejás vacíos."
        error={err.servicio_id?.message}
      >
        <Select id="sub-servicio" {...register('servicio_id')}>
          <option value="">Sin servicio</option>
          {subscription?.servicio_id && !(services.data?.rows ?? []).some((s) => s.id === subscription.servicio_id) && (
            <option value={subscription.servicio_id}>{subscription.servicio_nombre}</option>
          )}
          {(services.data?.rows ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.nombre} · {formatMoney(s.precio, formatting)}
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="sub-nombre"
          label="Nombre"
          required={!servicioId}
          error={err.nombre}
          placeholder={service?.nombre}
          {...register('nombre')}
        />
        <MoneyField
          id="sub-precio"
          label="Precio por período"
          required={!servicioId}
          error={err.precio}
          placeholder={service ? decimalText(service.precio, 'money') : undefined}
          {...register('precio')}
        />
        <Field id="sub-frecuencia" label="Frecuencia" required error={err.frecuencia?.message}>
          <Select id="sub-frecuencia" {...register('frecuencia')}>
            {SUBSCRIPTION_FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {SUBSCRIPTION_FREQUENCY_LABELS[f]}
              </option>
            ))}
          </Select>
        </Field>
        <InputField
          id="sub-inicio"
          label="Fecha de inicio"
          hint="El cobro se repite ese día."
          error={err.fecha_inicio}
          type="date"
          {...register('fecha_inicio')}
        />
        <InputField
          id="sub-fin"
          label="Fecha de fin"
          hint="Opcional."
          error={err.fecha_fin}
          type="date"
          {...register('fecha_fin')}
        />
      </div>
      <Field id="sub-descripcion" label="Descripción" error={err.descripcion?.message}>
        <Textarea id="sub-descripcion" rows={2} {...register('descripcion')} />
      </Field>
      <FormActions
        error={formError}
        busy={formState.isSubmitting}
        onCancel={() => onDone()}
        submitLabel={subscription ? 'Guardar cambios' : 'Crear suscripción'}
      />
    </form>
  );
}

export function SubscriptionFormDialog({
  open,
  onOpenChange,
  subscription,
  presetCustomer,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  subscription?: Subscription;
  presetCustomer?: { id: string; nombre: string };
  onSaved?: (s: Subscription, created: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={subscription ? 'Editar suscripción' : 'Nueva suscripción'}
      className="sm:max-w-xl"
    >
      <SubscriptionForm
        subscription={subscription}
        presetCustomer={presetCustomer}
        onDone={(saved) => {
          onOpenChange(false);
          if (saved) onSaved?.(saved, !subscription);
        }}
      />
    </Dialog>
  );
}

/** One subscription with its estado control (a customer's card lists them this way). */
export function SubscriptionRow({
  s,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  onStateChanged,
  showCustomer = true,
}: {
  s: Subscription;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onStateChanged?: (s: Subscription) => void;
  showCustomer?: boolean;
}) {
  const { formatting } = useBusiness();
  return (
    <li className="px-4 py-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="truncate font-medium text-slate-900">{showCustomer ? s.cliente_nombre : s.nombre}</p>
            <Badge color={STATE_COLORS[s.estado]}>{SUBSCRIPTION_STATE_LABELS[s.estado]}</Badge>
          </div>
          <p className="mt-0.5 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-500">
            {showCustomer && <span>{s.nombre}</span>}
            <span>
              {formatMoney(s.precio, formatting)} · {SUBSCRIPTION_FREQUENCY_LABELS[s.frecuencia]}
            </span>
            <span>{vigencia(s, formatting)}</span>
          </p>
        </div>
        <div className="flex items-center justify-between gap-3 sm:justify-end">
          <p className="flex items-center gap-1 text-sm text-slate-600">
            <CalendarClock className="h-4 w-4 text-slate-400" aria-hidden />
            {s.proximo_cobro ? (
              <span>
                Próximo cobro <strong className="text-slate-900">{formatDate(s.proximo_cobro, formatting)}</strong>
              </span>
            ) : (
              <span>Sin próximo cobro</span>
            )}
          </p>
          <RowActions
            name={`suscripción ${s.nombre}`}
            className="items-center"
            onEdit={canEdit && onEdit}
            onDelete={canDelete && onDelete}
          >
            {canEdit && <SubscriptionEstado s={s} onStateChanged={onStateChanged} />}
          </RowActions>
        </div>
      </div>
    </li>
  );
}

/** Subscriptions of customers to services, with their next charge. */
export function SubscriptionsTab() {
  const { formatting } = useBusiness();
  const can = useCan();
  const canEdit = can('productos', 'editar');
  const canDelete = can('productos', 'eliminar');
  const list = useListState({ estado: '' as SubscriptionState | '' }, PAGE_SIZE);
  const subs = useSubscriptions(list.query);
  const remove = useDeleteSubscription();
  const dialogs = useListDialogs<Subscription>();
  const { deleting, setNotice } = dialogs;
  const columns = subscriptionColumns({
    formatting,
    ...dialogs.rowActions(canEdit, canDelete),
    onStateChanged: (x) =>
      setNotice(`Suscripción de ${x.cliente_nombre}: ${SUBSCRIPTION_STATE_LABELS[x.estado].toLowerCase()}.`),
  });
  return (
    <div>
      {canEdit && (
        <div className="mb-4">
          <Button onClick={dialogs.openNew}>
            <Plus className="h-4 w-4" aria-hidden />
            Nueva suscripción
          </Button>
        </div>
      )}
      {dialogs.notice && <StatusNote onClose={() => setNotice(null)}>{dialogs.notice}</StatusNote>}
      <SearchFilterBar
        label="Filtros de suscripciones"
        list={list}
        filterKey="estado"
        search={{ id: 'sub-q', label: 'Buscar suscripciones', placeholder: 'Buscar por cliente o suscripción…' }}
        filter={{
          id: 'sub-f-estado',
          label: 'Estado',
          all: 'Todos los estados',
          options: SUBSCRIPTION_STATES,
          labels: SUBSCRIPTION_STATE_LABELS,
        }}
      />
      <DataTable
        screen="suscripciones"
        label="Suscripciones"
        columns={columns}
        query={subs}
        loadError="No se pudieron cargar las suscripciones."
        rowId={(x) => x.id}
        pagination={list.pages(subs.data?.total, 'suscripción', 'suscripciones')}
        empty={
          list.filtered ? (
            <EmptyState title="Ninguna suscripción coincide con la búsqueda" />
          ) : (
            <EmptyState icon={<Repeat className="h-10 w-10" />} title="Todavía no hay suscripciones">
              <p>Abonos, cuotas y servicios que tus clientes pagan cada semana, mes o año.</p>
              {canEdit && (
                <Button className="mt-4" onClick={dialogs.openNew}>
                  <Plus className="h-4 w-4" aria-hidden />
                  Nueva suscripción
                </Button>
              )}
            </EmptyState>
          )
        }
      />
      <SubscriptionFormDialog
        open={dialogs.formOpen}
        onOpenChange={dialogs.setFormOpen}
        subscription={dialogs.editing}
        onSaved={(x, created) =>
          setNotice(created ? `Suscripción de ${x.cliente_nombre} creada.` : 'Suscripción actualizada.')
        }
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && dialogs.setDeleting(null)}
        title="Eliminar suscripción"
        message={`¿Estás seguro de que querés eliminar la suscripción «${deleting?.nombre ?? ''}» de ${deleting?.cliente_nombre ?? ''}? Para dejar de cobrarla alcanza con cancelarla.`}
        failure="No se pudo eliminar la suscripción."
        onConfirm={async () => {
          await remove.mutateAsync(deleting!.id);
          setNotice('Suscripción eliminada.');
        }}
      />
    </div>
  );
}
