import { useState } from 'react';
import {
  SUBSCRIPTION_STATE_LABELS,
  SUBSCRIPTION_STATES,
  type Subscription,
  type SubscriptionState,
} from '@mostrador/shared';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Select } from '@/components/ui/input';
import { errorMessage } from '@/lib/api';
import { useSetSubscriptionState } from './subscriptions.api';

/**
 * A subscription's estado, changed with its own call (as the contract says). Cancelada and
 * Vencida stop the charges: they are asked first (the select keeps the old estado meanwhile).
 */
export function SubscriptionEstado({
  s,
  onStateChanged,
}: {
  s: Subscription;
  onStateChanged?: (s: Subscription) => void;
}) {
  const setState = useSetSubscriptionState();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'cancelada' | 'vencida' | null>(null);
  const change = async (estado: SubscriptionState) => {
    const { data } = await setState.mutateAsync({ id: s.id, estado });
    onStateChanged?.(data);
  };
  return (
    <span className="flex flex-col items-end gap-1">
      <label htmlFor={`estado-${s.id}`} className="sr-only">
        Estado de {s.nombre} de {s.cliente_nombre}
      </label>
      <Select
        id={`estado-${s.id}`}
        className="h-8 w-32"
        value={s.estado}
        disabled={setState.isPending}
        onChange={async (e) => {
          const estado = e.target.value as SubscriptionState;
          setError(null);
          if (estado === 'cancelada' || estado === 'vencida') return setConfirming(estado);
          try {
            await change(estado);
          } catch (err) {
            setError(errorMessage(err, 'No se pudo cambiar el estado.'));
          }
        }}
      >
        {SUBSCRIPTION_STATES.map((st) => (
          <option key={st} value={st}>
            {SUBSCRIPTION_STATE_LABELS[st]}
          </option>
        ))}
      </Select>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={confirming === 'vencida' ? 'Marcar suscripción como vencida' : 'Cancelar suscripción'}
        message={
          confirming === 'vencida'
            ? `¿Marcar como vencida la suscripción de ${s.cliente_nombre} a ${s.nombre}? Deja de tener próximo cobro.`
            : `¿Cancelar la suscripción de ${s.cliente_nombre} a ${s.nombre}? Deja de tener próximo cobro.`
        }
        confirmLabel={confirming === 'vencida' ? 'Marcar como vencida' : 'Cancelar suscripción'}
        cancelLabel="Volver"
        failure="No se pudo cambiar el estado."
        onConfirm={() => change(confirming!)}
      />
    </span>
  );
}
