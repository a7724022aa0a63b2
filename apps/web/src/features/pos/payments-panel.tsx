import { Plus, Trash2 } from 'lucide-react';
import type { MedioPago } from '@mostrador/shared/caja';
import { Button } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { newKey } from './cart';
import type { SplitRow } from './payments';

export const medioLabel = (m: MedioPago) =>
  m.ajuste_porcentaje
    ? `${m.nombre} (${m.ajuste_porcentaje > 0 ? '+' : ''}${String(m.ajuste_porcentaje).replace('.', ',')} %)`
    : m.nombre;

/** The medio de pago of the sale, or its parts when the customer pays with several. */
export function PaymentsPanel({
  medios,
  medioId,
  onMedio,
  split,
  onSplit,
  errors,
  status,
}: {
  medios: MedioPago[];
  medioId: string;
  onMedio: (id: string) => void;
  split: SplitRow[] | null;
  onSplit: (rows: SplitRow[] | null) => void;
  errors: Record<string, string>;
  /** Why the parts cannot be charged as they are (e.g. a card paying more than the total). */
  status?: string;
}) {
  if (!split) {
    return (
      <div className="space-y-1">
        <MedioButtons medios={medios} value={medioId} onChange={onMedio} />
        <button
          type="button"
          className="min-h-11 text-sm font-medium text-blue-700 hover:underline"
          onClick={() =>
            onSplit([
              { key: newKey(), medioId, text: '' },
              { key: newKey(), medioId: medios.find((m) => m.id !== medioId)?.id ?? medioId, text: '' },
            ])
          }
        >
          Dividir el pago
        </button>
      </div>
    );
  }
  const update = (key: string, patch: Partial<SplitRow>) =>
    onSplit(split.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">Pagos</legend>
      {split.map((r, i) => (
        <div key={r.key}>
          <div className="grid grid-cols-[minmax(0,1fr)_7rem_auto] gap-2">
            <Select
              aria-label={`Medio del pago ${i + 1}`}
              className="h-11 min-w-0"
              value={r.medioId}
              onChange={(e) => update(r.key, { medioId: e.target.value })}
            >
              {medios.map((m) => (
                <option key={m.id} value={m.id}>
                  {medioLabel(m)}
                </option>
              ))}
            </Select>
            <Input
              aria-label={`Monto del pago ${i + 1}`}
              inputMode="decimal"
              className="h-11 min-w-0"
              placeholder="0"
              value={r.text}
              onChange={(e) => update(r.key, { text: e.target.value })}
              aria-invalid={Boolean(errors[r.key])}
            />
            <Button
              variant="ghost"
              size="icon"
              className="h-11 w-11"
              aria-label={`Quitar el pago ${i + 1}`}
              disabled={split.length === 1}
              onClick={() => onSplit(split.filter((x) => x.key !== r.key))}
            >
              <Trash2 className="h-4 w-4" />
            </Button>
          </div>
          {errors[r.key] && (
            <p role="alert" className="mt-1 text-xs text-red-600">
              {errors[r.key]}
            </p>
          )}
        </div>
      ))}
      <div className="flex flex-wrap gap-3">
        <Button
          variant="secondary"
          className="h-11"
          onClick={() => onSplit([...split, { key: newKey(), medioId: medios[0]?.id ?? '', text: '' }])}
        >
          <Plus className="h-4 w-4" /> Agregar pago
        </Button>
        <button
          type="button"
          className="min-h-11 text-sm font-medium text-blue-700 hover:underline"
          onClick={() => onSplit(null)}
        >
          Un solo medio
        </button>
      </div>
      {status && (
        <p role="alert" className="text-sm text-red-600">
          {status}
        </p>
      )}
      <p className="text-xs text-slate-500">
        Los montos son la parte del total que cubre cada medio; solo el efectivo puede pasarse (es el vuelto).
      </p>
    </fieldset>
  );
}

/** One tap per medio de pago the business has (rush hour: no dropdown, no confirmation). */
export function MedioButtons({
  medios,
  value,
  onChange,
}: {
  medios: MedioPago[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <div role="radiogroup" aria-label="Medio de pago" className="grid grid-cols-3 gap-1.5">
      {medios.map((m) => {
        const checked = m.id === value;
        return (
          <button
            key={m.id}
            type="button"
            role="radio"
            aria-checked={checked}
            onClick={() => onChange(m.id)}
            className={cn(
              'min-h-11 rounded-lg border px-1.5 py-1 text-xs font-medium leading-tight',
              checked
                ? 'border-blue-600 bg-blue-50 text-blue-800 ring-1 ring-blue-600'
                : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
            )}
          >
            {medioLabel(m)}
          </button>
        );
      })}
    </div>
  );
}
