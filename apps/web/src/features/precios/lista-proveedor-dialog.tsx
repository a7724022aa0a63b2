import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EtiquetasLink } from '@/features/etiquetas/etiquetas-link';
import type { ColumnaArchivo, ListaProveedorClave, ListaProveedorResult } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { DecimalField, Field, Input, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { UploadError, uploadWithProgress } from '@/features/imports/imports.api';
import { useSupplierOptions } from '@/features/suppliers/suppliers.api';
import { api, errorMessage } from '@/lib/api';
import { ListaProveedorCambios } from './lista-proveedor-cambios';
import { hasDuplicatedColumn, ListaProveedorColumnas, mappingOf } from './lista-proveedor-columnas';
import { FilasSinCoincidencia } from './lista-proveedor-sin-coincidencia';
import { noBajarPrecios } from './no-bajar-precios';

/**
 * "Lista de proveedor": a distributor's Excel or CSV updates costs (and prices) of the products
 * it names — found by the supplier's own code, the barcode or the internal code — with its header
 * row and columns shown with sample values to correct, a preview where each change says which
 * margin rule set it and can be left out, applied in one step and undone while nothing was sold.
 */
function ListaProveedor({ onDone }: { onDone: (msg?: string) => void }) {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  const suppliers = useSupplierOptions();
  const [file, setFile] = useState<File | null>(null);
  const [clave, setClave] = useState<ListaProveedorClave>('codigo_barras');
  const [proveedorId, setProveedorId] = useState('');
  const [margen, setMargen] = useState('');
  const [fila, setFila] = useState('');
  const [columnas, setColumnas] = useState<ColumnaArchivo[] | null>(null);
  const [filaEncontrada, setFilaEncontrada] = useState<number | null>(null);
  const [mapping, setMapping] = useState<Record<string, string> | null>(null);
  const [preview, setPreview] = useState<ListaProveedorResult | null>(null);
  const [excluir, setExcluir] = useState<Set<string>>(new Set());
  const [noBajar, setNoBajar] = useState(() => noBajarPrecios.get(businessId));
  const [applied, setApplied] = useState<ListaProveedorResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [proveedorError, setProveedorError] = useState<string | null>(null);
  /** Any change of the options reads the file again before applying. */
  const changed =
    <T,>(set: (v: T) => void) =>
    (v: T) => (set(v), setPreview(null));

  const send = async (path: 'previsualizar' | 'aplicar', sinBajar = noBajar) => {
    if (!file) return setError('Elegí el archivo de la lista.');
    if (clave === 'codigo_proveedor' && !proveedorId) {
      return setProveedorError('Para buscar por el código del proveedor, elegí el proveedor.');
    }
    setError(null);
    setProveedorError(null);
    setBusy(true);
    try {
      const r = await uploadWithProgress<ListaProveedorResult>(
        `/businesses/${businessId}/listas-proveedor/${path}`,
        file,
        {
          clave,
          proveedor_id: proveedorId || undefined,
          margen: margen.trim() || undefined,
          fila_encabezado: fila.trim() || undefined,
          // Only a mapping the user changed is sent; otherwise the columns are recognised by their titles.
          mapeo: mapping
            ? JSON.stringify(Object.fromEntries(Object.entries(mapping).map(([k, v]) => [k, v || null])))
            : undefined,
          excluir: path === 'aplicar' ? JSON.stringify([...excluir]) : undefined,
          no_bajar_precios: sinBajar ? 'true' : 'false',
        },
        () => undefined,
      );
      if (path === 'previsualizar') {
        // Read again for «No bajar precios», the products left out stay out.
        if (!preview) setExcluir(new Set());
        setPreview(r);
        setColumnas(r.columnas_archivo);
        setFilaEncontrada(r.fila_encabezado);
      } else {
        setApplied(r);
        await qc.invalidateQueries({ queryKey: ['inventory', businessId] });
      }
    } catch (e) {
      // A list whose key column was not recognised: its columns come back to be mapped by hand.
      if (e instanceof UploadError) {
        const body = e.body as { columnas_archivo?: ColumnaArchivo[]; columnas_originales?: string[] };
        const cols =
          body.columnas_archivo ??
          body.columnas_originales?.filter(Boolean).map((c) => ({ columna: c, campo: null, muestras: [] }));
        if (cols?.length) {
          setColumnas(cols);
          setFilaEncontrada(null);
        }
      }
      setError(errorMessage(e, 'No se pudo leer la lista.'));
    } finally {
      setBusy(false);
    }
  };

  /** «No bajar precios»: remembered on this device, and the preview is read again with it. */
  const chooseNoBajar = (on: boolean) => {
    setNoBajar(on);
    noBajarPrecios.set(businessId, on);
    void send('previsualizar', on);
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
          {applied.codigos_aprendidos > 0 &&
            `Se guardaron ${applied.codigos_aprendidos} códigos del proveedor para la próxima lista. `}
          Podés deshacerlo mientras no se venda con los precios nuevos.
        </p>
        {applied.bajas > 0 && (
          <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            {applied.no_bajar_precios
              ? applied.bajas === 1
                ? '1 producto que bajaba de precio mantuvo su precio (se actualizó su costo).'
                : `${applied.bajas} productos que bajaban de precio mantuvieron su precio (se actualizó su costo).`
              : applied.bajas === 1
                ? '1 producto bajó de precio.'
                : `${applied.bajas} productos bajaron de precio.`}
          </p>
        )}
        <FilasSinCoincidencia result={applied} />
        {error && <ErrorNote>{error}</ErrorNote>}
        <div className="flex flex-wrap justify-end gap-3">
          {applied.id && applied.productos_afectados > 0 && (
            <EtiquetasLink origen="lista_proveedor" referenciaId={applied.id} />
          )}
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

  const shownMapping = mapping ?? (columnas ? mappingOf(columnas, clave) : {});
  const incluidos = preview ? preview.cambios.filter((c) => !excluir.has(c.producto_id)).length : 0;
  return (
    <div className="space-y-4">
      <Field id="prov-archivo" label="Archivo de la lista (Excel o CSV)" hint="Se busca sola la fila de títulos.">
        <Input
          id="prov-archivo"
          type="file"
          accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setPreview(null);
            setColumnas(null);
            setMapping(null);
            setFila('');
          }}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="prov-clave" label="Buscar los productos por">
          <Select
            id="prov-clave"
            value={clave}
            onChange={(e) => changed(setClave)(e.target.value as ListaProveedorClave)}
          >
            <option value="codigo_proveedor">Código del proveedor</option>
            <option value="codigo_barras">Código de barras</option>
            <option value="codigo">Código interno</option>
          </Select>
        </Field>
        <Field
          id="prov-proveedor"
          label="Proveedor"
          required={clave === 'codigo_proveedor'}
          error={proveedorError ?? undefined}
          hint="Con él se usan sus códigos y su margen guardado."
        >
          <Select
            id="prov-proveedor"
            value={proveedorId}
            disabled={suppliers.isLoading}
            aria-invalid={Boolean(proveedorError)}
            onChange={(e) => (changed(setProveedorId)(e.target.value), setProveedorError(null))}
          >
            <option value="">{suppliers.isLoading ? 'Cargando proveedores…' : 'Sin proveedor'}</option>
            {(suppliers.data?.rows ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.nombre}
              </option>
            ))}
          </Select>
        </Field>
        <DecimalField
          id="prov-margen"
          label="Margen para esta lista (%)"
          hint="Si no hay margen guardado. Vacío: cada producto mantiene el suyo."
          value={margen}
          onChange={(e) => changed(setMargen)(e.target.value)}
        />
      </div>
      {columnas && (
        <ListaProveedorColumnas
          clave={clave}
          columnas={columnas}
          filaEncontrada={filaEncontrada}
          fila={fila}
          onFila={changed(setFila)}
          mapping={shownMapping}
          onMapping={changed(setMapping)}
        />
      )}
      {preview && (
        <ListaProveedorCambios
          preview={preview}
          excluir={excluir}
          onExcluir={setExcluir}
          noBajar={noBajar}
          onNoBajar={chooseNoBajar}
          busy={busy}
        />
      )}
      {preview && <FilasSinCoincidencia result={preview} />}
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => onDone()}>
          Cancelar
        </Button>
        {preview ? (
          <Button onClick={() => send('aplicar')} loading={busy} disabled={incluidos === 0}>
            Aplicar a {incluidos} {incluidos === 1 ? 'producto' : 'productos'}
          </Button>
        ) : (
          <Button onClick={() => send('previsualizar')} loading={busy} disabled={hasDuplicatedColumn(shownMapping)}>
            {columnas ? 'Volver a leer y ver cambios' : 'Ver cambios'}
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
      className="sm:max-w-4xl"
    >
      {open && <ListaProveedor onDone={onClose} />}
    </Dialog>
  );
}
