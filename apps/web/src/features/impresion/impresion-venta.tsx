import { useEffect, useRef } from 'react';
import { CheckCircle2, Printer, RotateCcw } from 'lucide-react';
import type { Caja } from '@mostrador/shared/caja';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api';
import { useImprimirVenta } from './impresion.api';

/*
 * The sale just recorded, printed on the caja's printer without any dialog (issue 35), the drawer
 * opening on cash. The sale is recorded whatever happens here: a failure says what failed, with
 * "Reintentar impresión" and the browser's dialog as the fallback.
 */
export function ImpresionVenta({
  ventaId,
  caja,
  onNavegador,
}: {
  ventaId: string;
  caja: Caja;
  /** Prints with the browser's dialog instead. */
  onNavegador: () => void;
}) {
  const imprimir = useImprimirVenta();
  const { mutate } = imprimir;
  const started = useRef(false);
  const enviar = () => mutate({ ventaId, caja_id: caja.id, abrir_cajon: true });
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate({ ventaId, caja_id: caja.id, abrir_cajon: true });
  }, [mutate, ventaId, caja.id]);

  if (imprimir.isError) {
    return (
      <div role="alert" className="mb-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        <p className="font-semibold">No se pudo imprimir el ticket. La venta quedó registrada.</p>
        <p className="mt-1">{errorMessage(imprimir.error, 'La impresora no respondió.')}</p>
        <div className="mt-2 flex flex-wrap gap-2">
          <Button size="sm" onClick={enviar}>
            <RotateCcw className="h-4 w-4" aria-hidden /> Reintentar impresión
          </Button>
          <Button size="sm" variant="secondary" onClick={onNavegador}>
            <Printer className="h-4 w-4" aria-hidden /> Imprimir con el navegador
          </Button>
        </div>
      </div>
    );
  }
  return (
    <p
      className="mb-3 flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2 text-sm text-slate-700"
      aria-live="polite"
      data-testid="impresion-estado"
    >
      {imprimir.isSuccess ? (
        <>
          <CheckCircle2 className="h-4 w-4 text-emerald-600" aria-hidden />
          {imprimir.data.documento === 'factura' ? 'Factura impresa' : 'Ticket impreso'} en {caja.nombre}
          {imprimir.data.cajon ? ' · cajón abierto' : ''}.
          <Button size="sm" variant="ghost" className="ml-auto" onClick={() => mutate({ ventaId, caja_id: caja.id })}>
            Reimprimir
          </Button>
        </>
      ) : (
        <>
          <Printer className="h-4 w-4" aria-hidden /> Imprimiendo en {caja.nombre}…
        </>
      )}
    </p>
  );
}
