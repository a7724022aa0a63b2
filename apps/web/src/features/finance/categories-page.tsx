import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  financeCategoryInput,
  financeCategoryUpdate,
  MOVEMENT_TYPE_LABELS,
  MOVEMENT_TYPES,
  type FinanceCategory,
  type MovementType,
} from '@mostrador/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, InputField, Select, Textarea } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote, PageHeader } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { applyServerErrors } from '@/lib/forms';
import { useDeleteCategory, useFinanceCategories, useSaveCategory } from './finance.api';
import { ListSkeleton, TypeBadge, useFinanceCan } from './finance-ui';

interface Values {
  nombre: string;
  descripcion: string;
  tipo: MovementType;
  activo: boolean;
}
type Output = z.output<typeof financeCategoryInput>;

function CategoryForm({ category, onDone }: { category?: FinanceCategory; onDone: () => void }) {
  const save = useSaveCategory();
  const [formError, setFormError] = useState<string | null>(null);
  // "Ventas" and "Compras" belong to the system: only their description changes (the other
  // fields are disabled, so they arrive empty and only the update rules apply).
  const locked = category?.sistema === true;
  const { register, handleSubmit, setError, formState } = useForm<Values, unknown, Output>({
    resolver: zodResolver(locked ? financeCategoryUpdate : financeCategoryInput) as unknown as Resolver<
      Values,
      unknown,
      Output
    >,
    defaultValues: category
      ? {
          nombre: category.nombre,
          descripcion: category.descripcion ?? '',
          tipo: category.tipo,
          activo: category.activo,
        }
      : { nombre: '', descripcion: '', tipo: 'ingreso', activo: true },
  });
  const err = formState.errors;

  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      await save.mutateAsync({
        id: category?.id,
        body: locked
          ? { descripcion: v.descripcion ?? null }
          : { nombre: v.nombre, descripcion: v.descripcion ?? null, tipo: v.tipo, activo: v.activo },
      });
      onDone();
    } catch (e) {
      console.error(e);
      setFormError(applyServerErrors(e, setError, 'Error al guardar la categoría'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {locked && (
        <p className="rounded-lg bg-blue-50 p-3 text-sm text-blue-800">
          Es una categoría del sistema: solo se puede cambiar la descripción.
        </p>
      )}
      <InputField
        id="cat-nombre"
        label="Nombre"
        required
        error={err.nombre}
        disabled={locked}
        {...register('nombre')}
      />
      <Field id="cat-tipo" label="Tipo" required error={err.tipo?.message}>
        <Select id="cat-tipo" disabled={locked} {...register('tipo')}>
          {MOVEMENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {MOVEMENT_TYPE_LABELS[t]}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="cat-descripcion" label="Descripción" error={err.descripcion?.message}>
        <Textarea id="cat-descripcion" rows={2} aria-invalid={Boolean(err.descripcion)} {...register('descripcion')} />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300" disabled={locked} {...register('activo')} />
        Activa
      </label>
      <FormActions
        error={formError}
        busy={formState.isSubmitting}
        onCancel={onDone}
        submitLabel={category ? 'Guardar cambios' : 'Guardar'}
      />
    </form>
  );
}

type Filter = 'todas' | MovementType;
const FILTERS: { id: Filter; label: string }[] = [
  { id: 'todas', label: 'Todas' },
  { id: 'ingreso', label: 'Ingresos' },
  { id: 'egreso', label: 'Egresos' },
];

/** Categorías Financieras (SPEC §2). */
export function CategoriesPage() {
  const can = useFinanceCan();
  const categories = useFinanceCategories();
  const remove = useDeleteCategory();
  const [filter, setFilter] = useState<Filter>('todas');
  const [editing, setEditing] = useState<FinanceCategory | undefined>();
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<FinanceCategory | null>(null);
  const canEdit = can('categorias_financieras', 'edit');
  const canDelete = can('categorias_financieras', 'delete');
  const all = categories.data ?? [];
  const count = (f: Filter) => (f === 'todas' ? all.length : all.filter((c) => c.tipo === f).length);
  const shown = filter === 'todas' ? all : all.filter((c) => c.tipo === filter);
  const emptyText =
    filter === 'todas'
      ? 'No hay categorías registradas'
      : `No hay categorías ${filter === 'ingreso' ? 'de ingreso' : 'de egreso'} registradas`;

  return (
    <div>
      <PageHeader
        title="Categorías Financieras"
        description="Clasificá tus ingresos y egresos."
        actions={
          canEdit && (
            <Button
              onClick={() => {
                setEditing(undefined);
                setFormOpen(true);
              }}
            >
              <Plus className="h-4 w-4" aria-hidden />
              Nueva Categoría
            </Button>
          )
        }
      />
      <div role="group" aria-label="Filtrar por tipo" className="mb-4 flex flex-wrap gap-2">
        {FILTERS.map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={filter === f.id}
            onClick={() => setFilter(f.id)}
            className={cn(
              'rounded-full px-4 py-1.5 text-sm font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
              filter === f.id
                ? 'bg-blue-600 text-white ring-blue-600'
                : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
            )}
          >
            {f.label} ({count(f.id)})
          </button>
        ))}
      </div>

      {categories.error ? (
        <ErrorNote>{errorMessage(categories.error, 'Error al cargar las categorías')}</ErrorNote>
      ) : categories.isLoading ? (
        <ListSkeleton />
      ) : shown.length === 0 ? (
        <EmptyState title={emptyText} />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Categorías">
          {shown.map((c) => (
            <li key={c.id}>
              <Card className="flex h-full flex-col">
                <div className="flex items-start justify-between gap-2">
                  <h3 className="font-semibold text-slate-900">{c.nombre}</h3>
                  <RowActions
                    name={c.nombre}
                    className="shrink-0"
                    onEdit={
                      canEdit &&
                      (() => {
                        setEditing(c);
                        setFormOpen(true);
                      })
                    }
                    onDelete={canDelete && !c.sistema && (() => setDeleting(c))}
                  />
                </div>
                <p className="mt-1 flex-1 text-sm text-slate-500">{c.descripcion || 'Sin descripción'}</p>
                <div className="mt-3 flex flex-wrap gap-2">
                  <TypeBadge tipo={c.tipo} />
                  <Badge color={c.activo ? 'blue' : 'gray'}>{c.activo ? 'Activa' : 'Inactiva'}</Badge>
                  {c.sistema && <Badge>Sistema</Badge>}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <Dialog open={formOpen} onOpenChange={setFormOpen} title={editing ? 'Editar Categoría' : 'Nueva Categoría'}>
        <CategoryForm category={editing} onDone={() => setFormOpen(false)} />
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Eliminar categoría"
        message="¿Estás seguro de que querés eliminar esta categoría?"
        onConfirm={() => remove.mutateAsync(deleting!.id)}
      />
    </div>
  );
}
