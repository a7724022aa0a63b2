import { BackupLine } from '@/features/copias/backup-line';
import { useState } from 'react';
import {
  ALERT_SENSITIVITY,
  CURRENCIES,
  LOCALES,
  MIN_DAYS_CHOICES,
  MSG_MIN_DAYS,
  MSG_THRESHOLD,
  SCALE_PRESETS,
  SETTINGS_DEFAULTS,
  TIMEZONE_LABELS,
  TIMEZONES,
  type ScaleLayout,
} from '@mostrador/shared';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { useSaveSettings, useSettings } from './settings.api';

type Form = {
  locale: string;
  timezone: string;
  currency: string;
  sales_drop_threshold: number;
  min_days_for_model: number;
  balanza: ScaleLayout | null;
  caja_requiere_turno: boolean;
  arqueo_ciego: boolean;
  vender_sin_stock: boolean;
};

const NO_SCALE = 'ninguna';
const CUSTOM_SCALE = 'personalizada';
/** The preset a saved layout is, or "personalizada" for one saved through the API. */
const presetOf = (l: ScaleLayout | null) =>
  l === null
    ? NO_SCALE
    : (SCALE_PRESETS.find((p) => JSON.stringify(p.layout) === JSON.stringify(l))?.id ?? CUSTOM_SCALE);

/** Business settings (SPEC §2, §5, §9): fixed choices; load failures fall back to the defaults. */
export function SettingsModal({
  open,
  onOpenChange,
  businessId,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  businessId: string;
}) {
  const settings = useSettings(open ? businessId : null);
  const s = settings.data;
  const initial: Form = s
    ? {
        locale: s.locale,
        timezone: s.timezone,
        currency: s.currency,
        sales_drop_threshold: s.sales_drop_threshold,
        min_days_for_model: s.min_days_for_model,
        balanza: s.balanza,
        caja_requiere_turno: s.caja_requiere_turno,
        arqueo_ciego: s.arqueo_ciego,
        vender_sin_stock: s.vender_sin_stock,
      }
    : { ...SETTINGS_DEFAULTS, balanza: null, caja_requiere_turno: true, arqueo_ciego: true, vender_sin_stock: false };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Configuración del negocio"
      description="Idioma, zona horaria, moneda, alertas, balanza, caja y stock."
    >
      {open && <BackupLine businessId={businessId} />}
      {open && (
        <SettingsForm
          key={s?.updated_at ?? 'defaults'}
          businessId={businessId}
          initial={initial}
          onDone={() => onOpenChange(false)}
        />
      )}
    </Dialog>
  );
}

function SettingsForm({ businessId, initial, onDone }: { businessId: string; initial: Form; onDone: () => void }) {
  const save = useSaveSettings(businessId);
  const [form, setForm] = useState<Form>(initial);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (form.sales_drop_threshold < 1 || form.sales_drop_threshold > 100) return setError(MSG_THRESHOLD);
    if (form.min_days_for_model < 7 || form.min_days_for_model > 365) return setError(MSG_MIN_DAYS);
    setError(null);
    try {
      await save.mutateAsync(form as never);
      onDone();
    } catch (err) {
      setError(errorMessage(err, 'Error al guardar la configuración'));
    }
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field id="cfg-locale" label="Configuración regional">
        <Select id="cfg-locale" value={form.locale} onChange={(e) => set('locale', e.target.value)}>
          {LOCALES.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="cfg-tz" label="Zona horaria">
        <Select id="cfg-tz" value={form.timezone} onChange={(e) => set('timezone', e.target.value)}>
          {TIMEZONES.map((t) => (
            <option key={t} value={t}>
              {TIMEZONE_LABELS[t]}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="cfg-currency" label="Moneda">
        <Select id="cfg-currency" value={form.currency} onChange={(e) => set('currency', e.target.value)}>
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="cfg-threshold" label="Sensibilidad de alertas de caída de ventas">
        <Select
          id="cfg-threshold"
          value={form.sales_drop_threshold}
          onChange={(e) => set('sales_drop_threshold', Number(e.target.value))}
        >
          {!ALERT_SENSITIVITY.some((a) => a.value === form.sales_drop_threshold) && (
            <option value={form.sales_drop_threshold}>{form.sales_drop_threshold}%</option>
          )}
          {ALERT_SENSITIVITY.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label} ({a.value}%)
            </option>
          ))}
        </Select>
      </Field>
      <Field id="cfg-days" label="Días mínimos para predicciones">
        <Select
          id="cfg-days"
          value={form.min_days_for_model}
          onChange={(e) => set('min_days_for_model', Number(e.target.value))}
        >
          {!(MIN_DAYS_CHOICES as readonly number[]).includes(form.min_days_for_model) && (
            <option value={form.min_days_for_model}>{form.min_days_for_model} días</option>
          )}
          {MIN_DAYS_CHOICES.map((d) => (
            <option key={d} value={d}>
              {d} días
            </option>
          ))}
        </Select>
      </Field>
      <Field
        id="cfg-balanza"
        label="Etiquetas de balanza"
        hint="Cómo imprime tu balanza el código de los productos pesables (prefijos 20 a 29)."
      >
        <Select
          id="cfg-balanza"
          value={presetOf(form.balanza)}
          onChange={(e) =>
            set(
              'balanza',
              SCALE_PRESETS.find((p) => p.id === e.target.value)?.layout ??
                (e.target.value === CUSTOM_SCALE ? form.balanza : null),
            )
          }
        >
          <option value={NO_SCALE}>No uso etiquetas de balanza</option>
          {SCALE_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.nombre}
            </option>
          ))}
          {presetOf(form.balanza) === CUSTOM_SCALE && <option value={CUSTOM_SCALE}>Formato personalizado</option>}
        </Select>
      </Field>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          id="cfg-turno"
          type="checkbox"
          className="mt-0.5"
          checked={form.caja_requiere_turno}
          onChange={(e) => set('caja_requiere_turno', e.target.checked)}
        />
        <span>
          Pedir un turno de caja abierto para vender
          <span className="block text-xs text-slate-500">
            El punto de venta pide abrir la caja con su fondo antes de cobrar.
          </span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          id="cfg-arqueo-ciego"
          type="checkbox"
          className="mt-0.5"
          checked={form.arqueo_ciego}
          onChange={(e) => set('arqueo_ciego', e.target.checked)}
        />
        <span>
          Arqueo a ciegas
          <span className="block text-xs text-slate-500">
            Quien no tiene acceso total cuenta la caja sin ver lo esperado; lo ve después de cerrar el turno.
          </span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          id="cfg-sin-stock"
          type="checkbox"
          className="mt-0.5"
          checked={form.vender_sin_stock}
          onChange={(e) => set('vender_sin_stock', e.target.checked)}
        />
        <span>
          Permitir vender sin stock
          <span className="block text-xs text-slate-500">
            El punto de venta avisa y vende igual; el stock queda en negativo y aparece en las notificaciones.
          </span>
        </span>
      </label>
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onDone}>
          Cancelar
        </Button>
        <Button type="submit" loading={save.isPending}>
          Guardar configuración
        </Button>
      </div>
    </form>
  );
}
