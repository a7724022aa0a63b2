import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Conciliacion,
  MercadopagoConfig,
  MercadopagoConfigInput,
  MercadopagoProbar,
  Orden,
  OrdenInput,
} from '@mostrador/shared/mercadopago';
import { useBusiness } from '@/app/business-context';
import { api, ApiError, request } from '@/lib/api';

/* Mercado Pago at the counter (issue 34, decision 0052): the routes of packages/shared/src/mercadopago.ts. */
const base = (b: string) => `/businesses/${b}/mercadopago`;
export const mercadopagoKeys = {
  config: (b: string) => ['mercadopago', b, 'config'] as const,
  orden: (b: string, id: string) => ['mercadopago', b, 'orden', id] as const,
  conciliacion: (b: string, desde: string, hasta: string) => ['mercadopago', b, 'conciliacion', desde, hasta] as const,
};

const noRetryOn4xx = (count: number, e: unknown) =>
  !(e instanceof ApiError && e.status >= 400 && e.status < 500) && count < 2;

/** GET mercadopago/config (admins; others get 403 and the POS reads it as "not configured"). */
export function useMercadopagoConfig(enabled = true) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: mercadopagoKeys.config(b),
    queryFn: () => api.get<MercadopagoConfig>(`${base(b)}/config`),
    enabled: Boolean(b) && enabled,
    retry: noRetryOn4xx,
  });
}

export function useSaveMercadopagoConfig() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MercadopagoConfigInput) => api.put<MercadopagoConfig>(`${base(b)}/config`, body),
    onSuccess: (c) => {
      qc.setQueryData(mercadopagoKeys.config(b), c);
      // Saving creates (or reactivates) the medio "Mercado Pago".
      void qc.invalidateQueries({ queryKey: ['caja', b] });
    },
  });
}

export function useProbarMercadopago() {
  const b = useBusiness().businessId ?? '';
  return useMutation({ mutationFn: () => api.post<MercadopagoProbar>(`${base(b)}/config/probar`) });
}

/** POST mercadopago/ordenes with the attempt's own Idempotency-Key (a retry of the same attempt reuses it). */
export function useCrearOrden() {
  const b = useBusiness().businessId ?? '';
  return useMutation({
    mutationFn: async ({ key, ...body }: OrdenInput & { key: string }) =>
      (await request<Orden>(`${base(b)}/ordenes`, { method: 'POST', body, headers: { 'Idempotency-Key': key } })).data,
  });
}

/** GET mercadopago/ordenes/{id}, polled every 2 s while the order is pendiente. */
export function useOrden(id: string | null) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: mercadopagoKeys.orden(b, id ?? ''),
    queryFn: () => api.get<Orden>(`${base(b)}/ordenes/${id}`),
    enabled: Boolean(b && id),
    refetchInterval: (q) => (q.state.data && q.state.data.estado !== 'pendiente' ? false : 2000),
    refetchIntervalInBackground: true,
    retry: noRetryOn4xx,
  });
}

export function useCancelarOrden() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Orden>(`${base(b)}/ordenes/${id}/cancelar`),
    onSuccess: (o) => qc.setQueryData(mercadopagoKeys.orden(b, o.id), o),
  });
}

export function useConciliacion(desde: string, hasta: string) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: mercadopagoKeys.conciliacion(b, desde, hasta),
    queryFn: () => api.get<Conciliacion>(`${base(b)}/conciliacion`, { desde, hasta }),
    enabled: Boolean(b && desde && hasta),
    retry: noRetryOn4xx,
  });
}

export const conciliacionExportPath = (b: string) => `${base(b)}/conciliacion/exportar`;
