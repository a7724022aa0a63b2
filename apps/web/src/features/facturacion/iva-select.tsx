import { forwardRef, type SelectHTMLAttributes } from 'react';
import { IVA_RATE_LABELS, IVA_RATES } from '@mostrador/shared/facturacion';
import { Field, Select } from '@/components/ui/input';

/** The IVA rate a product's or service's price includes (issue 16): 21 % unless said otherwise. */
export const IvaSelect = forwardRef<
  HTMLSelectElement,
  SelectHTMLAttributes<HTMLSelectElement> & { id: string; error?: string }
>(function IvaSelect({ id, error, ...rest }, ref) {
  return (
    <Field
      id={id}
      label="Alícuota de IVA"
      error={error}
      hint="La que incluye el precio de venta; sale en las facturas."
    >
      <Select ref={ref} id={id} aria-invalid={Boolean(error)} {...rest}>
        {IVA_RATES.map((r) => (
          <option key={r} value={r}>
            {IVA_RATE_LABELS[r]}
          </option>
        ))}
      </Select>
    </Field>
  );
});
