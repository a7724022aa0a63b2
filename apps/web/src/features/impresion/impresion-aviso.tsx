import { CheckCircle2, Printer, RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api';

/*
 * What printing on the caja's printer did (issue 35), the same for every document: printing…,
 * printed (with «Reimprimir»), or what failed with «Reintentar impresión» and the browser's dialog
 * as the fallback. The document is recorded whatever happens here.
 */
export function ImpresionAviso({
  estado,
  error,
  fallo,
  impreso,
  imprimiendo,
  onReintentar,
  onNavegador,
  onReimprimir,
}: {
  estado: 'imprimiendo' | 'impreso' | 'error';
  error?: unknown;
  /** The failure's first sentence: "No se pudo imprimir el ticket. La venta quedó registrada." */
  fallo: string;
  /** "Ticket impreso en Caja 1 · cajón abierto." */
  impreso: ReactNode;
  /** "Imprimiendo en Caja 1…" */
  imprimiendo: ReactNode;
  onReintentar: () => void;
  onNavegador: () => void;
  onReimprimir: () => void;
}) {
  if (estado === 'error') {
    return (
      <div role="alert" className="mb-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        <p className="font-semibold">{fallo}</p>
        <p className="mt-1">{errorMessage(error, 'La impresora no respondió.')}</p>
        <div className="mt-2 flex flex-wrap gap-2">
          <Button size="sm" onClick={onReintentar}>
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
      {estado === 'impreso' ? (
        <>
          <CheckCircle2 className="h-4 w-4 shrink-0 text-emerald-600" aria-hidden />
          <span className="min-w-0 flex-1">{impreso}</span>
          <Button size="sm" variant="ghost" className="shrink-0" onClick={onReimprimir}>
            Reimprimir
          </Button>
        </>
      ) : (
        <>
          <Printer className="h-4 w-4 shrink-0" aria-hidden /> <span className="min-w-0 flex-1">{imprimiendo}</span>
        </>
      )}
    </p>
  );
}
