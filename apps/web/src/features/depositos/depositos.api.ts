import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Deposito, ProductStock, Sucursal, Transferencia } from '@mostrador/shared/depositos';
import { useBusiness } from '@/app/business-context';
import { useCan } from '@/features/permissions/permissions.api';
import { api } from '@/lib/api';

/*
 * Sucursales, depósitos, stock per depósito and transferencias (issue 38, decision 0059). Every
 * change invalidates ['inventory', b]: the products' stock moves with them.
 */

export const depositoKeys = {
  sucursales: (b: string) => ['inventory', b, 'sucursales'] as const,
  depositos: (b: string) => ['inventory', b, 'depositos'] as const,
  stock: (b: string, pid: string) => ['inventory', b, 'product', pid, 'stock'] as const,
  transferencias: (b: string) => ['inventory', b, 'transferencias'] as const,
};

const path = (b: string, rest: string) => `/businesses/${b}/${rest}`;

export function useSucursales() {
  const { businessId } = useBusiness();
  const can = useCan();
  const b = businessId ?? '';
  return useQuery({
    queryKey: depositoKeys.sucursales(b),
    queryFn: () => api.get<Sucursal[]>(path(b, 'sucursales')),
    enabled: Boolean(b) && can('productos', 'ver'),
    staleTime: 5 * 60_000,
  });
}

/** The business's depósitos (the principal first); empty without the productos module's Ver. */
export function useDepositos() {
  const { businessId } = useBusiness();
  const can = useCan();
  const b = businessId ?? '';
  return useQuery({
    queryKey: depositoKeys.depositos(b),
    queryFn: () => api.get<Deposito[]>(path(b, 'depositos')),
    enabled: Boolean(b) && can('productos', 'ver'),
    staleTime: 5 * 60_000,
  });
}

/** The depósitos when there are several (null with one: choosing one would only add noise). */
export function useSeveralDepositos(): Deposito[] | null {
  const list = useDepositos().data ?? [];
  return list.length > 1 ? list : null;
}

export function useProductStock(productId: string | null, enabled = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: depositoKeys.stock(b, productId ?? ''),
    queryFn: () => api.get<ProductStock>(path(b, `products/${productId}/stock`)),
    enabled: Boolean(b) && Boolean(productId) && enabled,
  });
}

function useInventoryMutation<V, R>(fn: (b: string, v: V) => Promise<R>) {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => fn(businessId!, v),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['inventory', businessId] });
      void qc.invalidateQueries({ queryKey: ['caja', businessId] });
    },
  });
}

export interface SucursalBody {
  nombre: string;
  direccion: string | null;
}

export const useSaveSucursal = () =>
  useInventoryMutation((b, { id, body }: { id?: string; body: SucursalBody }) =>
    id ? api.put<Sucursal>(path(b, `sucursales/${id}`), body) : api.post<Sucursal>(path(b, 'sucursales'), body),
  );

export const useDeleteSucursal = () => useInventoryMutation((b, id: string) => api.delete(path(b, `sucursales/${id}`)));

export const useSaveDeposito = () =>
  useInventoryMutation((b, { id, nombre, sucursal_id }: { id?: string; nombre: string; sucursal_id: string }) =>
    id
      ? api.put<Deposito>(path(b, `depositos/${id}`), { nombre })
      : api.post<Deposito>(path(b, 'depositos'), { nombre, sucursal_id }),
  );

export const useDeleteDeposito = () => useInventoryMutation((b, id: string) => api.delete(path(b, `depositos/${id}`)));

export function useTransferencias() {
  const { businessId } = useBusiness();
  const can = useCan();
  const b = businessId ?? '';
  return useQuery({
    queryKey: depositoKeys.transferencias(b),
    queryFn: () => api.get<Transferencia[]>(path(b, 'transferencias')),
    enabled: Boolean(b) && can('productos', 'ver'),
  });
}

export interface TransferenciaBody {
  origen_id: string;
  destino_id: string;
  observaciones: string | null;
  items: { producto_id: string; cantidad: number }[];
}

export const useCreateTransferencia = () =>
  useInventoryMutation((b, body: TransferenciaBody) => api.post<Transferencia>(path(b, 'transferencias'), body));

export const useRecibirTransferencia = () =>
  useInventoryMutation(
    (b, { id, items }: { id: string; items: { producto_id: string; cantidad_recibida: number }[] }) =>
      api.post<Transferencia>(path(b, `transferencias/${id}/recibir`), { items }),
  );
