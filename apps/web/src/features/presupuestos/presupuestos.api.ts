import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Presupuesto,
  PresupuestoCambio,
  PresupuestoConvertido,
  PresupuestoConvertirInput,
  PresupuestoEstado,
  PresupuestoInput,
  PresupuestoList,
} from '@mostrador/shared/presupuestos';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

/** Query keys per business: every change invalidates ['presupuestos', b] (and the sales and remitos it may create). */
export const presupuestoKeys = {
  all: (b: string) => ['presupuestos', b] as const,
  list: (b: string, f: PresupuestoFilters) => ['presupuestos', b, 'list', f] as const,
  one: (b: string, id: string) => ['presupuestos', b, 'one', id] as const,
};

export const presupuestosPath = (b: string) => `/businesses/${b}/presupuestos`;

export interface PresupuestoFilters {
  estado?: PresupuestoEstado | '';
  cliente_id?: string;
  limit: number;
  offset: number;
}

export function usePresupuestos(f: PresupuestoFilters) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: presupuestoKeys.list(b, f),
    queryFn: () =>
      api.get<PresupuestoList>(presupuestosPath(b), {
        estado: f.estado || undefined,
        cliente_id: f.cliente_id || undefined,
        limit: f.limit,
        offset: f.offset,
      }),
    enabled: Boolean(b),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function usePresupuesto(id: string | undefined) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: presupuestoKeys.one(b, id ?? ''),
    queryFn: () => api.get<Presupuesto>(`${presupuestosPath(b)}/${id}`),
    enabled: Boolean(b && id),
    staleTime: 30_000,
  });
}

function useInvalidate() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: presupuestoKeys.all(b) }),
      qc.invalidateQueries({ queryKey: ['remitos', b] }),
      qc.invalidateQueries({ queryKey: ['inventory', b] }),
      qc.invalidateQueries({ queryKey: ['sales', b] }),
      // A cheque received goes to the cartera; a sale on account changes the customer's balance.
      qc.invalidateQueries({ queryKey: ['cheques', b] }),
      qc.invalidateQueries({ queryKey: ['customers', b] }),
    ]);
}

export function useSavePresupuesto(id?: string) {
  const b = useBusiness().businessId ?? '';
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: PresupuestoInput) =>
      id
        ? api.put<Presupuesto>(`${presupuestosPath(b)}/${id}`, body)
        : api.post<Presupuesto>(presupuestosPath(b), body),
    onSuccess: invalidate,
  });
}

export function useCambiarEstado(id: string) {
  const b = useBusiness().businessId ?? '';
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (estado: PresupuestoCambio) => api.post<Presupuesto>(`${presupuestosPath(b)}/${id}/estado`, { estado }),
    onSuccess: invalidate,
  });
}

export function useConvertir(id: string) {
  const b = useBusiness().businessId ?? '';
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: PresupuestoConvertirInput) =>
      api.post<PresupuestoConvertido>(`${presupuestosPath(b)}/${id}/convertir`, body),
    onSuccess: invalidate,
  });
}
