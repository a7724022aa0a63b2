import { useState } from 'react';
import { MEDIO_TIPO_CODE, type MedioPago } from '@mostrador/shared/caja';
import { Field, Select } from '@/components/ui/input';
import { useMedios } from '../caja/caja.api';

/*
 * How a sale made from a presupuesto or from remitos is paid: one of the business's medios. With
 * the total known (the quoted prices) it goes as `pagos` — so it may be on the customer's cuenta
 * corriente —; at today's prices the total is known only when the server prices it, so the medio's
 * kind goes as `metodo_pago` and the cuenta corriente is not offered.
 */

/** Medios a document's sale may be paid with (a Mercado Pago QR needs its order at the counter). */
const usable = (m: MedioPago) => m.activo && m.tipo !== 'qr';

export function usePagoDocumento() {
  const medios = (useMedios().data ?? []).filter(usable);
  const [medioId, setMedioId] = useState<string>('');
  const elegido = medios.find((m) => m.id === medioId) ?? medios[0];
  return {
    medios,
    medioId: elegido?.id ?? '',
    setMedioId,
    /** The sale's payment fields for a total in cents (null: not known yet). */
    body(totalCents: number | null) {
      if (!elegido) return { metodo_pago: 'efectivo' as const };
      if (totalCents !== null && totalCents > 0) {
        return { pagos: [{ medio_pago_id: elegido.id, monto: totalCents / 100 }] };
      }
      return { metodo_pago: MEDIO_TIPO_CODE[elegido.tipo] };
    },
    elegido,
  };
}

export function MedioPagoField({
  id,
  pago,
  totalConocido,
}: {
  id: string;
  pago: ReturnType<typeof usePagoDocumento>;
  totalConocido: boolean;
}) {
  const aCuenta = pago.elegido?.tipo === 'cuenta_corriente';
  return (
    <Field
      id={id}
      label="Medio de pago"
      required
      error={aCuenta && !totalConocido ? 'A cuenta corriente, facturalo con los precios del documento.' : undefined}
      hint={aCuenta ? 'Queda en la cuenta corriente del cliente.' : undefined}
    >
      <Select id={id} value={pago.medioId} onChange={(e) => pago.setMedioId(e.target.value)}>
        {pago.medios.map((m) => (
          <option key={m.id} value={m.id}>
            {m.nombre}
          </option>
        ))}
      </Select>
    </Field>
  );
}
