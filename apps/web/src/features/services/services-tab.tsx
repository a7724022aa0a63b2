import { Clock, Plus, Wrench } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { centsToNumber, serviceInput, type Service } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, FilterSelect, InputField, IntegerField, MoneyField, Select, Textarea } from '@/components/ui/input';
import { Badge, EmptyState, FilterBar } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { useCategories, useCategoryChoices, type CategoryChoice } from '@/features/categories/categories.api';
import { useCounterControls } from '@/features/permissions/permissions.api';
import { useCan } from '@/features/permissions/permissions.api';
import { SearchBox, StatusNote, useDebounced } from '@/features/products/inventory-ui';
import { DataTable, useServerSorting } from '@/components/data-table';
import type { ColumnDef } from '@tanstack/react-table';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { decimalResolver, decimalText } from '@/lib/decimal-input';
import { applyServerErrors } from '@/lib/forms';
import { formatMoney, type Formatting } from '@/lib/format';
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
        }
      : { nombre: '', descripcion: '', precio: '', costo: '', duracion_minutos: '', categoria_id: '', activo: true },
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
  const can = useCan();
  const canEdit = can('productos', 'editar');
  const canDelete = can('productos', 'eliminar');
  const categories = useCategories();
  const [q, setQ] = useState('');
  const [categoria, setCategoria] = useState('');
  const [activo, setActivo] = useState<'' | 'true' | 'false'>('');
  const [page, setPage] = useState(0);
  const search = useDebounced(q, 200);
  const sorting = useServerSorting(() => setPage(0));
  const services = useServices({
    q: search,
    categoria_id: categoria,
    activo,
    ...sorting.query,
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
  });
  const remove = useDeleteService();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Service | undefined>();
  const [deleting, setDeleting] = useState<Service | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const openForm = (s?: Service) => {
    setEditing(s);
    setFormOpen(true);
  };
  const openNew = () => openForm();
  const columns = serviceColumns({
    formatting,
    onEdit: canEdit && openForm,
    onDelete: canDelete && setDeleting,
  });

  return (
    <div>
      {canEdit && (
        <div className="mb-4">
          <Button onClick={openNew}>
            <Plus className="h-4 w-4" aria-hidden />
            Nuevo servicio
          </Button>
        </div>
      )}
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      <FilterBar label="Filtros de servicios" className="md:grid-cols-[minmax(0,2fr)_repeat(2,minmax(0,1fr))]">
        <SearchBox
          id="srv-q"
          label="Buscar servicios"
          value={q}
          onChange={(v) => {
            setPage(0);
            setQ(v);
          }}
          placeholder="Buscar servicios…"
        />
        <FilterSelect
          id="srv-f-cat"
          label="Categoría"
          value={categoria}
          onChange={(e) => {
            setPage(0);
            setCategoria(e.target.value);
          }}
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
          value={activo}
          onChange={(e) => {
            setPage(0);
            setActivo(e.target.value as typeof activo);
          }}
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
        rows={services.data?.rows}
        rowId={(s) => s.id}
        loading={services.isLoading}
        fetching={services.isFetching}
        error={services.error ? errorMessage(services.error, 'No se pudieron cargar los servicios.') : null}
        sorting={sorting}
        pagination={{
          page,
          pageSize: PAGE_SIZE,
          total: services.data?.total ?? 0,
          onPage: setPage,
          label: 'servicios',
          one: 'servicio',
        }}
        empty={
          search || categoria || activo ? (
            <EmptyState title="Ningún servicio coincide con la búsqueda" />
          ) : (
            <EmptyState icon={<Wrench className="h-10 w-10" />} title="Todavía no hay servicios">
              <p>Envíos, instalaciones, turnos, abonos: lo que vendés sin stock.</p>
              {canEdit && (
                <Button className="mt-4" onClick={openNew}>
                  <Plus className="h-4 w-4" aria-hidden />
                  Nuevo servicio
                </Button>
              )}
            </EmptyState>
          )
        }
      />
      <Dialog
        open={formOpen}
        onOpenChange={setFormOpen}
        title={editing ? 'Editar servicio' : 'Nuevo servicio'}
        className="sm:max-w-xl"
      >
        <ServiceForm
          service={editing}
          onDone={(saved) => {
            setFormOpen(false);
            if (saved)
              setNotice(editing ? `Servicio «${saved.nombre}» actualizado.` : `Servicio «${saved.nombre}» creado.`);
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Eliminar servicio"
        message={`¿Estás seguro de que querés eliminar «${deleting?.nombre ?? ''}»?`}
        failure="No se pudo eliminar el servicio."
        onConfirm={async () => {
          await remove.mutateAsync(deleting!.id);
          setNotice(`Servicio «${deleting!.nombre}» eliminado.`);
        }}
      />
    </div>
  );
}
