import type { ChequeRecibidoInput } from '@mostrador/shared/cheques';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MonthlySalesChart,
  RecordSaleResult,
  Sale,
  SaleList,
  SalesReport,
  SaleState,
} from '@mostrador/shared/sales';
import type { PaymentMethod } from '@mostrador/shared/payment-methods';
import { useBusiness } from '@/app/business-context';
import { api, request } from '@/lib/api';

/** Every sale invalidates ['sales', b], the dashboard and the stock and money it moved. */
export const salesKeys = {
  all: (b: string) => ['sales', b] as const,
  list: (b: string, f: SaleFilters) => ['sales', b, 'list', f] as const,
  one: (b: string, id: string) => ['sales', b, 'sale', id] as const,
  report: (b: string, desde: string, hasta: string) => ['sales', b, 'report', desde, hasta] as const,
  monthly: (b: string) => ['sales', b, 'monthly'] as const,
};

export interface SaleLineBody {
  id: string;
  tipo: 'producto' | 'servicio';
  cantidad: number;
  precio?: number;
}

export interface SaleBody {
  negocio_id: string;
  cliente_id: string | null;
  /** The contract's code; the POS sends `pagos` with the business's medios instead. */
  metodo_pago?: PaymentMethod;
  pagos?: { medio_pago_id: string; monto: number; mercadopago_orden_id?: string; cheque?: ChequeRecibidoInput }[];
  turno_id?: string;
  observaciones: string | null;
  descuento: number;
  /** Invoice it in ARCA (issue 16); the config's `siempre` invoices every sale anyway. */
  facturar?: boolean;
  items: SaleLineBody[];
}

function useInvalidateAfterSale() {
  const qc = useQueryClient();
  return (b: string) => {
    void qc.invalidateQueries({ queryKey: salesKeys.all(b) });
    void qc.invalidateQueries({ queryKey: ['dashboard', b] });
    // Turnos (what is expected in the caja) and customers' accounts.
    void qc.invalidateQueries({ queryKey: ['caja', b] });
    void qc.invalidateQueries({ queryKey: ['inventory', b] });
    void qc.invalidateQueries({ queryKey: ['finance', b] });
    void qc.invalidateQueries({ queryKey: ['notifications', b] });
  };
}

/** POST /ventas/record-sale with the cart's Idempotency-Key: a retry never records it twice. */
export function useRecordSale() {
  const invalidate = useInvalidateAfterSale();
  return useMutation({
    mutationFn: async ({ body, key }: { body: SaleBody; key: string }) =>
      (
        await request<RecordSaleResult>('/ventas/record-sale', {
          method: 'POST',
          body,
          headers: { 'Idempotency-Key': key },
        })
      ).data,
    onSuccess: (_r, v) => invalidate(v.body.negocio_id),
  });
}

export function useSale(id: string | null) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: salesKeys.one(b, id ?? ''),
    queryFn: () => api.get<Sale>(`/businesses/${b}/ventas/sales/${id}`),
    enabled: Boolean(b && id),
    staleTime: 60_000,
  });
}

export interface SaleFilters {
  fecha_desde?: string;
  fecha_hasta?: string;
  estado?: SaleState | '';
  orden?: string;
  direccion?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export function useSales(f: SaleFilters, enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: salesKeys.list(b, f),
    queryFn: () =>
      api.get<SaleList>(`/businesses/${b}/ventas/sales`, {
        fecha_desde: f.fecha_desde,
        fecha_hasta: f.fecha_hasta,
        estado: f.estado || undefined,
        orden: f.orden,
        direccion: f.direccion,
        limit: f.limit,
        offset: f.offset,
      }),
    enabled: Boolean(b) && enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function useSalesReport(desde: string, hasta: string, enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: salesKeys.report(b, desde, hasta),
    queryFn: () => api.get<SalesReport>(`/businesses/${b}/ventas/reporte`, { fecha_desde: desde, fecha_hasta: hasta }),
    enabled: Boolean(b && desde && hasta) && enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useVoidSale() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidateAfterSale();
  return useMutation({
    mutationFn: ({ id, motivo }: { id: string; motivo: string | null }) =>
      api.post<Sale>(`/businesses/${businessId}/ventas/${id}/anular`, { motivo }),
    onSuccess: () => invalidate(businessId!),
  });
}

export function useMonthlySalesChart(enabled: boolean) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: salesKeys.monthly(b),
    queryFn: () => api.get<MonthlySalesChart>('/ventas/monthly-sales-chart', { negocio_id: b }),
    enabled: Boolean(b) && enabled,
    staleTime: 5 * 60_000,
  });
}
