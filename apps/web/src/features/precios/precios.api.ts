import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Cotizacion,
  CotizacionResult,
  ListaPrecios,
  ListaPreciosInput,
  PrecioFijo,
  PrecioHistorial,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

/* Price history and price lists (issue 17). Lists live with the catalogue: every change invalidates `inventory`. */

export const precioKeys = {
  historial: (b: string, id: string, page: number) => ['inventory', b, 'product', id, 'precios', page] as const,
  listas: (b: string) => ['inventory', b, 'listas-precios'] as const,
  fijos: (b: string, id: string) => ['inventory', b, 'listas-precios', id, 'precios'] as const,
};

export const HISTORIAL_PAGE = 20;

export function usePrecioHistorial(id: string | null, page: number) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: precioKeys.historial(b, id ?? '', page),
    queryFn: () =>
      api.page<PrecioHistorial>(`/businesses/${b}/products/${id}/precios/historial`, {
        limit: HISTORIAL_PAGE,
        offset: page * HISTORIAL_PAGE,
      }),
    enabled: Boolean(b && id),
    placeholderData: keepPreviousData,
  });
}

export function useListasPrecios(enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: precioKeys.listas(b),
    queryFn: () => api.get<ListaPrecios[]>(`/businesses/${b}/listas-precios`),
    enabled: Boolean(b) && enabled,
    staleTime: 60_000,
  });
}

export function usePreciosFijos(listaId: string | null) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: precioKeys.fijos(b, listaId ?? ''),
    queryFn: () => api.get<PrecioFijo[]>(`/businesses/${b}/listas-precios/${listaId}/precios`),
    enabled: Boolean(b && listaId),
  });
}

function useInvalidateInventory() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['inventory', businessId] });
}

export function useSaveLista() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ListaPreciosInput }) =>
      id
        ? api.patch<ListaPrecios>(`/businesses/${businessId}/listas-precios/${id}`, body)
        : api.post<ListaPrecios>(`/businesses/${businessId}/listas-precios`, body),
    onSuccess: invalidate,
  });
}

export function useDeleteLista() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/businesses/${businessId}/listas-precios/${id}`),
    onSuccess: invalidate,
  });
}

export function useSetPreciosFijos() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: ({
      id,
      precios,
    }: {
      id: string;
      precios: { producto_id: string; precio: number | string | null; cantidad_minima?: number | string | null }[];
    }) =>
      api.put<{ actualizados: number; eliminados: number }>(`/businesses/${businessId}/listas-precios/${id}/precios`, {
        precios,
      }),
    onSuccess: invalidate,
  });
}

export const cotizacionKeys = {
  list: (b: string) => ['inventory', b, 'cotizaciones'] as const,
};

/** The cotizaciones, newest first: the first one is in force. */
export function useCotizaciones(enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: cotizacionKeys.list(b),
    queryFn: () => api.get<Cotizacion[]>(`/businesses/${b}/cotizaciones`, { limit: 20 }),
    enabled: Boolean(b) && enabled,
    staleTime: 60_000,
  });
}

/** A new cotización: `preview` says what it would change; otherwise it applies. */
export function useNuevaCotizacion() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: ({ fecha, valor, preview }: { fecha: string; valor: string; preview: boolean }) =>
      api.post<CotizacionResult>(`/businesses/${businessId}/cotizaciones${preview ? '?preview=1' : ''}`, {
        fecha,
        valor,
      }),
    onSuccess: (_r, v) => (v.preview ? undefined : invalidate()),
  });
}
