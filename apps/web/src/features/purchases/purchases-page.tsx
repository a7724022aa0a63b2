import { useDownload } from '@/lib/download';
import { ChevronRight, Download, Plus, ShoppingCart } from 'lucide-react';
import { LibroIvaComprasButton } from './libro-iva-button';
import { useState } from 'react';
import { Link, Navigate, Route, Routes, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PURCHASE_STATE_LABELS, PURCHASE_STATES, type PurchaseState } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/input';
import { EmptyState, ErrorNote, FilterBar, PageHeader } from '@/components/ui/misc';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan } from '@/features/permissions/permissions.api';
import { ListCard, Pager, RowsSkeleton, StatusNote } from '@/features/products/inventory-ui';
import { useSupplierOptions } from '@/features/suppliers/suppliers.api';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { PurchaseDetailPage } from './purchase-detail';
import { PurchaseFormPage } from './purchase-form';
import { conditionText, PurchaseStateBadge } from './purchase-ui';
import { purchaseQuery, purchasesPath, usePurchases } from './purchases.api';

const PAGE_SIZE = 25;

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
  const exporter = useDownload('No se pudo exportar la lista.');
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
  const purchases = usePurchases({ ...filters, limit: PAGE_SIZE, offset: page * PAGE_SIZE });
  const rows = purchases.data?.rows ?? [];
  const canEdit = can('stock', 'editar');

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
            <Button
              variant="secondary"
              loading={exporter.busy}
              onClick={async () => {
                await exporter.run(`${purchasesPath(businessId!)}/exportar`, purchaseQuery(filters));
              }}
            >
              <Download className="h-4 w-4" aria-hidden />
              Exportar
            </Button>
            <LibroIvaComprasButton />
          </>
        }
      />
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      {exporter.error && (
        <div className="mb-4">
          <ErrorNote>{exporter.error}</ErrorNote>
        </div>
      )}
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

      {purchases.error ? (
        <ErrorNote>{errorMessage(purchases.error, 'No se pudieron cargar las compras.')}</ErrorNote>
      ) : purchases.isLoading ? (
        <RowsSkeleton />
      ) : rows.length === 0 ? (
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
      ) : (
        <ListCard
          dimmed={purchases.isFetching}
          footer={
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={purchases.data?.total ?? 0}
              onPage={setPage}
              label="compras"
              one="compra"
            />
          }
        >
          <ul className="divide-y divide-slate-100" aria-label="Compras">
            {rows.map((p) => (
              <li key={p.id}>
                <Link
                  to={`/compras/${p.id}`}
                  className="flex items-center gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600"
                >
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <span className="font-medium text-slate-900">Compra #{p.numero}</span>
                      <span className="truncate text-slate-700">{p.proveedor_nombre ?? 'Sin proveedor'}</span>
                    </p>
                    <p className="mt-0.5 truncate text-xs text-slate-500">
                      {formatDate(p.fecha, formatting)} · {p.cantidad_items}{' '}
                      {p.cantidad_items === 1 ? 'producto' : 'productos'} · {conditionText(p, formatting)}
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-col items-end gap-1 sm:flex-row sm:items-center sm:gap-3">
                    <PurchaseStateBadge estado={p.estado} />
                    <span className="font-semibold tabular-nums text-slate-900">
                      {formatMoney(p.total, formatting)}
                    </span>
                  </div>
                  <ChevronRight className="hidden h-4 w-4 shrink-0 text-slate-400 sm:block" aria-hidden />
                </Link>
              </li>
            ))}
          </ul>
        </ListCard>
      )}
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
