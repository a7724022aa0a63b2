import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Supplier, SupplierAccount, SupplierDetail, SupplierState } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

/** Query keys per business: every supplier change invalidates ['suppliers', b]. */
export const supplierKeys = {
  all: (b: string) => ['suppliers', b] as const,
  list: (b: string, f: SupplierFilters) => ['suppliers', b, 'list', f] as const,
  one: (b: string, id: string) => ['suppliers', b, 'one', id] as const,
};

export const suppliersPath = (b: string) => `/businesses/${b}/proveedores`;

export interface SupplierFilters {
  q?: string;
  estado?: SupplierState | '';
  orden?: string;
  direccion?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export function useSuppliers(f: SupplierFilters, enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: supplierKeys.list(b, f),
    queryFn: ({ signal }) => api.page<Supplier>(suppliersPath(b), { ...f, q: f.q?.trim() }, signal),
    enabled: Boolean(b) && enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** The suppliers to choose from in a purchase (the active ones, plus the current one when inactive). */
export function useSupplierOptions() {
  return useSuppliers({ limit: 500, offset: 0 });
}

export function useSupplier(id: string | null) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: supplierKeys.one(b, id ?? ''),
    queryFn: () => api.get<SupplierDetail>(`${suppliersPath(b)}/${id}`),
    enabled: Boolean(b && id),
    staleTime: 30_000,
  });
}

/** Payables and payments with the running balance; fresh on every open (payments happen in Finanzas). */
export function useSupplierAccount(id: string) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: [...supplierKeys.one(b, id), 'cuenta'],
    queryFn: () => api.get<SupplierAccount>(`${suppliersPath(b)}/${id}/cuenta-corriente`),
    enabled: Boolean(b && id),
  });
}

export interface SupplierBody {
  nombre: string;
  cuit: string | null;
  email: string | null;
  telefono: string | null;
  direccion: string | null;
  ciudad: string | null;
  provincia: string | null;
  pais: string | null;
  contacto: string | null;
  condiciones_pago: string | null;
  estado: SupplierState;
  notas: string | null;
}

export function useSaveSupplier() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: SupplierBody }) =>
      id
        ? api.put<SupplierDetail>(`${suppliersPath(businessId!)}/${id}`, body)
        : api.post<SupplierDetail>(suppliersPath(businessId!), body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: supplierKeys.all(businessId!) });
      // Purchases and payables show the supplier's name.
      void qc.invalidateQueries({ queryKey: ['purchases', businessId] });
      void qc.invalidateQueries({ queryKey: ['finance', businessId, 'accounts'] });
    },
  });
}

export function useDeleteSupplier() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${suppliersPath(businessId!)}/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: supplierKeys.all(businessId!) }),
  });
}

/** "30 días" → 30: the default term of a purchase on credit with this supplier. */
export function termDays(condiciones: string | null | undefined): number | null {
  const m = /(\d{1,3})\s*d/i.exec(condiciones ?? '');
  return m ? Number(m[1]) : null;
}
