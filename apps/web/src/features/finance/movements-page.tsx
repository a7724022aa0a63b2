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
import { formatDate, type Formatting } from '@/lib/format';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/data-table';
import {
  useDeleteMovement,
  useFinanceCategories,
  useMovements,
  useMovementsExport,
  type MovementFilters,
} from './finance.api';
import { SignedAmount, TypeBadge, useFinanceCan } from './finance-ui';
import { MovementFormDialog } from './movement-form-dialog';

const PAGE_SIZE = 50;

/** The movements table's columns; generated movements (sales, purchases…) are not edited here. */
function movementColumns({
  formatting,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: {
  formatting: Formatting;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (m: Movement) => void;
  onDelete: (m: Movement) => void;
}): ColumnDef<Movement, unknown>[] {
  const label = (m: Movement) => m.descripcion || 'Sin descripción';
  return [
    {
      id: 'descripcion',
      header: 'Descripción',
      enableSorting: false,
      meta: { label: 'Descripción', primary: true },
      cell: ({ row: { original: m } }) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900">{label(m)}</span>
          <TypeBadge tipo={m.tipo} />
          {m.origen !== 'manual' && (
            <Badge color="purple">
              <Lock className="mr-1 h-3 w-3" aria-hidden />
              {MOVEMENT_ORIGIN_LABELS[m.origen]}
            </Badge>
          )}
        </span>
      ),
    },
    {
      id: 'fecha',
      header: 'Fecha',
      enableSorting: false,
      meta: { label: 'Fecha', className: 'whitespace-nowrap' },
      cell: ({ row: { original: m } }) => formatDate(m.fecha, formatting),
    },
    {
      id: 'categoria',
      header: 'Categoría',
      enableSorting: false,
      meta: { label: 'Categoría' },
      cell: ({ row: { original: m } }) => m.categoria_nombre ?? 'Sin categoría',
    },
    {
      id: 'metodo_pago',
      header: 'Medio de pago',
      enableSorting: false,
      meta: { label: 'Medio de pago' },
      cell: ({ row: { original: m } }) => paymentMethodLabel(m.metodo_pago),
    },
    {
      id: 'cliente',
      header: 'Cliente',
      enableSorting: false,
      meta: { label: 'Cliente', defaultHidden: true },
      cell: ({ row: { original: m } }) => m.cliente_nombre ?? '—',
    },
    {
      id: 'monto',
      header: 'Monto',
      enableSorting: false,
      meta: { label: 'Monto', align: 'right', className: 'whitespace-nowrap' },
      cell: ({ row: { original: m } }) => <SignedAmount tipo={m.tipo} monto={m.monto} className="text-base" />,
    },
    {
      id: 'acciones',
      header: 'Acciones',
      enableSorting: false,
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: m } }) =>
        m.origen === 'manual' && (canEdit || canDelete) ? (
          <RowActions
            name={label(m)}
            className="justify-end"
            onEdit={canEdit && (() => onEdit(m))}
            onDelete={canDelete && (() => onDelete(m))}
          />
        ) : null,
    },
  ];
}

const NO_FILTERS: MovementFilters = { tipo: '', categoria_id: '', fecha_desde: '', fecha_hasta: '' };

/** Movimientos Financieros (SPEC §2). */
export function MovementsPage() {
  const { formatting } = useBusiness();
  const can = useFinanceCan();
  const categories = useFinanceCategories();
  const [filters, setFilters] = useState<MovementFilters>(NO_FILTERS);
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

      <DataTable
        screen="movimientos"
        label="Movimientos"
        columns={movementColumns({
          formatting,
          canEdit,
          canDelete,
          onEdit: (m) => {
            setEditing(m);
            setFormOpen(true);
          },
          onDelete: setDeleting,
        })}
        query={movements}
        loadError="Error al cargar los movimientos"
        rowId={(m) => m.id}
        pagination={{ page, pageSize: PAGE_SIZE, total, onPage: setPage, one: 'movimiento', label: 'movimientos' }}
        empty={
          Object.values(filters).some(Boolean) ? (
            <EmptyState title="Ningún movimiento coincide con los filtros">
              <button
                type="button"
                className="font-medium text-blue-700 underline"
                onClick={() => {
                  setPage(0);
                  setFilters(NO_FILTERS);
                }}
              >
                Limpiar filtros
              </button>
            </EmptyState>
          ) : (
            <EmptyState title="No hay movimientos registrados" />
          )
        }
      />

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
