import { ArrowRight } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import {
  PRICE_ROUNDING_LABELS,
  PRICE_ROUNDINGS,
  type BulkPriceResult,
  type PriceField,
  type PriceRounding,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { useCategories } from '@/features/categories/categories.api';
import { EtiquetasLink } from '@/features/etiquetas/etiquetas-link';
import { ApiError, errorMessage } from '@/lib/api';
import { readDecimal } from '@/lib/decimal-input';
import { formatMoney, formatNumber } from '@/lib/format';
import { useBulkPrice, type BulkPriceBody } from './products.api';

interface Options {
  porcentaje: string;
  categoria_id: string;
  campo: PriceField;
  redondeo: PriceRounding;
  incluir_inactivos: boolean;
}

const INITIAL: Options = {
  porcentaje: '',
  categoria_id: '',
  campo: 'precio_venta',
  redondeo: 'ninguno',
  incluir_inactivos: false,
};

/**
 * Bulk price update (the usual answer to inflation): choose the percentage and scope, see every
 * old and new price, then apply them all in one transaction.
 */
function BulkPrice({ onDone }: { onDone: (message?: ReactNode) => void }) {
  const { formatting } = useBusiness();
  const categories = useCategories();
  const bulk = useBulkPrice();
  const [opts, setOpts] = useState<Options>(INITIAL);
  const [preview, setPreview] = useState<BulkPriceResult | null>(null);
  const [previewed, setPreviewed] = useState<Options | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);

  const set = (patch: Partial<Options>) => {
    setOpts((o) => ({ ...o, ...patch }));
    setPreview(null);
  };
  // "12,5", "-10", "7.5": read the es-AR way; the preview (and so the apply) needs a number.
  const read = readDecimal(opts.porcentaje, 'percent');
  const pct = read.ok ? (read.value ?? 0) : 0;
  const body = (dry: boolean): BulkPriceBody => ({
    porcentaje: pct,
    categoria_id: opts.categoria_id || null,
    campo: opts.campo,
    redondeo: opts.redondeo,
    incluir_inactivos: opts.incluir_inactivos,
    dry_run: dry,
  });
  const fail = (e: unknown) => {
    const msg = errorMessage(e, 'No se pudo calcular la actualización.');
    if (e instanceof ApiError && e.errors.some((x) => x.field === 'porcentaje')) setFieldError(msg);
    else setError(msg);
  };

  const runPreview = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    setFieldError(null);
    if (!read.ok || read.value === null) {
      setFieldError(read.ok ? 'Indicá el porcentaje.' : read.message);
      return;
    }
    try {
      setPreview(await bulk.mutateAsync(body(true)));
      setPreviewed(opts);
    } catch (err) {
      fail(err);
    }
  };

  const apply = async () => {
    setError(null);
    try {
      const r = await bulk.mutateAsync(body(false));
      const texto = `Precios actualizados: ${formatNumber(r.productos_afectados, formatting)} ${
        r.productos_afectados === 1 ? 'producto' : 'productos'
      }.`;
      onDone(
        r.referencia_id && r.productos_afectados > 0 && opts.campo === 'precio_venta' ? (
          <span className="flex flex-wrap items-center gap-3">
            <span>{texto}</span>
            <EtiquetasLink origen="masivo" referenciaId={r.referencia_id} />
          </span>
        ) : (
          texto
        ),
      );
    } catch (err) {
      fail(err);
    }
  };

  const campoLabel = opts.campo === 'precio_venta' ? 'precio de venta' : 'precio de compra';
  return (
    <div className="space-y-4">
      <form onSubmit={runPreview} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="bulk-porcentaje"
            label="Porcentaje"
            required
            hint="Positivo para aumentar, negativo para bajar (de -90 a 1000)."
            error={fieldError ?? undefined}
          >
            <div className="relative">
              <Input
                id="bulk-porcentaje"
                inputMode="decimal"
                autoComplete="off"
                autoFocus
                value={opts.porcentaje}
                onChange={(e) => set({ porcentaje: e.target.value })}
                aria-invalid={Boolean(fieldError)}
                className="pr-8"
              />
              <span className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2 text-sm text-slate-500">
                %
              </span>
            </div>
          </Field>
          <Field id="bulk-campo" label="Precio a actualizar">
            <Select id="bulk-campo" value={opts.campo} onChange={(e) => set({ campo: e.target.value as PriceField })}>
              <option value="precio_venta">Precio de venta</option>
              <option value="precio_compra">Precio de compra (costo)</option>
            </Select>
          </Field>
          <Field id="bulk-categoria" label="Productos">
            <Select
              id="bulk-categoria"
              value={opts.categoria_id}
              onChange={(e) => set({ categoria_id: e.target.value })}
            >
              <option value="">Todas las categorías</option>
              {(categories.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  Categoría {c.nombre}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="bulk-redondeo" label="Redondeo">
            <Select
              id="bulk-redondeo"
              value={opts.redondeo}
              onChange={(e) => set({ redondeo: e.target.value as PriceRounding })}
            >
              {PRICE_ROUNDINGS.map((r) => (
                <option key={r} value={r}>
                  {PRICE_ROUNDING_LABELS[r]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={opts.incluir_inactivos}
            onChange={(e) => set({ incluir_inactivos: e.target.checked })}
          />
          Incluir productos inactivos
        </label>
        {!preview && (
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={() => onDone()}>
              Cancelar
            </Button>
            <Button type="submit" loading={bulk.isPending}>
              Ver vista previa
            </Button>
          </div>
        )}
      </form>

      {error && <ErrorNote>{error}</ErrorNote>}

      {preview && previewed && (
        <section aria-labelledby="bulk-preview-title" className="space-y-3">
          <h3 id="bulk-preview-title" className="text-sm font-semibold text-slate-900">
            Vista previa: {formatNumber(preview.productos_afectados, formatting)}{' '}
            {preview.productos_afectados === 1 ? 'producto cambia' : 'productos cambian'} de {campoLabel} (
            {pct > 0 ? '+' : ''}
            {formatNumber(pct, formatting, 2)} %)
          </h3>
          {preview.productos_afectados === 0 ? (
            <p className="text-sm text-slate-600">Ningún producto cambia con estas opciones.</p>
          ) : (
            <div className="max-h-72 overflow-auto rounded-lg border border-slate-200">
              <table className="w-full text-xs sm:text-sm">
                <thead className="sticky top-0 bg-slate-50 text-left text-xs uppercase text-slate-500">
                  <tr>
                    <th scope="col" className="px-2 py-2 sm:px-3 font-medium">
                      Producto
                    </th>
                    <th scope="col" className="px-2 py-2 sm:px-3 text-right font-medium">
                      Actual
                    </th>
                    <th scope="col" className="px-2 py-2 sm:px-3 text-right font-medium">
                      Nuevo
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {preview.cambios.map((c) => (
                    <tr key={c.id}>
                      <td className="px-2 py-2 sm:px-3 text-slate-800">{c.nombre}</td>
                      <td className="whitespace-nowrap px-2 py-2 sm:px-3 text-right tabular-nums text-slate-500">
                        {formatMoney(c.precio_anterior, formatting)}
                      </td>
                      <td className="whitespace-nowrap px-2 py-2 sm:px-3 text-right font-medium tabular-nums text-slate-900">
                        <ArrowRight className="mr-1 hidden h-3 w-3 text-slate-400 sm:inline" aria-hidden />
                        {formatMoney(c.precio_nuevo, formatting)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {preview.productos_afectados > preview.cambios.length && (
            <p className="text-xs text-slate-500">
              Se muestran los primeros {formatNumber(preview.cambios.length, formatting)}; se actualizarán todos.
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={() => setPreview(null)}>
              Cambiar opciones
            </Button>
            <Button onClick={apply} loading={bulk.isPending} disabled={preview.productos_afectados === 0}>
              Aplicar a {formatNumber(preview.productos_afectados, formatting)}{' '}
              {preview.productos_afectados === 1 ? 'producto' : 'productos'}
            </Button>
          </div>
        </section>
      )}
    </div>
  );
}

export function BulkPriceDialog({ open, onClose }: { open: boolean; onClose: (message?: ReactNode) => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Actualizar precios"
      description="Aumenta o baja precios por porcentaje, con vista previa antes de aplicar."
      className="sm:max-w-2xl"
    >
      {open && <BulkPrice onDone={onClose} />}
    </Dialog>
  );
}
