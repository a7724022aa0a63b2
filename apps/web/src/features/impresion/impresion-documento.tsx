import { Printer } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { DocumentoTipo } from '@mostrador/shared/impresion';
import { Button } from '@/components/ui/button';
import { useCajas } from '@/features/caja/caja.api';
import { usePosCaja } from '@/features/pos/device-caja';
import { ImpresionAviso } from './impresion-aviso';
import { useImprimirDocumento } from './impresion.api';

type Tipo = Extract<DocumentoTipo, 'cobro' | 'devolucion' | 'cierre'>;

const TEXTOS: Record<Tipo, { fallo: string; impreso: string }> = {
  cobro: { fallo: 'No se pudo imprimir el recibo. El cobro quedó registrado.', impreso: 'Recibo impreso' },
  devolucion: {
    fallo: 'No se pudo imprimir la devolución. La devolución quedó registrada.',
    impreso: 'Devolución impresa',
  },
  cierre: { fallo: 'No se pudo imprimir el cierre. El turno quedó cerrado.', impreso: 'Cierre impreso' },
};

/*
 * A cobro's receipt, a return or a turno's closing printed on the caja's printer without any
 * dialog (issue 35), as the POS prints its sales: `POST …/documentos/imprimir`. The caja is the
 * one named (the turno's, for its closing) or this device's. Without a printer on it, nothing
 * shows and the browser's buttons stay as they were. Just made (`auto`): it prints by itself;
 * opened again: «Imprimir en <caja>».
 */
export function ImpresionDocumento({
  tipo,
  id,
  cajaId,
  auto,
  onNavegador,
}: {
  tipo: Tipo;
  id: string;
  /** The caja to print on; this device's when absent. */
  cajaId?: string;
  auto: boolean;
  /** Prints with the browser's dialog instead. */
  onNavegador: () => void;
}) {
  const cajas = useCajas();
  const delDispositivo = usePosCaja(cajaId === undefined).caja;
  const caja = cajaId ? (cajas.data?.find((c) => c.id === cajaId) ?? null) : delDispositivo;
  const imprimir = useImprimirDocumento();
  const { mutate } = imprimir;
  const conImpresora = Boolean(caja?.impresora);
  const enviar = () => caja && mutate({ tipo, id, caja_id: caja.id });
  const started = useRef(false);
  useEffect(() => {
    if (!auto || started.current || !caja || !conImpresora) return;
    started.current = true;
    mutate({ tipo, id, caja_id: caja.id });
  }, [auto, caja, conImpresora, mutate, tipo, id]);

  if (!caja || !conImpresora) return null;
  if (imprimir.isIdle) {
    return (
      <p className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <Button size="sm" variant="secondary" onClick={enviar}>
          <Printer className="h-4 w-4" aria-hidden /> Imprimir en {caja.nombre}
        </Button>
      </p>
    );
  }
  return (
    <ImpresionAviso
      estado={imprimir.isError ? 'error' : imprimir.isSuccess ? 'impreso' : 'imprimiendo'}
      error={imprimir.error}
      fallo={TEXTOS[tipo].fallo}
      impreso={`${TEXTOS[tipo].impreso} en ${caja.nombre}.`}
      imprimiendo={`Imprimiendo en ${caja.nombre}…`}
      onReintentar={enviar}
      onNavegador={onNavegador}
      onReimprimir={enviar}
    />
  );
}
