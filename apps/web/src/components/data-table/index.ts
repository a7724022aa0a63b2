export { DataTable, type DataTableProps, type ServerPagination } from './data-table';
export { Pager, RowsSkeleton } from './pager';
export { useServerSorting } from './server-sorting';
