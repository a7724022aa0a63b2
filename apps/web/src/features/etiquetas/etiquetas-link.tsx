import { Link } from 'react-router';
import { Tags } from 'lucide-react';
import type { PrecioOrigen } from '@mostrador/shared/precios';

/**
 * «Imprimir etiquetas de lo que cambió» (issue 35): the labels screen with the products one price
 * change wrote (a supplier list, a cotización, a bulk change), by its origin and id.
 */
export function EtiquetasLink({ origen, referenciaId }: { origen: PrecioOrigen; referenciaId: string }) {
  return (
    <Link
      className="inline-flex h-10 items-center gap-2 rounded-lg px-4 text-sm font-medium text-blue-700 ring-1 ring-inset ring-blue-200 hover:bg-blue-50"
      to={`/etiquetas?origen=${origen}&referencia_id=${encodeURIComponent(referenciaId)}`}
    >
      <Tags className="h-4 w-4" aria-hidden /> Imprimir etiquetas de lo que cambió
    </Link>
  );
}
