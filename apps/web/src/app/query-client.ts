import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchOnWindowFocus: false,
      // Without a connection a query still runs once: lib/api answers with the last answer kept
      // on the device (the offline POS, issue 18) instead of the query waiting paused forever.
      networkMode: 'offlineFirst',
      // Never retry what the server refused (4xx); network and 5xx failures up to twice.
      retry: (count, e) => !(e instanceof ApiError && e.status >= 400 && e.status < 500) && count < 2,
    },
    // A save while offline fails at once (and the form says so) instead of waiting for the
    // connection and being sent later by itself (docs/decisions/0018-idempotent-creates.md).
    mutations: { networkMode: 'always', retry: false },
  },
});
