import { useState } from 'react';
import type { Purchase } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api';
import { decimalText, readDecimal } from '@/lib/decimal-input';
import { formatNumber } from '@/lib/format';
import { useRecibir, type RecepcionResult } from './recepciones.api';

/**
 * "Recibir mercadería": how much of each pending line arrived now. Empty lines are not received;
 * "Todo lo pendiente" fills every line. The server checks the quantities again.
 */
export function RecepcionDialog({
  purchase,
  open,
  onOpenChange,
  onReceived,
}: {
  purchase: Purchase;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onReceived: (r: RecepcionResult) => void;
}) {
  const { formatting } = useBusiness();
  const recibir = useRecibir();
  const pending = (purchase.items ?? []).filter((i) => i.cantidad_pendiente > 0);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const close = (o: boolean) => {
    if (!o) {
      setValues({});
      setErrors({});
      setError(null);
    }
    onOpenChange(o);
  };

  const submit = async () => {
    const lineas: { linea_id: string; cantidad: string }[] = [];
    const errs: Record<string, string> = {};
    for (const i of pending) {
      const r = readDecimal(values[i.id] ?? '', 'quantity');
      if (!r.ok) errs[i.id] = r.message;
      else if (r.value === null || r.value === 0) continue;
      else if (r.value > i.cantidad_pendiente) {
        errs[i.id] = `Faltan ${formatNumber(i.cantidad_pendiente, formatting)}: no podés recibir más.`;
      } else lineas.push({ linea_id: i.id, cantidad: r.text });
    }
    setErrors(errs);
    setError(null);
    if (Object.keys(errs).length) return;
    if (!lineas.length) {
      setError('Indicá cuánto llegó de al menos un producto.');
      return;
    }
    try {
      const result = await recibir.mutateAsync({ compraId: purchase.id, lineas });
      close(false);
      onReceived(result);
    } catch (e) {
      setError(errorMessage(e, 'No se pudo registrar la recepción.'));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={`Recibir mercadería · Compra #${purchase.numero}`}
      description="Anotá cuánto llegó de cada producto. Lo que no llegó queda pendiente para recibirlo después."
      className="sm:max-w-2xl"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
      >
        <div className="mb-3 flex justify-end">
          <Button
            type="button"
            variant="secondary"
            onClick={() => setValues(Object.fromEntries(pending.map((i) => [i.id, decimalText(i.cantidad_pendiente)])))}
          >
            Todo lo pendiente
          </Button>
        </div>
        <ul className="divide-y divide-slate-100 border-y border-slate-200" aria-label="Líneas pendientes">
          {pending.map((i) => {
            const id = `recibir-${i.id}`;
            return (
              <li key={i.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0 text-sm">
                  <label htmlFor={id} className="font-medium text-slate-900">
                    {i.producto_nombre}
                  </label>
                  <p className="text-xs text-slate-500">
                    Pedido {formatNumber(i.cantidad, formatting)} {i.unidad} · recibido{' '}
                    {formatNumber(i.cantidad_recibida, formatting)} ·{' '}
                    <span className="font-medium text-amber-700">
                      faltan {formatNumber(i.cantidad_pendiente, formatting)}
                    </span>
                  </p>
                  {errors[i.id] && (
                    <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-red-600">
                      {errors[i.id]}
                    </p>
                  )}
                </div>
                <Input
                  id={id}
                  className="sm:w-32"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="0"
                  aria-invalid={Boolean(errors[i.id])}
                  aria-describedby={errors[i.id] ? `${id}-error` : undefined}
                  value={values[i.id] ?? ''}
                  onChange={(e) => setValues((v) => ({ ...v, [i.id]: e.target.value }))}
                />
              </li>
            );
          })}
        </ul>
        {error && (
          <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={() => close(false)}>
            Volver
          </Button>
          <Button type="submit" variant="success" loading={recibir.isPending}>
            Registrar recepción
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
