import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Subscription, SubscriptionFrequency, SubscriptionState } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api, request } from '@/lib/api';

const base = (b: string) => `/businesses/${b}/subscriptions`;

export interface SubscriptionFilters {
  q?: string;
  estado?: SubscriptionState | '';
  cliente_id?: string;
  limit: number;
  offset: number;
}

export function useSubscriptions(f: SubscriptionFilters, enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: ['inventory', b, 'subscriptions', f],
    queryFn: ({ signal }) => api.page<Subscription>(base(b), { ...f, q: f.q?.trim() }, signal),
    enabled: Boolean(b) && enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export interface SubscriptionBody {
  cliente_id: string;
  servicio_id: string | null;
  nombre: string | null;
  descripcion: string | null;
  precio: number | null;
  frecuencia: SubscriptionFrequency;
  fecha_inicio: string | null;
  fecha_fin: string | null;
}

function useInvalidate() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['inventory', businessId] });
}

export function useSaveSubscription() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: SubscriptionBody }) =>
      id ? api.put<Subscription>(`${base(businessId!)}/${id}`, body) : api.post<Subscription>(base(businessId!), body),
    onSuccess: invalidate,
  });
}

export function useSetSubscriptionState() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, estado }: { id: string; estado: SubscriptionState }) =>
      request<Subscription>(`${base(businessId!)}/${id}/estado`, { method: 'PATCH', query: { estado }, body: {} }),
    onSuccess: invalidate,
  });
}

export function useDeleteSubscription() {
  const { businessId } = useBusiness();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(businessId!)}/${id}`),
    onSuccess: invalidate,
  });
}
