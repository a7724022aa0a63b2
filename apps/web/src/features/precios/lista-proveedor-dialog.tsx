import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ListaProveedorClave, ListaProveedorResult } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { DecimalField, Field, Input, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { uploadWithProgress } from '@/features/imports/imports.api';
import { api, errorMessage } from '@/lib/api';
import { formatMoney, formatNumber } from '@/lib/format';

/**
 * "Lista de proveedor": a distributor's Excel or CSV updates costs (and prices) of the products
 * it names — found by barcode or internal code — with a preview where each change can be left
 * out, applied in one step and undone while nothing was sold at the new prices.
 */
function ListaProveedor({ onDone }: { onDone: (msg?: string) => void }) {
  const { businessId, formatting } = useBusiness();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [clave, setClave] = useState<ListaProveedorClave>('codigo_barras');
  const [margen, setMargen] = useState('');
  const [preview, setPreview] = useState<ListaProveedorResult | null>(null);
  const [excluir, setExcluir] = useState<Set<string>>(new Set());
  const [applied, setApplied] = useState<ListaProveedorResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const money = (n: number | null | undefined) => (n == null ? '—' : formatMoney(n, formatting));

  const send = async (path: 'previsualizar' | 'aplicar') => {
    if (!file) return setError('Elegí el archivo de la lista.');
    setError(null);
    setBusy(true);
    try {
      const r = await uploadWithProgress<ListaProveedorResult>(
        `/businesses/${businessId}/listas-proveedor/${path}`,
        file,
        {
          clave,
          margen: margen.trim() || undefined,
          excluir: path === 'aplicar' ? JSON.stringify([...excluir]) : undefined,
        },
        () => undefined,
      );
      if (path === 'previsualizar') {
        setPreview(r);
        setExcluir(new Set());
      } else {
        setApplied(r);
        await qc.invalidateQueries({ queryKey: ['inventory', businessId] });
      }
    } catch (e) {
      setError(errorMessage(e, 'No se pudo leer la lista.'));
    } finally {
      setBusy(false);
    }
  };

  const undo = async () => {
    if (!applied?.id) return;
    setBusy(true);
    try {
      await api.post(`/businesses/${businessId}/listas-proveedor/${applied.id}/deshacer`);
      await qc.invalidateQueries({ queryKey: ['inventory', businessId] });
      onDone('Se deshizo la actualización de la lista de proveedor.');
    } catch (e) {
      setError(errorMessage(e, 'No se pudo deshacer.'));
    } finally {
      setBusy(false);
    }
  };

  if (applied) {
    return (
      <div className="space-y-4">
        <p role="status" className="text-sm text-slate-800">
          {applied.productos_afectados === 1
            ? 'Se actualizó 1 producto.'
            : `Se actualizaron ${applied.productos_afectados} productos.`}{' '}
          Podés deshacerlo mientras no se venda con los precios nuevos.
        </p>
        {error && <ErrorNote>{error}</ErrorNote>}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={undo} loading={busy}>
            Deshacer
          </Button>
          <Button onClick={() => onDone(`Lista de proveedor aplicada: ${applied.productos_afectados} productos.`)}>
            Listo
          </Button>
        </div>
      </div>
    );
  }

  const incluidos = preview ? preview.cambios.filter((c) => !excluir.has(c.producto_id)).length : 0;
  return (
    <div className="space-y-4">
      <Field id="prov-archivo" label="Archivo de la lista (Excel o CSV)" hint="Se busca sola la fila de títulos.">
        <Input
          id="prov-archivo"
          type="file"
          accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(e) => (setFile(e.target.files?.[0] ?? null), setPreview(null))}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="prov-clave" label="Buscar los productos por">
          <Select
            id="prov-clave"
            value={clave}
            onChange={(e) => (setClave(e.target.value as ListaProveedorClave), setPreview(null))}
          >
            <option value="codigo_barras">Código de barras</option>
            <option value="codigo">Código interno</option>
          </Select>
        </Field>
        <DecimalField
          id="prov-margen"
          label="Margen sobre el costo (%)"
          hint="Vacío: cada producto mantiene su margen."
          value={margen}
          onChange={(e) => (setMargen(e.target.value), setPreview(null))}
        />
      </div>
      {preview && (
        <div className="space-y-2" aria-label="Cambios de la lista" role="region">
          <p className="text-sm text-slate-700">
            {preview.filas} filas · {preview.cambios.length} productos cambian
            {preview.sin_coincidencia_total > 0 && ` · ${preview.sin_coincidencia_total} sin coincidencia`}
          </p>
          <div className="max-h-72 overflow-y-auto rounded-lg border border-slate-200">
            <table className="w-full text-sm">
              <thead className="bg-slate-50 text-left text-xs text-slate-500">
                <tr>
                  <th className="px-2 py-1">Aplicar</th>
                  <th className="px-2 py-1">Producto</th>
                  <th className="px-2 py-1 text-right">Costo</th>
                  <th className="px-2 py-1 text-right">Precio</th>
                  <th className="px-2 py-1 text-right">Margen</th>
                </tr>
              </thead>
              <tbody>
                {preview.cambios.map((c) => (
                  <tr key={c.producto_id} className="border-t border-slate-100">
                    <td className="px-2 py-1">
                      <input
                        type="checkbox"
                        aria-label={`Aplicar a ${c.nombre}`}
                        checked={!excluir.has(c.producto_id)}
                        onChange={(e) => {
                          const next = new Set(excluir);
                          if (e.target.checked) next.delete(c.producto_id);
                          else next.add(c.producto_id);
                          setExcluir(next);
                        }}
                      />
                    </td>
                    <td className="px-2 py-1">{c.nombre}</td>
                    <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                      {money(c.costo_anterior)} → {money(c.costo_nuevo)}
                    </td>
                    <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                      {money(c.precio_anterior)} → <strong>{money(c.precio_nuevo)}</strong>
                    </td>
                    <td className="px-2 py-1 text-right tabular-nums">
                      {c.margen === null ? '—' : `${formatNumber(c.margen, formatting, 2)} %`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={() => onDone()}>
          Cancelar
        </Button>
        {preview ? (
          <Button onClick={() => send('aplicar')} loading={busy} disabled={incluidos === 0}>
            Aplicar a {incluidos} {incluidos === 1 ? 'producto' : 'productos'}
          </Button>
        ) : (
          <Button onClick={() => send('previsualizar')} loading={busy}>
            Ver cambios
          </Button>
        )}
      </div>
    </div>
  );
}

export function ListaProveedorDialog({ open, onClose }: { open: boolean; onClose: (msg?: string) => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Actualizar con la lista de un proveedor"
      className="sm:max-w-3xl"
    >
      {open && <ListaProveedor onDone={onClose} />}
    </Dialog>
  );
}
