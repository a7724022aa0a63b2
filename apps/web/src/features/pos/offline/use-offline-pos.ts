import { useEffect, useSyncExternalStore } from 'react';
import { useBusiness } from '@/app/business-context';
import { session } from '@/lib/session';
import { offlineStore, start } from './offline-pos';

/** The offline POS of the selected business: connection, queue and the catalogue on the device. */
export function useOfflinePos() {
  const { businessId } = useBusiness();
  const userId = session.user()?.id ?? null;
  useEffect(() => {
    if (businessId && userId) void start(businessId, userId);
  }, [businessId, userId]);
  return useSyncExternalStore(offlineStore.subscribe, offlineStore.get);
}
