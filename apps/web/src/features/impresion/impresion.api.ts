import { useMutation } from '@tanstack/react-query';
import type { DocumentoImprimirInput, Impresion, VentaImprimirInput } from '@mostrador/shared/impresion';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';
import { enviarAImpresoraDelNavegador } from './navegador';

/*
 * Printing without the dialog (issue 35): the server renders ESC/POS and prints on the caja's
 * network printer, or answers the bytes for the printer attached to this device, which the
 * browser sends itself (WebUSB / Web Serial).
 */

async function entregar(r: Impresion): Promise<Impresion> {
  if (r.destino === 'navegador' && r.escpos) await enviarAImpresoraDelNavegador(r.escpos);
  return r;
}

/** `POST …/ventas/{ventaId}/imprimir`: the sale's invoice or ticket on the caja's printer. */
export function useImprimirVenta() {
  const b = useBusiness().businessId ?? '';
  return useMutation({
    mutationFn: async (v: { ventaId: string } & VentaImprimirInput) =>
      entregar(
        await api.post<Impresion>(`/businesses/${b}/ventas/${v.ventaId}/imprimir`, {
          caja_id: v.caja_id,
          abrir_cajon: v.abrir_cajon,
        }),
      ),
  });
}

/** `POST …/documentos/imprimir`: a cobro, a return, a closing, an estado de cuenta. */
export function useImprimirDocumento() {
  const b = useBusiness().businessId ?? '';
  return useMutation({
    mutationFn: async (v: DocumentoImprimirInput) =>
      entregar(await api.post<Impresion>(`/businesses/${b}/documentos/imprimir`, v)),
  });
}
