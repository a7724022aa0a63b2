import { Printer } from 'lucide-react';
import { useState } from 'react';
import type { DocumentoTipo } from '@mostrador/shared/impresion';
import { PRESUPUESTO_ESTADO_LABELS, type PresupuestoEstado } from '@mostrador/shared/presupuestos';
import { REMITO_ESTADO_LABELS, type RemitoEstado } from '@mostrador/shared/remitos';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/misc';
import { ApiError, errorMessage, request } from '@/lib/api';

const PRESUPUESTO_COLORS: Record<PresupuestoEstado, 'gray' | 'blue' | 'green' | 'yellow' | 'purple' | 'red'> = {
  borrador: 'gray',
  enviado: 'blue',
  aceptado: 'green',
  vencido: 'yellow',
  convertido: 'purple',
  anulado: 'red',
};

export function PresupuestoEstadoBadge({ estado }: { estado: PresupuestoEstado }) {
  return (
    <Badge color={PRESUPUESTO_COLORS[estado]} className="whitespace-nowrap">
      {PRESUPUESTO_ESTADO_LABELS[estado]}
    </Badge>
  );
}

const REMITO_COLORS: Record<RemitoEstado, 'yellow' | 'green' | 'red'> = {
  pendiente: 'yellow',
  facturado: 'green',
  anulado: 'red',
};

export function RemitoEstadoBadge({ estado }: { estado: RemitoEstado }) {
  return (
    <Badge color={REMITO_COLORS[estado]} className="whitespace-nowrap">
      {REMITO_ESTADO_LABELS[estado]}
    </Badge>
  );
}

/** «Imprimir»: the document's A4 PDF opened in a new tab, where the browser prints it. */
export function ImprimirButton({ tipo, id }: { tipo: DocumentoTipo; id: string }) {
  const b = useBusiness().businessId ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function open() {
    setBusy(true);
    setError(null);
    // Opened now (a click's window), filled when the PDF arrives: popup blockers allow it.
    const win = window.open('', '_blank');
    try {
      const { data } = await request<Blob>(`/businesses/${b}/documentos/pdf`, { query: { tipo, id } });
      if (!(data instanceof Blob)) throw new ApiError(500, 'ERROR', 'No se pudo generar el PDF.');
      const url = URL.createObjectURL(data);
      if (win) win.location.href = url;
      else window.location.assign(url);
    } catch (e) {
      win?.close();
      setError(errorMessage(e, 'No se pudo generar el PDF.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="inline-flex flex-col">
      <Button variant="secondary" loading={busy} onClick={() => void open()}>
        <Printer className="h-4 w-4" aria-hidden /> Imprimir
      </Button>
      {error && (
        <span role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </span>
      )}
    </span>
  );
}
