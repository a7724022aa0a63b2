import { LISTA_MINORISTA_NOMBRE } from '@mostrador/shared';
import { Field, Select } from '@/components/ui/input';
import { useListasPrecios } from './precios.api';

/**
 * The POS's "Lista de precios": the list in force (the customer's, unless switched) and, for a
 * member who may change prices, the choice of another. Hidden while the business has no lists.
 */
export function ListaSelector({
  value,
  delCliente,
  canChange,
  allowed,
  onChange,
}: {
  /** The list in force; null: Minorista. */
  value: string | null;
  delCliente: string | null;
  canChange: boolean;
  /** The member may read the catalogue (the lists come with it). */
  allowed: boolean;
  onChange: (id: string | null) => void;
}) {
  const listas = useListasPrecios(allowed);
  const rows = (listas.data ?? []).filter((l) => l.activo || l.id === value);
  if (!rows.length) return null;
  const nombre = (id: string | null) =>
    id === null ? LISTA_MINORISTA_NOMBRE : (rows.find((l) => l.id === id)?.nombre ?? LISTA_MINORISTA_NOMBRE);
  const hint =
    value === delCliente ? (delCliente ? 'La del cliente.' : undefined) : `El cliente tiene ${nombre(delCliente)}.`;
  if (!canChange) {
    return (
      <p className="text-sm text-slate-700" data-testid="pos-lista">
        Lista de precios: <strong>{nombre(value)}</strong>
        {hint && <span className="text-slate-500"> · {hint}</span>}
      </p>
    );
  }
  return (
    <Field id="pos-lista" label="Lista de precios" hint={hint}>
      <Select id="pos-lista" value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{LISTA_MINORISTA_NOMBRE}</option>
        {rows.map((l) => (
          <option key={l.id} value={l.id}>
            {l.nombre}
          </option>
        ))}
      </Select>
    </Field>
  );
}
