import { Plus, X } from 'lucide-react';
import { useImperativeHandle, useState, type Ref } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';
import { useSupplierOptions } from '@/features/suppliers/suppliers.api';
import { useCodigosProveedor, useSetCodigosProveedor } from './precios.api';

interface Row {
  proveedor_id: string;
  codigo: string;
}

const same = (a: Row[], b: Row[]) =>
  a.length === b.length && a.every((r, i) => r.proveedor_id === b[i].proveedor_id && r.codigo.trim() === b[i].codigo);

/**
 * The product form's "Códigos de proveedores": the state of the list and how to save it, kept by
 * the form, so the codes are saved with the product (a supplier's list keyed by "Código del
 * proveedor" finds the product by them).
 */
function useCodigosProveedorState(productId: string | undefined) {
  const stored = useCodigosProveedor(productId ?? null);
  const save = useSetCodigosProveedor();
  // Untouched (null): the stored codes; once edited, the form's own rows.
  const [edited, setRows] = useState<Row[] | null>(null);
  const loaded = stored.data?.map((c) => ({ proveedor_id: c.proveedor_id, codigo: c.codigo }));
  const rows = edited ?? loaded ?? [];
  const filled = rows.filter((r) => r.proveedor_id || r.codigo.trim());
  return {
    rows,
    setRows,
    loading: stored.isLoading,
    /** A row with a supplier and no code, or the reverse, is not saved: the form says so. */
    incomplete: filled.some((r) => !r.proveedor_id || !r.codigo.trim()),
    dirty: Boolean(productId) && !same(filled, loaded ?? []),
    save: (id: string) => save.mutateAsync({ id, codigos: filled.map((r) => ({ ...r, codigo: r.codigo.trim() })) }),
  };
}
type CodigosProveedorState = ReturnType<typeof useCodigosProveedorState>;

/** What the product form asks of the codes when it is submitted. */
export type CodigosProveedorHandle = Pick<CodigosProveedorState, 'incomplete' | 'dirty' | 'save'>;

export function CodigosProveedorFields({ productId, ref }: { productId: string; ref: Ref<CodigosProveedorHandle> }) {
  const state = useCodigosProveedorState(productId);
  useImperativeHandle(ref, () => ({ incomplete: state.incomplete, dirty: state.dirty, save: state.save }), [state]);
  const suppliers = useSupplierOptions();
  const { rows, setRows } = state;
  const update = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">Códigos de proveedores</legend>
      <p className="text-xs text-slate-500">
        Cómo llama cada proveedor a este producto en su lista. Una lista importada con «Código del proveedor» lo
        encuentra por este código.
      </p>
      {state.loading ? (
        <p className="text-sm text-slate-500">Cargando códigos…</p>
      ) : (
        <ul className="space-y-2" aria-label="Códigos de proveedores">
          {rows.map((r, i) => (
            <li key={i} className="flex flex-wrap items-center gap-2 sm:flex-nowrap">
              <label className="sr-only" htmlFor={`codprov-prov-${i}`}>
                Proveedor {i + 1}
              </label>
              <Select
                id={`codprov-prov-${i}`}
                className="min-w-0 flex-1"
                value={r.proveedor_id}
                onChange={(e) => update(i, { proveedor_id: e.target.value })}
              >
                <option value="">Elegí el proveedor</option>
                {(suppliers.data?.rows ?? []).map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.nombre}
                  </option>
                ))}
              </Select>
              <label className="sr-only" htmlFor={`codprov-cod-${i}`}>
                Código del proveedor {i + 1}
              </label>
              <Input
                id={`codprov-cod-${i}`}
                className="min-w-0 flex-1"
                placeholder="Su código"
                maxLength={50}
                value={r.codigo}
                onChange={(e) => update(i, { codigo: e.target.value })}
              />
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Quitar el código ${r.codigo || i + 1}`}
                onClick={() => setRows(rows.filter((_, j) => j !== i))}
              >
                <X className="h-4 w-4" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button
        variant="secondary"
        size="sm"
        onClick={() => setRows([...rows, { proveedor_id: '', codigo: '' }])}
        disabled={state.loading}
      >
        <Plus className="h-4 w-4" aria-hidden /> Agregar código de proveedor
      </Button>
      {state.incomplete && (
        <p role="alert" className="text-xs text-red-600">
          Completá el proveedor y el código de cada fila, o quitala.
        </p>
      )}
    </fieldset>
  );
}
