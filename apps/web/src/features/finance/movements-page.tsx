import { Download, Lock, Plus } from 'lucide-react';
import { useState } from 'react';
import {
  MOVEMENT_ORIGIN_LABELS,
  MOVEMENT_TYPE_LABELS,
  paymentMethodLabel,
  type Movement,
  type MovementType,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote, PageHeader } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import {
  useDeleteMovement,
  useFinanceCategories,
  useMovements,
  useMovementsExport,
  type MovementFilters,
} from './finance.api';
import { ListSkeleton, SignedAmount, TypeBadge, useFinanceCan } from './finance-ui';
import { MovementFormDialog } from './movement-form-dialog';

const PAGE_SIZE = 50;

function MovementRow({
  m,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: {
  m: Movement;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { formatting } = useBusiness();
  const generated = m.origen !== 'manual';
  const label = m.descripcion || 'Sin descripción';
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="truncate font-medium text-slate-900">{label}</p>
          <TypeBadge tipo={m.tipo} />
          {generated && (
            <Badge color="purple">
              <Lock className="mr-1 h-3 w-3" aria-hidden />
              {MOVEMENT_ORIGIN_LABELS[m.origen]}
            </Badge>
          )}
        </div>
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-500">
          <span>{formatDate(m.fecha, formatting)}</span>
          <span>{m.categoria_nombre ?? 'Sin categoría'}</span>
          <span>{paymentMethodLabel(m.metodo_pago)}</span>
          {m.cliente_nombre && <span>Cliente: {m.cliente_nombre}</span>}
        </p>
      </div>
      <div className="flex items-center justify-between gap-3 sm:justify-end">
        <SignedAmount tipo={m.tipo} monto={m.monto} className="text-base" />
        {!generated && (canEdit || canDelete) && (
          <RowActions name={label} onEdit={canEdit && onEdit} onDelete={canDelete && onDelete} />
        )}
      </div>
    </li>
  );
}

/** Movimientos Financieros (SPEC §2). */
export function MovementsPage() {
  const can = useFinanceCan();
  const categories = useFinanceCategories();
  const [filters, setFilters] = useState<MovementFilters>({
    tipo: '',
    categoria_id: '',
    fecha_desde: '',
    fecha_hasta: '',
  });
  const [page, setPage] = useState(0);
  const movements = useMovements({ ...filters, limit: PAGE_SIZE, offset: page * PAGE_SIZE });
  const remove = useDeleteMovement();
  const exporter = useMovementsExport();
  const [editing, setEditing] = useState<Movement | undefined>();
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<Movement | null>(null);

  const setFilter = (patch: Partial<MovementFilters>) => {
    setPage(0);
    setFilters((f) => ({ ...f, ...patch }));
  };
  const canEdit = can('movimientos_financieros', 'edit');
  const canDelete = can('movimientos_financieros', 'delete');
  const rows = movements.data?.rows ?? [];
  const total = movements.data?.total ?? 0;
  const activeCategories = (categories.data ?? []).filter((c) => c.activo);

  return (
    <div>
      <PageHeader
        title="Movimientos Financieros"
        description="Ingresos y egresos del negocio."
        actions={
          <>
            {canEdit && (
              <Button
                onClick={() => {
                  setEditing(undefined);
                  setFormOpen(true);
                }}
              >
                <Plus className="h-4 w-4" aria-hidden />
                Nuevo Movimiento
              </Button>
            )}
            <Button variant="secondary" loading={exporter.busy} onClick={() => exporter.run(filters)}>
              <Download className="h-4 w-4" aria-hidden />
              Exportar
            </Button>
          </>
        }
      />
      {exporter.error && (
        <div className="mb-4">
          <ErrorNote>{exporter.error}</ErrorNote>
        </div>
      )}

      <Card className="mb-4">
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label="Filtros de movimientos">
          <Field id="f-tipo" label="Tipo">
            <Select
              id="f-tipo"
              value={filters.tipo}
              onChange={(e) => setFilter({ tipo: e.target.value as MovementType | '' })}
            >
              <option value="">Todos</option>
              <option value="ingreso">Ingresos</option>
              <option value="egreso">Egresos</option>
            </Select>
          </Field>
          <Field id="f-categoria" label="Categoría">
            <Select
              id="f-categoria"
              value={filters.categoria_id}
              onChange={(e) => setFilter({ categoria_id: e.target.value })}
            >
              <option value="">Todas</option>
              {activeCategories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.nombre} ({MOVEMENT_TYPE_LABELS[c.tipo]})
                </option>
              ))}
            </Select>
          </Field>
          <Field id="f-desde" label="Desde">
            <Input
              id="f-desde"
              type="date"
              value={filters.fecha_desde}
              onChange={(e) => setFilter({ fecha_desde: e.target.value })}
            />
          </Field>
          <Field id="f-hasta" label="Hasta">
            <Input
              id="f-hasta"
              type="date"
              value={filters.fecha_hasta}
              onChange={(e) => setFilter({ fecha_hasta: e.target.value })}
            />
          </Field>
        </div>
      </Card>

      {movements.error ? (
        <ErrorNote>{errorMessage(movements.error, 'Error al cargar los movimientos')}</ErrorNote>
      ) : movements.isLoading ? (
        <ListSkeleton />
      ) : rows.length === 0 ? (
        <EmptyState title="No hay movimientos registrados" />
      ) : (
        <Card className="py-0">
          <ul className="divide-y divide-slate-100" aria-label="Movimientos">
            {rows.map((m) => (
              <MovementRow
                key={m.id}
                m={m}
                canEdit={canEdit}
                canDelete={canDelete}
                onEdit={() => {
                  setEditing(m);
                  setFormOpen(true);
                }}
                onDelete={() => setDeleting(m)}
              />
            ))}
          </ul>
          {total > PAGE_SIZE && (
            <div className="flex items-center justify-between border-t border-slate-100 py-3 text-sm text-slate-600">
              <span>
                {page * PAGE_SIZE + 1}–{Math.min(total, (page + 1) * PAGE_SIZE)} de {total}
              </span>
              <div className="flex gap-2">
                <Button variant="secondary" size="sm" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                  Anterior
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={(page + 1) * PAGE_SIZE >= total}
                  onClick={() => setPage((p) => p + 1)}
                >
                  Siguiente
                </Button>
              </div>
            </div>
          )}
        </Card>
      )}

      <MovementFormDialog open={formOpen} onOpenChange={setFormOpen} movement={editing} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Eliminar movimiento"
        message="¿Estás seguro de que querés eliminar este movimiento?"
        onConfirm={async () => {
          try {
            await remove.mutateAsync(deleting!.id);
          } catch (e) {
            console.error(e);
            throw new Error(errorMessage(e, 'Error al eliminar el movimiento'), { cause: e });
          }
        }}
      />
    </div>
  );
}
