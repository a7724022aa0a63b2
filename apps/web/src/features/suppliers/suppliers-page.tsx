import { zodResolver } from '@hookform/resolvers/zod';
import { Eye, Mail, MapPin, Pencil, Phone, Plus, Truck, UserRound } from 'lucide-react';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import {
  SUPPLIER_STATE_LABELS,
  SUPPLIER_STATES,
  supplierForm,
  type Supplier,
  type SupplierState,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button, NewButton } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { Field, FilterSelect, InputField, Select, Textarea } from '@/components/ui/input';
import { Badge, EmptyState, ErrorNote, FilterBar, PageHeader, Skeleton } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan, useModuleCan } from '@/features/permissions/permissions.api';
import { RowsSkeleton, SearchBox, StatusNote } from '@/features/products/inventory-ui';
import { DataTable, useListDialogs, useListExport, useListState } from '@/components/data-table';
import type { ColumnDef } from '@tanstack/react-table';
import { conditionText, PurchaseStateBadge } from '@/features/purchases/purchase-ui';
import { usePurchases } from '@/features/purchases/purchases.api';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney, formatNumber, type Formatting } from '@/lib/format';
import { applyServerErrors, textValues } from '@/lib/forms';
import { SupplierAccountSection } from './supplier-account';
import { suppliersPath, useDeleteSupplier, useSaveSupplier, useSupplier, useSuppliers } from './suppliers.api';

const PAGE_SIZE = 50;

const FIELDS = [
  'nombre',
  'cuit',
  'email',
  'telefono',
  'contacto',
  'condiciones_pago',
  'direccion',
  'ciudad',
  'provincia',
  'pais',
  'estado',
  'notas',
] as const;
type Values = Record<(typeof FIELDS)[number], string>;
type Output = z.output<typeof supplierForm>;

const toValues = (s?: Supplier): Values => textValues(FIELDS, s, { pais: 'Argentina', estado: 'activo' });

function SupplierForm({ supplier, onDone }: { supplier?: Supplier; onDone: (saved?: Supplier) => void }) {
  const save = useSaveSupplier();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Values, unknown, Output>({
    resolver: zodResolver(supplierForm) as unknown as Resolver<Values, unknown, Output>,
    defaultValues: toValues(supplier),
  });
  const err = formState.errors;
  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({
        id: supplier?.id,
        body: {
          nombre: v.nombre,
          cuit: v.cuit ?? null,
          email: v.email ?? null,
          telefono: v.telefono ?? null,
          direccion: v.direccion ?? null,
          ciudad: v.ciudad ?? null,
          provincia: v.provincia ?? null,
          pais: v.pais ?? null,
          contacto: v.contacto ?? null,
          condiciones_pago: v.condiciones_pago ?? null,
          estado: v.estado ?? 'activo',
          notas: v.notas ?? null,
        },
      });
      onDone(saved);
    } catch (e) {
      setFormError(applyServerErrors(e, setError, 'No se pudo guardar el proveedor.'));
    }
  });
  const text = (name: keyof Values, label: string, opts: { type?: string; hint?: string } = {}) => (
    <InputField
      id={`prov-${name}`}
      label={label}
      hint={opts.hint}
      error={err[name]}
      type={opts.type ?? 'text'}
      autoComplete="off"
      {...register(name)}
    />
  );
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="prov-nombre"
          label="Nombre o razón social"
          required
          error={err.nombre}
          autoFocus
          autoComplete="off"
          {...register('nombre')}
        />
        <InputField
          id="prov-cuit"
          label="CUIT"
          hint="Con o sin guiones; se verifica el dígito."
          error={err.cuit}
          inputMode="numeric"
          autoComplete="off"
          placeholder="30-12345678-9"
          {...register('cuit')}
        />
        {text('contacto', 'Persona de contacto')}
        {text('telefono', 'Teléfono', { type: 'tel' })}
        {text('email', 'E-mail', { type: 'email' })}
        {text('condiciones_pago', 'Condiciones de pago', { hint: 'Por ejemplo «30 días»: propone el vencimiento.' })}
      </div>
      {text('direccion', 'Dirección')}
      <div className="grid gap-4 sm:grid-cols-3">
        {text('ciudad', 'Ciudad')}
        {text('provincia', 'Provincia')}
        {text('pais', 'País')}
      </div>
      <Field id="prov-estado" label="Estado" error={err.estado?.message}>
        <Select id="prov-estado" {...register('estado')}>
          {SUPPLIER_STATES.map((s) => (
            <option key={s} value={s}>
              {SUPPLIER_STATE_LABELS[s]}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="prov-notas" label="Notas" error={err.notas?.message}>
        <Textarea id="prov-notas" rows={2} {...register('notas')} />
      </Field>
      {formError && <ErrorNote>{formError}</ErrorNote>}
      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => onDone()}>
          Cancelar
        </Button>
        <Button type="submit" loading={formState.isSubmitting}>
          {supplier ? 'Guardar cambios' : 'Crear proveedor'}
        </Button>
      </div>
    </form>
  );
}

function Stat({ label, value, tone, note }: { label: string; value: string; tone?: 'red' | 'amber'; note?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 p-3">
      <p className="text-xs text-slate-500">{label}</p>
      <p
        className={cn(
          'mt-0.5 text-base font-semibold tabular-nums text-slate-900',
          tone === 'red' && 'text-red-700',
          tone === 'amber' && 'text-amber-700',
        )}
      >
        {value}
      </p>
      {note && <p className="text-xs text-slate-500">{note}</p>}
    </div>
  );
}

/** A supplier's card: contact, what is owed, what was bought, and its latest purchases. */
function SupplierDetailView({ id, onEdit }: { id: string; onEdit: () => void }) {
  const { formatting } = useBusiness();
  const can = useCan();
  const detail = useSupplier(id);
  const compras = usePurchases({ proveedor_id: id, limit: 10, offset: 0 });
  if (detail.error) return <ErrorNote>{errorMessage(detail.error, 'No se pudo cargar el proveedor.')}</ErrorNote>;
  const s = detail.data;
  if (!s) return <Skeleton className="h-48" />;
  const rows = compras.data?.rows ?? [];
  const place = [s.direccion, s.ciudad, s.provincia].filter(Boolean).join(', ');
  return (
    <div className="space-y-5">
      <div className="space-y-1 text-sm text-slate-700">
        <p className="flex flex-wrap items-center gap-2 text-slate-500">
          {s.cuit ? `CUIT ${s.cuit}` : 'Sin CUIT'}
          {s.condiciones_pago && <span>· Paga a {s.condiciones_pago}</span>}
          {s.estado === 'inactivo' && <Badge>Inactivo</Badge>}
        </p>
        {s.contacto && (
          <p className="flex items-center gap-2">
            <UserRound className="h-4 w-4 text-slate-400" aria-hidden />
            {s.contacto}
          </p>
        )}
        {s.telefono && (
          <p className="flex items-center gap-2">
            <Phone className="h-4 w-4 text-slate-400" aria-hidden />
            <a className="text-blue-700 hover:underline" href={`tel:${s.telefono.replace(/[^+\d]/g, '')}`}>
              {s.telefono}
            </a>
          </p>
        )}
        {s.email && (
          <p className="flex items-center gap-2">
            <Mail className="h-4 w-4 text-slate-400" aria-hidden />
            <a className="break-all text-blue-700 hover:underline" href={`mailto:${s.email}`}>
              {s.email}
            </a>
          </p>
        )}
        {place && (
          <p className="flex items-center gap-2">
            <MapPin className="h-4 w-4 text-slate-400" aria-hidden />
            {place}
          </p>
        )}
        {s.notas && <p className="whitespace-pre-line rounded-lg bg-slate-50 p-2 text-slate-600">{s.notas}</p>}
      </div>

      <section aria-label="Saldo y compras" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Stat label="Le debés" value={formatMoney(s.deuda, formatting)} tone={s.deuda > 0 ? 'amber' : undefined} />
        <Stat
          label="Vencido"
          value={formatMoney(s.deuda_vencida, formatting)}
          tone={s.deuda_vencida > 0 ? 'red' : undefined}
        />
        <Stat label="Total comprado" value={formatMoney(s.compras.total, formatting)} />
        <Stat
          label="Compras"
          value={formatNumber(s.compras.cantidad, formatting)}
          note={s.compras.pendientes_recepcion ? `${s.compras.pendientes_recepcion} por recibir` : undefined}
        />
      </section>
      {s.cuentas_pendientes > 0 && (
        <p className="text-sm text-slate-600">
          {s.cuentas_pendientes === 1 ? '1 cuenta pendiente' : `${s.cuentas_pendientes} cuentas pendientes`} en{' '}
          <Link className="font-medium text-blue-700 hover:underline" to="/finanzas/cuentas">
            Cuentas Pendientes → Por Pagar
          </Link>
          .
        </p>
      )}

      <SupplierAccountSection id={s.id} />

      <section aria-labelledby="prov-compras">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h3 id="prov-compras" className="text-sm font-semibold text-slate-900">
            Últimas compras
          </h3>
          {can('stock', 'editar') && (
            <Link
              to={`/compras/nueva?proveedor=${s.id}`}
              className="inline-flex items-center gap-1 rounded-lg px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50"
            >
              <Plus className="h-4 w-4" aria-hidden />
              Nueva compra
            </Link>
          )}
        </div>
        {compras.isLoading ? (
          <RowsSkeleton rows={2} />
        ) : rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">
            Todavía no le compraste a {s.nombre}.
          </p>
        ) : (
          <ul
            className="divide-y divide-slate-100 rounded-lg border border-slate-200"
            aria-label={`Compras a ${s.nombre}`}
          >
            {rows.map((p) => (
              <li key={p.id}>
                <Link
                  to={`/compras/${p.id}`}
                  className="flex items-center gap-3 px-3 py-2 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600"
                >
                  <div className="min-w-0 flex-1">
                    <p className="font-medium text-slate-900">
                      Compra #{p.numero} · {formatDate(p.fecha, formatting)}
                    </p>
                    <p className="truncate text-xs text-slate-500">{conditionText(p, formatting)}</p>
                  </div>
                  <PurchaseStateBadge estado={p.estado} />
                  <span className="tabular-nums font-medium text-slate-900">{formatMoney(p.total, formatting)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {(compras.data?.total ?? 0) > rows.length && (
          <Link
            to={`/compras?proveedor=${s.id}`}
            className="mt-2 inline-block text-sm font-medium text-blue-700 hover:underline"
          >
            Ver todas sus compras ({compras.data?.total})
          </Link>
        )}
      </section>

      {can('stock', 'editar') && (
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onEdit}>
            <Pencil className="h-4 w-4" aria-hidden />
            Editar datos
          </Button>
        </div>
      )}
    </div>
  );
}

/** The suppliers table's columns; the name opens the supplier's card. */
function supplierColumns({
  formatting,
  onView,
  onEdit,
  onDelete,
}: {
  formatting: Formatting;
  onView: (s: Supplier) => void;
  onEdit: false | ((s: Supplier) => void);
  onDelete: false | ((s: Supplier) => void);
}): ColumnDef<Supplier, unknown>[] {
  return [
    {
      id: 'nombre',
      header: 'Nombre',
      accessorKey: 'nombre',
      meta: { label: 'Nombre', primary: true },
      cell: ({ row: { original: s } }) => (
        <span className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={() => onView(s)}
            className="rounded text-left font-medium text-slate-900 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            {s.nombre}
          </button>
          {s.estado === 'inactivo' && <Badge>Inactivo</Badge>}
        </span>
      ),
    },
    {
      id: 'cuit',
      header: 'CUIT',
      accessorKey: 'cuit',
      meta: { label: 'CUIT', className: 'whitespace-nowrap' },
      cell: ({ row: { original: s } }) => s.cuit ?? '—',
    },
    {
      id: 'contacto',
      header: 'Contacto',
      enableSorting: false,
      meta: { label: 'Contacto', className: 'sm:max-w-64 sm:truncate' },
      cell: ({ row: { original: s } }) => [s.contacto, s.telefono, s.email].filter(Boolean).join(' · ') || '—',
    },
    {
      id: 'condiciones_pago',
      header: 'Condiciones de pago',
      enableSorting: false,
      meta: { label: 'Condiciones de pago', defaultHidden: true },
      cell: ({ row: { original: s } }) => s.condiciones_pago ?? '—',
    },
    {
      id: 'deuda',
      header: 'Le debés',
      enableSorting: false,
      meta: { label: 'Le debés', align: 'right' },
      cell: ({ row: { original: s } }) =>
        s.deuda > 0 ? (
          <span className={cn('font-semibold', s.deuda_vencida > 0 ? 'text-red-700' : 'text-amber-700')}>
            {formatMoney(s.deuda, formatting)}
            {s.deuda_vencida > 0 && <span className="block text-[11px] font-normal">hay vencido</span>}
          </span>
        ) : (
          '—'
        ),
    },
    {
      id: 'creado_en',
      header: 'Alta',
      accessorKey: 'creado_en',
      meta: { label: 'Alta', defaultHidden: true },
      cell: ({ row: { original: s } }) => formatDate(s.creado_en.slice(0, 10), formatting),
    },
    {
      id: 'acciones',
      header: 'Acciones',
      enableSorting: false,
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: s } }) => (
        <RowActions
          name={s.nombre}
          className="justify-end"
          onEdit={onEdit && (() => onEdit(s))}
          onDelete={onDelete && (() => onDelete(s))}
        >
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Ver ficha de ${s.nombre}`}
            title="Ver ficha"
            onClick={() => onView(s)}
          >
            <Eye className="h-4 w-4" />
          </Button>
        </RowActions>
      ),
    },
  ];
}

function SuppliersScreen() {
  const { businessId, formatting } = useBusiness();
  const { canEdit, canDelete } = useModuleCan('stock');
  const list = useListState({ estado: '' as SupplierState | '' }, PAGE_SIZE);
  const suppliers = useSuppliers(list.query);
  const remove = useDeleteSupplier();
  const dialogs = useListDialogs<Supplier>();
  const exporter = useListExport(`${suppliersPath(businessId!)}/exportar`, list.exportQuery);
  const columns = supplierColumns({ formatting, ...dialogs.rowActions(canEdit, canDelete) });

  return (
    <div>
      <PageHeader
        title="Proveedores"
        description="A quién le comprás, cómo contactarlo y cuánto le debés."
        actions={
          <>
            {canEdit && <NewButton onClick={dialogs.openNew}>Nuevo proveedor</NewButton>}
            {exporter.button}
          </>
        }
      />
      {dialogs.notice && <StatusNote onClose={() => dialogs.setNotice(null)}>{dialogs.notice}</StatusNote>}
      {exporter.error}
      <FilterBar label="Filtros de proveedores" className="md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <SearchBox
          id="prov-q"
          label="Buscar proveedores"
          value={list.q}
          onChange={list.setQ}
          placeholder="Buscar por nombre, CUIT, e-mail o contacto…"
        />
        <FilterSelect
          id="prov-f-estado"
          label="Estado"
          value={list.filters.estado}
          onChange={(e) => list.setFilter('estado', e.target.value as SupplierState | '')}
        >
          <option value="">Activos e inactivos</option>
          <option value="activo">Solo activos</option>
          <option value="inactivo">Solo inactivos</option>
        </FilterSelect>
      </FilterBar>
      <DataTable
        screen="proveedores"
        label="Proveedores"
        columns={columns}
        query={suppliers}
        loadError="No se pudieron cargar los proveedores."
        rowId={(s) => s.id}
        sorting={list.sorting}
        pagination={list.pages(suppliers.data?.total, 'proveedor', 'proveedores')}
        empty={
          list.filtered ? (
            <EmptyState title="Ningún proveedor coincide con la búsqueda" />
          ) : (
            <EmptyState icon={<Truck className="h-10 w-10" />} title="Todavía no hay proveedores">
              <p>Cargá a tus mayoristas y distribuidores para registrar compras y saber cuánto les debés.</p>
              {canEdit && (
                <NewButton className="mt-4" onClick={dialogs.openNew}>
                  Nuevo proveedor
                </NewButton>
              )}
            </EmptyState>
          )
        }
      />

      <Dialog
        open={dialogs.formOpen}
        onOpenChange={dialogs.setFormOpen}
        title={dialogs.editing ? 'Editar proveedor' : 'Nuevo proveedor'}
        className="sm:max-w-2xl"
      >
        <SupplierForm
          supplier={dialogs.editing}
          onDone={(saved) => {
            dialogs.setFormOpen(false);
            if (saved) {
              dialogs.setNotice(
                dialogs.editing ? `Proveedor «${saved.nombre}» actualizado.` : `Proveedor «${saved.nombre}» creado.`,
              );
              if (dialogs.viewing?.id === saved.id) dialogs.setViewing(saved);
            }
          }}
        />
      </Dialog>
      <Dialog
        open={dialogs.viewing !== null}
        onOpenChange={(o) => !o && dialogs.setViewing(null)}
        title={dialogs.viewing?.nombre ?? ''}
        className="sm:max-w-2xl"
      >
        {dialogs.viewing && (
          <SupplierDetailView id={dialogs.viewing.id} onEdit={() => dialogs.openForm(dialogs.viewing ?? undefined)} />
        )}
      </Dialog>
      <ConfirmDialog
        open={dialogs.deleting !== null}
        onOpenChange={(o) => !o && dialogs.setDeleting(null)}
        title="Eliminar proveedor"
        message={`¿Estás seguro de que querés eliminar a «${dialogs.deleting?.nombre ?? ''}»? No se puede eliminar si tiene compras o cuentas por pagar; en ese caso, marcalo como inactivo.`}
        failure="No se pudo eliminar el proveedor."
        onConfirm={async () => {
          await remove.mutateAsync(dialogs.deleting!.id);
          dialogs.setNotice(`Proveedor «${dialogs.deleting!.nombre}» eliminado.`);
        }}
      />
    </div>
  );
}

/** /proveedores (SPEC §2), gated by `stock` (API-CONTRACT §1.5). */
export default function SuppliersPage() {
  return (
    <PermissionGate modulo="stock">
      <SuppliersScreen />
    </PermissionGate>
  );
}
