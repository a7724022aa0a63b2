import { useDownload } from '@/lib/download';
import {
  AlertTriangle,
  Download,
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
import type { Product, ProductSort } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FilterSelect } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote } from '@/components/ui/misc';
import { useCategories } from '@/features/categories/categories.api';
import { useCan, useCounterControls } from '@/features/permissions/permissions.api';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatMoney, formatNumber } from '@/lib/format';
import { IvaMasivoDialog } from '@/features/facturacion/iva-masivo-dialog';
import { BulkPriceDialog } from './bulk-price-dialog';
import { ListCard, Pager, RowsSkeleton, SearchBox, StatusNote, useDebounced } from './inventory-ui';
import { ProductFormDialog } from './product-form-dialog';
import { productQuery, productsPath, useDeleteProduct, useProducts, type ProductFilters } from './products.api';
import { StockAdjustDialog, StockHistoryDialog } from './stock-dialogs';
import { ListPrices } from '../precios/list-prices';
import { PriceHistoryDialog } from '../precios/price-history-dialog';

const PAGE_SIZE = 50;

const SORTS: { value: string; label: string }[] = [
  { value: 'nombre:asc', label: 'Nombre (A-Z)' },
  { value: 'nombre:desc', label: 'Nombre (Z-A)' },
  { value: 'precio_venta:asc', label: 'Precio: menor a mayor' },
  { value: 'precio_venta:desc', label: 'Precio: mayor a menor' },
  { value: 'stock_actual:asc', label: 'Stock: menor a mayor' },
  { value: 'stock_actual:desc', label: 'Stock: mayor a menor' },
  { value: 'codigo:asc', label: 'Código' },
  { value: 'actualizado_en:desc', label: 'Modificados recientemente' },
];

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

function ProductTable({ rows, a }: { rows: Product[]; a: Actions }) {
  const { formatting } = useBusiness();
  const { verCostos } = useCounterControls();
  return (
    <>
      {/* Wide screens: a table. */}
      <table className="hidden w-full text-sm md:table" aria-label="Productos">
        <thead className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-3 pl-4 pr-2 font-medium">
              Producto
            </th>
            <th scope="col" className="px-2 py-3 font-medium">
              Categoría
            </th>
            {verCostos && (
              <th scope="col" className="px-2 py-3 text-right font-medium">
                Costo
              </th>
            )}
            <th scope="col" className="px-2 py-3 text-right font-medium">
              Precio
            </th>
            <th scope="col" className="px-2 py-3 text-right font-medium">
              Stock
            </th>
            <th scope="col" className="px-2 py-3 font-medium">
              <span className="sr-only">Estado</span>
            </th>
            <th scope="col" className="py-3 pl-2 pr-4 font-medium">
              <span className="sr-only">Acciones</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((p) => (
            <tr key={p.id} className={cn(p.stock_bajo && 'bg-amber-50/60', !p.activo && 'text-slate-400')}>
              <td className="max-w-xs py-3 pl-4 pr-2">
                <button
                  type="button"
                  className="block max-w-full truncate text-left font-medium text-slate-900 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:cursor-default disabled:hover:text-slate-900"
                  onClick={() => a.onEdit(p)}
                  disabled={!a.canEdit}
                >
                  {p.nombre}
                </button>
                <p className="truncate text-xs text-slate-500">
                  {[p.codigo, p.codigo_barras].filter(Boolean).join(' · ') || 'Sin código'}
                </p>
              </td>
              <td className="px-2 py-3 text-slate-600">{p.categoria_nombre ?? '—'}</td>
              {verCostos && (
                <td className="whitespace-nowrap px-2 py-3 text-right tabular-nums text-slate-500">
                  {p.precio_compra == null ? '—' : formatMoney(p.precio_compra, formatting)}
                </td>
              )}
              <td className="whitespace-nowrap px-2 py-3 text-right font-medium tabular-nums text-slate-900">
                {formatMoney(p.precio_venta, formatting)}
                <ListPrices p={p} />
              </td>
              <td className="whitespace-nowrap px-2 py-3 text-right">
                <StockCell p={p} />
              </td>
              <td className="px-2 py-3">
                {!p.activo ? (
                  <Badge>Inactivo</Badge>
                ) : p.stock_bajo ? (
                  <Badge color="yellow">{p.stock_actual < 0 ? 'Stock negativo' : 'Stock bajo'}</Badge>
                ) : null}
              </td>
              <td className="py-3 pl-2 pr-4 text-right">
                <RowMenu p={p} a={a} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* Narrow screens: one card per product. */}
      <ul className="divide-y divide-slate-100 md:hidden" aria-label="Productos">
        {rows.map((p) => (
          <li key={p.id} className={cn('flex items-start gap-3 px-4 py-3', p.stock_bajo && 'bg-amber-50/60')}>
            <div className="min-w-0 flex-1">
              <p className={cn('truncate font-medium', p.activo ? 'text-slate-900' : 'text-slate-400')}>{p.nombre}</p>
              <p className="truncate text-xs text-slate-500">
                {[p.codigo, p.categoria_nombre].filter(Boolean).join(' · ') || 'Sin código'}
              </p>
              <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                <span className="font-semibold tabular-nums text-slate-900">
                  {formatMoney(p.precio_venta, formatting)}
                  <ListPrices p={p} />
                </span>
                <StockCell p={p} />
                {!p.activo && <Badge>Inactivo</Badge>}
              </div>
            </div>
            <RowMenu p={p} a={a} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** The product list: search as you type, filters, sort, pages, and every product action. */
export function ProductsTab({ onImport }: { onImport: () => void }) {
  const { businessId } = useBusiness();
  const can = useCan();
  const canEdit = can('productos', 'editar');
  const canDelete = can('productos', 'eliminar');
  // The category list is the categorias module's: without it, no category filter.
  const canSeeCategories = can('categorias', 'ver');
  const categories = useCategories();
  const [q, setQ] = useState('');
  const [categoria, setCategoria] = useState('');
  const [activo, setActivo] = useState<'' | 'true' | 'false'>('');
  const [lowOnly, setLowOnly] = useState(false);
  const [sort, setSort] = useState('nombre:asc');
  const [page, setPage] = useState(0);
  const search = useDebounced(q, 200);
  const [orden, direccion] = sort.split(':') as [ProductSort, 'asc' | 'desc'];
  const filters: ProductFilters = {
    q: search,
    categoria_id: categoria,
    activo,
    stock_bajo: lowOnly,
    orden,
    direccion,
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
  };
  const products = useProducts(filters);
  const remove = useDeleteProduct();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Product | undefined>();
  const [adjusting, setAdjusting] = useState<Product | null>(null);
  const [history, setHistory] = useState<Product | null>(null);
  const [priceHistory, setPriceHistory] = useState<Product | null>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [ivaOpen, setIvaOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const exporter = useDownload('No se pudo exportar la lista.');

  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      setPage(0);
      set(v);
    };
  const actions: Actions = {
    canEdit,
    canDelete,
    onEdit: (p) => {
      setEditing(p);
      setFormOpen(true);
    },
    onAdjust: setAdjusting,
    onHistory: setHistory,
    onPriceHistory: setPriceHistory,
    onDelete: setDeleting,
  };
  const rows = products.data?.rows ?? [];
  const total = products.data?.total ?? 0;
  const filtering = Boolean(search || categoria || activo || lowOnly);

  const exportList = async () => {
    await exporter.run(`${productsPath(businessId!)}/exportar`, productQuery(filters));
  };

  return (
    <div>
      <div className="mb-4 flex flex-wrap gap-2">
        {canEdit && (
          <Button
            onClick={() => {
              setEditing(undefined);
              setFormOpen(true);
            }}
          >
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
        <Button variant="secondary" onClick={exportList} loading={exporter.busy}>
          <Download className="h-4 w-4" aria-hidden />
          Exportar
        </Button>
      </div>
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      {exporter.error && (
        <div className="mb-4">
          <ErrorNote>{exporter.error}</ErrorNote>
        </div>
      )}

      <Card className="mb-4 p-4">
        <div className="grid gap-3 sm:grid-cols-3" role="search" aria-label="Filtros de productos">
          <div className="sm:col-span-3">
            <SearchBox
              id="prod-q"
              label="Buscar productos"
              value={q}
              onChange={reset(setQ)}
              placeholder="Buscar por nombre, código o código de barras…"
            />
          </div>
          {canSeeCategories && (
            <FilterSelect
              id="prod-f-cat"
              label="Categoría"
              value={categoria}
              onChange={(e) => reset(setCategoria)(e.target.value)}
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
            value={activo}
            onChange={(e) => reset(setActivo)(e.target.value as typeof activo)}
          >
            <option value="">Activos e inactivos</option>
            <option value="true">Solo activos</option>
            <option value="false">Solo inactivos</option>
          </FilterSelect>
          <FilterSelect
            id="prod-f-orden"
            label="Ordenar por"
            value={sort}
            onChange={(e) => reset(setSort)(e.target.value)}
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </FilterSelect>
        </div>
        <label className="mt-3 inline-flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={lowOnly}
            onChange={(e) => reset(setLowOnly)(e.target.checked)}
          />
          Solo stock bajo
        </label>
      </Card>

      {products.error ? (
        <ErrorNote>{errorMessage(products.error, 'No se pudieron cargar los productos.')}</ErrorNote>
      ) : products.isLoading ? (
        <RowsSkeleton />
      ) : rows.length === 0 ? (
        filtering ? (
          <EmptyState title="Ningún producto coincide con la búsqueda o los filtros" />
        ) : (
          <EmptyState icon={<Package className="h-10 w-10" />} title="Todavía no hay productos">
            <p>Cargalos de a uno o importá tu lista de precios desde Excel.</p>
            {canEdit && (
              <div className="mt-4 flex flex-wrap justify-center gap-2">
                <Button
                  onClick={() => {
                    setEditing(undefined);
                    setFormOpen(true);
                  }}
                >
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
      ) : (
        <ListCard
          dimmed={products.isFetching}
          footer={
            <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} label="productos" one="producto" />
          }
        >
          <ProductTable rows={rows} a={actions} />
        </ListCard>
      )}

      <ProductFormDialog
        open={formOpen}
        onOpenChange={setFormOpen}
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
