import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CodigoProveedor,
  Cotizacion,
  CotizacionResult,
  ListaPrecios,
  ListaPreciosInput,
  PrecioFijo,
  PrecioHistorial,
  ReglaMargen,
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

/* Stored margin rules and supplier codes (issue 17, decision 0024). */

export const margenKeys = {
  reglas: (b: string) => ['inventory', b, 'reglas-margen'] as const,
  codigos: (b: string, id: string) => ['inventory', b, 'product', id, 'codigos-proveedor'] as const,
};

export function useReglasMargen(enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: margenKeys.reglas(b),
    queryFn: () => api.get<ReglaMargen[]>(`/businesses/${b}/reglas-margen`),
    enabled: Boolean(b) && enabled,
    staleTime: 60_000,
  });
}

export function useSetReglaMargen() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: (body: { producto_id?: string; categoria_id?: string; proveedor_id?: string; margen: string }) =>
      api.put<ReglaMargen>(`/businesses/${businessId}/reglas-margen`, body),
    onSuccess: invalidate,
  });
}

export function useDeleteReglaMargen() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/businesses/${businessId}/reglas-margen/${id}`),
    onSuccess: invalidate,
  });
}

export function useCodigosProveedor(productId: string | null) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: margenKeys.codigos(b, productId ?? ''),
    queryFn: () => api.get<CodigoProveedor[]>(`/businesses/${b}/products/${productId}/codigos-proveedor`),
    enabled: Boolean(b && productId),
  });
}

export function useSetCodigosProveedor() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidateInventory();
  return useMutation({
    mutationFn: ({ id, codigos }: { id: string; codigos: { proveedor_id: string; codigo: string }[] }) =>
      api.put<CodigoProveedor[]>(`/businesses/${businessId}/products/${id}/codigos-proveedor`, { codigos }),
    onSuccess: invalidate,
  });
}
