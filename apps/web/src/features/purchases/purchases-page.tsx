import type { ColumnDef } from '@tanstack/react-table';
import { ChevronRight, Plus, ShoppingCart } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, Route, Routes, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PURCHASE_STATE_LABELS, PURCHASE_STATES, type Purchase, type PurchaseState } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/input';
import { DataTable, useListExport, useServerSorting } from '@/components/data-table';
import { EmptyState, FilterBar, PageHeader } from '@/components/ui/misc';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan } from '@/features/permissions/permissions.api';
import { StatusNote } from '@/features/products/inventory-ui';
import { useSupplierOptions } from '@/features/suppliers/suppliers.api';
import { formatDate, formatMoney, type Formatting } from '@/lib/format';
import { PurchaseDetailPage } from './purchase-detail';
import { PurchaseFormPage } from './purchase-form';
import { LibroIvaComprasButton } from './libro-iva-button';
import { conditionText, pendingText, PurchaseStateBadge } from './purchase-ui';
import { purchaseQuery, purchasesPath, usePurchases } from './purchases.api';

const PAGE_SIZE = 25;

/**
 * The purchases table's columns. Newest first unless a header asks otherwise: the API sorts and
 * pages (`orden`: fecha, numero, proveedor, total, estado).
 */
function purchaseColumns(formatting: Formatting): ColumnDef<Purchase, unknown>[] {
  return [
    {
      id: 'numero',
      header: 'Compra',
      meta: { label: 'Compra', primary: true },
      cell: ({ row: { original: p } }) => (
        <Link
          to={`/compras/${p.id}`}
          className="inline-flex items-center gap-1 whitespace-nowrap font-medium text-slate-900 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          Compra #{p.numero}
          <ChevronRight className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
        </Link>
      ),
    },
    {
      id: 'proveedor',
      header: 'Proveedor',
      meta: { label: 'Proveedor', className: 'text-slate-700' },
      cell: ({ row: { original: p } }) => p.proveedor_nombre ?? 'Sin proveedor',
    },
    {
      id: 'fecha',
      header: 'Fecha',
      meta: { label: 'Fecha', className: 'whitespace-nowrap text-slate-600' },
      cell: ({ row: { original: p } }) => formatDate(p.fecha, formatting),
    },
    {
      id: 'productos',
      header: 'Productos',
      enableSorting: false,
      meta: { label: 'Productos', align: 'right' },
      cell: ({ row: { original: p } }) => p.cantidad_items,
    },
    {
      id: 'condicion',
      header: 'Condición',
      enableSorting: false,
      meta: { label: 'Condición', className: 'text-slate-600' },
      cell: ({ row: { original: p } }) => conditionText(p, formatting),
    },
    {
      id: 'estado',
      header: 'Estado',
      meta: { label: 'Estado' },
      cell: ({ row: { original: p } }) => (
        <span className="inline-flex flex-col items-start gap-0.5">
          <PurchaseStateBadge estado={p.estado} />
          {p.estado === 'recibida_parcial' && <span className="text-xs text-slate-500">{pendingText(p)}</span>}
        </span>
      ),
    },
    {
      id: 'total',
      header: 'Total',
      meta: { label: 'Total', align: 'right', className: 'whitespace-nowrap font-semibold text-slate-900' },
      cell: ({ row: { original: p } }) => formatMoney(p.total, formatting),
    },
  ];
}

/** /compras: the purchase orders, newest first, with filters by supplier, state and dates. */
function PurchaseList() {
  const { businessId, formatting } = useBusiness();
  const can = useCan();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const suppliers = useSupplierOptions();
  const [page, setPage] = useState(0);
  const [notice, setNotice] = useState<string | null>((location.state as { notice?: string } | null)?.notice ?? null);
  // The filters live in the URL, so a supplier's "ver todas sus compras" link lands filtered.
  const filters = {
    proveedor_id: params.get('proveedor') ?? '',
    estado: (params.get('estado') ?? '') as PurchaseState | '',
    fecha_desde: params.get('desde') ?? '',
    fecha_hasta: params.get('hasta') ?? '',
  };
  const setFilter = (key: 'proveedor' | 'estado' | 'desde' | 'hasta', value: string) => {
    setPage(0);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  };
  const filtered = Object.values(filters).some(Boolean);
  const sorting = useServerSorting(() => setPage(0));
  const purchases = usePurchases({ ...filters, ...sorting.query, limit: PAGE_SIZE, offset: page * PAGE_SIZE });
  const canEdit = can('stock', 'editar');
  const exporter = useListExport(
    `${purchasesPath(businessId!)}/exportar`,
    purchaseQuery({ ...filters, ...sorting.query }),
  );

  return (
    <div>
      <PageHeader
        title="Órdenes de compra"
        description="Pedidos a tus proveedores: al recibirlos, el stock y los costos se actualizan solos."
        actions={
          <>
            {canEdit && (
              <Button onClick={() => navigate('/compras/nueva')}>
                <Plus className="h-4 w-4" aria-hidden />
                Nueva compra
              </Button>
            )}
            {exporter.button}
            <LibroIvaComprasButton />
          </>
        }
      />
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      {exporter.error}
      <FilterBar label="Filtros de compras" className="grid-cols-2 lg:grid-cols-4">
        <Field id="oc-f-proveedor" label="Proveedor">
          <Select
            id="oc-f-proveedor"
            value={filters.proveedor_id}
            onChange={(e) => setFilter('proveedor', e.target.value)}
          >
            <option value="">Todos</option>
            {(suppliers.data?.rows ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.nombre}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="oc-f-estado" label="Estado">
          <Select id="oc-f-estado" value={filters.estado} onChange={(e) => setFilter('estado', e.target.value)}>
            <option value="">Todos</option>
            {PURCHASE_STATES.map((s) => (
              <option key={s} value={s}>
                {PURCHASE_STATE_LABELS[s]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="oc-f-desde" label="Desde">
          <Input
            id="oc-f-desde"
            type="date"
            value={filters.fecha_desde}
            onChange={(e) => setFilter('desde', e.target.value)}
          />
        </Field>
        <Field id="oc-f-hasta" label="Hasta">
          <Input
            id="oc-f-hasta"
            type="date"
            value={filters.fecha_hasta}
            onChange={(e) => setFilter('hasta', e.target.value)}
          />
        </Field>
      </FilterBar>

      <DataTable
        screen="compras"
        label="Compras"
        columns={purchaseColumns(formatting)}
        query={purchases}
        sorting={sorting}
        loadError="No se pudieron cargar las compras."
        rowId={(p) => p.id}
        pagination={{
          page,
          pageSize: PAGE_SIZE,
          total: purchases.data?.total ?? 0,
          onPage: setPage,
          label: 'compras',
          one: 'compra',
        }}
        empty={
          filtered ? (
            <EmptyState title="Ninguna compra coincide con los filtros">
              <Button variant="secondary" className="mt-3" onClick={() => setParams({}, { replace: true })}>
                Quitar filtros
              </Button>
            </EmptyState>
          ) : (
            <EmptyState icon={<ShoppingCart className="h-10 w-10" />} title="Todavía no hay compras">
              <p>Registrá lo que le pedís a cada proveedor; al recibirlo se suma al stock.</p>
              {canEdit && (
                <Button className="mt-4" onClick={() => navigate('/compras/nueva')}>
                  <Plus className="h-4 w-4" aria-hidden />
                  Nueva compra
                </Button>
              )}
            </EmptyState>
          )
        }
      />
    </div>
  );
}

/** The purchases area (SPEC §2, /compras): list, new, detail and edit, gated by `stock`. */
export default function PurchasesPage() {
  return (
    <PermissionGate modulo="stock">
      <Routes>
        <Route index element={<PurchaseList />} />
        <Route
          path="nueva"
          element={
            <PermissionGate modulo="stock" accion="editar">
              <PurchaseFormPage />
            </PermissionGate>
          }
        />
        <Route path=":id" element={<PurchaseDetailPage />} />
        <Route
          path=":id/editar"
          element={
            <PermissionGate modulo="stock" accion="editar">
              <PurchaseFormPage />
            </PermissionGate>
          }
        />
        <Route path="*" element={<Navigate to="/compras" replace />} />
      </Routes>
    </PermissionGate>
  );
}
