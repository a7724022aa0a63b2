import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkPriceResult,
  ContenidoUnidad,
  PriceField,
  PriceRounding,
  Product,
  StockAdjustmentResult,
  StockMovement,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

/** Query keys per business: every inventory change invalidates ['inventory', b]. */
export const productKeys = {
  list: (b: string, f: ProductFilters) => ['inventory', b, 'products', f] as const,
  one: (b: string, id: string) => ['inventory', b, 'product', id] as const,
  movements: (b: string, id: string, page: number) => ['inventory', b, 'product', id, 'movements', page] as const,
};

export const productsPath = (b: string) => `/businesses/${b}/products`;

export interface ProductFilters {
  q?: string;
  categoria_id?: string;
  activo?: '' | 'true' | 'false';
  stock_bajo?: boolean;
  /** stock_actual is this depósito's (decision 0059). */
  deposito_id?: string;
  orden?: string;
  direccion?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** The query string of the list and the export (empty filters left out). */
export function productQuery(f: Omit<ProductFilters, 'limit' | 'offset'>) {
  return {
    q: f.q?.trim() || undefined,
    categoria_id: f.categoria_id || undefined,
    activo: f.activo || undefined,
    stock_bajo: f.stock_bajo ? 'true' : undefined,
    deposito_id: f.deposito_id || undefined,
    orden: f.orden,
    direccion: f.direccion,
  };
}

export function useProducts(f: ProductFilters) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: productKeys.list(b, f),
    queryFn: ({ signal }) =>
      api.page<Product>(productsPath(b), { ...productQuery(f), limit: f.limit, offset: f.offset }, signal),
    enabled: Boolean(b),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export interface ProductBody {
  nombre: string;
  descripcion: string | null;
  codigo: string | null;
  codigo_barras: string | null;
  /** Left out by members without ver_costos: the server keeps the cost as it is. */
  precio_compra?: number | null;
  precio_venta: number;
  stock_actual?: number;
  stock_minimo: number;
  unidad: string | null;
  categoria_id: string | null;
  activo: boolean;
  controla_stock: boolean;
  moneda?: 'ARS' | 'USD';
  precio_usd?: number | null;
  contenido?: number | null;
  contenido_unidad?: ContenidoUnidad | null;
}

function useInvalidate() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['inventory', businessId] });
}

export function useSaveProduct() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ProductBody }) =>
      id
        ? api.put<Product>(`${productsPath(businessId!)}/${id}`, body)
        : api.post<Product>(productsPath(businessId!), body),
    onSuccess: invalidate,
  });
}

export function useDeleteProduct() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${productsPath(businessId!)}/${id}`),
    onSuccess: invalidate,
  });
}

export function useAdjustStock() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; cantidad: number; motivo: string; deposito_id?: string }) =>
      api.post<StockAdjustmentResult>(`${productsPath(businessId!)}/${id}/ajuste-stock`, body),
    onSuccess: invalidate,
  });
}

export const STOCK_PAGE = 20;

export function useStockMovements(id: string | null, page: number) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: productKeys.movements(b, id ?? '', page),
    queryFn: () =>
      api.page<StockMovement>(`${productsPath(b)}/${id}/movimientos-stock`, {
        limit: STOCK_PAGE,
        offset: page * STOCK_PAGE,
      }),
    enabled: Boolean(b && id),
    placeholderData: keepPreviousData,
  });
}

export interface BulkPriceBody {
  porcentaje: number;
  categoria_id: string | null;
  campo: PriceField;
  redondeo: PriceRounding;
  incluir_inactivos: boolean;
  dry_run: boolean;
}

export function useBulkPrice() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkPriceBody) =>
      api.post<BulkPriceResult>(`${productsPath(businessId!)}/actualizacion-masiva`, body),
    onSuccess: (r) => {
      if (!r.dry_run) void qc.invalidateQueries({ queryKey: ['inventory', businessId] });
    },
  });
}
