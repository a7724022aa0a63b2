import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Business } from '@mostrador/shared';
import { useBusinesses } from '@/features/businesses/businesses.api';
import { useSettings } from '@/features/settings/settings.api';
import { DEFAULT_FORMATTING, type Formatting } from '@/lib/format';
import { session } from '@/lib/session';

interface BusinessContextValue {
  businesses: Business[];
  business: Business | null;
  businessId: string | null;
  select(id: string | null): void;
  isLoading: boolean;
  error: Error | null;
  refetch(): void;
  /** Locale, currency and time zone of the selected business: drive every number and date. */
  formatting: Formatting;
}

const Ctx = createContext<BusinessContextValue | null>(null);

export function BusinessProvider({ children }: { children: ReactNode }) {
  const query = useBusinesses();
  const [chosen, setChosen] = useState<string | null>(() => session.businessId());
  const businesses = useMemo(() => query.data ?? [], [query.data]);
  // The stored choice if it is still one of the user's businesses, else the first (SPEC §2).
  const business = businesses.find((b) => b.id === chosen) ?? businesses[0] ?? null;
  const settings = useSettings(business?.id ?? null);

  const select = useCallback((id: string | null) => {
    session.setBusinessId(id);
    setChosen(id);
  }, []);

  const value = useMemo<BusinessContextValue>(
    () => ({
      businesses,
      business,
      businessId: business?.id ?? null,
      select,
      isLoading: query.isLoading,
      error: query.error,
      refetch: () => void query.refetch(),
      formatting: settings.data
        ? { locale: settings.data.locale, currency: settings.data.currency, timezone: settings.data.timezone }
        : DEFAULT_FORMATTING,
    }),
    [businesses, business, select, query, settings.data],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useBusiness(): BusinessContextValue {
  const v = useContext(Ctx);
  if (!v) throw new Error('useBusiness fuera de BusinessProvider');
  return v;
}
