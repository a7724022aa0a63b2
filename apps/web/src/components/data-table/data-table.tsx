import {
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { Fragment, useId, useState, type ReactNode } from 'react';
import { ErrorNote } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { ColumnsMenu, useColumnVisibility } from './column-visibility';
import { Pager, RowsSkeleton } from './pager';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The column's name in the columns menu, the phone sort select and a phone card's rows. */
    label?: string;
    align?: 'right';
    /** The row's title on a phone card (no label before it). */
    primary?: boolean;
    /** The row's buttons: never hidden, at the end of a phone card. */
    actions?: boolean;
    /** Hidden until the user shows it in the columns menu. */
    defaultHidden?: boolean;
    className?: string;
  }
}

export interface ServerPagination {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** "clientes" / "cliente", chosen by the locale's plural rules. */
  label: string;
  one: string;
}

export interface DataTableProps<T> {
  /** The screen, for the columns each user chose to see (kept in localStorage). */
  screen: string;
  /** The table's accessible name ("Clientes"). */
  label: string;
  columns: ColumnDef<T, never>[] | ColumnDef<T, unknown>[];
  rows?: T[] | undefined;
  /**
   * Or a list query (TanStack Query over `api.page`): its rows, loading, refetch and error (with
   * `loadError` as the message when the server gives none) fill the props above.
   */
  query?: {
    data?: { rows: T[]; total: number };
    isLoading: boolean;
    isFetching: boolean;
    error: unknown;
  };
  loadError?: string;
  rowId: (row: T) => string;
  loading?: boolean;
  /** A refetch in progress: the old rows stay, dimmed. */
  fetching?: boolean;
  /** Why the list could not load (shown instead of it). */
  error?: string | null;
  /** What to show when there are no rows. */
  empty: ReactNode;
  /**
   * Sorting done by the API (the list is paginated there): the table only says which column and
   * direction. Without it, the rows at hand are sorted in the browser.
   */
  sorting?: { value: SortingState; onChange: (next: SortingState) => void };
  /** Pages from the API; without it, the rows at hand are shown `pageSize` at a time. */
  pagination?: ServerPagination;
  pageSize?: number;
  /** "resultados" / "resultado" for the browser's own pages. */
  countLabel?: [one: string, other: string];
  /** What an opened row shows under it, across the whole table (null while it is closed). */
  detail?: (row: T) => ReactNode;
  /** A row's own look (a product low on stock, a voided purchase). */
  rowClassName?: (row: T) => string | false | undefined;
}

/**
 * A header or cell template, called rather than mounted: screens build their columns on each render,
 * so mounting each template as a component would remount every cell on every render (a row menu
 * opened during a refetch would close under the user's click). Templates hold no hooks (lint says so).
 */
function slot<C>(template: string | ((ctx: C) => unknown) | undefined, ctx: C): ReactNode {
  return (typeof template === 'function' ? template(ctx) : template) as ReactNode;
}

const ariaSort = (dir: false | 'asc' | 'desc') =>
  dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none';

/**
 * The list screens' table (TanStack Table, headless): sortable headers, a columns menu whose
 * choice each screen keeps, pages, and the loading, empty and error states. On a phone each row
 * reads as a card (one DOM for both: the cells stack with their column's name before them).
 */
export function DataTable<T>({ query, loadError, ...props }: DataTableProps<T>) {
  if (!query) return <Table {...props} />;
  return (
    <Table
      {...props}
      rows={query.data?.rows}
      loading={query.isLoading}
      fetching={query.isFetching}
      error={query.error ? errorMessage(query.error, loadError) : null}
    />
  );
}

function Table<T>({
  screen,
  label,
  columns,
  rows,
  rowId,
  loading,
  fetching,
  error,
  empty,
  sorting,
  pagination,
  pageSize = 50,
  countLabel = ['resultado', 'resultados'],
  rowClassName,
  detail,
}: Omit<DataTableProps<T>, 'query' | 'loadError'>) {
  const sortId = useId();
  const [localSorting, setLocalSorting] = useState<SortingState>([]);
  const [localPage, setLocalPage] = useState(0);
  const [visibility, setVisibility] = useColumnVisibility(screen, columns as ColumnDef<T, unknown>[]);
  const sortState = sorting?.value ?? localSorting;
  const onSortingChange = (u: Updater<SortingState>) => {
    const next = typeof u === 'function' ? u(sortState) : u;
    if (sorting) sorting.onChange(next);
    else {
      setLocalSorting(next);
      setLocalPage(0);
    }
  };
  // The table object is rebuilt each render (nothing memoizes it), so its functions never go stale.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<T>({
    data: rows ?? [],
    columns: columns as ColumnDef<T, unknown>[],
    getRowId: (r) => rowId(r),
    state: {
      sorting: sortState,
      columnVisibility: visibility,
      ...(pagination ? {} : { pagination: { pageIndex: localPage, pageSize } }),
    },
    onSortingChange,
    onColumnVisibilityChange: setVisibility,
    manualSorting: Boolean(sorting),
    manualPagination: Boolean(pagination),
    enableSortingRemoval: false,
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: sorting ? undefined : getSortedRowModel(),
    getPaginationRowModel: pagination ? undefined : getPaginationRowModel(),
  });

  if (error) return <ErrorNote>{error}</ErrorNote>;
  if (loading || !rows) return <RowsSkeleton />;
  if (rows.length === 0) return <>{empty}</>;

  const sortable = table.getAllLeafColumns().filter((c) => c.getCanSort());
  const current = sortState[0];
  const total = pagination?.total ?? rows.length;
  return (
    <div
      className={cn(
        'overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition-opacity',
        fetching && 'opacity-70',
      )}
      aria-busy={fetching || undefined}
    >
      <div className="flex items-center justify-end gap-2 border-b border-slate-100 px-3 py-2">
        {sortable.length > 0 && (
          // Phones have no header row: the order is chosen here.
          // (A label wrapping the select would take its options' text into its name.)
          <div className="mr-auto flex min-w-0 items-center gap-2 text-sm text-slate-600 sm:hidden">
            <label htmlFor={sortId} className="shrink-0">
              Ordenar por
            </label>
            <select
              id={sortId}
              className="h-8 min-w-0 rounded-lg border border-slate-300 bg-white px-2 text-sm"
              value={current ? `${current.id}:${current.desc ? 'desc' : 'asc'}` : ''}
              onChange={(e) => {
                const [id, dir] = e.target.value.split(':');
                onSortingChange(id ? [{ id, desc: dir === 'desc' }] : []);
              }}
            >
              {!current && <option value="">Predeterminado</option>}
              {sortable.flatMap((c) => {
                const name = c.columnDef.meta?.label ?? c.id;
                return [
                  <option key={`${c.id}:asc`} value={`${c.id}:asc`}>
                    {name} ↑
                  </option>,
                  <option key={`${c.id}:desc`} value={`${c.id}:desc`}>
                    {name} ↓
                  </option>,
                ];
              })}
            </select>
          </div>
        )}
        <ColumnsMenu table={table} />
      </div>
      <table className="w-full text-sm max-sm:block" aria-label={label}>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 max-sm:hidden">
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => {
                const meta = h.column.columnDef.meta;
                const dir = h.column.getIsSorted();
                const title = slot(h.column.columnDef.header, h.getContext());
                return (
                  <th
                    key={h.id}
                    scope="col"
                    aria-sort={h.column.getCanSort() ? ariaSort(dir) : undefined}
                    className={cn('px-4 py-2.5', meta?.align === 'right' && 'text-right', meta?.className)}
                  >
                    {meta?.actions ? (
                      <span className="sr-only">{title}</span>
                    ) : h.column.getCanSort() ? (
                      <button
                        type="button"
                        onClick={h.column.getToggleSortingHandler()}
                        className={cn(
                          'inline-flex items-center gap-1 rounded whitespace-nowrap uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600',
                          dir && 'text-slate-900',
                        )}
                      >
                        {title}
                        {dir === 'asc' ? (
                          <ArrowUp className="h-3.5 w-3.5" aria-hidden />
                        ) : dir === 'desc' ? (
                          <ArrowDown className="h-3.5 w-3.5" aria-hidden />
                        ) : (
                          <ArrowUpDown className="h-3.5 w-3.5 opacity-40" aria-hidden />
                        )}
                      </button>
                    ) : (
                      title
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-slate-100 max-sm:block">
          {table.getRowModel().rows.map((row) => {
            const more = detail?.(row.original);
            return (
              <Fragment key={row.id}>
                <tr
                  className={cn(
                    'hover:bg-slate-50 max-sm:flex max-sm:flex-col max-sm:gap-0.5 max-sm:px-4 max-sm:py-3',
                    rowClassName?.(row.original),
                  )}
                >
                  {row.getVisibleCells().map((cell) => {
                    const meta = cell.column.columnDef.meta;
                    const name =
                      meta?.label ??
                      (typeof cell.column.columnDef.header === 'string' ? cell.column.columnDef.header : '');
                    return (
                      <td
                        key={cell.id}
                        data-label={meta?.primary || meta?.actions ? undefined : name}
                        className={cn(
                          'px-4 py-2.5 align-middle max-sm:p-0',
                          meta?.align === 'right' && 'text-right tabular-nums',
                          !meta?.primary &&
                            !meta?.actions &&
                            'max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-3 max-sm:text-right max-sm:break-words max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-xs max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]',
                          meta?.actions &&
                            'w-px whitespace-nowrap max-sm:mt-1 max-sm:flex max-sm:w-auto max-sm:justify-end',
                          meta?.className,
                        )}
                      >
                        {slot(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    );
                  })}
                </tr>
                {more != null && (
                  <tr className="max-sm:block">
                    <td colSpan={row.getVisibleCells().length} className="p-0 max-sm:block">
                      {more}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <div className="border-t border-slate-100 px-3">
        {pagination ? (
          <Pager {...pagination} />
        ) : (
          <Pager
            page={localPage}
            pageSize={pageSize}
            total={total}
            onPage={setLocalPage}
            one={countLabel[0]}
            label={countLabel[1]}
          />
        )}
      </div>
    </div>
  );
}
