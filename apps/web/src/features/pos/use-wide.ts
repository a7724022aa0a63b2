import { useSyncExternalStore } from 'react';

/** The two-column counter (lg, 1024 px and up); below it the phone layout with its payment step. */
const QUERY = '(min-width: 1024px)';

const subscribe = (cb: () => void) => {
  const m = window.matchMedia(QUERY);
  m.addEventListener('change', cb);
  return () => m.removeEventListener('change', cb);
};

export const useWide = () =>
  useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => true,
  );
