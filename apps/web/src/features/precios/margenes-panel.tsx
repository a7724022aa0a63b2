import { Percent, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { Product, ReglaMargen, ReglaMargenNivel } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { DecimalField, Field, Select } from '@/components/ui/input';
import { Badge, EmptyState, ErrorNote } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { useCategories } from '@/features/categories/categories.api';
import { useCan, useCounterControls } from '@/features/permissions/permissions.api';
import { ListCard, RowsSkeleton } from '@/features/products/inventory-ui';
import { ProductPicker } from '@/features/purchases/product-picker';
import { useSupplierOptions } from '@/features/suppliers/suppliers.api';
import { errorMessage } from '@/lib/api';
import { decimalText } from '@/lib/decimal-input';
import { formatNumber } from '@/lib/format';
import { useDeleteReglaMargen, useReglasMargen, useSetReglaMargen } from './precios.api';

const NIVELES: { value: ReglaMargenNivel; label: string; badge: 'blue' | 'green' | 'gray' }[] = [
  { value: 'producto', label: 'Producto', badge: 'blue' },
  { value: 'categoria', label: 'Categoría', badge: 'green' },
  { value: 'proveedor', label: 'Proveedor', badge: 'gray' },
];
const nivelLabel = (n: ReglaMargenNivel) => NIVELES.find((x) => x.value === n)!.label;

/** Creates a margin for a product, a category or a supplier, or changes one (its target stays). */
function ReglaForm({ regla, onDone }: { regla?: ReglaMargen; onDone: (msg?: string) => void }) {
  const { formatting } = useBusiness();
  const set = useSetReglaMargen();
  const categories = useCategories();
  const suppliers = useSupplierOptions();
  const [nivel, setNivel] = useState<ReglaMargenNivel>(regla?.nivel ?? 'categoria');
  const [target, setTarget] = useState<{ id: string; nombre: string } | null>(
    regla ? { id: (regla.producto_id ?? regla.categoria_id ?? regla.proveedor_id)!, nombre: regla.nombre } : null,
  );
  const [margen, setMargen] = useState(regla ? decimalText(regla.margen, 'money') : '');
  const [errors, setErrors] = useState<{ target?: string; margen?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: typeof errors = {};
    if (!target)
      errs.target = `Elegí ${nivel === 'producto' ? 'el producto' : nivel === 'categoria' ? 'la categoría' : 'el proveedor'}.`;
    if (!margen.trim()) errs.margen = 'Indicá el margen sobre el costo.';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setFormError(null);
    try {
      const r = await set.mutateAsync({
        [`${nivel}_id`]: target!.id,
        margen: margen.trim().replace(/\./g, '').replace(',', '.'),
      });
      onDone(`Margen de ${r.nombre}: ${formatNumber(r.margen, formatting, 2)} %.`);
    } catch (err) {
      setFormError(errorMessage(err, 'No se pudo guardar el margen.'));
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {!regla && (
        <Field id="regla-nivel" label="Para">
          <Select
            id="regla-nivel"
            value={nivel}
            onChange={(e) => (setNivel(e.target.value as ReglaMargenNivel), setTarget(null))}
          >
            {NIVELES.map((n) => (
              <option key={n.value} value={n.value}>
                {n.label === 'Producto' ? 'Un producto' : n.label === 'Categoría' ? 'Una categoría' : 'Un proveedor'}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {regla ? (
        <p className="text-sm text-slate-700">
          {nivelLabel(regla.nivel)}: <strong>{regla.nombre}</strong>
        </p>
      ) : nivel === 'producto' ? (
        // The picker brings its own label; once chosen, the product shows with a way to change it.
        <div className="space-y-1">
          {target ? (
            <>
              <p className="text-sm font-medium text-slate-700">Producto</p>
              <div className="flex items-center justify-between gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm">
                <span>{target.nombre}</span>
                <Button variant="ghost" size="sm" onClick={() => setTarget(null)}>
                  Cambiar
                </Button>
              </div>
            </>
          ) : (
            <ProductPicker
              onPick={(p: Product) => setTarget({ id: p.id, nombre: p.nombre })}
              invalid={Boolean(errors.target)}
            />
          )}
          {errors.target && (
            <p role="alert" className="text-xs text-red-600">
              {errors.target}
            </p>
          )}
        </div>
      ) : (
        <Field
          id="regla-target"
          label={nivel === 'categoria' ? 'Categoría' : 'Proveedor'}
          required
          error={errors.target}
        >
          <Select
            id="regla-target"
            value={target?.id ?? ''}
            aria-invalid={Boolean(errors.target)}
            onChange={(e) => {
              const list = nivel === 'categoria' ? (categories.data ?? []) : (suppliers.data?.rows ?? []);
              const found = list.find((x) => x.id === e.target.value);
              setTarget(found ? { id: found.id, nombre: found.nombre } : null);
            }}
          >
            <option value="">Elegí…</option>
            {(nivel === 'categoria' ? (categories.data ?? []) : (suppliers.data?.rows ?? [])).map((x) => (
              <option key={x.id} value={x.id}>
                {x.nombre}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <DecimalField
        id="regla-margen"
        label="Margen sobre el costo (%)"
        required
        hint="Por ejemplo 35: un costo de $ 100 se vende a $ 135."
        error={errors.margen ? { message: errors.margen } : undefined}
        value={margen}
        onChange={(e) => setMargen(e.target.value)}
      />
      <FormActions
        error={formError}
        busy={set.isPending}
        onCancel={() => onDone()}
        submitLabel={regla ? 'Guardar margen' : 'Crear margen'}
      />
    </form>
  );
}

/**
 * Márgenes: the margin over the cost kept per product, category or supplier. A supplier's list
 * that changes costs sets each price with the most specific one.
 */
export function MargenesPanel({ onNotice }: { onNotice: (msg: string) => void }) {
  const { formatting } = useBusiness();
  const { verCostos } = useCounterControls();
  const canEdit = useCan()('productos', 'editar');
  const reglas = useReglasMargen(verCostos);
  const del = useDeleteReglaMargen();
  const [editing, setEditing] = useState<ReglaMargen | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReglaMargen | null>(null);
  if (!verCostos) return null;
  const rows = reglas.data ?? [];
  return (
    <section className="mt-8" aria-labelledby="margenes-titulo">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="margenes-titulo" className="text-base font-semibold text-slate-900">
            Márgenes sobre el costo
          </h2>
          <p className="max-w-2xl text-sm text-slate-600">
            Cuando una lista de proveedor o una compra recibida sube costos, el precio nuevo sale del margen más
            específico: el del producto, el de su categoría o el del proveedor. Sin ninguno, usa el margen de esa lista
            o el que ya tiene el producto.
          </p>
        </div>
        {canEdit && (
          <Button variant="secondary" onClick={() => setEditing('new')}>
            <Plus className="h-4 w-4" aria-hidden /> Nuevo margen
          </Button>
        )}
      </div>
      {reglas.error ? (
        <ErrorNote>{errorMessage(reglas.error, 'No se pudieron cargar los márgenes.')}</ErrorNote>
      ) : reglas.isLoading ? (
        <RowsSkeleton rows={2} />
      ) : rows.length === 0 ? (
        <EmptyState icon={<Percent className="h-8 w-8" />} title="Todavía no hay márgenes guardados">
          Guardá, por ejemplo, un 35 % para la categoría Bebidas.
        </EmptyState>
      ) : (
        <ListCard>
          <ul className="divide-y divide-slate-100" aria-label="Márgenes guardados">
            {rows.map((r) => {
              const n = NIVELES.find((x) => x.value === r.nivel)!;
              return (
                <li key={r.id} className="flex items-center justify-between gap-3 px-4 py-3">
                  <div className="flex min-w-0 flex-wrap items-center gap-2">
                    <Badge color={n.badge}>{n.label}</Badge>
                    <span className="truncate font-medium text-slate-900">{r.nombre}</span>
                  </div>
                  <div className="flex shrink-0 items-center gap-3">
                    <span className="tabular-nums font-semibold text-slate-900">
                      {formatNumber(r.margen, formatting, 2)} %
                    </span>
                    <RowActions
                      name={`el margen de ${r.nombre}`}
                      onEdit={canEdit && (() => setEditing(r))}
                      onDelete={canEdit && (() => setDeleting(r))}
                    />
                  </div>
                </li>
              );
            })}
          </ul>
        </ListCard>
      )}
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={editing === 'new' ? 'Nuevo margen' : 'Editar margen'}
      >
        {editing !== null && (
          <ReglaForm
            regla={editing === 'new' ? undefined : editing}
            onDone={(msg) => {
              setEditing(null);
              if (msg) onNotice(msg);
            }}
          />
        )}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Quitar margen"
        message={
          deleting
            ? `¿Quitar el margen de ${nivelLabel(deleting.nivel).toLowerCase()} «${deleting.nombre}»? Sus precios no cambian ahora.`
            : ''
        }
        confirmLabel="Quitar"
        failure="No se pudo quitar el margen."
        onConfirm={async () => {
          if (!deleting) return;
          await del.mutateAsync(deleting.id);
          onNotice(`Se quitó el margen de ${deleting.nombre}.`);
          setDeleting(null);
        }}
      />
    </section>
  );
}
