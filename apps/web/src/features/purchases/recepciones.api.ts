import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Purchase, Recepcion, SugerenciaPrecio } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';
import { purchaseKeys, purchasesPath } from './purchases.api';

/** Receptions of one purchase and the prices they suggest (decision 0023). */
const recepcionesPath = (b: string, compraId: string) => `${purchasesPath(b)}/${compraId}/recepciones`;
const recepcionesKey = (b: string, compraId: string) => [...purchaseKeys.all(b), 'recepciones', compraId] as const;

export interface RecepcionResult {
  recepcion: Recepcion;
  compra: Purchase;
  sugerencias: SugerenciaPrecio[];
}

export function useRecepciones(compraId: string) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: recepcionesKey(b, compraId),
    queryFn: () => api.get<Recepcion[]>(recepcionesPath(b, compraId)),
    enabled: Boolean(b),
    staleTime: 30_000,
  });
}

/** Stock, costs and prices change: purchases, inventory and price screens refresh. */
function useInvalidate() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: purchaseKeys.all(businessId!) }),
      qc.invalidateQueries({ queryKey: ['inventory', businessId] }),
      qc.invalidateQueries({ queryKey: ['precios', businessId] }),
    ]);
}

export function useRecibir() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ compraId, lineas }: { compraId: string; lineas: { linea_id: string; cantidad: string }[] }) =>
      api.post<RecepcionResult>(recepcionesPath(businessId!, compraId), { lineas }),
    onSuccess: invalidate,
  });
}

/** The server's suggestion for one reception, computed now. */
export function fetchSugerencias(b: string, compraId: string, recepcionId: string) {
  return api.get<{ sugerencias: SugerenciaPrecio[] }>(`${recepcionesPath(b, compraId)}/${recepcionId}/precios`);
}

export function useAplicarPrecios() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ compraId, recepcionId, ids }: { compraId: string; recepcionId: string; ids: string[] }) =>
      api.post<{ aplicados: SugerenciaPrecio[] }>(`${recepcionesPath(businessId!, compraId)}/${recepcionId}/precios`, {
        producto_ids: ids,
      }),
    onSuccess: invalidate,
  });
}
