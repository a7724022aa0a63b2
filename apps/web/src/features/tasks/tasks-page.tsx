import { CalendarDays, ClipboardList, List, Plus, Search } from 'lucide-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
  TASK_STATE_LABELS,
  TASK_STATES,
  userDisplayName,
  type Task,
  type TaskPriority,
  type TaskState,
} from '@mostrador/shared/tasks';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { DataTable, useListState } from '@/components/data-table';
import { Card, EmptyState, PageHeader, Skeleton } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDateTime, type Formatting } from '@/lib/format';
import { TaskCalendar } from './task-calendar';
import { TaskDialog } from './task-dialog';
import { OverdueBadge, PriorityBadge, StateSelect, useTaskAbilities } from './task-ui';
import { TASK_PAGE_SIZE, useDeleteTask, useEmployees, useTaskStats, useTasks, useUpdateTask } from './tasks.api';

function Stat({ label, value, tone }: { label: string; value: number | undefined; tone?: 'red' | 'blue' | 'green' }) {
  return (
    <Card className="p-3 sm:p-4">
      <p className="text-xs font-medium text-slate-500 sm:uppercase sm:tracking-wide">{label}</p>
      {value === undefined ? (
        <Skeleton className="mt-2 h-7 w-12" />
      ) : (
        <p
          className={cn(
            'mt-1 text-xl font-semibold sm:text-2xl',
            tone === 'red' && value > 0 ? 'text-red-600' : tone === 'blue' ? 'text-blue-700' : 'text-slate-900',
            tone === 'green' && 'text-emerald-700',
          )}
        >
          {value}
        </p>
      )}
    </Card>
  );
}

function StatsBar() {
  const { data } = useTaskStats();
  return (
    <section aria-label="Estadísticas de tareas" className="mb-6">
      <div className="grid grid-cols-3 gap-2 sm:gap-3 lg:grid-cols-5">
        <Stat label="Total" value={data?.total} />
        <Stat label="Pendientes" value={data?.pendientes} />
        <Stat label="En progreso" value={data?.en_progreso} tone="blue" />
        <Stat label="Completadas" value={data?.completadas} tone="green" />
        <Stat label="Vencidas" value={data?.vencidas} tone="red" />
      </div>
      {data && (
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
          <span>Pausadas: {data.pausadas}</span>
          <span>Canceladas: {data.canceladas}</span>
          <span aria-hidden>·</span>
          {TASK_PRIORITIES.map((p) => (
            <span key={p}>
              {TASK_PRIORITY_LABELS[p]}: {data.por_prioridad[p]}
            </span>
          ))}
        </p>
      )}
    </section>
  );
}

/** A task's state: a select for whoever may change it (with the reason when the change fails). */
function StateCell({ t }: { t: Task }) {
  const { canChangeState } = useTaskAbilities();
  const update = useUpdateTask();
  const [error, setError] = useState<string | null>(null);
  if (!canChangeState(t)) return <span className="text-sm text-slate-600">{TASK_STATE_LABELS[t.estado]}</span>;
  return (
    <span className="inline-flex flex-col items-end gap-1 sm:items-start">
      <StateSelect
        task={t}
        disabled={update.isPending}
        onChange={async (estado) => {
          setError(null);
          try {
            await update.mutateAsync({ id: t.id, body: { estado } });
          } catch (e) {
            setError(errorMessage(e, 'No se pudo cambiar el estado.'));
          }
        }}
      />
      {error && (
        <span role="alert" className="text-xs text-red-600">
          {error}
        </span>
      )}
    </span>
  );
}

/** The task table's columns. */
function taskColumns({
  formatting,
  onOpen,
  onEdit,
  onDelete,
}: {
  formatting: Formatting;
  onOpen: (t: Task) => void;
  onEdit: false | ((t: Task) => void);
  onDelete: false | ((t: Task) => void);
}): ColumnDef<Task, unknown>[] {
  return [
    {
      id: 'titulo',
      header: 'Tarea',
      accessorKey: 'titulo',
      meta: { label: 'Tarea', primary: true, className: 'min-w-48' },
      cell: ({ row: { original: t } }) => (
        <>
          <span className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              onClick={() => onOpen(t)}
              className="min-w-0 break-words text-left font-medium text-slate-900 hover:text-blue-700 hover:underline"
            >
              {t.titulo}
            </button>
            {t.vencida && <OverdueBadge />}
          </span>
          {t.descripcion && <p className="mt-0.5 line-clamp-1 text-sm text-slate-600">{t.descripcion}</p>}
        </>
      ),
    },
    {
      id: 'prioridad',
      header: 'Prioridad',
      accessorKey: 'prioridad',
      meta: { label: 'Prioridad' },
      cell: ({ row: { original: t } }) => <PriorityBadge prioridad={t.prioridad} />,
    },
    {
      id: 'asignada',
      header: 'Asignada a',
      enableSorting: false,
      meta: { label: 'Asignada a' },
      cell: ({ row: { original: t } }) => (t.asignada_a ? userDisplayName(t.asignada_a) : 'Sin asignar'),
    },
    {
      id: 'fecha_inicio',
      header: 'Inicio',
      enableSorting: false,
      meta: { label: 'Inicio', defaultHidden: true, className: 'whitespace-nowrap' },
      cell: ({ row: { original: t } }) => (t.fecha_inicio ? formatDateTime(t.fecha_inicio, formatting) : '—'),
    },
    {
      id: 'fecha_fin',
      header: 'Fin',
      accessorKey: 'fecha_fin',
      meta: { label: 'Fin', className: 'whitespace-nowrap' },
      cell: ({ row: { original: t } }) =>
        t.fecha_fin ? (
          <span className={t.vencida ? 'font-medium text-red-700' : undefined}>
            {formatDateTime(t.fecha_fin, formatting)}
          </span>
        ) : (
          '—'
        ),
    },
    {
      id: 'creado_en',
      header: 'Creada',
      accessorKey: 'creado_en',
      meta: { label: 'Creada', defaultHidden: true, className: 'whitespace-nowrap' },
      cell: ({ row: { original: t } }) => formatDateTime(t.creado_en, formatting),
    },
    {
      id: 'estado',
      header: 'Estado',
      accessorKey: 'estado',
      meta: { label: 'Estado' },
      cell: ({ row: { original: t } }) => <StateCell t={t} />,
    },
    {
      id: 'acciones',
      header: 'Acciones',
      enableSorting: false,
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: t } }) => (
        <RowActions
          name={`«${t.titulo}»`}
          className="justify-end"
          onEdit={onEdit && (() => onEdit(t))}
          onDelete={onDelete && (() => onDelete(t))}
        />
      ),
    },
  ];
}

const NO_FILTERS = { estado: '' as TaskState | '', prioridad: '' as TaskPriority | '', asignada_a: '' };

function TaskList({ onOpen, onDelete }: { onOpen: (t: Task) => void; onDelete: (t: Task) => void }) {
  const { formatting } = useBusiness();
  const { canAssign, canEdit, canDelete, me } = useTaskAbilities();
  const employees = useEmployees(canAssign);
  // Search as you type, without a request per key.
  const list = useListState(NO_FILTERS, TASK_PAGE_SIZE, 300);
  const { filters, setFilter } = list;
  const tasks = useTasks({
    ...filters,
    q: list.search,
    pagina: list.query.offset / TASK_PAGE_SIZE + 1,
    ...list.sorting.query,
  });
  const columns = taskColumns({ formatting, onOpen, onEdit: canEdit && onOpen, onDelete: canDelete && onDelete });

  return (
    <>
      <Card className="mb-4">
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" role="search" aria-label="Filtros de tareas">
          <div className="col-span-2 lg:col-span-1">
            <Field id="f-buscar" label="Buscar">
              <div className="relative">
                <Search className="pointer-events-none absolute left-3 top-3 h-4 w-4 text-slate-400" aria-hidden />
                <Input
                  id="f-buscar"
                  type="search"
                  className="pl-9"
                  placeholder="Título o descripción"
                  value={list.q}
                  onChange={(e) => list.setQ(e.target.value)}
                />
              </div>
            </Field>
          </div>
          <Field id="f-estado" label="Estado">
            <Select
              id="f-estado"
              value={filters.estado}
              onChange={(e) => setFilter('estado', e.target.value as TaskState | '')}
            >
              <option value="">Todos</option>
              {TASK_STATES.map((s) => (
                <option key={s} value={s}>
                  {TASK_STATE_LABELS[s]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="f-prioridad" label="Prioridad">
            <Select
              id="f-prioridad"
              value={filters.prioridad}
              onChange={(e) => setFilter('prioridad', e.target.value as TaskPriority | '')}
            >
              <option value="">Todas</option>
              {TASK_PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {TASK_PRIORITY_LABELS[p]}
                </option>
              ))}
            </Select>
          </Field>
          <div className="col-span-2 lg:col-span-1">
            <Field id="f-asignada" label="Asignada a">
              <Select
                id="f-asignada"
                value={filters.asignada_a}
                onChange={(e) => setFilter('asignada_a', e.target.value)}
              >
                <option value="">Cualquiera</option>
                {me && <option value={me}>Mis tareas</option>}
                <option value="ninguno">Sin asignar</option>
                {(employees.data ?? [])
                  .filter((e) => e.id !== me)
                  .map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.nombre_completo || e.email}
                    </option>
                  ))}
              </Select>
            </Field>
          </div>
        </div>
      </Card>

      <DataTable
        screen="tareas"
        label="Tareas"
        columns={columns}
        rows={tasks.data?.tareas}
        loading={tasks.isLoading}
        fetching={tasks.isFetching}
        error={tasks.error ? errorMessage(tasks.error, 'No se pudieron cargar las tareas.') : null}
        rowId={(t) => t.id}
        rowClassName={(t) => t.vencida && 'bg-red-50/60'}
        sorting={list.sorting}
        pagination={list.pages(tasks.data?.total, 'tarea', 'tareas')}
        empty={
          <EmptyState
            icon={<ClipboardList className="h-10 w-10" />}
            title={list.filtered ? 'Ninguna tarea coincide con los filtros' : 'No hay tareas registradas'}
          >
            {list.filtered ? (
              <button
                type="button"
                className="font-medium text-blue-700 hover:underline"
                onClick={() => {
                  list.setQ('');
                  for (const k of Object.keys(NO_FILTERS) as (keyof typeof NO_FILTERS)[]) setFilter(k, '');
                }}
              >
                Limpiar filtros
              </button>
            ) : canAssign ? (
              'Creá la primera con «Nueva tarea».'
            ) : (
              'Cuando te asignen tareas las vas a ver acá.'
            )}
          </EmptyState>
        }
      />
    </>
  );
}

function TasksScreen() {
  const [params, setParams] = useSearchParams();
  const view = params.get('vista') === 'calendario' ? 'calendario' : 'lista';
  const { canAssign } = useTaskAbilities();
  const remove = useDeleteTask();
  const [dialog, setDialog] = useState<{ task?: Task; day?: string } | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);
  const tab = (v: 'lista' | 'calendario', label: string, Icon: typeof List) => (
    <button
      type="button"
      aria-pressed={view === v}
      onClick={() => setParams(v === 'lista' ? {} : { vista: v }, { replace: true })}
      className={cn(
        'inline-flex h-9 items-center gap-2 rounded-md px-3 text-sm font-medium',
        view === v ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
      )}
    >
      <Icon className="h-4 w-4" aria-hidden /> {label}
    </button>
  );

  return (
    <div>
      <PageHeader
        title="Tareas"
        description="Organizá el trabajo del equipo: responsables, prioridades y fechas."
        actions={
          canAssign && (
            <Button onClick={() => setDialog({})}>
              <Plus className="h-4 w-4" aria-hidden /> Nueva tarea
            </Button>
          )
        }
      />
      <StatsBar />
      <div className="mb-4 inline-flex rounded-lg bg-slate-100 p-1" role="group" aria-label="Vista">
        {tab('lista', 'Lista', List)}
        {tab('calendario', 'Calendario', CalendarDays)}
      </div>
      {view === 'lista' ? (
        <TaskList onOpen={(task) => setDialog({ task })} onDelete={setDeleting} />
      ) : (
        <TaskCalendar
          onOpen={(task) => setDialog({ task })}
          onCreate={canAssign ? (day) => setDialog({ day }) : undefined}
        />
      )}
      <TaskDialog
        open={dialog !== null}
        onOpenChange={(o) => !o && setDialog(null)}
        task={dialog?.task}
        defaultDate={dialog?.day}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Eliminar tarea"
        message={`¿Estás seguro de que querés eliminar la tarea «${deleting?.titulo ?? ''}»?`}
        failure="No se pudo eliminar la tarea."
        onConfirm={() => remove.mutateAsync(deleting!.id)}
      />
    </div>
  );
}

export default function TasksPage() {
  return (
    <PermissionGate modulo="tareas">
      <TasksScreen />
    </PermissionGate>
  );
}
