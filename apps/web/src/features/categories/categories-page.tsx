import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Tags } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { categoryInput, type Category } from '@mostrador/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, FilterSelect, InputField, Textarea } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote, PageHeader } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan } from '@/features/permissions/permissions.api';
import { RowsSkeleton, SearchBox, StatusNote } from '@/features/products/inventory-ui';
import { errorMessage } from '@/lib/api';
import { applyServerErrors } from '@/lib/forms';
import { useCategories, useDeleteCategory, useSaveCategory } from './categories.api';

interface Values {
  nombre: string;
  descripcion: string;
  activo: boolean;
}
type Output = z.output<typeof categoryInput>;

function CategoryForm({ category, onDone }: { category?: Category; onDone: (saved?: Category) => void }) {
  const save = useSaveCategory();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Values, unknown, Output>({
    resolver: zodResolver(categoryInput) as unknown as Resolver<Values, unknown, Output>,
    defaultValues: category
      ? { nombre: category.nombre, descripcion: category.descripcion ?? '', activo: category.activo }
      : { nombre: '', descripcion: '', activo: true },
  });
  const err = formState.errors;
  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({
        id: category?.id,
        body: { nombre: v.nombre, descripcion: v.descripcion ?? null, activo: v.activo ?? true },
      });
      onDone(saved);
    } catch (e) {
      setFormError(applyServerErrors(e, setError, 'No se pudo guardar la categoría.'));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField id="cat-nombre" label="Nombre" required error={err.nombre} autoFocus {...register('nombre')} />
      <Field id="cat-descripcion" label="Descripción" error={err.descripcion?.message}>
        <Textarea id="cat-descripcion" rows={3} aria-invalid={Boolean(err.descripcion)} {...register('descripcion')} />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register('activo')} />
        Activa (se ofrece al cargar productos y servicios)
      </label>
      <FormActions
        error={formError}
        busy={formState.isSubmitting}
        onCancel={() => onDone()}
        submitLabel={category ? 'Guardar cambios' : 'Crear categoría'}
      />
    </form>
  );
}

function CategoriesScreen() {
  const can = useCan();
  const canEdit = can('categorias', 'editar');
  const canDelete = can('categorias', 'eliminar');
  const categories = useCategories();
  const remove = useDeleteCategory();
  const [q, setQ] = useState('');
  const [estado, setEstado] = useState<'' | 'activas' | 'inactivas'>('');
  const [editing, setEditing] = useState<Category | undefined>();
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const rows = useMemo(() => {
    const term = fold(q.trim());
    return (categories.data ?? []).filter(
      (c) =>
        (!term || fold(`${c.nombre} ${c.descripcion ?? ''}`).includes(term)) &&
        (estado === '' || (estado === 'activas') === c.activo),
    );
  }, [categories.data, q, estado]);

  const openForm = (c?: Category) => {
    setEditing(c);
    setFormOpen(true);
  };
  const openNew = () => openForm();

  return (
    <div>
      <PageHeader
        title="Categorías"
        description="Agrupan productos y servicios: sirven para filtrar, exportar y aumentar precios por rubro."
        actions={
          canEdit && (
            <Button onClick={openNew}>
              <Plus className="h-4 w-4" aria-hidden />
              Nueva categoría
            </Button>
          )
        }
      />
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      <div className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem]" role="search">
        <SearchBox id="cat-q" label="Buscar categorías" value={q} onChange={setQ} placeholder="Buscar por nombre…" />
        <FilterSelect
          id="cat-estado"
          label="Estado"
          value={estado}
          onChange={(e) => setEstado(e.target.value as typeof estado)}
        >
          <option value="">Todas</option>
          <option value="activas">Activas</option>
          <option value="inactivas">Inactivas</option>
        </FilterSelect>
      </div>

      {categories.error ? (
        <ErrorNote>{errorMessage(categories.error, 'No se pudieron cargar las categorías.')}</ErrorNote>
      ) : categories.isLoading ? (
        <RowsSkeleton />
      ) : (categories.data ?? []).length === 0 ? (
        <EmptyState icon={<Tags className="h-10 w-10" />} title="Todavía no hay categorías">
          <p>Creá rubros como «Almacén», «Bebidas» o «Limpieza» para ordenar tu catálogo.</p>
          {canEdit && (
            <Button className="mt-4" onClick={openNew}>
              <Plus className="h-4 w-4" aria-hidden />
              Crear la primera
            </Button>
          )}
        </EmptyState>
      ) : rows.length === 0 ? (
        <EmptyState title="Ninguna categoría coincide con la búsqueda" />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Categorías">
          {rows.map((c) => (
            <li key={c.id}>
              <Card className="flex h-full flex-col">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="font-semibold text-slate-900">{c.nombre}</h2>
                  <Badge color={c.activo ? 'green' : 'gray'}>{c.activo ? 'Activa' : 'Inactiva'}</Badge>
                </div>
                <p className="mt-1 flex-1 text-sm text-slate-500">{c.descripcion || 'Sin descripción'}</p>
                <div className="mt-4 flex items-center justify-between gap-2">
                  <p className="text-xs text-slate-500">
                    {c.cantidad_productos} {c.cantidad_productos === 1 ? 'producto' : 'productos'} ·{' '}
                    {c.cantidad_servicios} {c.cantidad_servicios === 1 ? 'servicio' : 'servicios'}
                  </p>
                  <RowActions
                    name={c.nombre}
                    onEdit={canEdit && (() => openForm(c))}
                    onDelete={canDelete && (() => setDeleting(c))}
                  />
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <Dialog open={formOpen} onOpenChange={setFormOpen} title={editing ? 'Editar categoría' : 'Nueva categoría'}>
        <CategoryForm
          category={editing}
          onDone={(saved) => {
            setFormOpen(false);
            if (saved)
              setNotice(editing ? `Categoría «${saved.nombre}» actualizada.` : `Categoría «${saved.nombre}» creada.`);
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Eliminar categoría"
        message={`¿Estás seguro de que querés eliminar la categoría «${deleting?.nombre ?? ''}»? No se puede eliminar si tiene productos o servicios.`}
        failure="No se pudo eliminar la categoría."
        onConfirm={async () => {
          await remove.mutateAsync(deleting!.id);
          setNotice(`Categoría «${deleting!.nombre}» eliminada.`);
        }}
      />
    </div>
  );
}

/** /categories (SPEC §2): product and service categories, gated by `categorias`. */
export default function CategoriesPage() {
  return (
    <PermissionGate modulo="categorias">
      <CategoriesScreen />
    </PermissionGate>
  );
}
