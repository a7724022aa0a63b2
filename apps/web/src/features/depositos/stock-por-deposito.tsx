import { useBusiness } from '@/app/business-context';
import { Select } from '@/components/ui/input';
import { formatNumber } from '@/lib/format';
import { useProductStock, useSeveralDepositos } from './depositos.api';

/** A product's stock in each depósito; nothing when the business has one (it is the total). */
export function StockPorDeposito({ productId, unidad }: { productId: string; unidad: string }) {
  const { formatting } = useBusiness();
  const several = useSeveralDepositos();
  const stock = useProductStock(productId, Boolean(several));
  if (!several || !stock.data) return null;
  return (
    <section aria-label="Stock por depósito" className="mb-4 rounded-lg bg-slate-50 p-3">
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Stock por depósito</h3>
      <ul className="divide-y divide-slate-200 text-sm">
        {stock.data.map((d) => (
          <li key={d.deposito_id} className="flex justify-between gap-2 py-1">
            <span className="text-slate-700">{d.deposito_nombre}</span>
            <span className={d.stock < 0 ? 'font-semibold text-red-700' : 'font-medium tabular-nums text-slate-900'}>
              {formatNumber(d.stock, formatting)} {unidad}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The select of a depósito (a form's or a filter's); nothing when the business has one. */
export function DepositoSelect({
  id,
  value,
  onChange,
  todos,
  className,
  label = 'Depósito',
}: {
  id: string;
  value: string;
  onChange: (id: string) => void;
  /** The empty option's text ("Todos los depósitos"); without it the first depósito is the default. */
  todos?: string;
  className?: string;
  label?: string;
}) {
  const several = useSeveralDepositos();
  if (!several) return null;
  return (
    <div className={className}>
      <label htmlFor={id} className={todos ? 'sr-only' : 'block text-sm font-medium text-slate-700'}>
        {label}
      </label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {todos && <option value="">{todos}</option>}
        {several.map((d) => (
          <option key={d.id} value={d.id}>
            {d.nombre}
          </option>
        ))}
      </Select>
    </div>
  );
}
