import type { SortingState } from '@tanstack/react-table';
import { useState } from 'react';

/**
 * The sorting of a list the API sorts and pages: the table's state, and the `orden`/`direccion`
 * query of the list (nothing while the default order holds). Changing it goes back to page 1.
 */
export function useServerSorting(onChange?: () => void) {
  const [value, setValue] = useState<SortingState>([]);
  const first = value[0];
  return {
    value,
    onChange: (next: SortingState) => {
      setValue(next);
      onChange?.();
    },
    query: first ? { orden: first.id, direccion: first.desc ? ('desc' as const) : ('asc' as const) } : {},
  };
}
