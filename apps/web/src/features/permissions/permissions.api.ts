import { useQuery } from '@tanstack/react-query';
import { can, resolveAction } from '@mostrador/shared/permission-rules';
import type { PermissionsResponse } from '@mostrador/shared/permissions';
import { canWrite, usePlan } from '@/features/plan/plan.api';
import { useBusiness } from '@/app/business-context';
import { api, ApiError } from '@/lib/api';

/** SPEC §6, §8, §9: fresh 5 min, kept 15 min, keyed per business; not retried on 401/403. */
export function usePermissions() {
  const { businessId } = useBusiness();
  return useQuery({
    queryKey: ['permissions', businessId],
    enabled: Boolean(businessId),
    staleTime: 5 * 60_000,
    gcTime: 15 * 60_000,
    queryFn: async () => {
      try {
        return await api.get<PermissionsResponse>(`/businesses/${businessId}/permissions`);
      } catch (e) {
        const status = e instanceof ApiError ? e.status : 0;
        const err = new Error(`Error fetching permissions: ${status}`) as Error & { status: number };
        err.status = status;
        console.error(err.message);
        throw err;
      }
    },
    retry: (count, e) => {
      const status = (e as { status?: number }).status;
      return status !== 401 && status !== 403 && count < 2;
    },
  });
}

/** The business's creator or an admin: fiscal data, the change log (the server enforces it too). */
export function useIsAdmin() {
  const { data } = usePermissions();
  return Boolean(data && (data.is_admin || data.is_creator));
}

/**
 * While the permissions are missing, every check is false. Once the trial has ended without a
 * plan, only `ver` passes (the server answers 402 to writes; the plan banner says why).
 */
export function useCan() {
  const { businessId } = useBusiness();
  const { data } = usePermissions();
  const plan = usePlan(businessId);
  const writable = canWrite(plan.data?.estado);
  return (modulo: string, accion: string) => can(data, modulo, accion) && (writable || resolveAction(accion) === 'ver');
}

/**
 * What the member may do at the counter beyond selling (the server enforces it; the screens only
 * follow): see costs, change prices, sell over a credit limit (and set one), and the largest
 * discount in % (null: no limit). While the
 * permissions load, the strictest.
 */
export function useCounterControls() {
  const { data } = usePermissions();
  return {
    verCostos: data?.ver_costos ?? false,
    cambiarPrecios: data?.cambiar_precios ?? false,
    excederCredito: data?.exceder_credito ?? false,
    descuentoMaximo: data ? (data.descuento_maximo ?? null) : 0,
  };
}

/**
 * Whether the member may close a turno opened by `openedBy`: full access closes any; cerrar_turno,
 * the turnos the member opened (the server refuses the rest). While the permissions load, no.
 */
export function useMayCloseTurno() {
  const { data } = usePermissions();
  return (openedBy: string | null | undefined) =>
    Boolean(data && (data.has_full_access || (data.cerrar_turno && openedBy === data.user_id)));
}

/** Whether the member may edit and delete in one module (a list screen's buttons). */
export function useModuleCan(modulo: string) {
  const can = useCan();
  return { canEdit: can(modulo, 'editar'), canDelete: can(modulo, 'eliminar') };
}
