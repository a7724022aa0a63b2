import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Remito,
  RemitoEstado,
  RemitoInput,
  RemitoList,
  RemitosFacturados,
  RemitosFacturarInput,
} from '@mostrador/shared/remitos';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

export const remitoKeys = {
  all: (b: string) => ['remitos', b] as const,
  list: (b: string, f: RemitoFilters) => ['remitos', b, 'list', f] as const,
  one: (b: string, id: string) => ['remitos', b, 'one', id] as const,
};

export const remitosPath = (b: string) => `/businesses/${b}/remitos`;

export interface RemitoFilters {
  estado?: RemitoEstado | '';
  cliente_id?: string;
  limit: number;
  offset: number;
}

export function useRemitos(f: RemitoFilters, enabled = true) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: remitoKeys.list(b, f),
    queryFn: () =>
      api.get<RemitoList>(remitosPath(b), {
        estado: f.estado || undefined,
        cliente_id: f.cliente_id || undefined,
        limit: f.limit,
        offset: f.offset,
      }),
    enabled: Boolean(b) && enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function useRemito(id: string | undefined) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: remitoKeys.one(b, id ?? ''),
    queryFn: () => api.get<Remito>(`${remitosPath(b)}/${id}`),
    enabled: Boolean(b && id),
    staleTime: 30_000,
  });
}

function useInvalidate() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: remitoKeys.all(b) }),
      qc.invalidateQueries({ queryKey: ['presupuestos', b] }),
      qc.invalidateQueries({ queryKey: ['inventory', b] }),
      qc.invalidateQueries({ queryKey: ['sales', b] }),
      // A cheque received goes to the cartera; a sale on account changes the customer's balance.
      qc.invalidateQueries({ queryKey: ['cheques', b] }),
      qc.invalidateQueries({ queryKey: ['customers', b] }),
    ]);
}

export function useCrearRemito() {
  const b = useBusiness().businessId ?? '';
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RemitoInput) => api.post<Remito>(remitosPath(b), body),
    onSuccess: invalidate,
  });
}

export function useAnularRemito(id: string) {
  const b = useBusiness().businessId ?? '';
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (motivo: string) => api.post<Remito>(`${remitosPath(b)}/${id}/anular`, { motivo: motivo || null }),
    onSuccess: invalidate,
  });
}

export function useFacturarRemitos() {
  const b = useBusiness().businessId ?? '';
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RemitosFacturarInput) => api.post<RemitosFacturados>(`${remitosPath(b)}/facturar`, body),
    onSuccess: invalidate,
  });
}
