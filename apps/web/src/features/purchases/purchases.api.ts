import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentCondition, Product, Purchase, PurchaseState } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api, request } from '@/lib/api';
import type { facturaBody } from './factura-section';

/** Query keys per business: every purchase change invalidates ['purchases', b]. */
export const purchaseKeys = {
  all: (b: string) => ['purchases', b] as const,
  list: (b: string, f: PurchaseFilters) => ['purchases', b, 'list', f] as const,
  one: (b: string, id: string) => ['purchases', b, 'one', id] as const,
};

export const purchasesPath = (b: string) => `/businesses/${b}/compras`;

export interface PurchaseFilters {
  proveedor_id?: string;
  estado?: PurchaseState | '';
  fecha_desde?: string;
  fecha_hasta?: string;
  orden?: string;
  direccion?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** The query string of the list and the export (empty filters left out). */
export const purchaseQuery = (f: Omit<PurchaseFilters, 'limit' | 'offset'>) => ({
  proveedor_id: f.proveedor_id || undefined,
  estado: f.estado || undefined,
  fecha_desde: f.fecha_desde || undefined,
  fecha_hasta: f.fecha_hasta || undefined,
  orden: f.orden || undefined,
  direccion: f.orden ? f.direccion : undefined,
});

export function usePurchases(f: PurchaseFilters, enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: purchaseKeys.list(b, f),
    queryFn: ({ signal }) =>
      api.page<Purchase>(purchasesPath(b), { ...purchaseQuery(f), limit: f.limit, offset: f.offset }, signal),
    enabled: Boolean(b) && enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function usePurchase(id: string | undefined) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: purchaseKeys.one(b, id ?? ''),
    queryFn: () => api.get<Purchase>(`${purchasesPath(b)}/${id}`),
    enabled: Boolean(b && id),
    staleTime: 30_000,
  });
}

export interface PurchaseBody {
  proveedor_id: string | null;
  proveedor_nombre: string | null;
  fecha: string;
  fecha_entrega: string | null;
  condicion_pago: PaymentCondition;
  metodo_pago: string | null;
  fecha_vencimiento: string | null;
  observaciones: string | null;
  items: { producto_id: string; cantidad: number; precio_unitario: number }[];
  estado?: 'pendiente' | 'recibida';
  /** The supplier's invoice (decision 0021); null removes it; left out keeps it. */
  factura?: ReturnType<typeof facturaBody>;
}

/** A purchase moves stock, costs, money and what a supplier is owed: all of those refresh. */
function useInvalidate() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: purchaseKeys.all(businessId!) }),
      qc.invalidateQueries({ queryKey: ['suppliers', businessId] }),
      qc.invalidateQueries({ queryKey: ['inventory', businessId] }),
      qc.invalidateQueries({ queryKey: ['finance', businessId] }),
    ]);
}

export function useSavePurchase() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: PurchaseBody }) =>
      id
        ? api.put<Purchase>(`${purchasesPath(businessId!)}/${id}`, body)
        : api.post<Purchase>(purchasesPath(businessId!), body),
    onSuccess: invalidate,
  });
}

export function useSetPurchaseState() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, estado }: { id: string; estado: PurchaseState }) =>
      api.put<Purchase>(`${purchasesPath(businessId!)}/${id}`, { estado }),
    onSuccess: invalidate,
  });
}

export function useDeletePurchase() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${purchasesPath(businessId!)}/${id}`),
    onSuccess: invalidate,
  });
}

/** Products matching what is typed, for the order lines (active ones, a few at a time). */
export const productSearchOptions = (b: string, q: string) => {
  const term = q.trim();
  return {
    queryKey: ['inventory', b, 'purchase-search', term] as const,
    queryFn: async ({ signal }: { signal?: AbortSignal }): Promise<Product[]> =>
      (
        await request<Product[]>(`/businesses/${b}/products`, {
          query: { q: term, activo: 'true', limit: 8, orden: 'nombre' },
          signal,
        })
      ).data,
    staleTime: 30_000,
  };
};

export function useProductSearch(q: string) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    ...productSearchOptions(b, q),
    enabled: Boolean(b) && q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}
