import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Category } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { useCan } from '@/features/permissions/permissions.api';
import { api } from '@/lib/api';

/** Product and service categories of the selected business (API-CONTRACT §5). */
export const categoryKeys = {
  all: (b: string) => ['inventory', b, 'categories'] as const,
};

const base = (b: string) => `/businesses/${b}/categories`;

/** Only asked for with the categorias module's Ver (otherwise the list stays empty: no 403). */
export function useCategories(enabled = true) {
  const { businessId } = useBusiness();
  const can = useCan();
  const b = businessId ?? '';
  return useQuery({
    queryKey: categoryKeys.all(b),
    queryFn: () => api.get<Category[]>(`${base(b)}/`),
    enabled: Boolean(b) && enabled && can('categorias', 'ver'),
    staleTime: 10 * 60_000,
  });
}

export interface CategoryBody {
  nombre: string;
  descripcion: string | null;
  activo: boolean;
}

export function useSaveCategory() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: CategoryBody }) =>
      id ? api.put<Category>(`${base(businessId!)}/${id}`, body) : api.post<Category>(`${base(businessId!)}/`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['inventory', businessId] }),
  });
}

export function useDeleteCategory() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(businessId!)}/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['inventory', businessId] }),
  });
}
