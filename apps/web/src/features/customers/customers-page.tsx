import { Mail, MapPin, Pencil, Phone, Plus, Repeat, Users, Wallet } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { PadronAdvertencias, PadronButton, usePadronCheck } from '@/features/facturacion/padron-button';
import type { z } from 'zod';
import {
  customerDisplayName,
  customerForm,
  DOCUMENT_TYPE_LABELS,
  DOCUMENT_TYPES,
  IVA_CONDITION_LABELS,
  IVA_CONDITIONS,
  type Customer,
  type DocumentType,
  type Subscription,
} from '@mostrador/shared';
import { decimalResolver, decimalText } from '@/lib/decimal-input';
import { useBusiness } from '@/app/business-context';
import { Button, NewButton } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, InputField, Select, Textarea } from '@/components/ui/input';
import { EmptyState, PageHeader } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { RemitosPendientesCliente } from '@/features/remitos/remitos-cliente';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan, useCounterControls, useModuleCan } from '@/features/permissions/permissions.api';
import { RowsSkeleton, SearchFilterBar, StatusNote } from '@/features/products/inventory-ui';
import { DataTable, useListDialogs, useListExport, useListState } from '@/components/data-table';
import type { ColumnDef } from '@tanstack/react-table';
import { formatDate, formatMoney, type Formatting } from '@/lib/format';
import { useSubscriptions } from '@/features/subscriptions/subscriptions.api';
import { AccountSection } from '@/features/caja/account-section';
import { DeudoresDialog } from '@/features/caja/deudores-dialog';
import { SubscriptionFormDialog, SubscriptionRow } from '@/features/subscriptions/subscriptions-tab';
import { applyServerErrors, textValues } from '@/lib/forms';
import { ListaDelCliente } from '@/features/precios/lista-del-cliente';
import { customersPath, useCustomers, useDeleteCustomer, useSaveCustomer } from './customers.api';

const PAGE_SIZE = 50;

const TEXT_FIELDS = [
  'nombre',
  'apellido',
  'email',
  'telefono',
  'direccion',
  'documento_tipo',
  'documento_numero',
  'condicion_iva',
  'notas',
] as const;
type Values = Record<(typeof TEXT_FIELDS)[number] | 'limite_credito' | 'lista_precios_id', string>;
type Output = z.output<typeof customerForm>;

const toValues = (c?: Customer): Values => ({
  ...textValues(TEXT_FIELDS, c, { condicion_iva: 'consumidor_final' }),
  limite_credito: decimalText(c?.limite_credito, 'money'),
  lista_precios_id: c?.lista_precios_id ?? '',
});

const digits = (v: string | null | undefined) => (v ?? '').replace(/\D/g, '');

function CustomerForm({
  customer,
  onDone,
}: {
  customer?: Customer;
  /** `advertencias`: ARCA's warnings for the saved CUIT when it was looked up in this form. */
  onDone: (saved?: Customer, advertencias?: string[]) => void;
}) {
  const save = useSaveCustomer();
  const [buscado, setBuscado] = useState<{ cuit: string; advertencias: string[] } | null>(null);
  // The limit and the list need the counter controls (the server refuses a change without them).
  const { cambiarPrecios, excederCredito } = useCounterControls();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState, control, setValue } = useForm<Values, unknown, Output>({
    resolver: decimalResolver<Values, Output>(customerForm, { limite_credito: 'money' }),
    defaultValues: toValues(customer),
  });
  const [docTipo, docNumero] = useWatch({ control, name: ['documento_tipo', 'documento_numero'] });
  const err = formState.errors;
  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({
        id: customer?.id,
        body: {
          nombre: v.nombre,
          apellido: v.apellido ?? null,
          email: v.email ?? null,
          telefono: v.telefono ?? null,
          direccion: v.direccion ?? null,
          documento_tipo: v.documento_tipo ?? null,
          documento_numero: v.documento_numero ?? null,
          condicion_iva: v.condicion_iva ?? 'consumidor_final',
          notas: v.notas ?? null,
          limite_credito: v.limite_credito === undefined || v.limite_credito === null ? null : v.limite_credito / 100,
          ...(v.lista_precios_id !== undefined ? { lista_precios_id: v.lista_precios_id } : {}),
        },
      });
      const mismo = buscado && digits(saved.documento_numero) === buscado.cuit;
      onDone(saved, mismo ? buscado.advertencias : undefined);
    } catch (e) {
      setFormError(applyServerErrors(e, setError, 'No se pudo guardar el cliente.'));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="cli-nombre"
          label="Nombre o razón social"
          required
          error={err.nombre}
          autoFocus
          autoComplete="off"
          {...register('nombre')}
        />
        <InputField
          id="cli-apellido"
          label="Apellido"
          error={err.apellido}
          autoComplete="off"
          {...register('apellido')}
        />
        <InputField
          id="cli-email"
          label="E-mail"
          error={err.email}
          type="email"
          autoComplete="off"
          {...register('email')}
        />
        <InputField
          id="cli-telefono"
          label="Teléfono"
          error={err.telefono}
          type="tel"
          autoComplete="off"
          {...register('telefono')}
        />
      </div>
      <InputField
        id="cli-direccion"
        label="Dirección"
        error={err.direccion}
        autoComplete="off"
        {...register('direccion')}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="cli-doc-tipo" label="Tipo de documento" error={err.documento_tipo?.message}>
          <Select id="cli-doc-tipo" aria-invalid={Boolean(err.documento_tipo)} {...register('documento_tipo')}>
            <option value="">Sin documento</option>
            {DOCUMENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {DOCUMENT_TYPE_LABELS[t]}
              </option>
            ))}
          </Select>
        </Field>
        <InputField
          id="cli-doc-numero"
          label="Número"
          hint="CUIT/CUIL con o sin guiones."
          error={err.documento_numero}
          inputMode="numeric"
          {...register('documento_numero')}
        />
        <Field id="cli-iva" label="Condición frente al IVA" error={err.condicion_iva?.message}>
          <Select id="cli-iva" {...register('condicion_iva')}>
            {IVA_CONDITIONS.map((c) => (
              <option key={c} value={c}>
                {IVA_CONDITION_LABELS[c]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {(docTipo === 'CUIT' || docTipo === 'CUIL') && (
        <PadronButton
          cuit={docNumero}
          onFound={(p) => {
            const dirty = { shouldDirty: true, shouldValidate: true };
            setValue('nombre', p.nombre, dirty);
            setValue('apellido', '', dirty);
            setValue('documento_numero', p.cuit, dirty);
            if (p.domicilio) setValue('direccion', p.domicilio, dirty);
            setValue('condicion_iva', p.condicion_iva, dirty);
            setBuscado({ cuit: digits(p.cuit), advertencias: p.advertencias });
          }}
        />
      )}
      <InputField
        id="cli-limite"
        label="Límite de crédito en cuenta corriente ($)"
        hint={
          excederCredito
            ? 'Vacío: sin límite. Solo un administrador puede vender por encima.'
            : 'Lo cambia quien puede vender por encima del límite de crédito.'
        }
        error={err.limite_credito}
        inputMode="decimal"
        autoComplete="off"
        readOnly={!excederCredito}
        {...register('limite_credito')}
      />
      <ListaDelCliente
        register={register('lista_precios_id')}
        error={err.lista_precios_id?.message}
        locked={!cambiarPrecios}
      />
      <Field id="cli-notas" label="Notas" error={err.notas?.message}>
        <Textarea id="cli-notas" rows={2} {...register('notas')} />
      </Field>
      <FormActions
        error={formError}
        busy={formState.isSubmitting}
        onCancel={() => onDone()}
        submitLabel={customer ? 'Guardar cambios' : 'Crear cliente'}
      />
    </form>
  );
}

/** A customer's card: contact details and subscriptions, with their estado controls. */
function CustomerDetail({ customer, onEdit }: { customer: Customer; onEdit: () => void }) {
  const can = useCan();
  const canSeeSubs = can('productos', 'ver');
  const canEditSubs = can('productos', 'editar');
  const canEditCustomer = can('clientes', 'editar');
  const subs = useSubscriptions({ cliente_id: customer.id, limit: 100, offset: 0 }, canSeeSubs);
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Subscription | undefined>();
  const name = customerDisplayName(customer);
  const canSeeRemitos = can('remitos', 'ver');
  const facts = [
    customer.documento_tipo && `${DOCUMENT_TYPE_LABELS[customer.documento_tipo]} ${customer.documento_numero ?? ''}`,
    IVA_CONDITION_LABELS[customer.condicion_iva],
  ].filter(Boolean);
  return (
    <div className="space-y-4">
      <div className="space-y-1 text-sm text-slate-700">
        <p className="text-slate-500">{facts.join(' · ')}</p>
        {customer.email && (
          <p className="flex items-center gap-2">
            <Mail className="h-4 w-4 text-slate-400" aria-hidden />
            <a className="text-blue-700 hover:underline" href={`mailto:${customer.email}`}>
              {customer.email}
            </a>
          </p>
        )}
        {customer.telefono && (
          <p className="flex items-center gap-2">
            <Phone className="h-4 w-4 text-slate-400" aria-hidden />
            <a className="text-blue-700 hover:underline" href={`tel:${customer.telefono.replace(/[^+\d]/g, '')}`}>
              {customer.telefono}
            </a>
          </p>
        )}
        {customer.direccion && (
          <p className="flex items-center gap-2">
            <MapPin className="h-4 w-4 text-slate-400" aria-hidden />
            {customer.direccion}
          </p>
        )}
        {customer.notas && (
          <p className="whitespace-pre-line rounded-lg bg-slate-50 p-2 text-slate-600">{customer.notas}</p>
        )}
      </div>
      <AccountSection customer={customer} />
      {canSeeRemitos && <RemitosPendientesCliente clienteId={customer.id} />}
      {canSeeSubs && (
        <section aria-labelledby="cli-subs">
          <div className="mb-2 flex items-center justify-between gap-2">
            <h3 id="cli-subs" className="text-sm font-semibold text-slate-900">
              Suscripciones
            </h3>
            {canEditSubs && (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => {
                  setEditing(undefined);
                  setFormOpen(true);
                }}
              >
                <Plus className="h-4 w-4" aria-hidden />
                Nueva suscripción
              </Button>
            )}
          </div>
          {subs.isLoading ? (
            <RowsSkeleton rows={2} />
          ) : (subs.data?.rows ?? []).length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">
              {name} no tiene suscripciones.
            </p>
          ) : (
            <ul
              className="divide-y divide-slate-100 rounded-lg border border-slate-200"
              aria-label={`Suscripciones de ${name}`}
            >
              {(subs.data?.rows ?? []).map((s) => (
                <SubscriptionRow
                  key={s.id}
                  s={s}
                  showCustomer={false}
                  canEdit={canEditSubs}
                  canDelete={false}
                  onEdit={() => {
                    setEditing(s);
                    setFormOpen(true);
                  }}
                  onDelete={() => undefined}
                />
              ))}
            </ul>
          )}
        </section>
      )}
      <div className="flex justify-end">
        {canEditCustomer && (
          <Button variant="secondary" onClick={onEdit}>
            <Pencil className="h-4 w-4" aria-hidden />
            Editar datos
          </Button>
        )}
      </div>
      <SubscriptionFormDialog
        open={formOpen}
        onOpenChange={setFormOpen}
        subscription={editing}
        presetCustomer={{ id: customer.id, nombre: name }}
      />
    </div>
  );
}

/** The customers table's columns; the name opens the customer's card. */
function customerColumns({
  formatting,
  onView,
  onEdit,
  onDelete,
}: {
  formatting: Formatting;
  onView: (c: Customer) => void;
  onEdit: false | ((c: Customer) => void);
  onDelete: false | ((c: Customer) => void);
}): ColumnDef<Customer, unknown>[] {
  return [
    {
      id: 'nombre',
      header: 'Nombre',
      accessorFn: customerDisplayName,
      meta: { label: 'Nombre', primary: true },
      cell: ({ row }) => (
        <button
          type="button"
          onClick={() => onView(row.original)}
          className="rounded text-left font-medium text-slate-900 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          {customerDisplayName(row.original)}
        </button>
      ),
    },
    {
      id: 'documento',
      header: 'Documento',
      accessorFn: (c) => c.documento_numero,
      meta: { label: 'Documento' },
      cell: ({ row: { original: c } }) =>
        c.documento_tipo ? `${DOCUMENT_TYPE_LABELS[c.documento_tipo]} ${c.documento_numero ?? ''}` : '—',
    },
    {
      id: 'contacto',
      header: 'Contacto',
      enableSorting: false,
      meta: { label: 'Contacto', className: 'sm:max-w-64 sm:truncate' },
      cell: ({ row: { original: c } }) => [c.email, c.telefono].filter(Boolean).join(' · ') || '—',
    },
    {
      id: 'condicion_iva',
      header: 'Condición IVA',
      enableSorting: false,
      meta: { label: 'Condición IVA' },
      cell: ({ row: { original: c } }) => IVA_CONDITION_LABELS[c.condicion_iva],
    },
    {
      id: 'limite_credito',
      header: 'Límite de crédito',
      enableSorting: false,
      meta: { label: 'Límite de crédito', align: 'right', defaultHidden: true },
      cell: ({ row: { original: c } }) =>
        c.limite_credito === null ? 'Sin límite' : formatMoney(c.limite_credito, formatting),
    },
    {
      id: 'creado_en',
      header: 'Alta',
      accessorFn: (c) => c.creado_en,
      meta: { label: 'Alta', defaultHidden: true },
      cell: ({ row: { original: c } }) => formatDate(c.creado_en.slice(0, 10), formatting),
    },
    {
      id: 'acciones',
      header: 'Acciones',
      enableSorting: false,
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: c } }) => {
        const name = customerDisplayName(c);
        return (
          <RowActions
            name={name}
            className="justify-end"
            onEdit={onEdit && (() => onEdit(c))}
            onDelete={onDelete && (() => onDelete(c))}
          >
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Suscripciones de ${name}`}
              title="Ver ficha"
              onClick={() => onView(c)}
            >
              <Repeat className="h-4 w-4" />
            </Button>
          </RowActions>
        );
      },
    },
  ];
}

function CustomersScreen() {
  const [deudores, setDeudores] = useState(false);
  const { businessId, formatting } = useBusiness();
  const { canEdit, canDelete } = useModuleCan('clientes');
  const list = useListState({ documento_tipo: '' as DocumentType | '' }, PAGE_SIZE);
  const customers = useCustomers(list.query);
  const remove = useDeleteCustomer();
  const dialogs = useListDialogs<Customer>();
  const padronCheck = usePadronCheck();
  const [aviso, setAviso] = useState<{ titulo: string; advertencias: string[] } | null>(null);
  const exporter = useListExport(`${customersPath(businessId!)}/exportar`, list.exportQuery);
  const columns = customerColumns({ formatting, ...dialogs.rowActions(canEdit, canDelete) });

  return (
    <div>
      <PageHeader
        title="Clientes"
        description="Tu libreta de clientes: datos de contacto, documento, condición de IVA y suscripciones."
        actions={
          <>
            {canEdit && <NewButton onClick={dialogs.openNew}>Nuevo cliente</NewButton>}
            <Button variant="secondary" onClick={() => setDeudores(true)}>
              <Wallet className="h-4 w-4" aria-hidden />
              Cuentas corrientes
            </Button>
            {exporter.button}
          </>
        }
      />
      {dialogs.notice && <StatusNote onClose={() => dialogs.setNotice(null)}>{dialogs.notice}</StatusNote>}
      {aviso && (
        <div className="mb-4">
          <PadronAdvertencias titulo={aviso.titulo} advertencias={aviso.advertencias} onClose={() => setAviso(null)} />
        </div>
      )}
      {exporter.error}
      <SearchFilterBar
        label="Filtros de clientes"
        list={list}
        filterKey="documento_tipo"
        search={{ id: 'cli-q', label: 'Buscar clientes', placeholder: 'Buscar por nombre, e-mail o documento…' }}
        filter={{
          id: 'cli-f-tipo',
          label: 'Tipo de documento',
          all: 'Todos los documentos',
          options: DOCUMENT_TYPES,
          labels: DOCUMENT_TYPE_LABELS,
        }}
      />
      <DataTable
        screen="clientes"
        label="Clientes"
        columns={columns}
        query={customers}
        loadError="No se pudieron cargar los clientes."
        rowId={(c) => c.id}
        sorting={list.sorting}
        pagination={list.pages(customers.data?.total, 'cliente', 'clientes')}
        empty={
          list.filtered ? (
            <EmptyState title="Ningún cliente coincide con la búsqueda" />
          ) : (
            <EmptyState icon={<Users className="h-10 w-10" />} title="Todavía no hay clientes">
              <p>Registrá a tus clientes para venderles a cuenta, asignarles suscripciones y contactarlos.</p>
              {canEdit && (
                <NewButton className="mt-4" onClick={dialogs.openNew}>
                  Nuevo cliente
                </NewButton>
              )}
            </EmptyState>
          )
        }
      />

      <Dialog
        open={dialogs.formOpen}
        onOpenChange={dialogs.setFormOpen}
        title={dialogs.editing ? 'Editar cliente' : 'Nuevo cliente'}
        className="sm:max-w-2xl"
      >
        <CustomerForm
          customer={dialogs.editing}
          onDone={(saved, advertencias) => {
            dialogs.setFormOpen(false);
            setAviso(null);
            if (saved) {
              const titulo = `Atención con «${customerDisplayName(saved)}»:`;
              const mostrar = (a: string[]) => a.length && setAviso({ titulo, advertencias: a });
              // Looked up in the form, or asked now: an inactive CUIT is said when the customer is saved.
              if (advertencias) mostrar(advertencias);
              else if (saved.documento_tipo === 'CUIT' && saved.documento_numero)
                void padronCheck(saved.documento_numero).then(mostrar);
              dialogs.setNotice(
                dialogs.editing
                  ? `Cliente «${customerDisplayName(saved)}» actualizado.`
                  : `Cliente «${customerDisplayName(saved)}» creado.`,
              );
              if (dialogs.viewing?.id === saved.id) dialogs.setViewing(saved);
            }
          }}
        />
      </Dialog>
      <Dialog
        open={dialogs.viewing !== null}
        onOpenChange={(o) => !o && dialogs.setViewing(null)}
        title={dialogs.viewing ? customerDisplayName(dialogs.viewing) : ''}
        className="sm:max-w-2xl"
      >
        {dialogs.viewing && (
          <CustomerDetail customer={dialogs.viewing} onEdit={() => dialogs.openForm(dialogs.viewing ?? undefined)} />
        )}
      </Dialog>
      <DeudoresDialog open={deudores} onClose={() => setDeudores(false)} />
      <ConfirmDialog
        open={dialogs.deleting !== null}
        onOpenChange={(o) => !o && dialogs.setDeleting(null)}
        title="Eliminar cliente"
        message={`¿Estás seguro de que querés eliminar a «${dialogs.deleting ? customerDisplayName(dialogs.deleting) : ''}»? No se puede eliminar si tiene ventas, suscripciones o cuentas.`}
        failure="No se pudo eliminar el cliente."
        onConfirm={async () => {
          await remove.mutateAsync(dialogs.deleting!.id);
          dialogs.setNotice(`Cliente «${customerDisplayName(dialogs.deleting!)}» eliminado.`);
        }}
      />
    </div>
  );
}

/** /customers and /business/{id}/customers (SPEC §2), gated by `clientes`. */
export default function CustomersPage() {
  return (
    <PermissionGate modulo="clientes">
      <CustomersScreen />
    </PermissionGate>
  );
}
