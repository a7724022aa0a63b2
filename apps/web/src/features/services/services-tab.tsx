import { Clock, Wrench } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { centsToNumber, serviceInput, type Service } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { NewButton } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, FilterSelect, InputField, IntegerField, MoneyField, Select, Textarea } from '@/components/ui/input';
import { Badge, EmptyState, FilterBar } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { useCategories, useCategoryChoices, type CategoryChoice } from '@/features/categories/categories.api';
import { useCounterControls } from '@/features/permissions/permissions.api';
import { useModuleCan } from '@/features/permissions/permissions.api';
import { SearchBox, StatusNote } from '@/features/products/inventory-ui';
import { DataTable, useListDialogs, useListState } from '@/components/data-table';
import type { ColumnDef } from '@tanstack/react-table';
import { cn } from '@/lib/cn';
import { decimalResolver, decimalText } from '@/lib/decimal-input';
import { applyServerErrors } from '@/lib/forms';
import { formatMoney, type Formatting } from '@/lib/format';
import { DEFAULT_IVA_RATE } from '@mostrador/shared/facturacion';
import { IvaSelect } from '@/features/facturacion/iva-select';
import { useDeleteService, useSaveService, useServices } from './services.api';

const PAGE_SIZE = 50;

interface Values {
  nombre: string;
  descripcion: string;
  precio: string;
  costo: string;
  duracion_minutos: string;
  categoria_id: string;
  activo: boolean;
  iva: string;
}
type Output = z.output<typeof serviceInput>;

/** Opens once the category choices are known (see useCategoryChoices). */
function ServiceForm({ service, onDone }: { service?: Service; onDone: (saved?: Service) => void }) {
  const categories = useCategoryChoices(service);
  if (!categories) return <p className="py-6 text-center text-sm text-slate-500">Cargando…</p>;
  return <ServiceFormFields service={service} onDone={onDone} categories={categories} />;
}

function ServiceFormFields({
  service,
  onDone,
  categories,
}: {
  service?: Service;
  onDone: (saved?: Service) => void;
  categories: CategoryChoice[];
}) {
  const save = useSaveService();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Values, unknown, Output>({
    resolver: decimalResolver<Values, Output>(serviceInput, {
      precio: 'money',
      costo: 'money',
      duracion_minutos: 'integer',
    }),
    defaultValues: service
      ? {
          nombre: service.nombre,
          descripcion: service.descripcion ?? '',
          precio: decimalText(service.precio, 'money'),
          costo: decimalText(service.costo, 'money'),
          duracion_minutos: service.duracion_minutos === null ? '' : String(service.duracion_minutos),
          categoria_id: service.categoria_id ?? '',
          activo: service.activo,
          iva: service.iva ?? DEFAULT_IVA_RATE,
        }
      : {
          nombre: '',
          descripcion: '',
          precio: '',
          costo: '',
          duracion_minutos: '',
          categoria_id: '',
          activo: true,
          iva: DEFAULT_IVA_RATE,
        },
  });
  const err = formState.errors;
  const { verCostos } = useCounterControls();
  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({
        id: service?.id,
        body: {
          nombre: v.nombre,
          descripcion: v.descripcion ?? null,
          precio: centsToNumber(v.precio),
          ...(verCostos ? { costo: v.costo === null || v.costo === undefined ? null : centsToNumber(v.costo) } : {}),
          duracion_minutos: v.duracion_minutos ?? null,
          categoria_id: v.categoria_id ?? null,
          activo: v.activo ?? true,
          ...(v.iva ? { iva: v.iva } : {}),
        },
      });
      onDone(saved);
    } catch (e) {
      setFormError(applyServerErrors(e, setError, 'No se pudo guardar el servicio.'));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField id="srv-nombre" label="Nombre" required error={err.nombre} autoFocus {...register('nombre')} />
      <div className="grid gap-4 sm:grid-cols-3">
        <MoneyField id="srv-precio" label="Precio" required error={err.precio} {...register('precio')} />
        {verCostos && (
          <MoneyField
            id="srv-costo"
            label="Costo"
            hint="Para estimar la ganancia."
            error={err.costo}
            {...register('costo')}
          />
        )}
        <IntegerField
          id="srv-duracion"
          label="Duración (minutos)"
          error={err.duracion_minutos}
          {...register('duracion_minutos')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="srv-categoria" label="Categoría" error={err.categoria_id?.message}>
          <Select id="srv-categoria" {...register('categoria_id')}>
            <option value="">Sin categoría</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.nombre}
              </option>
            ))}
          </Select>
        </Field>
        <IvaSelect id="srv-iva" error={err.iva?.message} {...register('iva')} />
      </div>
      <Field id="srv-descripcion" label="Descripción" error={err.descripcion?.message}>
        <Textarea id="srv-descripcion" rows={2} {...register('descripcion')} />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register('activo')} />
        Activo (se puede vender)
      </label>
      <FormActions
        error={formError}
        busy={formState.isSubmitting}
        onCancel={() => onDone()}
        submitLabel={service ? 'Guardar cambios' : 'Crear servicio'}
      />
    </form>
  );
}

/** The services table's columns. */
function serviceColumns({
  formatting,
  onEdit,
  onDelete,
}: {
  formatting: Formatting;
  onEdit: false | ((s: Service) => void);
  onDelete: false | ((s: Service) => void);
}): ColumnDef<Service, unknown>[] {
  return [
    {
      id: 'nombre',
      header: 'Nombre',
      accessorKey: 'nombre',
      meta: { label: 'Nombre', primary: true },
      cell: ({ row: { original: s } }) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className={cn('font-medium', s.activo ? 'text-slate-900' : 'text-slate-400')}>{s.nombre}</span>
          {!s.activo && <Badge>Inactivo</Badge>}
        </span>
      ),
    },
    {
      id: 'categoria',
      header: 'Categoría',
      enableSorting: false,
      meta: { label: 'Categoría' },
      cell: ({ row: { original: s } }) => s.categoria_nombre ?? 'Sin categoría',
    },
    {
      id: 'duracion',
      header: 'Duración',
      enableSorting: false,
      meta: { label: 'Duración' },
      cell: ({ row: { original: s } }) =>
        s.duracion_minutos === null ? (
          '—'
        ) : (
          <span className="inline-flex items-center gap-1">
            <Clock className="h-3 w-3" aria-hidden />
            {s.duracion_minutos} min
          </span>
        ),
    },
    {
      id: 'costo',
      header: 'Costo',
      enableSorting: false,
      meta: { label: 'Costo', align: 'right', defaultHidden: true },
      cell: ({ row: { original: s } }) => (s.costo == null ? '—' : formatMoney(s.costo, formatting)),
    },
    {
      id: 'precio',
      header: 'Precio',
      accessorKey: 'precio',
      meta: { label: 'Precio', align: 'right', className: 'font-semibold text-slate-900 whitespace-nowrap' },
      cell: ({ row: { original: s } }) => formatMoney(s.precio, formatting),
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
        />
      ),
    },
  ];
}

/** Services: the same list and edit patterns as products, without stock. */
export function ServicesTab() {
  const { formatting } = useBusiness();
  const { canEdit, canDelete } = useModuleCan('productos');
  const categories = useCategories();
  const list = useListState({ categoria_id: '', activo: '' as '' | 'true' | 'false' }, PAGE_SIZE, 200);
  const services = useServices(list.query);
  const remove = useDeleteService();
  const dialogs = useListDialogs<Service>();
  const columns = serviceColumns({ formatting, ...dialogs.rowActions(canEdit, canDelete) });

  return (
    <div>
      {canEdit && (
        <div className="mb-4">
          <NewButton onClick={dialogs.openNew}>Nuevo servicio</NewButton>
        </div>
      )}
      {dialogs.notice && <StatusNote onClose={() => dialogs.setNotice(null)}>{dialogs.notice}</StatusNote>}
      <FilterBar label="Filtros de servicios" className="md:grid-cols-[minmax(0,2fr)_repeat(2,minmax(0,1fr))]">
        <SearchBox
          id="srv-q"
          label="Buscar servicios"
          value={list.q}
          onChange={list.setQ}
          placeholder="Buscar servicios…"
        />
        <FilterSelect
          id="srv-f-cat"
          label="Categoría"
          value={list.filters.categoria_id}
          onChange={(e) => list.setFilter('categoria_id', e.target.value)}
        >
          <option value="">Todas las categorías</option>
          {(categories.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.nombre}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect
          id="srv-f-activo"
          label="Estado"
          value={list.filters.activo}
          onChange={(e) => list.setFilter('activo', e.target.value as '' | 'true' | 'false')}
        >
          <option value="">Activos e inactivos</option>
          <option value="true">Solo activos</option>
          <option value="false">Solo inactivos</option>
        </FilterSelect>
      </FilterBar>
      <DataTable
        screen="servicios"
        label="Servicios"
        columns={columns}
        query={services}
        loadError="No se pudieron cargar los servicios."
        rowId={(s) => s.id}
        sorting={list.sorting}
        pagination={list.pages(services.data?.total, 'servicio', 'servicios')}
        empty={
          list.filtered ? (
            <EmptyState title="Ningún servicio coincide con la búsqueda" />
          ) : (
            <EmptyState icon={<Wrench className="h-10 w-10" />} title="Todavía no hay servicios">
              <p>Envíos, instalaciones, turnos, abonos: lo que vendés sin stock.</p>
              {canEdit && (
                <NewButton className="mt-4" onClick={dialogs.openNew}>
                  Nuevo servicio
                </NewButton>
              )}
            </EmptyState>
          )
        }
      />
      <Dialog
        open={dialogs.formOpen}
        onOpenChange={dialogs.setFormOpen}
        title={dialogs.editing ? 'Editar servicio' : 'Nuevo servicio'}
        className="sm:max-w-xl"
      >
        <ServiceForm
          service={dialogs.editing}
          onDone={(saved) => {
            dialogs.setFormOpen(false);
            if (saved)
              dialogs.setNotice(
                dialogs.editing ? `Servicio «${saved.nombre}» actualizado.` : `Servicio «${saved.nombre}» creado.`,
              );
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={dialogs.deleting !== null}
        onOpenChange={(o) => !o && dialogs.setDeleting(null)}
        title="Eliminar servicio"
        message={`¿Estás seguro de que querés eliminar «${dialogs.deleting?.nombre ?? ''}»?`}
        failure="No se pudo eliminar el servicio."
        onConfirm={async () => {
          await remove.mutateAsync(dialogs.deleting!.id);
          dialogs.setNotice(`Servicio «${dialogs.deleting!.nombre}» eliminado.`);
        }}
      />
    </div>
  );
}
