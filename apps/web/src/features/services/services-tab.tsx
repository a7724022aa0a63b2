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
import { Badge, EmptyState, ErrorNote, FilterBar } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { useCategories, useCategoryChoices, type CategoryChoice } from '@/features/categories/categories.api';
import { useCounterControls } from '@/features/permissions/permissions.api';
import { useCan } from '@/features/permissions/permissions.api';
import { ListCard, Pager, RowsSkeleton, SearchBox, StatusNote, useDebounced } from '@/features/products/inventory-ui';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { decimalResolver, decimalText } from '@/lib/decimal-input';
import { applyServerErrors } from '@/lib/forms';
import { formatMoney } from '@/lib/format';
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
  const services = useServices({
    q: search,
    categoria_id: categoria,
    activo,
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
  });
  const remove = useDeleteService();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Service | undefined>();
  const [deleting, setDeleting] = useState<Service | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const rows = services.data?.rows ?? [];
  const openForm = (s?: Service) => {
    setEditing(s);
    setFormOpen(true);
  };
  const openNew = () => openForm();

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
      {services.error ? (
        <ErrorNote>{errorMessage(services.error, 'No se pudieron cargar los servicios.')}</ErrorNote>
      ) : services.isLoading ? (
        <RowsSkeleton />
      ) : rows.length === 0 ? (
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
      ) : (
        <ListCard
          dimmed={services.isFetching}
          footer={
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={services.data?.total ?? 0}
              onPage={setPage}
              label="servicios"
              one="servicio"
            />
          }
        >
          <ul className="divide-y divide-slate-100" aria-label="Servicios">
            {rows.map((s) => (
              <li key={s.id} className="flex items-start gap-3 px-4 py-3">
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <p className={cn('truncate font-medium', s.activo ? 'text-slate-900' : 'text-slate-400')}>
                      {s.nombre}
                    </p>
                    {!s.activo && <Badge>Inactivo</Badge>}
                  </div>
                  <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-500">
                    <span>{s.categoria_nombre ?? 'Sin categoría'}</span>
                    {s.duracion_minutos !== null && (
                      <span className="inline-flex items-center gap-1">
                        <Clock className="h-3 w-3" aria-hidden />
                        {s.duracion_minutos} min
                      </span>
                    )}
                    {s.costo != null && <span>Costo {formatMoney(s.costo, formatting)}</span>}
                  </p>
                </div>
                <p className="whitespace-nowrap font-semibold tabular-nums text-slate-900">
                  {formatMoney(s.precio, formatting)}
                </p>
                <RowActions
                  name={s.nombre}
                  onEdit={canEdit && (() => openForm(s))}
                  onDelete={canDelete && (() => setDeleting(s))}
                />
              </li>
            ))}
          </ul>
        </ListCard>
      )}
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
