import {
  AlertTriangle,
  History,
  MoreHorizontal,
  Package,
  Pencil,
  Percent,
  Plus,
  SlidersHorizontal,
  Trash2,
  Upload,
} from 'lucide-react';
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { Product } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FilterSelect } from '@/components/ui/input';
import { DepositoSelect } from '@/features/depositos/stock-por-deposito';
import { Badge, Card, EmptyState } from '@/components/ui/misc';
import { DataTable, useListDialogs, useListExport, useListState } from '@/components/data-table';
import { useCategories } from '@/features/categories/categories.api';
import { useCan, useCounterControls } from '@/features/permissions/permissions.api';
import { cn } from '@/lib/cn';
import { formatDateTime, formatMoney, formatNumber, type Formatting } from '@/lib/format';
import { IvaMasivoDialog } from '@/features/facturacion/iva-masivo-dialog';
import { BulkPriceDialog } from './bulk-price-dialog';
import { SearchBox, StatusNote } from './inventory-ui';
import { ProductFormDialog } from './product-form-dialog';
import { productsPath, useDeleteProduct, useProducts } from './products.api';
import { StockAdjustDialog, StockHistoryDialog } from './stock-dialogs';
import { ListPrices } from '../precios/list-prices';
import { PriceHistoryDialog } from '../precios/price-history-dialog';

const PAGE_SIZE = 50;

function StockCell({ p }: { p: Product }) {
  const { formatting } = useBusiness();
  if (!p.controla_stock) return <span className="text-xs text-slate-500">Sin control</span>;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 tabular-nums',
        p.stock_bajo ? 'font-semibold text-amber-700' : 'text-slate-800',
      )}
    >
      {p.stock_bajo && <AlertTriangle className="h-4 w-4" aria-label="Stock bajo" />}
      {formatNumber(p.stock_actual, formatting)}
      <span className="text-xs font-normal text-slate-500">{p.unidad}</span>
    </span>
  );
}

interface Actions {
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (p: Product) => void;
  onAdjust: (p: Product) => void;
  onHistory: (p: Product) => void;
  onPriceHistory: (p: Product) => void;
  onDelete: (p: Product) => void;
}

function RowMenu({ p, a }: { p: Product; a: Actions }) {
  const item =
    'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100';
  return (
    <Menu.Root>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Acciones de ${p.nombre}`}>
          <MoreHorizontal className="h-4 w-4" />
        </Button>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-44 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
        >
          {a.canEdit && (
            <Menu.Item className={item} onSelect={() => a.onEdit(p)}>
              <Pencil className="h-4 w-4" aria-hidden /> Editar
            </Menu.Item>
          )}
          {a.canEdit && p.controla_stock && (
            <Menu.Item className={item} onSelect={() => a.onAdjust(p)}>
              <SlidersHorizontal className="h-4 w-4" aria-hidden /> Ajustar stock
            </Menu.Item>
          )}
          <Menu.Item className={item} onSelect={() => a.onHistory(p)}>
            <History className="h-4 w-4" aria-hidden /> Historial de stock
          </Menu.Item>
          <Menu.Item className={item} onSelect={() => a.onPriceHistory(p)}>
            <History className="h-4 w-4" aria-hidden /> Historial de precios
          </Menu.Item>
          {a.canDelete && (
            <Menu.Item className={cn(item, 'text-red-700')} onSelect={() => a.onDelete(p)}>
              <Trash2 className="h-4 w-4" aria-hidden /> Eliminar
            </Menu.Item>
          )}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

/** The products table's columns: the price shows each list's price and the dollar figure under it. */
function productColumns({
  a,
  formatting,
  verCostos,
}: {
  a: Actions;
  formatting: Formatting;
  verCostos: boolean;
}): ColumnDef<Product, unknown>[] {
  return [
    {
      id: 'nombre',
      header: 'Producto',
      accessorKey: 'nombre',
      meta: { label: 'Producto', primary: true, className: 'max-w-xs' },
      cell: ({ row: { original: p } }) => (
        <>
          <button
            type="button"
            className={cn(
              'block max-w-full truncate text-left font-medium hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:cursor-default disabled:hover:text-inherit',
              p.activo ? 'text-slate-900' : 'text-slate-400',
            )}
            onClick={() => a.onEdit(p)}
            disabled={!a.canEdit}
          >
            {p.nombre}
          </button>
          <p className="truncate text-xs text-slate-500">
            {[p.codigo, p.codigo_barras].filter(Boolean).join(' · ') || 'Sin código'}
          </p>
        </>
      ),
    },
    {
      id: 'codigo',
      header: 'Código',
      accessorKey: 'codigo',
      meta: { label: 'Código', defaultHidden: true },
      cell: ({ row: { original: p } }) => p.codigo ?? '—',
    },
    {
      id: 'categoria',
      header: 'Categoría',
      enableSorting: false,
      meta: { label: 'Categoría', className: 'text-slate-600' },
      cell: ({ row: { original: p } }) => p.categoria_nombre ?? '—',
    },
    ...(verCostos
      ? [
          {
            id: 'costo',
            header: 'Costo',
            enableSorting: false,
            meta: { label: 'Costo', align: 'right', className: 'whitespace-nowrap text-slate-500' },
            cell: ({ row: { original: p } }) =>
              p.precio_compra == null ? '—' : formatMoney(p.precio_compra, formatting),
          } satisfies ColumnDef<Product, unknown>,
        ]
      : []),
    {
      id: 'precio_venta',
      header: 'Precio',
      accessorKey: 'precio_venta',
      meta: { label: 'Precio', align: 'right', className: 'whitespace-nowrap font-medium text-slate-900' },
      cell: ({ row: { original: p } }) => (
        <span>
          {formatMoney(p.precio_venta, formatting)}
          <ListPrices p={p} />
        </span>
      ),
    },
    {
      id: 'stock_actual',
      header: 'Stock',
      accessorKey: 'stock_actual',
      meta: { label: 'Stock', align: 'right', className: 'whitespace-nowrap' },
      cell: ({ row: { original: p } }) => <StockCell p={p} />,
    },
    {
      id: 'estado',
      header: 'Estado',
      enableSorting: false,
      meta: { label: 'Estado' },
      cell: ({ row: { original: p } }) =>
        !p.activo ? (
          <Badge>Inactivo</Badge>
        ) : p.stock_bajo ? (
          <Badge color="yellow">{p.stock_actual < 0 ? 'Stock negativo' : 'Stock bajo'}</Badge>
        ) : (
          '—'
        ),
    },
    {
      id: 'actualizado_en',
      header: 'Modificado',
      accessorKey: 'actualizado_en',
      sortDescFirst: true,
      meta: { label: 'Modificado', defaultHidden: true, className: 'whitespace-nowrap' },
      cell: ({ row: { original: p } }) => formatDateTime(p.actualizado_en, formatting),
    },
    {
      id: 'acciones',
      header: 'Acciones',
      enableSorting: false,
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: p } }) => <RowMenu p={p} a={a} />,
    },
  ];
}

/** The product list: search as you type, filters, sort, pages, and every product action. */
export function ProductsTab({ onImport }: { onImport: () => void }) {
  const { businessId, formatting } = useBusiness();
  const { verCostos } = useCounterControls();
  const can = useCan();
  const canEdit = can('productos', 'editar');
  const canDelete = can('productos', 'eliminar');
  // The category list is the categorias module's: without it, no category filter.
  const canSeeCategories = can('categorias', 'ver');
  const categories = useCategories();
  const list = useListState(
    { categoria_id: '', activo: '' as '' | 'true' | 'false', stock_bajo: '' as '' | 'true', deposito_id: '' },
    PAGE_SIZE,
    200,
  );
  const products = useProducts({ ...list.query, stock_bajo: list.filters.stock_bajo === 'true' });
  const remove = useDeleteProduct();
  const dialogs = useListDialogs<Product>();
  const { editing, deleting, setDeleting, setNotice } = dialogs;
  const [adjusting, setAdjusting] = useState<Product | null>(null);
  const [history, setHistory] = useState<Product | null>(null);
  const [priceHistory, setPriceHistory] = useState<Product | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [ivaOpen, setIvaOpen] = useState(false);
  const exporter = useListExport(`${productsPath(businessId!)}/exportar`, list.exportQuery);

  const actions: Actions = {
    canEdit,
    canDelete,
    onEdit: dialogs.openForm,
    onAdjust: setAdjusting,
    onHistory: setHistory,
    onPriceHistory: setPriceHistory,
    onDelete: setDeleting,
  };
  const columns = productColumns({ a: actions, formatting, verCostos });

  return (
    <div>
      <div className="mb-4 flex flex-wrap gap-2">
        {canEdit && (
          <Button onClick={dialogs.openNew}>
            <Plus className="h-4 w-4" aria-hidden />
            Nuevo producto
          </Button>
        )}
        {canEdit && (
          <Button variant="secondary" onClick={onImport}>
            <Upload className="h-4 w-4" aria-hidden />
            Importar
          </Button>
        )}
        {canEdit && (
          <Button variant="secondary" onClick={() => setBulkOpen(true)}>
            <Percent className="h-4 w-4" aria-hidden />
            Actualizar precios
          </Button>
        )}
        {canEdit && (
          <Button variant="secondary" onClick={() => setIvaOpen(true)}>
            <Percent className="h-4 w-4" aria-hidden />
            Cambiar IVA
          </Button>
        )}
        {exporter.button}
      </div>
      {dialogs.notice && <StatusNote onClose={() => setNotice(null)}>{dialogs.notice}</StatusNote>}
      {exporter.error}

      <Card className="mb-4 p-4">
        <div className="grid gap-3 sm:grid-cols-2" role="search" aria-label="Filtros de productos">
          <div className="sm:col-span-2">
            <SearchBox
              id="prod-q"
              label="Buscar productos"
              value={list.q}
              onChange={list.setQ}
              placeholder="Buscar por nombre, código o código de barras…"
            />
          </div>
          {canSeeCategories && (
            <FilterSelect
              id="prod-f-cat"
              label="Categoría"
              value={list.filters.categoria_id}
              onChange={(e) => list.setFilter('categoria_id', e.target.value)}
            >
              <option value="">Todas las categorías</option>
              <option value="ninguna">Sin categoría</option>
              {(categories.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.nombre}
                </option>
              ))}
            </FilterSelect>
          )}
          <FilterSelect
            id="prod-f-activo"
            label="Estado"
            value={list.filters.activo}
            onChange={(e) => list.setFilter('activo', e.target.value as '' | 'true' | 'false')}
          >
            <option value="">Activos e inactivos</option>
            <option value="true">Solo activos</option>
            <option value="false">Solo inactivos</option>
          </FilterSelect>
          <DepositoSelect
            id="prod-f-deposito"
            label="Depósito"
            todos="Stock de todos los depósitos"
            value={list.filters.deposito_id}
            onChange={(v) => list.setFilter('deposito_id', v)}
          />
        </div>
        <label className="mt-3 inline-flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={list.filters.stock_bajo === 'true'}
            onChange={(e) => list.setFilter('stock_bajo', e.target.checked ? 'true' : '')}
          />
          Solo stock bajo
        </label>
      </Card>

      <DataTable
        screen="productos"
        label="Productos"
        columns={columns}
        query={products}
        loadError="No se pudieron cargar los productos."
        rowId={(p) => p.id}
        rowClassName={(p) => p.stock_bajo && 'bg-amber-50/60'}
        sorting={list.sorting}
        pagination={list.pages(products.data?.total, 'producto', 'productos')}
        empty={
          list.filtered ? (
            <EmptyState title="Ningún producto coincide con la búsqueda o los filtros" />
          ) : (
            <EmptyState icon={<Package className="h-10 w-10" />} title="Todavía no hay productos">
              <p>Cargalos de a uno o importá tu lista de precios desde Excel.</p>
              {canEdit && (
                <div className="mt-4 flex flex-wrap justify-center gap-2">
                  <Button onClick={dialogs.openNew}>
                    <Plus className="h-4 w-4" aria-hidden />
                    Nuevo producto
                  </Button>
                  <Button variant="secondary" onClick={onImport}>
                    <Upload className="h-4 w-4" aria-hidden />
                    Importar desde Excel
                  </Button>
                </div>
              )}
            </EmptyState>
          )
        }
      />

      <ProductFormDialog
        open={dialogs.formOpen}
        onOpenChange={dialogs.setFormOpen}
        product={editing}
        onSaved={(p, created) =>
          setNotice(created ? `Producto «${p.nombre}» creado.` : `Producto «${p.nombre}» actualizado.`)
        }
      />
      <StockAdjustDialog
        product={adjusting}
        onClose={(message) => {
          setAdjusting(null);
          if (message) setNotice(message);
        }}
      />
      <StockHistoryDialog product={history} onClose={() => setHistory(null)} />
      <PriceHistoryDialog product={priceHistory} onClose={() => setPriceHistory(null)} />
      <BulkPriceDialog
        open={bulkOpen}
        onClose={(message) => {
          setBulkOpen(false);
          if (message) setNotice(message);
        }}
      />
      <IvaMasivoDialog
        open={ivaOpen}
        onClose={(message) => {
          setIvaOpen(false);
          if (message) setNotice(message);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Eliminar producto"
        message={`¿Estás seguro de que querés eliminar «${deleting?.nombre ?? ''}»? Si ya tiene ventas o compras, conviene desactivarlo.`}
        failure="No se pudo eliminar el producto."
        onConfirm={async () => {
          await remove.mutateAsync(deleting!.id);
          setNotice(`Producto «${deleting!.nombre}» eliminado.`);
        }}
      />
    </div>
  );
}
