import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Devolucion } from '@mostrador/shared/devoluciones';
import { useBusiness } from '@/app/business-context';
import { api, request } from '@/lib/api';

export interface DevolucionBody {
  items: { item_id: string; cantidad: number }[];
  medio_pago_id: string;
  /** The cheque given back itself (decision 0057). */
  cheque_id?: string | null;
  motivo: string | null;
}

/** The returns of a sale (issue 15). */
export function useDevoluciones(ventaId: string | null) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: ['sales', b, 'devoluciones', ventaId],
    queryFn: () => api.get<Devolucion[]>(`/businesses/${b}/ventas/${ventaId}/devoluciones`),
    enabled: Boolean(b && ventaId),
  });
}

/**
 * POST …/ventas/{id}/devoluciones with the dialog's Idempotency-Key (a retry never returns twice);
 * a return moves stock, money, the turno and the customer's account.
 */
export function useCreateDevolucion() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ ventaId, body, key }: { ventaId: string; body: DevolucionBody; key: string }) =>
      (
        await request<Devolucion>(`/businesses/${b}/ventas/${ventaId}/devoluciones`, {
          method: 'POST',
          body,
          headers: { 'Idempotency-Key': key },
        })
      ).data,
    onSuccess: () => {
      for (const k of ['sales', 'dashboard', 'caja', 'inventory', 'finance', 'notifications', 'cheques']) {
        void qc.invalidateQueries({ queryKey: [k, b] });
      }
    },
  });
}
