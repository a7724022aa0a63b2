import { AlertTriangle, Search, X } from 'lucide-react';
import { useCallback, useState } from 'react';
import { CONDICION_IVA_RECEPTOR_LABELS, cuitNumber, type PadronPersona } from '@mostrador/shared/facturacion';
import { Button } from '@/components/ui/button';
import { useCan } from '@/features/permissions/permissions.api';
import { errorMessage } from '@/lib/api';
import { useFacturacionModo, usePadron } from './facturacion.api';

/**
 * "Buscar en ARCA" beside a CUIT: asks ARCA's padrón (GET facturacion/padron/{cuit}) and hands
 * the name, address and IVA condition to the form, with ARCA's warnings (an inactive CUIT,
 * whose invoices ARCA rejects) shown beside it. Needs `ventas/ver` (the route's access).
 */
export function PadronButton({ cuit, onFound }: { cuit: string; onFound: (p: PadronPersona) => void }) {
  const can = useCan();
  const padron = usePadron();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [advertencias, setAdvertencias] = useState<string[]>([]);
  if (!can('ventas', 'ver')) return null;
  return (
    <div className="space-y-2">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 self-start whitespace-nowrap sm:self-auto"
          loading={padron.isPending}
          onClick={async () => {
            setNote(null);
            setAdvertencias([]);
            if (cuitNumber(cuit) === null) {
              setNote({ ok: false, text: 'Escribí un CUIT válido para buscarlo en ARCA.' });
              return;
            }
            try {
              const p = await padron.mutateAsync(cuit);
              onFound(p);
              setNote({ ok: true, text: `ARCA: ${p.nombre} · ${CONDICION_IVA_RECEPTOR_LABELS[p.condicion_iva]}` });
              setAdvertencias(p.advertencias);
            } catch (e) {
              setNote({ ok: false, text: errorMessage(e, 'No se pudo consultar el padrón de ARCA.') });
            }
          }}
        >
          <Search className="h-4 w-4" aria-hidden /> Buscar en ARCA
        </Button>
        {note && (
          <p
            role={note.ok ? 'status' : 'alert'}
            className={note.ok ? 'text-sm text-emerald-700' : 'text-sm text-red-700'}
          >
            {note.text}
          </p>
        )}
      </div>
      <PadronAdvertencias advertencias={advertencias} />
    </div>
  );
}

/** What ARCA's padrón warns of for a CUIT (inactive: invoices to it are rejected), as an amber note. */
export function PadronAdvertencias({
  advertencias,
  titulo,
  onClose,
}: {
  advertencias: string[];
  titulo?: string;
  onClose?: () => void;
}) {
  if (!advertencias.length) return null;
  return (
    <div
      role="alert"
      data-testid="padron-advertencias"
      className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1">
        {titulo && <p className="font-medium">{titulo}</p>}
        <ul className="space-y-1">
          {advertencias.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      </div>
      {onClose && (
        <button
          type="button"
          onClick={onClose}
          className="rounded p-0.5 text-amber-800 hover:bg-amber-100"
          aria-label="Cerrar advertencia"
        >
          <X className="h-4 w-4" aria-hidden />
        </button>
      )}
    </div>
  );
}

/**
 * After a customer with a CUIT is saved: ARCA's warnings for it, from the padrón (only when
 * invoicing is set up and the member may ask it; a failed lookup says nothing).
 */
export function usePadronCheck() {
  const can = useCan();
  const modo = useFacturacionModo();
  const padron = usePadron();
  const listo = Boolean(modo.data?.listo) && can('ventas', 'ver');
  const { mutateAsync } = padron;
  return useCallback(
    async (cuit: string): Promise<string[]> => {
      if (!listo || cuitNumber(cuit) === null) return [];
      try {
        return (await mutateAsync(cuit)).advertencias;
      } catch {
        return [];
      }
    },
    [listo, mutateAsync],
  );
}
