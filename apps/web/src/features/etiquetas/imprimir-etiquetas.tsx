import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, Printer, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { EtiquetasImpresion } from '@mostrador/shared/etiquetas';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/input';
import { useCajas } from '@/features/caja/caja.api';
import { deviceCaja } from '@/features/pos/device-caja';
import { api, errorMessage } from '@/lib/api';

/*
 * The labels sent to a caja's label printer as ZPL (issue 35, decision 0054) instead of the PDF:
 * shown only when some caja has one (this device's first). A failure says what failed, with
 * «Reintentar impresión»; the PDF stays as the fallback.
 */
export function ImprimirEtiquetas({ query, disabled }: { query: Record<string, unknown>; disabled: boolean }) {
  const { businessId } = useBusiness();
  const cajas = (useCajas().data ?? []).filter((c) => c.activa && c.impresora_etiquetas);
  const propia = businessId ? deviceCaja.get(businessId) : null;
  const [elegida, setElegida] = useState<string | null>(null);
  const caja = cajas.find((c) => c.id === elegida) ?? cajas.find((c) => c.id === propia) ?? cajas[0];
  const imprimir = useMutation({
    mutationFn: (cajaId: string) =>
      api.post<EtiquetasImpresion>(`/businesses/${businessId}/etiquetas/imprimir`, { caja_id: cajaId, ...query }),
  });
  if (!caja) return null;
  const enviar = () => imprimir.mutate(caja.id);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end justify-end gap-2">
        {cajas.length > 1 && (
          <Field id="etiquetas-impresora" label="Impresora de etiquetas">
            <Select id="etiquetas-impresora" value={caja.id} onChange={(e) => setElegida(e.target.value)}>
              {cajas.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.nombre}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <Button variant="secondary" disabled={disabled} loading={imprimir.isPending} onClick={enviar}>
          <Printer className="h-4 w-4" aria-hidden /> Imprimir en la impresora de etiquetas
        </Button>
      </div>
      {imprimir.isError && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">No se pudieron imprimir las etiquetas.</p>
          <p className="mt-1">{errorMessage(imprimir.error, 'La impresora de etiquetas no respondió.')}</p>
          <p className="mt-1">Podés reintentar o descargar el PDF para imprimirlas en hojas A4.</p>
          <Button size="sm" className="mt-2" onClick={enviar}>
            <RotateCcw className="h-4 w-4" aria-hidden /> Reintentar impresión
          </Button>
        </div>
      )}
      {imprimir.isSuccess && (
        <p
          role="status"
          className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2 text-sm text-slate-700"
        >
          <CheckCircle2 className="h-4 w-4 shrink-0 text-emerald-600" aria-hidden />
          {imprimir.data.etiquetas === 1
            ? 'Se imprimió 1 etiqueta'
            : `Se imprimieron ${imprimir.data.etiquetas} etiquetas`}{' '}
          en la impresora de {caja.nombre}.
        </p>
      )}
    </div>
  );
}
