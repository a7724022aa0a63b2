export { DataTable, type DataTableProps, type ServerPagination } from './data-table';
export { Pager, RowsSkeleton } from './pager';
export { useServerSorting } from './server-sorting';
export { useListState } from './list-state';
export { useListExport } from './list-export';
export { useListDialogs } from './list-dialogs';
