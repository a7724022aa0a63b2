import { Search } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Product } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Input } from '@/components/ui/input';
import { useDebounced } from '@/features/products/inventory-ui';
import { cn } from '@/lib/cn';
import { formatMoney, formatNumber } from '@/lib/format';
import { productSearchOptions, useProductSearch } from './purchases.api';

/**
 * Search-as-you-type for the order lines (the ARIA combobox pattern): arrows move through the
 * matches, Enter adds the highlighted product, Escape closes the list.
 */
export function ProductPicker({
  onPick,
  invalid,
  describedBy,
}: {
  onPick: (p: Product) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { businessId, formatting } = useBusiness();
  const qc = useQueryClient();
  const id = useId();
  const listId = `${id}-list`;
  const inputRef = useRef<HTMLInputElement>(null);
  const closing = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const term = useDebounced(q, 200);
  const search = useProductSearch(term);
  const results = term.trim() ? (search.data ?? []) : [];
  const showList = open && q.trim().length > 0;
  // The list answers what is typed now (not a previous word still on screen while searching).
  const fresh = term === q && !search.isPlaceholderData && !search.isFetching;

  const pick = (p: Product) => {
    onPick(p);
    setQ('');
    setOpen(false);
    setActive(0);
  };

  /** Enter before the list caught up (a barcode scanner types and presses Enter at once): ask now. */
  const pickFirstNow = async (typed: string) => {
    const found = await qc.fetchQuery(productSearchOptions(businessId ?? '', typed));
    if (inputRef.current?.value === typed && found[0]) pick(found[0]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, Math.max(results.length - 1, 0)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter') {
      // Enter never submits the order from here: it adds the highlighted product.
      e.preventDefault();
      const p = results[active];
      if (fresh && p) pick(p);
      else if (!fresh && q.trim()) void pickFirstNow(q);
    } else if (e.key === 'Escape' && showList) {
      e.preventDefault();
      setOpen(false);
    }
  };

  return (
    <div className="relative">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        Agregar producto
      </label>
      <div className="relative">
        <Search
          className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
          aria-hidden
        />
        <Input
          ref={inputRef}
          id={id}
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && results[active] ? `${listId}-${active}` : undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          placeholder="Buscá por nombre, código o código de barras…"
          className="pl-9"
          value={q}
          onChange={(e) => {
            clearTimeout(closing.current);
            setQ(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={() => {
            clearTimeout(closing.current);
            setOpen(true);
          }}
          // Closed a moment later, so a click on an option still lands; coming back cancels it.
          onBlur={() => {
            closing.current = setTimeout(() => setOpen(false), 150);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      {showList && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Productos encontrados"
          className="absolute z-30 mt-1 max-h-72 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {search.isFetching && results.length === 0 ? (
            <li className="px-3 py-2 text-sm text-slate-500">Buscando…</li>
          ) : results.length === 0 ? (
            <li className="px-3 py-2 text-sm text-slate-500">Ningún producto activo coincide con «{q.trim()}».</li>
          ) : (
            results.map((p, i) => (
              <li
                key={p.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(p)}
                className={cn(
                  'flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm',
                  i === active ? 'bg-blue-50 text-blue-900' : 'text-slate-700',
                )}
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium">{p.nombre}</span>
                  <span className="block truncate text-xs text-slate-500">
                    {[p.codigo, `Stock ${formatNumber(p.stock_actual, formatting)} ${p.unidad}`]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                </span>
                <span className="shrink-0 text-xs text-slate-500">
                  {p.precio_compra != null ? `Costo ${formatMoney(p.precio_compra, formatting)}` : null}
                </span>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
