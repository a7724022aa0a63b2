import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { PIN_MAX, type PinStatus } from '@mostrador/shared/autorizacion';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { ErrorNote, Skeleton } from '@/components/ui/misc';
import { api, ApiError, errorMessage } from '@/lib/api';

const digits = (v: string) => v.replace(/\D/g, '').slice(0, PIN_MAX);

/**
 * The PIN that authorizes at the counter (issue 33): a discount over a cashier's maximum, a
 * changed price or a sale over a customer's credit limit, in the businesses where this person
 * holds that right. Set with the account's password; removable.
 */
export function PinForm() {
  const qc = useQueryClient();
  const status = useQuery({ queryKey: ['pin'], queryFn: () => api.get<PinStatus>('/auth/pin') });
  const [pin, setPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const save = useMutation({
    mutationFn: () => api.put<PinStatus & { message: string }>('/auth/pin', { pin, current_password: password }),
    onSuccess: (r) => qc.setQueryData(['pin'], { tiene_pin: r.tiene_pin }),
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    const local: Record<string, string> = {};
    if (!/^\d{4,6}$/.test(pin)) local.pin = 'El PIN tiene que tener de 4 a 6 números.';
    else if (pin !== repeat) local.repeat = 'Los PIN no coinciden.';
    if (!password) local.current_password = 'Escribí tu contraseña.';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      const r = await save.mutateAsync();
      setMessage({ ok: true, text: r.message });
      setPin('');
      setRepeat('');
      setPassword('');
    } catch (err) {
      const fields = err instanceof ApiError ? err.errors : [];
      setErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
      setMessage(fields.length ? null : { ok: false, text: errorMessage(err, 'No se pudo guardar el PIN.') });
    }
  };

  if (status.isLoading) return <Skeleton className="h-32" />;
  const tiene = status.data?.tiene_pin === true;
  return (
    <>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <p className="text-sm text-slate-600" data-testid="pin-estado">
          {tiene
            ? 'Tenés un PIN. Con él autorizás en el mostrador lo que el cajero no puede solo: un descuento mayor a su máximo, un cambio de precio o una venta sobre el límite de crédito, en los negocios donde vos tenés ese permiso.'
            : 'Todavía no tenés PIN. Creá uno para autorizar en el mostrador, sin usar tu sesión, un descuento mayor al máximo, un cambio de precio o una venta sobre el límite de crédito, en los negocios donde tenés ese permiso.'}
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="pin-nuevo"
            label={tiene ? 'PIN nuevo' : 'PIN'}
            hint="De 4 a 6 números, ni repetidos ni seguidos."
            error={errors.pin}
          >
            <Input
              id="pin-nuevo"
              type="password"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              maxLength={PIN_MAX}
              aria-invalid={Boolean(errors.pin)}
              value={pin}
              onChange={(e) => setPin(digits(e.target.value))}
            />
          </Field>
          <Field id="pin-repetir" label="Repetí el PIN" error={errors.repeat}>
            <Input
              id="pin-repetir"
              type="password"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              maxLength={PIN_MAX}
              aria-invalid={Boolean(errors.repeat)}
              value={repeat}
              onChange={(e) => setRepeat(digits(e.target.value))}
            />
          </Field>
        </div>
        <Field id="pin-password" label="Tu contraseña" error={errors.current_password}>
          <Input
            id="pin-password"
            type="password"
            autoComplete="current-password"
            aria-invalid={Boolean(errors.current_password)}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {message &&
          (message.ok ? (
            <p role="status" className="text-sm text-emerald-700">
              {message.text}
            </p>
          ) : (
            <ErrorNote>{message.text}</ErrorNote>
          ))}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" loading={save.isPending}>
            {tiene ? 'Cambiar PIN' : 'Crear PIN'}
          </Button>
          {tiene && (
            <Button type="button" variant="secondary" onClick={() => setConfirmRemove(true)}>
              Eliminar PIN
            </Button>
          )}
        </div>
      </form>
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title="Eliminar PIN"
        message="Sin PIN no vas a poder autorizar en el mostrador. ¿Eliminarlo?"
        confirmLabel="Eliminar"
        onConfirm={async () => {
          await api.delete('/auth/pin');
          qc.setQueryData(['pin'], { tiene_pin: false });
          setMessage({ ok: true, text: 'PIN eliminado.' });
        }}
      />
    </>
  );
}
