import { Plus, Tags, X } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  centsToNumber,
  LISTA_MINORISTA_NOMBRE,
  listaPreciosInput,
  milliToNumber,
  type ListaPrecios,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { DecimalField, Field, Input, InputField, MoneyField, Select } from '@/components/ui/input';
import { EmptyState, ErrorNote } from '@/components/ui/misc';
import { DataTable } from '@/components/data-table';
import { useCan } from '@/features/permissions/permissions.api';
import { RowsSkeleton, StatusNote, useDebounced } from '@/features/products/inventory-ui';
import { useProducts } from '@/features/products/products.api';
import { errorMessage } from '@/lib/api';
import { decimalResolver, decimalText, readDecimal } from '@/lib/decimal-input';
import { applyServerErrors } from '@/lib/forms';
import { formatMoney, formatNumber } from '@/lib/format';
import { CotizacionPanel } from './cotizacion-panel';
import { listaColumns } from './listas-columns';
import { ListaProveedorDialog } from './lista-proveedor-dialog';
import { MargenesPanel } from './margenes-panel';
import { useDeleteLista, useListasPrecios, usePreciosFijos, useSaveLista, useSetPreciosFijos } from './precios.api';

interface Values {
  nombre: string;
  tipo: 'porcentaje' | 'fija';
  base_lista_id: string;
  porcentaje: string;
  cantidad_minima: string;
  activo: boolean;
}
type Output = z.output<typeof listaPreciosInput>;

function ListaForm({
  lista,
  listas,
  onDone,
}: {
  lista?: ListaPrecios;
  listas: ListaPrecios[];
  onDone: (msg?: string) => void;
}) {
  const save = useSaveLista();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState, control } = useForm<Values, unknown, Output>({
    resolver: decimalResolver<Values, Output>(listaPreciosInput, {
      porcentaje: 'percent',
      cantidad_minima: 'quantity',
    }),
    defaultValues: {
      nombre: lista?.nombre ?? '',
      tipo: lista?.tipo ?? 'porcentaje',
      base_lista_id: lista?.base_lista_id ?? '',
      porcentaje:
        lista?.porcentaje === null || lista?.porcentaje === undefined ? '' : decimalText(lista.porcentaje, 'percent'),
      cantidad_minima: decimalText(lista?.cantidad_minima ?? null, 'quantity'),
      activo: lista?.activo ?? true,
    },
  });
  const err = formState.errors;
  const tipo = useWatch({ control, name: 'tipo' });
  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      await save.mutateAsync({
        id: lista?.id ?? null,
        body: {
          nombre: v.nombre,
          tipo: v.tipo,
          base_lista_id: v.base_lista_id || null,
          porcentaje: v.tipo === 'porcentaje' && v.porcentaje != null ? centsToNumber(v.porcentaje) : null,
          cantidad_minima: v.cantidad_minima == null ? null : milliToNumber(v.cantidad_minima),
          activo: v.activo ?? true,
        },
      });
      onDone(lista ? `Se guardó la lista «${v.nombre}».` : `Se creó la lista «${v.nombre}».`);
    } catch (e) {
      setFormError(applyServerErrors(e, setError, 'No se pudo guardar la lista.'));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField id="lista-nombre" label="Nombre" required autoFocus error={err.nombre} {...register('nombre')} />
      <Field id="lista-tipo" label="Cómo calcula sus precios">
        <Select id="lista-tipo" {...register('tipo')}>
          <option value="porcentaje">Un porcentaje sobre otra lista</option>
          <option value="fija">Un precio fijo por producto</option>
        </Select>
      </Field>
      <Field
        id="lista-base"
        label={tipo === 'fija' ? 'Productos sin precio fijo, como' : 'Sobre la lista'}
        error={err.base_lista_id?.message}
      >
        <Select id="lista-base" {...register('base_lista_id')}>
          <option value="">{LISTA_MINORISTA_NOMBRE} (el precio del producto)</option>
          {listas
            .filter((l) => l.id !== lista?.id)
            .map((l) => (
              <option key={l.id} value={l.id}>
                {l.nombre}
              </option>
            ))}
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {tipo === 'porcentaje' && (
          <DecimalField
            id="lista-porcentaje"
            label="Porcentaje (%)"
            hint="Negativo para un precio menor: -10 es 10 % menos."
            required
            error={err.porcentaje}
            {...register('porcentaje')}
          />
        )}
        <DecimalField
          id="lista-cantidad"
          label="Cantidad mínima"
          hint="Opcional: con menos unidades se cobra la lista base."
          error={err.cantidad_minima}
          {...register('cantidad_minima')}
        />
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register('activo')} />
        Activa
      </label>
      <FormActions
        error={formError}
        busy={formState.isSubmitting}
        onCancel={() => onDone()}
        submitLabel={lista ? 'Guardar cambios' : 'Crear lista'}
      />
    </form>
  );
}

/** The fixed prices of a list: add a product with its price (and minimum quantity), or remove one. */
function PreciosFijos({ lista, canEdit }: { lista: ListaPrecios; canEdit: boolean }) {
  const { formatting } = useBusiness();
  const fijos = usePreciosFijos(lista.id);
  const set = useSetPreciosFijos();
  const [q, setQ] = useState('');
  const debounced = useDebounced(q, 200);
  const found = useProducts({ q: debounced || undefined, limit: 8, offset: 0 });
  const [productoId, setProductoId] = useState('');
  const [precio, setPrecio] = useState('');
  const [minimo, setMinimo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = async () => {
    setError(null);
    const p = readDecimal(precio, 'money');
    const m = readDecimal(minimo, 'quantity');
    if (!productoId) return setError('Elegí un producto.');
    if (!p.ok || p.value === null) return setError(p.ok ? 'Indicá el precio.' : p.message);
    if (!m.ok) return setError(m.message);
    try {
      await set.mutateAsync({
        id: lista.id,
        precios: [{ producto_id: productoId, precio: p.text, cantidad_minima: m.text || null }],
      });
      setPrecio('');
      setMinimo('');
      setProductoId('');
      setQ('');
    } catch (e) {
      setError(errorMessage(e, 'No se pudo guardar el precio.'));
    }
  };
  const remove = (id: string) => set.mutate({ id: lista.id, precios: [{ producto_id: id, precio: null }] });
  const rows = fijos.data ?? [];
  const options = (found.data?.rows ?? []) as { id: string; nombre: string; precio_venta: number }[];
  return (
    <div className="space-y-4">
      {canEdit && (
        <div className="space-y-3 rounded-lg border border-slate-200 p-3">
          <Field id="fijo-buscar" label="Producto">
            <Input
              id="fijo-buscar"
              type="search"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              placeholder="Buscar por nombre o código"
            />
          </Field>
          {debounced && (
            <Select
              id="fijo-producto"
              aria-label="Producto elegido"
              value={productoId}
              onChange={(e) => setProductoId(e.target.value)}
            >
              <option value="">Elegí un producto…</option>
              {options.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.nombre} ({formatMoney(p.precio_venta, formatting)})
                </option>
              ))}
            </Select>
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            <MoneyField
              id="fijo-precio"
              label="Precio en la lista"
              value={precio}
              onChange={(e) => setPrecio(e.target.value)}
            />
            <DecimalField
              id="fijo-minimo"
              label="Desde (unidades)"
              hint="Opcional"
              value={minimo}
              onChange={(e) => setMinimo(e.target.value)}
            />
          </div>
          {error && <ErrorNote>{error}</ErrorNote>}
          <Button onClick={add} loading={set.isPending}>
            Guardar precio
          </Button>
        </div>
      )}
      {fijos.isLoading ? (
        <RowsSkeleton rows={3} />
      ) : rows.length === 0 ? (
        <EmptyState title="Esta lista todavía no tiene precios fijos" />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Precios fijos">
          {rows.map((r) => (
            <li key={r.producto_id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span className="min-w-0 truncate">{r.producto_nombre}</span>
              <span className="flex items-center gap-2 tabular-nums">
                {formatMoney(r.precio, formatting)}
                {r.cantidad_minima !== null && (
                  <span className="text-xs text-slate-500">desde {formatNumber(r.cantidad_minima, formatting)}</span>
                )}
                {canEdit && (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Quitar ${r.producto_nombre}`}
                    onClick={() => remove(r.producto_id)}
                  >
                    <X className="h-4 w-4" />
                  </Button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Productos y servicios → Listas de precios: Minorista is each product's own price; the rest are listed here. */
export function ListasTab() {
  const { formatting } = useBusiness();
  const can = useCan();
  const canEdit = can('productos', 'editar');
  const canDelete = can('productos', 'eliminar');
  const listas = useListasPrecios();
  const del = useDeleteLista();
  const [editing, setEditing] = useState<ListaPrecios | 'new' | null>(null);
  const [prices, setPrices] = useState<ListaPrecios | null>(null);
  const [deleting, setDeleting] = useState<ListaPrecios | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [supplier, setSupplier] = useState(false);
  const rows = listas.data ?? [];
  return (
    <div>
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      <CotizacionPanel />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          <strong>{LISTA_MINORISTA_NOMBRE}</strong> es el precio de cada producto. Cada cliente puede tener su lista, y
          el punto de venta cobra con ella.
        </p>
        {canEdit && (
          <div className="flex shrink-0 flex-wrap gap-2 whitespace-nowrap">
            <Button variant="secondary" onClick={() => setSupplier(true)}>
              Lista de proveedor
            </Button>
            <Button onClick={() => setEditing('new')}>
              <Plus className="h-4 w-4" aria-hidden /> Nueva lista
            </Button>
          </div>
        )}
      </div>
      <DataTable
        screen="listas-precios"
        label="Listas de precios"
        columns={listaColumns({
          listas: rows,
          formatting,
          onPrices: setPrices,
          onEdit: canEdit && setEditing,
          onDelete: canDelete && setDeleting,
        })}
        rows={listas.data}
        loading={listas.isLoading}
        fetching={listas.isFetching}
        error={listas.error ? errorMessage(listas.error, 'No se pudieron cargar las listas.') : null}
        rowId={(l) => l.id}
        countLabel={['lista', 'listas']}
        empty={
          <EmptyState icon={<Tags className="h-8 w-8" />} title="Todavía no hay listas de precios">
            Creá, por ejemplo, «Mayorista» con un 10 % menos que {LISTA_MINORISTA_NOMBRE}.
          </EmptyState>
        }
      />
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={editing === 'new' ? 'Nueva lista de precios' : 'Editar lista de precios'}
      >
        {editing !== null && (
          <ListaForm
            lista={editing === 'new' ? undefined : editing}
            listas={rows}
            onDone={(msg) => {
              setEditing(null);
              if (msg) setNotice(msg);
            }}
          />
        )}
      </Dialog>
      <Dialog
        open={prices !== null}
        onOpenChange={(o) => !o && setPrices(null)}
        title="Precios fijos"
        description={prices?.nombre}
        className="sm:max-w-xl"
      >
        {prices && <PreciosFijos lista={prices} canEdit={canEdit} />}
      </Dialog>
      <MargenesPanel onNotice={setNotice} />
      <ListaProveedorDialog
        open={supplier}
        onClose={(msg) => {
          setSupplier(false);
          if (msg) setNotice(msg);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Eliminar lista de precios"
        message={deleting ? `¿Eliminar «${deleting.nombre}»? Sus clientes pasan a ${LISTA_MINORISTA_NOMBRE}.` : ''}
        failure="No se pudo eliminar la lista."
        onConfirm={async () => {
          if (!deleting) return;
          await del.mutateAsync(deleting.id);
          setNotice(`Se eliminó la lista «${deleting.nombre}».`);
          setDeleting(null);
        }}
      />
    </div>
  );
}
