import { useQuery } from '@tanstack/react-query';
import type { Notification } from '@mostrador/shared/notifications';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

/** Refreshed every few minutes, and with the business (its key). */
export const NOTIFICATIONS_REFRESH_MS = 3 * 60_000;

export const notificationKeys = { of: (businessId: string | null) => ['notifications', businessId] as const };

export function useNotifications() {
  const { businessId } = useBusiness();
  return useQuery({
    queryKey: notificationKeys.of(businessId),
    queryFn: () => api.get<Notification[]>(`/businesses/${businessId}/notificaciones`),
    enabled: Boolean(businessId),
    staleTime: 60_000,
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
    retry: 1,
  });
}
