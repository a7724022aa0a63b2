import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Customer, DocumentType } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

/** ['customers', b] is shared with the finance customer selects, so they refresh together. */
export const customerKeys = {
  all: (b: string) => ['customers', b] as const,
  list: (b: string, f: CustomerFilters) => ['customers', b, 'list', f] as const,
};

export const customersPath = (b: string) => `/businesses/${b}/clientes`;

export interface CustomerFilters {
  q?: string;
  documento_tipo?: DocumentType | '';
  orden?: string;
  direccion?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export function useCustomers(f: CustomerFilters, enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: customerKeys.list(b, f),
    queryFn: ({ signal }) => api.page<Customer>(customersPath(b), { ...f, q: f.q?.trim() }, signal),
    enabled: Boolean(b) && enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export interface CustomerBody {
  nombre: string;
  apellido: string | null;
  email: string | null;
  telefono: string | null;
  direccion: string | null;
  documento_tipo: DocumentType | null;
  documento_numero: string | null;
  condicion_iva: string | null;
  notas: string | null;
  limite_credito?: number | null;
  /** The customer's price list; null: Minorista. */
  lista_precios_id?: string | null;
}

export function useSaveCustomer() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: CustomerBody }) =>
      id
        ? api.put<Customer>(`${customersPath(businessId!)}/${id}`, body)
        : api.post<Customer>(customersPath(businessId!), body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: customerKeys.all(businessId!) });
      // Subscriptions show the customer's name.
      void qc.invalidateQueries({ queryKey: ['inventory', businessId, 'subscriptions'] });
    },
  });
}

export function useDeleteCustomer() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${customersPath(businessId!)}/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: customerKeys.all(businessId!) }),
  });
}
