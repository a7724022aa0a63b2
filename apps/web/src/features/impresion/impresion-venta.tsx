import { useEffect, useRef } from 'react';
import type { Caja } from '@mostrador/shared/caja';
import { ImpresionAviso } from './impresion-aviso';
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

  return (
    <ImpresionAviso
      estado={imprimir.isError ? 'error' : imprimir.isSuccess ? 'impreso' : 'imprimiendo'}
      error={imprimir.error}
      fallo="No se pudo imprimir el ticket. La venta quedó registrada."
      impreso={
        imprimir.data && (
          <>
            {imprimir.data.documento === 'factura' ? 'Factura impresa' : 'Ticket impreso'} en {caja.nombre}
            {imprimir.data.cajon ? ' · cajón abierto' : ''}.
          </>
        )
      }
      imprimiendo={`Imprimiendo en ${caja.nombre}…`}
      onReintentar={enviar}
      onNavegador={onNavegador}
      onReimprimir={() => mutate({ ventaId, caja_id: caja.id })}
    />
  );
}
