import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TenantSettings, TenantSettingsInput } from '@mostrador/shared';
import { api } from '@/lib/api';

export const settingsKeys = { of: (businessId: string) => ['settings', businessId] as const };

export function useSettings(businessId: string | null) {
  return useQuery({
    queryKey: settingsKeys.of(businessId ?? ''),
    queryFn: () => api.get<TenantSettings>(`/businesses/${businessId}/tenant-settings`),
    enabled: Boolean(businessId),
    staleTime: 10 * 60_000,
  });
}

export function useSaveSettings(businessId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TenantSettingsInput) =>
      api.post<TenantSettings>(`/businesses/${businessId}/tenant-settings`, input),
    onSuccess: (data) => qc.setQueryData(settingsKeys.of(businessId), data),
  });
}
