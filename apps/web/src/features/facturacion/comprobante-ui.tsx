import { AlertTriangle, CheckCircle2, Clock, Printer, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import {
  arcaErrorMessage,
  COMPROBANTE_ESTADO_LABELS,
  type ComprobanteEstado,
  type ComprobanteResumen,
} from '@mostrador/shared/facturacion';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, ErrorNote, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney } from '@/lib/format';
import { numeroComprobante, useComprobante, useReintentar } from './facturacion.api';
import { InvoiceDocument, PrintableInvoice, printInvoice } from './invoice-document';

const ESTADO_COLOR: Record<ComprobanteEstado, 'yellow' | 'green' | 'red'> = {
  pendiente: 'yellow',
  autorizado: 'green',
  rechazado: 'red',
};

export function EstadoBadge({ estado }: { estado: ComprobanteEstado }) {
  return <Badge color={ESTADO_COLOR[estado]}>{COMPROBANTE_ESTADO_LABELS[estado]}</Badge>;
}

/** "Factura B 0001-00000023". */
export const comprobanteTitulo = (c: Pick<ComprobanteResumen, 'tipo_label' | 'punto_venta' | 'numero'>) =>
  `${c.tipo_label} ${numeroComprobante(c)}`;

/** The Spanish reason of a rejection, with what to do. */
export const rechazoMensaje = (c: Pick<ComprobanteResumen, 'error_codigo' | 'error_mensaje'>) =>
  arcaErrorMessage(c.error_codigo, c.error_mensaje);

/**
 * The preview of a comprobante with its print buttons (80 mm and A4). Printing is offered only
 * once ARCA authorised it (a comprobante without CAE is not a valid invoice).
 */
export function InvoicePreviewDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { formatting } = useBusiness();
  const q = useComprobante(id);
  const c = q.data;
  const [format, setFormat] = useState<'80mm' | 'a4'>('80mm');
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={c ? comprobanteTitulo(c) : 'Comprobante'}
      description={c ? `Venta #${c.venta_numero} · ${formatMoney(c.total, formatting)}` : undefined}
      className={cn(format === 'a4' ? 'sm:max-w-4xl' : 'sm:max-w-md')}
    >
      {q.error && <ErrorNote>{errorMessage(q.error)}</ErrorNote>}
      {!c && !q.error && <Skeleton className="h-80" />}
      {c && (
        <>
          <div className="mb-3 flex gap-2" role="group" aria-label="Formato de la vista previa">
            {(['80mm', 'a4'] as const).map((f) => (
              <Button
                key={f}
                size="sm"
                variant={format === f ? 'primary' : 'secondary'}
                aria-pressed={format === f}
                onClick={() => setFormat(f)}
              >
                {f === '80mm' ? 'Vista 80 mm' : 'Vista A4'}
              </Button>
            ))}
          </div>
          <div className="max-h-[55vh] overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-3">
            <div
              className={cn('mx-auto bg-white p-3 shadow-sm', format === '80mm' ? 'w-fit max-w-full' : 'min-w-[640px]')}
            >
              <InvoiceDocument comprobante={c} formatting={formatting} format={format} />
            </div>
          </div>
          <PrintableInvoice comprobante={c} formatting={formatting} />
          <ComprobanteEstadoNote comprobante={c} />
          <div className="mt-4 grid gap-2 sm:grid-cols-2">
            <Button variant="secondary" disabled={c.estado !== 'autorizado'} onClick={() => printInvoice('80mm')}>
              <Printer className="h-4 w-4" aria-hidden /> Imprimir 80 mm
            </Button>
            <Button variant="secondary" disabled={c.estado !== 'autorizado'} onClick={() => printInvoice('a4')}>
              <Printer className="h-4 w-4" aria-hidden /> Imprimir A4
            </Button>
          </div>
        </>
      )}
      <Button className="mt-3 w-full" onClick={onClose}>
        Cerrar
      </Button>
    </Dialog>
  );
}

/** Where a comprobante stands, said in words: pendiente, autorizado with its CAE, or why ARCA refused it. */
export function ComprobanteEstadoNote({
  comprobante: c,
  onRetry,
  compact,
  pos,
}: {
  comprobante: ComprobanteResumen;
  onRetry?: boolean;
  compact?: boolean;
  /** At the POS, right after the sale: a rejection says the sale stands without invoice. */
  pos?: boolean;
}) {
  const { formatting } = useBusiness();
  const retry = useReintentar();
  const [error, setError] = useState<string | null>(null);
  const box = 'mt-3 flex items-start gap-2 rounded-lg border p-3 text-sm';
  if (c.estado === 'autorizado' && c.emision === 'caea') {
    // Issued under the CAEA while ARCA did not answer (decision 0047): valid, reported afterwards.
    const rechazado = c.caea_informe === 'rechazado';
    return (
      <div
        className={cn(
          box,
          rechazado ? 'border-red-200 bg-red-50 text-red-800' : 'border-emerald-200 bg-emerald-50 text-emerald-800',
        )}
        role={rechazado ? 'alert' : 'status'}
      >
        {rechazado ? (
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        ) : (
          <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        )}
        <div className="min-w-0 flex-1">
          <p>
            <strong>{comprobanteTitulo(c)}</strong> emitida con CAEA {c.cae}
            {c.cae_vencimiento && !compact && ` (vigente hasta el ${formatDate(c.cae_vencimiento, formatting)})`}:{' '}
            {c.tipo.startsWith('factura') ? 'es una factura válida.' : 'es un comprobante válido.'}{' '}
            {c.caea_informe === 'informado'
              ? 'Ya se informó a ARCA.'
              : rechazado
                ? c.error_mensaje
                : 'ARCA no respondía: se informa sola cuando vuelva.'}
          </p>
          {error && <p className="mt-1 font-medium">{error}</p>}
          {rechazado && onRetry && (
            <Button
              size="sm"
              variant="secondary"
              className="mt-2"
              loading={retry.isPending}
              onClick={async () => {
                setError(null);
                try {
                  await retry.mutateAsync(c.id);
                } catch (e) {
                  setError(errorMessage(e, 'No se pudo informar de nuevo.'));
                }
              }}
            >
              <RotateCcw className="h-4 w-4" aria-hidden /> Informar de nuevo
            </Button>
          )}
        </div>
      </div>
    );
  }
  if (c.estado === 'autorizado') {
    return (
      <div className={cn(box, 'border-emerald-200 bg-emerald-50 text-emerald-800')} role="status">
        <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <p>
          <strong>{comprobanteTitulo(c)}</strong> autorizada por ARCA. CAE {c.cae}
          {c.cae_vencimiento && !compact && ` (vence el ${formatDate(c.cae_vencimiento, formatting)})`}.
        </p>
      </div>
    );
  }
  if (c.estado === 'pendiente') {
    return (
      <div className={cn(box, 'border-amber-200 bg-amber-50 text-amber-800')} role="status">
        <Clock className="mt-0.5 h-4 w-4 shrink-0 animate-pulse" aria-hidden />
        <p>
          <strong>{c.tipo_label}</strong> pendiente: esperando la autorización de ARCA. La venta ya quedó registrada; si
          ARCA no responde, se reintenta sola.
        </p>
      </div>
    );
  }
  return (
    <div className={cn(box, 'border-red-200 bg-red-50 text-red-800')} role="alert">
      <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1">
        <p>
          <strong>{c.tipo_label} rechazada por ARCA.</strong> {rechazoMensaje(c)}
        </p>
        {pos && (
          <p className="mt-1">
            La venta quedó registrada SIN factura: corregí lo que dice ARCA y tocá «Reintentar», o emitila después desde
            Reporte de ventas.
          </p>
        )}
        {error && <p className="mt-1 font-medium">{error}</p>}
        {onRetry && (
          <Button
            size="sm"
            variant="secondary"
            className="mt-2"
            loading={retry.isPending}
            onClick={async () => {
              setError(null);
              try {
                await retry.mutateAsync(c.id);
              } catch (e) {
                setError(errorMessage(e, 'No se pudo reintentar.'));
              }
            }}
          >
            <RotateCcw className="h-4 w-4" aria-hidden /> Reintentar
          </Button>
        )}
      </div>
    </div>
  );
}
