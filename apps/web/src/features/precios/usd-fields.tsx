import { useEffect } from 'react';
import { useWatch, type Control, type FieldError, type UseFormRegister, type UseFormSetValue } from 'react-hook-form';
import { arsDeUsd } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Field, MoneyField, Select } from '@/components/ui/input';
import { useSettings } from '@/features/settings/settings.api';
import { decimalText, readDecimal } from '@/lib/decimal-input';
import { formatMoney } from '@/lib/format';
import { useCotizaciones } from './precios.api';

/** The product form's fields for a price in dollars (issue 17). */
export interface UsdValues {
  moneda: 'ARS' | 'USD';
  precio_usd: string;
  precio_venta: string;
}

/**
 * "Moneda" and, in dollars, "Precio en dólares": the peso price (shown in Precio de venta, read
 * only) follows it at the cotización in force, rounded as the business says — the server
 * computes the same when saving.
 */
export function UsdFields({
  control,
  register,
  setValue,
  error,
}: {
  /** The form's own (its values include UsdValues). */
  control: unknown;
  register: unknown;
  setValue: unknown;
  error?: FieldError;
}) {
  const { businessId, formatting } = useBusiness();
  const c = control as unknown as Control<UsdValues>;
  const [moneda, usd] = useWatch({ control: c, name: ['moneda', 'precio_usd'] });
  const cot = useCotizaciones(moneda === 'USD');
  const redondeo = useSettings(businessId).data?.redondeo_precios ?? 1;
  const vigente = cot.data?.[0] ?? null;
  const read = readDecimal(usd ?? '', 'money');
  const ars =
    moneda === 'USD' && vigente && read.ok && read.value !== null
      ? arsDeUsd(Math.round(read.value * 100), Math.round(vigente.valor * 10_000), redondeo)
      : null;
  const set = setValue as unknown as UseFormSetValue<UsdValues>;
  useEffect(() => {
    if (ars !== null) set('precio_venta', decimalText(ars / 100, 'money'));
  }, [ars, set]);
  const reg = register as unknown as UseFormRegister<UsdValues>;
  return (
    <>
      <Field id="prod-moneda" label="Moneda del precio">
        <Select id="prod-moneda" {...reg('moneda')}>
          <option value="ARS">Pesos</option>
          <option value="USD">Dólares</option>
        </Select>
      </Field>
      {moneda === 'USD' && (
        <MoneyField
          id="prod-usd"
          label="Precio en dólares (US$)"
          required
          error={error}
          hint={
            vigente
              ? `Con la cotización de ${formatMoney(vigente.valor, formatting)}${
                  ars !== null ? `: ${formatMoney(ars / 100, formatting)}` : ''
                }.`
              : 'Cargá la cotización del dólar en «Listas de precios».'
          }
          {...reg('precio_usd')}
        />
      )}
    </>
  );
}
