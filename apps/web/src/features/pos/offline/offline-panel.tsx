import { CloudOff, RefreshCw, Wifi } from 'lucide-react';
import { useState } from 'react';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { parseDecimal } from '@/lib/decimal';
import { formatMoney } from '@/lib/format';
import { discard, flush, recordMovimiento, retry, type OfflineState, type QueueItem } from './offline-pos';

/** What the cashier can do about a refused item, by the server's code. */
export function whatToDo(item: QueueItem): string {
  switch (item.error?.code) {
    case 'TURNO_CLOSED':
      return 'El turno se cerró antes de sincronizar: abrí un turno y tocá Reintentar (la venta entra en el turno abierto).';
    case 'CREDIT_LIMIT':
      return 'Supera el límite de crédito del cliente: un administrador puede reintentarla, o descartala y cobrala con otro medio.';
    case 'PRICE_CHANGE_FORBIDDEN':
    case 'DISCOUNT_OVER_MAX':
      return 'Pedile a alguien con permiso para cambiar precios que inicie sesión y la reintente.';
    case 'VALIDATION_ERROR':
      return 'Algo de la venta ya no existe en el negocio (un producto o un cliente): revisalo y volvé a cargarla, después descartá esta.';
    default:
      return 'Revisá el motivo y tocá Reintentar, o descartala si ya la cargaste de nuevo.';
  }
}

/**
 * Always visible at the POS: online or not, what is waiting to be sent, and what the server
 * refused with the reason and what to do (issue 18).
 */
export function OfflinePanel({ state, turnoId }: { state: OfflineState; turnoId: string | null }) {
  const { formatting } = useBusiness();
  const [moving, setMoving] = useState(false);
  return (
    <section aria-label="Conexión" className="mb-4 space-y-2">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {state.online ? (
          <span
            data-testid="pos-conexion"
            className="inline-flex items-center gap-1.5 rounded-full bg-emerald-100 px-2.5 py-1 font-medium text-emerald-800"
          >
            <Wifi className="h-4 w-4" aria-hidden /> En línea
          </span>
        ) : (
          <span
            data-testid="pos-conexion"
            className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-2.5 py-1 font-medium text-amber-900"
          >
            <CloudOff className="h-4 w-4" aria-hidden /> Sin conexión: seguís vendiendo
          </span>
        )}
        <span data-testid="pos-pendientes" className="text-slate-700">
          {state.pendientes === 0
            ? 'Todo sincronizado'
            : `${state.pendientes} ${state.pendientes === 1 ? 'pendiente' : 'pendientes'} de sincronizar`}
          {state.syncing && state.pendientes > 0 ? ' · enviando…' : ''}
        </span>
        {state.pendientes > 0 && state.online && (
          <Button size="sm" variant="ghost" onClick={() => void flush()}>
            <RefreshCw className="h-4 w-4" aria-hidden /> Sincronizar ahora
          </Button>
        )}
        {turnoId && (
          <Button size="sm" variant="ghost" onClick={() => setMoving(true)}>
            Ingreso o retiro de caja
          </Button>
        )}
        {!state.catalogo && !state.online && (
          <span className="text-amber-900">Este dispositivo todavía no descargó el catálogo.</span>
        )}
        {state.deOtros > 0 && (
          <span className="text-slate-600">
            {state.deOtros} de otro usuario: se envían cuando esa persona inicie sesión en este dispositivo.
          </span>
        )}
      </div>
      {state.rechazadas.length > 0 && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">
            {state.rechazadas.length === 1
              ? 'El servidor rechazó 1 operación hecha sin conexión'
              : `El servidor rechazó ${state.rechazadas.length} operaciones hechas sin conexión`}
          </p>
          <ul className="mt-2 space-y-2">
            {state.rechazadas.map((i) => (
              <li key={i.id} className="rounded border border-red-200 bg-white p-2">
                <p className="font-medium">{i.descripcion}</p>
                <p>Motivo: {i.error?.detail}</p>
                <p className="text-slate-700">{whatToDo(i)}</p>
                <div className="mt-1 flex gap-2">
                  <Button size="sm" variant="secondary" onClick={() => void retry(i.id)}>
                    Reintentar
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => void discard(i.id)}>
                    Descartar
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
      {moving && turnoId && (
        <MovimientoDialog
          turnoId={turnoId}
          onClose={() => setMoving(false)}
          money={(c) => formatMoney(c / 100, formatting)}
        />
      )}
    </section>
  );
}

/** Cash into or out of the drawer, through the same queue (works without a connection). */
function MovimientoDialog({
  turnoId,
  onClose,
  money,
}: {
  turnoId: string;
  onClose: () => void;
  money: (cents: number) => string;
}) {
  const [tipo, setTipo] = useState<'ingreso' | 'retiro'>('retiro');
  const [monto, setMonto] = useState('');
  const [motivo, setMotivo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function save() {
    const cents = parseDecimal(monto, 2);
    if (cents === null || cents <= 0) return setError('Escribí un monto mayor que cero.');
    if (!motivo.trim()) return setError('Escribí el motivo.');
    setBusy(true);
    try {
      await recordMovimiento(
        turnoId,
        { tipo, monto: cents / 100, motivo: motivo.trim() },
        `${tipo === 'ingreso' ? 'Ingreso' : 'Retiro'} de caja de ${money(cents)}`,
      );
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'No se pudo registrar.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Ingreso o retiro de caja" className="max-w-sm">
      <div className="space-y-3">
        <div className="flex gap-2" role="radiogroup" aria-label="Tipo">
          {(['retiro', 'ingreso'] as const).map((t) => (
            <Button
              key={t}
              size="sm"
              role="radio"
              aria-checked={tipo === t}
              variant={tipo === t ? 'primary' : 'secondary'}
              onClick={() => setTipo(t)}
            >
              {t === 'retiro' ? 'Retiro' : 'Ingreso'}
            </Button>
          ))}
        </div>
        <Field label="Monto" id="pos-mov-monto">
          <Input id="pos-mov-monto" inputMode="decimal" value={monto} onChange={(e) => setMonto(e.target.value)} />
        </Field>
        <Field label="Motivo" id="pos-mov-motivo">
          <Input id="pos-mov-motivo" value={motivo} onChange={(e) => setMotivo(e.target.value)} />
        </Field>
        {error && <p className="text-sm text-red-700">{error}</p>}
        <Button className="w-full" loading={busy} onClick={() => void save()}>
          Registrar
        </Button>
      </div>
    </Dialog>
  );
}
