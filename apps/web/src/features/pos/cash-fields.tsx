import { Field, Input } from '@/components/ui/input';
import { moneyInputText } from '@/lib/decimal';
import { quickCash } from './quick-cash';

/** "Paga con" and its one-tap amounts: "Justo" and the round amounts above the total. */
export function CashFields({
  total,
  value,
  onChange,
  error,
  money,
}: {
  /** Cents. */
  total: number;
  value: string;
  onChange: (text: string) => void;
  error?: string;
  money: (cents: number) => string;
}) {
  const amounts = total > 0 ? [total, ...quickCash(total)] : [];
  return (
    <div className="space-y-1.5">
      <Field id="pos-paga" label="Paga con ($)" error={error}>
        <Input
          id="pos-paga"
          inputMode="decimal"
          className="h-11"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder="0"
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'pos-paga-error' : undefined}
        />
      </Field>
      {amounts.length > 0 && (
        <div role="group" aria-label="Paga con" className="grid grid-cols-4 gap-1.5">
          {amounts.map((c, i) => (
            <button
              key={c}
              type="button"
              aria-label={i === 0 ? `Paga justo ${money(c)}` : `Paga con ${money(c)}`}
              onClick={() => onChange(moneyInputText(c))}
              className="min-h-11 rounded-lg border border-slate-300 bg-white px-1 text-xs font-semibold text-slate-800 hover:bg-slate-50"
            >
              {i === 0 ? 'Justo' : money(c).replace(/,00$/, '')}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
