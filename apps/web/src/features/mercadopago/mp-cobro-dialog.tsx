import { CreditCard, QrCode } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ORDEN_ESTADO_LABELS, type Orden, type OrdenTipo } from '@mostrador/shared/mercadopago';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ArcaQr } from '@/features/facturacion/arca-qr';
import { errorMessage } from '@/lib/api';
import { newKey } from '@/features/pos/cart';
import { useCancelarOrden, useCrearOrden, useOrden } from './mercadopago.api';

export interface MpCobro {
  cajaId: string;
  /** Cents of each part to charge through Mercado Pago (its surcharge included). */
  partes: number[];
  /** What the caja has: its MP QR point of sale, a Point terminal (the caja's `mercadopago`). */
  qr: boolean;
  point: boolean;
}

const FINAL_MENSAJE: Record<Exclude<Orden['estado'], 'pendiente' | 'aprobada'>, string> = {
  rechazada: 'Mercado Pago rechazó el pago (fondos insuficientes, tarjeta rechazada o el cliente lo canceló).',
  expirada: 'La orden venció sin que el cliente pagara.',
  cancelada: 'La orden se canceló.',
};

/**
 * The POS's charge through Mercado Pago (decision 0052): for each part, QR or Point, one order per
 * attempt (its own Idempotency-Key), the QR on screen or "Cobrá en el Point", polling until MP
 * answers. `onAprobada` gets the first part's approved order (the caller drops that part);
 * `onCerrar` returns to the sale to pick another medio.
 */
export function MpCobroDialog({
  cobro,
  money,
  onAprobada,
  onCerrar,
}: {
  cobro: MpCobro | null;
  money: (cents: number) => string;
  onAprobada: (orden: Orden) => void;
  onCerrar: () => void;
}) {
  // Closing (Escape, ×) goes back to the sale only while no order waits: a pending one is cancelled first.
  const esperandoRef = useRef(false);
  return (
    <Dialog
      open={cobro !== null}
      onOpenChange={(o) => !o && !esperandoRef.current && onCerrar()}
      title="Cobrar con Mercado Pago"
      className="max-w-md"
    >
      {cobro && (
        <Cobro
          key={cobro.partes.join('-')}
          cobro={cobro}
          money={money}
          onAprobada={onAprobada}
          onCerrar={onCerrar}
          esperandoRef={esperandoRef}
        />
      )}
    </Dialog>
  );
}

function Cobro({
  cobro,
  money,
  onAprobada,
  onCerrar,
  esperandoRef,
}: {
  cobro: MpCobro;
  money: (cents: number) => string;
  onAprobada: (orden: Orden) => void;
  onCerrar: () => void;
  esperandoRef: { current: boolean };
}) {
  const [ordenId, setOrdenId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const crear = useCrearOrden();
  const cancelar = useCancelarOrden();
  const orden = useOrden(ordenId);
  const monto = cobro.partes[0] ?? 0;
  const o = orden.data;
  const avisada = useRef<string | null>(null);
  useEffect(() => {
    esperandoRef.current = crear.isPending || o?.estado === 'pendiente' || o?.estado === 'aprobada';
  }, [esperandoRef, crear.isPending, o?.estado]);

  useEffect(() => {
    if (!o || o.estado !== 'aprobada' || avisada.current === o.id) return;
    avisada.current = o.id;
    onAprobada(o);
  }, [o, onAprobada]);

  async function iniciar(tipo: OrdenTipo) {
    setError(null);
    try {
      const r = await crear.mutateAsync({ key: newKey(), caja_id: cobro.cajaId, monto: monto / 100, tipo });
      setOrdenId(r.id);
    } catch (e) {
      setError(errorMessage(e, 'No se pudo crear la orden en Mercado Pago. Probá de nuevo o cobrá con otro medio.'));
    }
  }

  async function cancelarOrden() {
    if (!o) return;
    setError(null);
    try {
      await cancelar.mutateAsync(o.id);
      onCerrar();
    } catch (e) {
      setError(errorMessage(e, 'No se pudo cancelar la orden.'));
    }
  }

  const partes = cobro.partes.length > 1 ? ` (y ${cobro.partes.length - 1} pago más con Mercado Pago)` : '';
  return (
    <div className="space-y-4" data-testid="mp-cobro">
      <p className="text-center">
        <span className="block text-sm text-slate-500">A cobrar{partes}</span>
        <span className="text-3xl font-bold text-slate-900" data-testid="mp-monto">
          {money(monto)}
        </span>
      </p>
      {!o ? (
        <>
          <p className="text-sm text-slate-600">¿Cómo paga el cliente?</p>
          <div className={cobro.qr && cobro.point ? 'grid grid-cols-2 gap-2' : 'grid gap-2'}>
            {cobro.qr && (
              <Button
                size="lg"
                loading={crear.isPending && crear.variables?.tipo === 'qr'}
                disabled={crear.isPending}
                onClick={() => void iniciar('qr')}
              >
                <QrCode className="h-5 w-5" /> QR
              </Button>
            )}
            {cobro.point && (
              <Button
                size="lg"
                loading={crear.isPending && crear.variables?.tipo === 'point'}
                disabled={crear.isPending}
                onClick={() => void iniciar('point')}
              >
                <CreditCard className="h-5 w-5" /> Point
              </Button>
            )}
          </div>
        </>
      ) : o.estado === 'pendiente' ? (
        <div className="space-y-3 text-center" aria-live="polite">
          {o.tipo === 'qr' && o.qr_data ? (
            <>
              <div className="flex justify-center">
                <ArcaQr url={o.qr_data} size="min(16rem, 70vw)" label="Código QR de Mercado Pago" testId="mp-qr" />
              </div>
              <p className="text-sm text-slate-700">
                Que el cliente escanee el QR con Mercado Pago o la app de su banco.
              </p>
            </>
          ) : (
            <p className="rounded-lg bg-blue-50 p-4 text-lg font-semibold text-blue-900">Cobrá en el Point</p>
          )}
          <p role="status" className="text-sm text-slate-500">
            {ORDEN_ESTADO_LABELS.pendiente}…
          </p>
        </div>
      ) : o.estado === 'aprobada' ? (
        <p role="status" className="rounded-md bg-green-50 p-3 text-center text-sm font-medium text-green-800">
          Pago aprobado. Registrando la venta…
        </p>
      ) : (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700" data-testid="mp-final">
          {ORDEN_ESTADO_LABELS[o.estado]}: {FINAL_MENSAJE[o.estado]}
        </p>
      )}
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {o?.estado === 'pendiente' ? (
          <Button variant="danger" loading={cancelar.isPending} onClick={() => void cancelarOrden()}>
            Cancelar
          </Button>
        ) : o && o.estado !== 'aprobada' ? (
          <>
            <Button variant="secondary" onClick={() => setOrdenId(null)}>
              Reintentar con Mercado Pago
            </Button>
            <Button onClick={onCerrar}>Elegir otro medio</Button>
          </>
        ) : (
          !o && (
            <Button variant="secondary" onClick={onCerrar}>
              Volver
            </Button>
          )
        )}
      </div>
    </div>
  );
}
