import { DollarSign } from 'lucide-react';
import { useState } from 'react';
import { REDONDEOS, type CotizacionResult } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { DecimalField, Field, Input, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { EtiquetasLink } from '@/features/etiquetas/etiquetas-link';
import { useCan } from '@/features/permissions/permissions.api';
import { useSaveSettings, useSettings } from '@/features/settings/settings.api';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber, todayIn } from '@/lib/format';
import { useCotizaciones, useNuevaCotizacion } from './precios.api';

/** "Cotización del dólar": the one in force and, for who edits products, a new one with its preview. */
export function CotizacionPanel() {
  const { businessId, formatting, business } = useBusiness();
  const can = useCan();
  const canEdit = can('productos', 'editar');
  const cot = useCotizaciones();
  const settings = useSettings(businessId).data;
  const vigente = cot.data?.[0] ?? null;
  const [open, setOpen] = useState(false);
  /** The cotización just applied, while it changed prices: its labels are one click away. */
  const [aplicada, setAplicada] = useState<CotizacionResult | null>(null);
  return (
    <div className="mb-5 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex items-center gap-3">
        <DollarSign className="h-5 w-5 text-emerald-700" aria-hidden />
        <div>
          <p className="text-sm font-medium text-slate-900" data-testid="cotizacion-vigente">
            {vigente
              ? `Cotización del dólar: ${formatMoney(vigente.valor, formatting)} (${formatDate(vigente.fecha, formatting)})`
              : 'Sin cotización del dólar'}
          </p>
          <p className="text-xs text-slate-500">
            Los productos con precio en dólares se cobran en pesos con esta cotización
            {settings ? `, redondeados a $ ${settings.redondeo_precios ?? 1}` : ''}.
          </p>
        </div>
      </div>
      {canEdit && (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Cambiar cotización
        </Button>
      )}
      <Dialog open={open} onOpenChange={setOpen} title="Cambiar cotización del dólar" className="sm:max-w-xl">
        {open && (
          <NuevaCotizacion
            anterior={vigente?.valor ?? null}
            canRound={Boolean(business && (business.rol === 'admin' || business.es_creador))}
            onDone={(r) => {
              setOpen(false);
              if (r) setAplicada(r.productos_afectados > 0 && r.cotizacion ? r : null);
            }}
          />
        )}
      </Dialog>
      {aplicada?.cotizacion && (
        <div
          role="status"
          className="flex w-full flex-wrap items-center justify-between gap-3 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-800"
        >
          <span>
            Cotización aplicada:{' '}
            {aplicada.productos_afectados === 1
              ? 'cambió 1 precio.'
              : `cambiaron ${formatNumber(aplicada.productos_afectados, formatting)} precios.`}
          </span>
          <EtiquetasLink origen="cotizacion" referenciaId={aplicada.cotizacion.id} />
        </div>
      )}
    </div>
  );
}

function NuevaCotizacion({
  anterior,
  canRound,
  onDone,
}: {
  anterior: number | null;
  canRound: boolean;
  /** Closes; with the result when the cotización was applied. */
  onDone: (aplicada?: CotizacionResult) => void;
}) {
  const { businessId, formatting } = useBusiness();
  const settings = useSettings(businessId).data;
  const saveSettings = useSaveSettings(businessId ?? '');
  const nueva = useNuevaCotizacion();
  const [fecha, setFecha] = useState(() => todayIn(formatting.timezone));
  const [valor, setValor] = useState('');
  const [preview, setPreview] = useState<CotizacionResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const read = () => {
    const t = valor.trim().replace(/\./g, '').replace(',', '.');
    return /^\d+(\.\d{1,4})?$/.test(t) && Number(t) > 0 ? t : null;
  };
  const run = async (isPreview: boolean) => {
    setError(null);
    const v = read();
    if (!v) return setError('Indicá la cotización: pesos por dólar, con hasta 4 decimales.');
    try {
      const r = await nueva.mutateAsync({ fecha, valor: v, preview: isPreview });
      if (isPreview) setPreview(r);
      else onDone(r);
    } catch (e) {
      setError(errorMessage(e, 'No se pudo guardar la cotización.'));
    }
  };
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="cot-fecha" label="Fecha">
          <Input
            id="cot-fecha"
            type="date"
            value={fecha}
            onChange={(e) => (setFecha(e.target.value), setPreview(null))}
          />
        </Field>
        <DecimalField
          id="cot-valor"
          label="Pesos por dólar"
          hint={anterior ? `La vigente es ${formatMoney(anterior, formatting)}.` : undefined}
          value={valor}
          onChange={(e) => (setValor(e.target.value), setPreview(null))}
        />
      </div>
      {canRound && settings && (
        <Field id="cot-redondeo" label="Redondear los precios en pesos a">
          <Select
            id="cot-redondeo"
            value={String(settings.redondeo_precios ?? 1)}
            onChange={(e) => {
              setPreview(null);
              saveSettings.mutate({ redondeo_precios: Number(e.target.value) as 1 | 10 | 100 });
            }}
          >
            {REDONDEOS.map((r) => (
              <option key={r} value={r}>
                $ {r}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {preview && (
        <div className="rounded-lg border border-slate-200 p-3" role="status" aria-label="Cambios de la cotización">
          <p className="text-sm font-medium text-slate-900">
            {preview.productos_afectados === 0
              ? 'Ningún precio cambia.'
              : `${preview.productos_afectados === 1 ? 'Cambia 1 precio' : `Cambian ${preview.productos_afectados} precios`}: ${
                  preview.diferencia_total >= 0 ? '+' : ''
                }${formatMoney(preview.diferencia_total, formatting)} en total.`}
          </p>
          {preview.cambios.length > 0 && (
            <ul className="mt-2 max-h-60 divide-y divide-slate-100 overflow-y-auto text-sm">
              {preview.cambios.map((c) => (
                <li key={c.id} className="flex justify-between gap-3 py-1.5">
                  <span className="truncate">
                    {c.nombre}{' '}
                    <span className="text-xs text-slate-500">US$ {formatNumber(c.precio_usd, formatting, 2)}</span>
                  </span>
                  <span className="tabular-nums">
                    <span className="text-slate-500 line-through">{formatMoney(c.precio_anterior, formatting)}</span> →{' '}
                    <strong>{formatMoney(c.precio_nuevo, formatting)}</strong>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={() => onDone()}>
          Cancelar
        </Button>
        {preview ? (
          <Button onClick={() => run(false)} loading={nueva.isPending}>
            Aplicar cotización
          </Button>
        ) : (
          <Button onClick={() => run(true)} loading={nueva.isPending}>
            Ver cambios
          </Button>
        )}
      </div>
    </div>
  );
}
