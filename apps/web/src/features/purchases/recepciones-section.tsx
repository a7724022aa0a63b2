import { Tags } from 'lucide-react';
import { useState } from 'react';
import type { Recepcion } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Badge, Card, ErrorNote, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatNumber } from '@/lib/format';
import { fetchSugerencias, useRecepciones } from './recepciones.api';
import type { SugerenciasTarget } from './sugerencias-dialog';

/**
 * The receptions of a purchase (who, when, what arrived), with a way back to the prices a
 * reception suggested for members who see costs and may change prices.
 */
export function RecepcionesSection({
  compraId,
  canPrice,
  onSuggest,
  onNothing,
}: {
  compraId: string;
  canPrice: boolean;
  onSuggest: (t: SugerenciasTarget) => void;
  onNothing: (message: string) => void;
}) {
  const { businessId, formatting } = useBusiness();
  const recepciones = useRecepciones(compraId);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (recepciones.isPending) return <Skeleton className="mt-4 h-24" />;
  if (recepciones.error) {
    return (
      <div className="mt-4">
        <ErrorNote>{errorMessage(recepciones.error, 'No se pudieron cargar las recepciones.')}</ErrorNote>
      </div>
    );
  }
  const list = recepciones.data;
  if (!list.length) return null;

  const suggest = async (r: Recepcion) => {
    setBusy(r.id);
    setError(null);
    try {
      const { sugerencias } = await fetchSugerencias(businessId!, compraId, r.id);
      if (sugerencias.length) onSuggest({ compraId, recepcionId: r.id, sugerencias });
      else onNothing(`La recepción ${r.numero} no tiene precios para actualizar.`);
    } catch (e) {
      setError(errorMessage(e, 'No se pudieron calcular los precios sugeridos.'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card className="mt-4 print:hidden">
      <h2 className="mb-3 text-base font-semibold text-slate-900">Recepciones</h2>
      {error && (
        <div className="mb-3">
          <ErrorNote>{error}</ErrorNote>
        </div>
      )}
      <ol className="divide-y divide-slate-100" aria-label="Recepciones de la compra">
        {list.map((r) => (
          <li key={r.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0 text-sm">
              <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                Recepción {r.numero}
                {r.revertida_en && <Badge color="gray">Revertida</Badge>}
              </p>
              <p className="text-xs text-slate-500">
                {formatDateTime(r.creado_en, formatting)}
                {r.creado_por_nombre ? ` · ${r.creado_por_nombre}` : ''}
              </p>
              <p className="mt-1 text-slate-700">
                {r.lineas
                  .map((l) => `${l.producto_nombre}: ${formatNumber(l.cantidad, formatting)} ${l.unidad}`)
                  .join(' · ')}
              </p>
            </div>
            {canPrice && !r.revertida_en && (
              <Button variant="secondary" className="shrink-0" loading={busy === r.id} onClick={() => void suggest(r)}>
                <Tags className="h-4 w-4" aria-hidden />
                Precios sugeridos
              </Button>
            )}
          </li>
        ))}
      </ol>
    </Card>
  );
}
