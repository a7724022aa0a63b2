import { useState, type FormEvent } from 'react';
import type { Caja, Turno } from '@mostrador/shared/caja';
import { useBusiness } from '@/app/business-context';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, Input, Select, Textarea } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { INVALID_AMOUNT, parseDecimal } from '@/lib/decimal';
import { formatMoney } from '@/lib/format';
import { ImpresoraFields, draftDe, impresoraDe } from '@/features/impresion/impresora-fields';
import { useSucursales } from '@/features/depositos/depositos.api';
import {
  CAMPOS_ETIQUETAS,
  ImpresoraEtiquetasFields,
  etiquetasDraftDe,
  impresoraEtiquetasDe,
} from '@/features/impresion/impresora-etiquetas-fields';
import { useCloseTurno, useMedios, useOpenTurno, useSaveCaja, useTurnoMove } from './caja.api';

/** Cents typed the es-AR way, or an error message. */
function readAmount(text: string, required = true): { cents: number } | { error: string } {
  if (!text.trim()) return required ? { error: 'Este campo es obligatorio.' } : { cents: 0 };
  const c = parseDecimal(text, 2);
  return c === null || c < 0 ? { error: INVALID_AMOUNT } : { cents: c };
}

export function OpenTurnoDialog({
  caja,
  onClose,
  onOpened,
}: {
  caja: { id: string; nombre: string } | null;
  onClose: () => void;
  onOpened?: (t: Turno) => void;
}) {
  const [fondo, setFondo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const open = useOpenTurno();
  async function submit(e: FormEvent) {
    e.preventDefault();
    const a = readAmount(fondo);
    if ('error' in a) return setError(a.error);
    try {
      const t = await open.mutateAsync({ cajaId: caja!.id, fondo_inicial: a.cents / 100 });
      setFondo('');
      setError(null);
      onOpened?.(t);
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'No se pudo abrir el turno.'));
    }
  }
  return (
    <Dialog
      open={Boolean(caja)}
      onOpenChange={(o) => !o && onClose()}
      title={`Abrir turno en ${caja?.nombre ?? ''}`}
      description="Contá el efectivo con el que empezás (el fondo o cambio) y escribilo."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field id="turno-fondo" label="Fondo inicial ($)" error={error ?? undefined} required>
          <Input
            id="turno-fondo"
            inputMode="decimal"
            autoFocus
            value={fondo}
            onChange={(e) => setFondo(e.target.value)}
            placeholder="0"
            aria-invalid={Boolean(error)}
          />
        </Field>
        <FormActions error={null} busy={open.isPending} onCancel={onClose} submitLabel="Abrir turno" />
      </form>
    </Dialog>
  );
}

export function MoveDialog({ turno, onClose }: { turno: Turno | null; onClose: () => void }) {
  const [tipo, setTipo] = useState<'ingreso' | 'retiro'>('retiro');
  const [monto, setMonto] = useState('');
  const [motivo, setMotivo] = useState('');
  const [errors, setErrors] = useState<{ monto?: string; motivo?: string; form?: string }>({});
  const move = useTurnoMove();
  async function submit(e: FormEvent) {
    e.preventDefault();
    const a = readAmount(monto);
    const next: typeof errors = {};
    if ('error' in a) next.monto = a.error;
    else if (a.cents === 0) next.monto = 'Debe ser mayor a 0.';
    if (!motivo.trim()) next.motivo = 'Contá el motivo, por ejemplo «Pago al repartidor».';
    setErrors(next);
    if (Object.keys(next).length || 'error' in a) return;
    try {
      await move.mutateAsync({ turnoId: turno!.id, tipo, monto: a.cents / 100, motivo: motivo.trim() });
      setMonto('');
      setMotivo('');
      onClose();
    } catch (err) {
      setErrors({ form: errorMessage(err, 'No se pudo registrar el movimiento.') });
    }
  }
  return (
    <Dialog
      open={Boolean(turno)}
      onOpenChange={(o) => !o && onClose()}
      title="Ingreso o retiro de efectivo"
      description="Efectivo que entra o sale de la caja sin ser una venta."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field id="mov-tipo" label="Tipo">
          <Select id="mov-tipo" value={tipo} onChange={(e) => setTipo(e.target.value as 'ingreso' | 'retiro')}>
            <option value="retiro">Retiro</option>
            <option value="ingreso">Ingreso</option>
          </Select>
        </Field>
        <Field id="mov-monto" label="Monto ($)" error={errors.monto} required>
          <Input
            id="mov-monto"
            inputMode="decimal"
            value={monto}
            onChange={(e) => setMonto(e.target.value)}
            aria-invalid={Boolean(errors.monto)}
          />
        </Field>
        <Field id="mov-motivo" label="Motivo" error={errors.motivo} required>
          <Input
            id="mov-motivo"
            value={motivo}
            maxLength={200}
            onChange={(e) => setMotivo(e.target.value)}
            aria-invalid={Boolean(errors.motivo)}
          />
        </Field>
        <FormActions error={errors.form ?? null} busy={move.isPending} onCancel={onClose} submitLabel="Registrar" />
      </form>
    </Dialog>
  );
}

/**
 * The count at closing: what each medio should hold, what was counted, and the difference as it is
 * typed. Counting blind (arqueo a ciegas) only the counts are asked; a medio left empty counts 0,
 * and what was expected shows once the turno is closed.
 */
export function CloseDialog({
  turno,
  onClose,
  onClosed,
}: {
  turno: Turno | null;
  onClose: () => void;
  onClosed: (t: Turno) => void;
}) {
  const { formatting } = useBusiness();
  const medios = useMedios().data ?? [];
  const [counted, setCounted] = useState<Record<string, string>>({});
  const [obs, setObs] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const close = useCloseTurno();
  const money = (cents: number) => formatMoney(cents / 100, formatting);
  const blind = turno?.arqueo_ciego === true;
  const nombre = (id: string) =>
    turno?.a_contar.find((m) => m.medio_pago_id === id)?.nombre ?? medios.find((m) => m.id === id)?.nombre ?? '';
  const lines = (turno?.a_contar ?? []).map((m) => {
    const text = counted[m.medio_pago_id] ?? '';
    const a = readAmount(text, false);
    const monto = turno?.esperado?.find((e) => e.medio_pago_id === m.medio_pago_id)?.monto ?? 0;
    const esperado = Math.round(monto * 100);
    const needed = !blind && esperado !== 0;
    return { id: m.medio_pago_id, esperado, text, cents: 'cents' in a ? a.cents : null, needed };
  });
  const cols = blind ? 'sm:grid-cols-[minmax(0,1fr)_10rem]' : 'sm:grid-cols-[minmax(0,1fr)_8rem_8rem_8rem]';
  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const next: Record<string, string> = {};
    for (const l of lines) {
      if (l.text.trim() && l.cents === null) next[l.id] = INVALID_AMOUNT;
      else if (!l.text.trim() && l.needed) next[l.id] = `Indicá cuánto contaste de ${nombre(l.id)}.`;
    }
    setErrors(next);
    const first = Object.keys(next)[0];
    if (first) return document.getElementById(`contado-${first}`)?.focus();
    try {
      const t = await close.mutateAsync({
        turnoId: turno!.id,
        contado: lines.map((l) => ({ medio_pago_id: l.id, monto: (l.cents ?? 0) / 100 })),
        observaciones: obs.trim() || null,
      });
      setCounted({});
      setObs('');
      onClosed(t);
    } catch (err) {
      setErrors({ form: errorMessage(err, 'No se pudo cerrar el turno.') });
    }
  }
  return (
    <Dialog
      open={Boolean(turno)}
      onOpenChange={(o) => !o && onClose()}
      title={`Cerrar turno #${turno?.numero ?? ''}`}
      description={
        blind
          ? 'Arqueo a ciegas: contá lo que hay por cada medio de pago y escribilo. Lo que no tengas, dejalo vacío (cuenta $ 0). Después de cerrar vas a ver lo esperado y la diferencia.'
          : 'Contá lo que hay en la caja por cada medio de pago y escribilo: la diferencia queda registrada.'
      }
      className="max-w-xl"
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {/* A row per medio; on a phone each stacks (name, then esperado and diferencia, then the count) so no amount is cut. */}
        <div className="divide-y divide-slate-100 text-sm">
          <div className={cn('hidden gap-3 py-1 font-medium text-slate-500 sm:grid', cols)}>
            <span>Medio</span>
            {!blind && <span className="text-right">Esperado</span>}
            <span>Contado</span>
            {!blind && <span className="text-right">Diferencia</span>}
          </div>
          {lines.map((l) => {
            const diff = l.cents === null || !l.text.trim() ? null : l.cents - l.esperado;
            return (
              <div key={l.id} className={cn('grid grid-cols-2 gap-x-3 gap-y-1 py-2 sm:items-start', cols)}>
                <label
                  htmlFor={`contado-${l.id}`}
                  className="col-span-2 font-medium sm:col-span-1 sm:pt-2 sm:font-normal"
                >
                  {nombre(l.id)}
                </label>
                {!blind && (
                  <p className="whitespace-nowrap tabular-nums sm:pt-2 sm:text-right">
                    <span className="text-slate-500 sm:hidden">Esperado </span>
                    {money(l.esperado)}
                  </p>
                )}
                <div className="order-last col-span-2 sm:order-none sm:col-span-1">
                  <Input
                    id={`contado-${l.id}`}
                    inputMode="decimal"
                    className="h-11 w-full"
                    value={l.text}
                    placeholder={l.needed ? '' : '0'}
                    autoFocus={l.id === lines[0]?.id}
                    onChange={(e) => {
                      setCounted((c) => ({ ...c, [l.id]: e.target.value }));
                      setErrors(({ [l.id]: _fixed, ...rest }) => rest);
                    }}
                    aria-invalid={Boolean(errors[l.id])}
                    aria-describedby={errors[l.id] ? `contado-${l.id}-error` : undefined}
                  />
                  {errors[l.id] && (
                    <p id={`contado-${l.id}-error`} role="alert" className="mt-1 text-xs text-red-600">
                      {errors[l.id]}
                    </p>
                  )}
                </div>
                {!blind && (
                  <p className="whitespace-nowrap text-right tabular-nums sm:pt-2">
                    <span className="text-slate-500 sm:hidden">Diferencia </span>
                    <span
                      className={cn(
                        diff !== null && diff < 0 && 'text-red-600',
                        diff !== null && diff > 0 && 'text-amber-700',
                      )}
                      data-testid={`diferencia-${l.id}`}
                    >
                      {diff === null ? '—' : money(diff)}
                    </span>
                  </p>
                )}
              </div>
            );
          })}
        </div>
        <Field id="cierre-obs" label="Observaciones">
          <Textarea id="cierre-obs" rows={2} maxLength={500} value={obs} onChange={(e) => setObs(e.target.value)} />
        </Field>
        <FormActions error={errors.form ?? null} busy={close.isPending} onCancel={onClose} submitLabel="Cerrar turno" />
      </form>
    </Dialog>
  );
}

/** A new caja, or one to rename or to give its own ARCA punto de venta (`caja` set). */
export function CajaDialog({ open, caja, onClose }: { open: boolean; caja?: Caja | null; onClose: () => void }) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title={caja ? `Editar ${caja.nombre}` : 'Nueva caja'}>
      {open && <CajaForm key={caja?.id ?? 'nueva'} caja={caja ?? null} onClose={onClose} />}
    </Dialog>
  );
}

function CajaForm({ caja, onClose }: { caja: Caja | null; onClose: () => void }) {
  const [nombre, setNombre] = useState(caja?.nombre ?? '');
  const [punto, setPunto] = useState(caja?.punto_venta ? String(caja.punto_venta) : '');
  const [impresora, setImpresora] = useState(() => draftDe(caja?.impresora));
  const [etiquetas, setEtiquetas] = useState(() => etiquetasDraftDe(caja?.impresora_etiquetas));
  const sucursales = useSucursales().data ?? [];
  const [elegida, setSucursal] = useState(caja?.sucursal_id ?? '');
  const principal = sucursales.find((s) => s.principal)?.id ?? '';
  const sucursal = elegida || principal;
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const save = useSaveCaja();
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!nombre.trim()) return setErrors({ nombre: 'Este campo es obligatorio.' });
    const n = punto.trim() ? Number(punto.trim()) : null;
    if (n !== null && !(Number.isInteger(n) && n >= 1 && n <= 99998))
      return setErrors({ punto_venta: 'El punto de venta va de 1 a 99998.' });
    const imp = impresoraDe(impresora);
    const eti = impresoraEtiquetasDe(etiquetas);
    if (Object.keys(imp.errors).length || Object.keys(eti.errors).length)
      return setErrors({ ...imp.errors, ...eti.errors });
    try {
      await save.mutateAsync({
        id: caja?.id,
        nombre: nombre.trim(),
        punto_venta: n,
        impresora: imp.value,
        impresora_etiquetas: eti.value,
        ...(sucursales.length > 1 ? { sucursal_id: sucursal === principal ? null : sucursal } : {}),
      });
      onClose();
    } catch (err) {
      const fields = err instanceof ApiError ? err.errors : [];
      const message = errorMessage(err, 'No se pudo guardar la caja.');
      const shown = ['nombre', 'punto_venta', 'sucursal_id', 'impresora.host', 'impresora.puerto', ...CAMPOS_ETIQUETAS];
      setErrors({
        ...Object.fromEntries(fields.map((f) => [f.field, f.message])),
        form: fields.every((f) => shown.includes(f.field)) && fields.length ? undefined : message,
      });
    }
  }
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field id="caja-nombre" label="Nombre" error={errors.nombre} required>
        <Input
          id="caja-nombre"
          autoFocus
          maxLength={60}
          placeholder="Caja 2"
          value={nombre}
          onChange={(e) => setNombre(e.target.value)}
          aria-invalid={Boolean(errors.nombre)}
        />
      </Field>
      <Field
        id="caja-punto-venta"
        label="Punto de venta de ARCA (opcional)"
        hint="Si facturás desde esta caja con su propio punto de venta. Vacío: el de Facturación."
        error={errors.punto_venta}
      >
        <Input
          id="caja-punto-venta"
          inputMode="numeric"
          placeholder="4"
          value={punto}
          onChange={(e) => setPunto(e.target.value.replace(/\D/g, ''))}
          aria-invalid={Boolean(errors.punto_venta)}
        />
      </Field>
      {sucursales.length > 1 && (
        <Field
          id="caja-sucursal"
          label="Sucursal"
          hint="La caja vende del stock del primer depósito de su sucursal."
          error={errors.sucursal_id}
        >
          <Select id="caja-sucursal" value={sucursal} onChange={(e) => setSucursal(e.target.value)}>
            {sucursales.map((s) => (
              <option key={s.id} value={s.id}>
                {s.nombre}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <ImpresoraFields draft={impresora} onChange={setImpresora} errors={errors} />
      <ImpresoraEtiquetasFields draft={etiquetas} onChange={setEtiquetas} errors={errors} />
      <FormActions
        error={errors.form ?? null}
        busy={save.isPending}
        onCancel={onClose}
        submitLabel={caja ? 'Guardar' : 'Crear caja'}
      />
    </form>
  );
}
