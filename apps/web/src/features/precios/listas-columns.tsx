import type { ColumnDef } from '@tanstack/react-table';
import type { ListaPrecios } from '@mostrador/shared';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { formatNumber, type Formatting } from '@/lib/format';
import { listaRegla } from './lista-regla';

/** The price lists' columns; the browser has every list, so it sorts them itself. */
export function listaColumns({
  listas,
  formatting,
  onPrices,
  onEdit,
  onDelete,
}: {
  listas: ListaPrecios[];
  formatting: Formatting;
  onPrices: (l: ListaPrecios) => void;
  onEdit: false | ((l: ListaPrecios) => void);
  onDelete: false | ((l: ListaPrecios) => void);
}): ColumnDef<ListaPrecios, unknown>[] {
  return [
    {
      id: 'nombre',
      header: 'Nombre',
      accessorKey: 'nombre',
      enableHiding: false,
      sortingFn: (a, b) => a.original.nombre.localeCompare(b.original.nombre, formatting.locale),
      meta: { label: 'Nombre', primary: true },
      cell: ({ row: { original: l } }) => (
        <span className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          {l.nombre}
          {!l.activo && <Badge color="gray">Inactiva</Badge>}
        </span>
      ),
    },
    {
      id: 'regla',
      header: 'Cómo calcula',
      enableSorting: false,
      meta: { label: 'Cómo calcula', className: 'text-slate-600' },
      cell: ({ row: { original: l } }) => listaRegla(l, listas),
    },
    {
      id: 'clientes',
      header: 'Clientes',
      accessorKey: 'clientes',
      meta: { label: 'Clientes', align: 'right' },
      cell: ({ row: { original: l } }) => formatNumber(l.clientes, formatting),
    },
    {
      id: 'fijos',
      header: 'Precios fijos',
      accessorFn: (l) => (l.tipo === 'fija' ? l.productos_con_precio : -1),
      meta: { label: 'Precios fijos', align: 'right' },
      cell: ({ row: { original: l } }) => (l.tipo === 'fija' ? formatNumber(l.productos_con_precio, formatting) : '—'),
    },
    {
      id: 'acciones',
      header: 'Acciones',
      enableSorting: false,
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: l } }) => (
        <RowActions
          name={l.nombre}
          className="items-center justify-end"
          onEdit={onEdit && (() => onEdit(l))}
          onDelete={onDelete && (() => onDelete(l))}
        >
          {l.tipo === 'fija' && (
            <Button variant="secondary" size="sm" onClick={() => onPrices(l)}>
              Precios
            </Button>
          )}
        </RowActions>
      ),
    },
  ];
}
