import { Search } from 'lucide-react';
import { useState } from 'react';
import { CONDICION_IVA_RECEPTOR_LABELS, cuitNumber, type PadronPersona } from '@mostrador/shared/facturacion';
import { Button } from '@/components/ui/button';
import { useCan } from '@/features/permissions/permissions.api';
import { errorMessage } from '@/lib/api';
import { usePadron } from './facturacion.api';

/**
 * "Buscar en ARCA" beside a CUIT: asks ARCA's padrón (GET facturacion/padron/{cuit}) and hands
 * the name, address and IVA condition to the form. Needs `ventas/ver` (the route's access).
 */
export function PadronButton({ cuit, onFound }: { cuit: string; onFound: (p: PadronPersona) => void }) {
  const can = useCan();
  const padron = usePadron();
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  if (!can('ventas', 'ver')) return null;
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
      <Button
        variant="secondary"
        size="sm"
        className="shrink-0 self-start whitespace-nowrap sm:self-auto"
        loading={padron.isPending}
        onClick={async () => {
          setNote(null);
          if (cuitNumber(cuit) === null) {
            setNote({ ok: false, text: 'Escribí un CUIT válido para buscarlo en ARCA.' });
            return;
          }
          try {
            const p = await padron.mutateAsync(cuit);
            onFound(p);
            setNote({ ok: true, text: `ARCA: ${p.nombre} · ${CONDICION_IVA_RECEPTOR_LABELS[p.condicion_iva]}` });
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
  );
}
