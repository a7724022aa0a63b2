import { Printer } from 'lucide-react';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { ComprobanteEstadoNote } from './comprobante-ui';
import { useComprobante } from './facturacion.api';
import { PrintableInvoice, printInvoice } from './invoice-document';
import { CompartirButton } from '@/features/impresion/compartir';

/**
 * The invoice of the sale just recorded: the sale never waits for ARCA, so this follows the
 * comprobante (pendiente → autorizado with its CAE, or rechazado with what to do) and offers
 * printing it once it has its CAE.
 */
export default function PosComprobante({ id }: { id: string }) {
  const { formatting } = useBusiness();
  const q = useComprobante(id);
  const c = q.data;
  if (q.error) return <p className="mt-3 text-sm text-red-700">{errorMessage(q.error)}</p>;
  if (!c) return <Skeleton className="mt-3 h-14" />;
  return (
    <div data-testid="pos-comprobante" data-estado={c.estado}>
      <ComprobanteEstadoNote comprobante={c} onRetry compact pos />
      {c.estado === 'autorizado' && (
        <>
          <PrintableInvoice comprobante={c} formatting={formatting} />
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            <Button variant="secondary" onClick={() => printInvoice('80mm')}>
              <Printer className="h-4 w-4" aria-hidden /> Factura 80 mm
            </Button>
            <Button variant="secondary" onClick={() => printInvoice('a4')}>
              <Printer className="h-4 w-4" aria-hidden /> Factura A4
            </Button>
            <CompartirButton tipo="factura" id={c.id} label="Compartir factura" />
          </div>
        </>
      )}
    </div>
  );
}
