import { useState } from 'react';
import { useDebounced } from '@/lib/use-debounced';
import type { ServerPagination } from './data-table';
import { useServerSorting } from './server-sorting';

/**
 * The state of a list the API searches, filters, sorts and pages: what the user typed (and the
 * search once typing stops), the filters, the sort and the page. Any change but the page goes
 * back to page 1. `query` is what the list's API call takes.
 */
export function useListState<F extends Record<string, string>>(initial: F, pageSize = 50, debounceMs = 250) {
  const [q, setQ] = useState('');
  const [filters, setFilters] = useState<F>(initial);
  const [page, setPage] = useState(0);
  const search = useDebounced(q, debounceMs);
  const sorting = useServerSorting(() => setPage(0));
  return {
    q,
    setQ: (v: string) => {
      setPage(0);
      setQ(v);
    },
    filters,
    setFilter: <K extends keyof F>(key: K, value: F[K]) => {
      setPage(0);
      setFilters((f) => ({ ...f, [key]: value }));
    },
    search,
    /** A search or a filter is narrowing the list (its empty state says so). */
    filtered: Boolean(search.trim()) || Object.values(filters).some(Boolean),
    sorting,
    query: { q: search, ...filters, ...sorting.query, limit: pageSize, offset: page * pageSize },
    /** The same search, filters and order for the list's export (the empty ones left out). */
    exportQuery: Object.fromEntries(
      Object.entries({ q: search.trim(), ...filters, ...sorting.query }).map(([k, v]) => [k, v || undefined]),
    ) as Record<string, string | undefined>,
    /** The table's pager, with the words for one and many ("cliente", "clientes"). */
    pages: (total: number | undefined, one: string, label: string): ServerPagination => ({
      page,
      pageSize,
      total: total ?? 0,
      onPage: setPage,
      one,
      label,
    }),
  };
}
