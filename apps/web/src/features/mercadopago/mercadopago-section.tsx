import { CheckCircle2, Copy, PlugZap, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import type { MercadopagoConfig, MercadopagoProbar } from '@mostrador/shared/mercadopago';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { Badge, Card, ErrorNote, Skeleton } from '@/components/ui/misc';
import { useCajas } from '@/features/caja/caja.api';
import { ApiError, errorMessage } from '@/lib/api';
import { useMercadopagoConfig, useProbarMercadopago, useSaveMercadopagoConfig } from './mercadopago.api';

type Asignacion = { pos_id: string; terminal_id: string };

/** Mercado Pago's setup (admins, decision 0052): token and webhook secret write-only, each caja's QR and Point. */
export function MercadopagoSection() {
  const config = useMercadopagoConfig();
  return (
    <section className="mt-8 space-y-3" aria-labelledby="mp-title">
      <div>
        <h2 id="mp-title" className="text-lg font-semibold text-slate-900">
          Mercado Pago
        </h2>
        <p className="text-sm text-slate-500">
          Cobrá con QR o con el Point desde el punto de venta: el pago queda atado a la venta y se concilia solo.
        </p>
      </div>
      {config.isPending ? (
        <Skeleton className="h-48" />
      ) : config.isError ? (
        <ErrorNote>{errorMessage(config.error, 'No se pudo cargar la configuración de Mercado Pago.')}</ErrorNote>
      ) : (
        <MercadopagoForm config={config.data} />
      )}
    </section>
  );
}

function MercadopagoForm({ config }: { config: MercadopagoConfig }) {
  const cajas = useCajas();
  const save = useSaveMercadopagoConfig();
  const probar = useProbarMercadopago();
  const [token, setToken] = useState('');
  const [secret, setSecret] = useState('');
  const [asignadas, setAsignadas] = useState<Record<string, Asignacion>>(() =>
    Object.fromEntries(
      config.cajas.map((c) => [c.caja_id, { pos_id: c.pos_id ?? '', terminal_id: c.terminal_id ?? '' }]),
    ),
  );
  const [quitando, setQuitando] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const [prueba, setPrueba] = useState<MercadopagoProbar | null>(null);
  const [copiado, setCopiado] = useState(false);
  useEffect(() => {
    if (!copiado) return;
    const t = setTimeout(() => setCopiado(false), 2000);
    return () => clearTimeout(t);
  }, [copiado]);

  const set = (cajaId: string, patch: Partial<Asignacion>) =>
    setAsignadas((a) => ({ ...a, [cajaId]: { ...(a[cajaId] ?? { pos_id: '', terminal_id: '' }), ...patch } }));

  const body = (lista: Record<string, Asignacion>) => ({
    ...(token.trim() ? { access_token: token.trim() } : {}),
    ...(secret.trim() ? { webhook_secret: secret.trim() } : {}),
    cajas: Object.entries(lista)
      .filter(([, a]) => a.pos_id || a.terminal_id)
      .map(([caja_id, a]) => ({ caja_id, pos_id: a.pos_id || null, terminal_id: a.terminal_id || null })),
  });

  async function guardar(lista: Record<string, Asignacion>) {
    const next: Record<string, string> = {};
    if (!config.tiene_access_token && !token.trim())
      next.access_token = 'Ingresá el access token de tu cuenta de Mercado Pago.';
    setErrors(next);
    setStatus(null);
    if (Object.keys(next).length) return;
    try {
      await save.mutateAsync(body(lista));
      setToken('');
      setSecret('');
      setStatus('Configuración de Mercado Pago guardada.');
    } catch (e) {
      const fields: Record<string, string> = {};
      if (e instanceof ApiError) for (const f of e.errors) fields[f.field] = f.message;
      setErrors({ ...fields, form: errorMessage(e, 'No se pudo guardar la configuración de Mercado Pago.') });
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    await guardar(asignadas);
  }

  async function probarConexion() {
    setPrueba(null);
    setErrors({});
    try {
      setPrueba(await probar.mutateAsync());
    } catch (e) {
      setErrors({ probar: errorMessage(e, 'No se pudo probar la conexión con Mercado Pago.') });
    }
  }

  const cajaNombre = (id: string) =>
    cajas.data?.find((c) => c.id === id)?.nombre ?? config.cajas.find((c) => c.caja_id === id)?.caja_nombre ?? id;

  return (
    <Card className="space-y-5">
      <form onSubmit={submit} className="space-y-5" noValidate aria-label="Configuración de Mercado Pago">
        <div className="flex flex-wrap items-center gap-2">
          <Badge color={config.configurado ? 'green' : 'gray'}>
            {config.configurado ? 'Configurado' : 'Sin configurar'}
          </Badge>
          {config.actualizado_en && (
            <span className="text-xs text-slate-500">
              Actualizado el {new Date(config.actualizado_en).toLocaleString('es-AR')}
            </span>
          )}
        </div>
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            id="mp-token"
            label="Access token"
            required={!config.tiene_access_token}
            error={errors.access_token}
            hint={
              config.tiene_access_token
                ? 'Configurado. Por seguridad no lo mostramos: escribí uno nuevo solo si querés cambiarlo.'
                : 'Lo encontrás en Tus integraciones → tu aplicación → Credenciales de producción.'
            }
          >
            <Input
              id="mp-token"
              type="password"
              autoComplete="off"
              value={token}
              placeholder={config.tiene_access_token ? '•••••••• (configurado)' : 'APP_USR-…'}
              aria-invalid={Boolean(errors.access_token)}
              onChange={(e) => setToken(e.target.value)}
            />
          </Field>
          <Field
            id="mp-secret"
            label="Clave secreta de los webhooks"
            error={errors.webhook_secret}
            hint={
              config.tiene_webhook_secret
                ? 'Configurada. Escribí una nueva solo si la cambiaste en Mercado Pago.'
                : 'Tus integraciones → Webhooks → Clave secreta. Sin ella no aceptamos los avisos de Mercado Pago.'
            }
          >
            <Input
              id="mp-secret"
              type="password"
              autoComplete="off"
              value={secret}
              placeholder={config.tiene_webhook_secret ? '•••••••• (configurada)' : ''}
              aria-invalid={Boolean(errors.webhook_secret)}
              onChange={(e) => setSecret(e.target.value)}
            />
          </Field>
        </div>
        <Field
          id="mp-webhook-url"
          label="URL de notificaciones"
          hint="Pegala en Tus integraciones → Webhooks, con el evento «Order»."
        >
          <div className="flex gap-2">
            <Input id="mp-webhook-url" readOnly value={config.webhook_url} onFocus={(e) => e.target.select()} />
            <Button
              type="button"
              variant="secondary"
              aria-label="Copiar la URL de notificaciones"
              onClick={() => void navigator.clipboard?.writeText(config.webhook_url).then(() => setCopiado(true))}
            >
              <Copy className="h-4 w-4" /> {copiado ? 'Copiada' : 'Copiar'}
            </Button>
          </div>
        </Field>

        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="font-medium text-slate-900">Cajas</h3>
            <Button
              type="button"
              variant="secondary"
              loading={probar.isPending}
              disabled={!config.tiene_access_token}
              onClick={() => void probarConexion()}
            >
              <PlugZap className="h-4 w-4" /> Probar conexión
            </Button>
          </div>
          {!config.tiene_access_token && (
            <p className="text-sm text-slate-500">
              Guardá el access token y probá la conexión para elegir la caja y el Point de cada caja.
            </p>
          )}
          {errors.probar && <ErrorNote>{errors.probar}</ErrorNote>}
          {prueba && (
            <p
              role="status"
              className={
                prueba.ok
                  ? 'rounded-md bg-green-50 p-2 text-sm text-green-800'
                  : 'rounded-md bg-red-50 p-2 text-sm text-red-700'
              }
            >
              {prueba.ok && <CheckCircle2 className="mr-1 inline h-4 w-4" />}
              {prueba.mensaje}
            </p>
          )}
          {cajas.isError && <ErrorNote>No se pudieron cargar las cajas.</ErrorNote>}
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {cajas.data?.map((c) => {
              const a = asignadas[c.id] ?? { pos_id: '', terminal_id: '' };
              const asignada = config.cajas.some((x) => x.caja_id === c.id);
              return (
                <li key={c.id} className="grid gap-3 p-3 md:grid-cols-[10rem_1fr_1fr_auto] md:items-end">
                  <p className="font-medium text-slate-900 md:pb-2">{c.nombre}</p>
                  <Field id={`mp-pos-${c.id}`} label="Caja de Mercado Pago (QR)">
                    <OpcionSelect
                      id={`mp-pos-${c.id}`}
                      value={a.pos_id}
                      onChange={(v) => set(c.id, { pos_id: v })}
                      opciones={(prueba?.cajas_mp ?? [])
                        .filter((p) => p.external_id)
                        .map((p) => ({ value: p.external_id!, label: `${p.nombre} (${p.external_id})` }))}
                      sinProbar={!prueba}
                    />
                  </Field>
                  <Field id={`mp-terminal-${c.id}`} label="Terminal Point">
                    <OpcionSelect
                      id={`mp-terminal-${c.id}`}
                      value={a.terminal_id}
                      onChange={(v) => set(c.id, { terminal_id: v })}
                      opciones={(prueba?.terminales ?? []).map((t) => ({
                        value: t.id,
                        label: t.modo && t.modo !== 'PDV' ? `${t.id} (modo ${t.modo}: pasalo a PDV)` : t.id,
                      }))}
                      sinProbar={!prueba}
                    />
                  </Field>
                  <Button
                    type="button"
                    variant="ghost"
                    aria-label={`Quitar Mercado Pago de ${c.nombre}`}
                    disabled={!asignada && !a.pos_id && !a.terminal_id}
                    onClick={() => (asignada ? setQuitando(c.id) : set(c.id, { pos_id: '', terminal_id: '' }))}
                  >
                    <Trash2 className="h-4 w-4" />
                  </Button>
                </li>
              );
            })}
          </ul>
        </div>
        {errors.form && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
            {errors.form}
          </p>
        )}
        {status && (
          <p role="status" className="rounded-md bg-green-50 p-2 text-sm text-green-800">
            {status}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" loading={save.isPending}>
            Guardar
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={quitando !== null}
        onOpenChange={(o) => !o && setQuitando(null)}
        title={`¿Quitar Mercado Pago de «${quitando ? cajaNombre(quitando) : ''}»?`}
        message="Esa caja deja de cobrar con QR y Point hasta que le asignes otra vez una caja o una terminal. Las ventas ya cobradas no cambian."
        confirmLabel="Quitar"
        failure="No se pudo quitar Mercado Pago de la caja."
        onConfirm={async () => {
          const lista = { ...asignadas, [quitando!]: { pos_id: '', terminal_id: '' } };
          setAsignadas(lista);
          await save.mutateAsync(body(lista));
          setStatus('Quitamos Mercado Pago de la caja.');
        }}
      />
    </Card>
  );
}

/** A select of what "Probar conexión" listed, keeping the value already saved even before testing. */
function OpcionSelect({
  id,
  value,
  onChange,
  opciones,
  sinProbar,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  opciones: { value: string; label: string }[];
  sinProbar: boolean;
}) {
  const todas = value && !opciones.some((o) => o.value === value) ? [{ value, label: value }, ...opciones] : opciones;
  return (
    <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{sinProbar && todas.length === 0 ? 'Probá la conexión para elegir' : 'Ninguna'}</option>
      {todas.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
  );
}
