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

export interface CategoryChoice {
  id: string;
  nombre: string;
}

/**
 * The categories a product or service form offers: the active ones plus its own, or null while
 * the list is still coming. The form opens only then, so its own category is an option from the
 * start (an uncontrolled select would otherwise fall back to "Sin categoría" and saving would
 * clear it); without the categorias module's Ver the list is just its own category.
 */
export function useCategoryChoices(item?: {
  categoria_id: string | null;
  categoria_nombre: string | null;
}): CategoryChoice[] | null {
  const can = useCan();
  const categories = useCategories();
  if (can('categorias', 'ver') && !categories.data && !categories.error) return null;
  const list = categories.data ?? [];
  const own = item?.categoria_id;
  const choices = list.filter((c) => c.activo || c.id === own);
  return own && !list.some((c) => c.id === own)
    ? [{ id: own, nombre: item.categoria_nombre ?? 'Categoría actual' }, ...choices]
    : choices;
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
