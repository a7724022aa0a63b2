import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

export type PlanEstado = 'trial' | 'activa' | 'solo_lectura' | 'bloqueada';

export interface PlanInfo {
  /** `local`: installed in the shop, without trial, plans or limits. */
  modo: 'saas' | 'local';
  plan: 'trial' | 'esencial' | 'profesional' | 'empresarial';
  estado: PlanEstado;
  trial_ends_at: string;
  read_only_until: string;
  limite_usuarios: number | null;
  usuarios_activos: number;
  limite_almacenamiento_gb: number | null;
}

export const planKeys = { of: (businessId: string | null) => ['plan', businessId] as const };

export function usePlan(businessId: string | null) {
  return useQuery({
    queryKey: planKeys.of(businessId),
    queryFn: () => api.get<PlanInfo>(`/businesses/${businessId}/suscripcion-plan`),
    enabled: Boolean(businessId),
    staleTime: 5 * 60_000,
  });
}

export function useChoosePlan(businessId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (plan: 'esencial' | 'profesional' | 'empresarial') =>
      api.post<PlanInfo>(`/businesses/${businessId}/suscripcion-plan`, { plan }),
    // A chosen plan unlocks writing everywhere: refresh everything of this business.
    onSuccess: () => qc.invalidateQueries(),
  });
}

/** Writing is off once the trial ended without a plan (the server refuses with 402 anyway). */
export const canWrite = (estado: PlanEstado | undefined) => estado !== 'solo_lectura' && estado !== 'bloqueada';

const DAY = 86_400_000;
export const daysLeft = (iso: string, now = Date.now()) => Math.max(0, Math.ceil((Date.parse(iso) - now) / DAY));
