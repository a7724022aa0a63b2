import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Service } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

const base = (b: string) => `/businesses/${b}/services`;

export interface ServiceFilters {
  q?: string;
  categoria_id?: string;
  activo?: '' | 'true' | 'false';
  orden?: string;
  direccion?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export function useServices(f: ServiceFilters, enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: ['inventory', b, 'services', f],
    queryFn: ({ signal }) => api.page<Service>(base(b), { ...f, q: f.q?.trim() }, signal),
    enabled: Boolean(b) && enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export interface ServiceBody {
  nombre: string;
  descripcion: string | null;
  precio: number;
  costo?: number | null;
  duracion_minutos: number | null;
  categoria_id: string | null;
  activo: boolean;
}

export function useSaveService() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ServiceBody }) =>
      id ? api.put<Service>(`${base(businessId!)}/${id}`, body) : api.post<Service>(base(businessId!), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['inventory', businessId] }),
  });
}

export function useDeleteService() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(businessId!)}/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['inventory', businessId] }),
  });
}
