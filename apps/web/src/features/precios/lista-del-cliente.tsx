import type { UseFormRegisterReturn } from 'react-hook-form';
import { LISTA_MINORISTA_NOMBRE } from '@mostrador/shared';
import { Field, Select } from '@/components/ui/input';
import { useCan } from '@/features/permissions/permissions.api';
import { useListasPrecios } from './precios.api';

/** The customer form's "Lista de precios": shown when the business has lists and the member may see them. */
/** `locked`: shown but not changed (assigning a list needs cambiar_precios; the form then leaves it out). */
export function ListaDelCliente({
  register,
  error,
  locked = false,
}: {
  register: UseFormRegisterReturn;
  error?: string;
  locked?: boolean;
}) {
  const canSee = useCan()('productos', 'ver');
  const listas = useListasPrecios(canSee);
  const rows = (listas.data ?? []).filter((l) => l.activo);
  if (!canSee || !rows.length) return null;
  return (
    <Field id="cli-lista" label="Lista de precios" hint="El punto de venta le cobra con esta lista." error={error}>
      <Select id="cli-lista" {...register} disabled={locked}>
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
