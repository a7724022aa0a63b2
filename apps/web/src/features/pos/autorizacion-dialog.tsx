import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  AUTHORIZABLE_CODES,
  canAuthorize,
  PIN_MAX,
  type AuthorizableCode,
  type AutorizacionInput,
  type Autorizador,
} from '@mostrador/shared/autorizacion';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { api, ApiError, errorMessage } from '@/lib/api';

/** A refusal another member may authorize with their PIN (issue 33), and how large the discount was. */
export interface PedidoAutorizacion {
  code: AuthorizableCode;
  /** The sale's discount in % of its subtotal (for who may authorize a discount). */
  porcentaje: number;
  mensaje: string;
}

export const isAuthorizable = (e: unknown): e is ApiError & { code: AuthorizableCode } =>
  e instanceof ApiError && (AUTHORIZABLE_CODES as readonly string[]).includes(e.code);

/**
 * "Pedir autorización": who authorizes (those who may, for this refusal) and their PIN, typed
 * masked on a numeric keyboard. `onAuthorize` sends the same sale again with the authorization;
 * a refusal (wrong PIN, too many attempts, someone without the right) stays in the dialog.
 */
export function AutorizacionDialog({
  businessId,
  pedido,
  open,
  onOpenChange,
  onAuthorize,
}: {
  businessId: string;
  pedido: PedidoAutorizacion | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAuthorize: (a: AutorizacionInput) => Promise<void>;
}) {
  const list = useQuery({
    queryKey: ['autorizadores', businessId],
    queryFn: () => api.get<Autorizador[]>(`/businesses/${businessId}/autorizadores`),
    enabled: open,
    staleTime: 0,
  });
  const pueden = (list.data ?? []).filter((a) => pedido && canAuthorize(a, pedido.code, pedido.porcentaje));
  const [usuario, setUsuario] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pinRef = useRef<HTMLInputElement>(null);
  const elegido = pueden.find((a) => a.usuario_id === usuario) ?? pueden[0];

  const close = (o: boolean) => {
    if (!o) {
      setPin('');
      setError(null);
    }
    onOpenChange(o);
  };
  useEffect(() => {
    if (open && elegido) setTimeout(() => pinRef.current?.focus(), 0);
  }, [open, elegido]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!elegido || busy) return;
    if (!/^\d{4,6}$/.test(pin)) {
      setError('Escribí el PIN: de 4 a 6 números.');
      pinRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onAuthorize({ usuario_id: elegido.usuario_id, pin });
      setPin('');
    } catch (err) {
      setError(errorMessage(err, 'No se pudo registrar la venta.'));
      setPin('');
      pinRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Pedir autorización"
      description={pedido?.mensaje}
      className="max-w-md"
    >
      {list.isLoading ? (
        <p className="text-sm text-slate-500">Buscando quién puede autorizar…</p>
      ) : list.isError ? (
        <ErrorNote>{errorMessage(list.error, 'No se pudo cargar quién puede autorizar.')}</ErrorNote>
      ) : pueden.length === 0 ? (
        <div className="space-y-3 text-sm text-slate-600" data-testid="autorizacion-vacia">
          <p>Nadie de este negocio puede autorizar esto todavía.</p>
          <p>
            Quien tenga el permiso tiene que crear su PIN en <strong>Mi perfil</strong>.
          </p>
          <div className="flex justify-end">
            <Button variant="secondary" onClick={() => close(false)}>
              Volver
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-slate-700">Quién autoriza</legend>
            <div className="space-y-2">
              {pueden.map((a) => (
                <label
                  key={a.usuario_id}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-3 has-[:checked]:border-emerald-600 has-[:checked]:bg-emerald-50"
                >
                  <input
                    type="radio"
                    name="autorizador"
                    value={a.usuario_id}
                    checked={elegido?.usuario_id === a.usuario_id}
                    onChange={() => {
                      setUsuario(a.usuario_id);
                      setError(null);
                    }}
                  />
                  <span className="text-sm font-medium text-slate-900">{a.nombre}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <Field id="autorizacion-pin" label={`PIN de ${elegido?.nombre ?? ''}`}>
            <Input
              ref={pinRef}
              id="autorizacion-pin"
              type="password"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              maxLength={PIN_MAX}
              className="w-40 text-center text-lg tracking-[0.5em]"
              value={pin}
              onChange={(e) => setPin(e.target.value.replace(/\D/g, '').slice(0, PIN_MAX))}
            />
          </Field>
          {error && <ErrorNote>{error}</ErrorNote>}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={() => close(false)}>
              Cancelar
            </Button>
            <Button type="submit" variant="success" loading={busy}>
              Autorizar y cobrar
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
