import { CalendarDays, ClipboardList, List, Plus, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
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
import { Card, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { TaskCalendar } from './task-calendar';
import { TaskDialog } from './task-dialog';
import { OverdueBadge, PriorityBadge, StateSelect, useTaskAbilities } from './task-ui';
import {
  TASK_PAGE_SIZE,
  useDeleteTask,
  useEmployees,
  useTaskStats,
  useTasks,
  useUpdateTask,
  type TaskFilters,
} from './tasks.api';

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

function TaskRow({ t, onOpen, onDelete }: { t: Task; onOpen: () => void; onDelete: () => void }) {
  const { formatting } = useBusiness();
  const { canEdit, canDelete, canChangeState } = useTaskAbilities();
  const update = useUpdateTask();
  const [error, setError] = useState<string | null>(null);
  return (
    <li className={cn('-mx-5 flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center', t.vencida && 'bg-red-50/60')}>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={onOpen}
            className="min-w-0 break-words text-left font-medium text-slate-900 hover:text-blue-700 hover:underline"
          >
            {t.titulo}
          </button>
          <PriorityBadge prioridad={t.prioridad} />
          {t.vencida && <OverdueBadge />}
        </div>
        {t.descripcion && <p className="mt-0.5 line-clamp-1 text-sm text-slate-600">{t.descripcion}</p>}
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-500">
          <span>{t.asignada_a ? `Asignada a ${userDisplayName(t.asignada_a)}` : 'Sin asignar'}</span>
          {t.fecha_inicio && <span>Inicio: {formatDateTime(t.fecha_inicio, formatting)}</span>}
          {t.fecha_fin && (
            <span className={t.vencida ? 'font-medium text-red-700' : undefined}>
              Fin: {formatDateTime(t.fecha_fin, formatting)}
            </span>
          )}
        </p>
        {error && (
          <p role="alert" className="mt-1 text-xs text-red-600">
            {error}
          </p>
        )}
      </div>
      <RowActions
        name={`«${t.titulo}»`}
        className="items-center"
        onEdit={canEdit && onOpen}
        onDelete={canDelete && onDelete}
      >
        {canChangeState(t) ? (
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
        ) : (
          <span className="px-2 text-sm text-slate-600">{TASK_STATE_LABELS[t.estado]}</span>
        )}
      </RowActions>
    </li>
  );
}

const EMPTY: TaskFilters = { estado: '', prioridad: '', asignada_a: '', q: '', pagina: 1 };

function TaskList({ onOpen, onDelete }: { onOpen: (t: Task) => void; onDelete: (t: Task) => void }) {
  const { canAssign, me } = useTaskAbilities();
  const employees = useEmployees(canAssign);
  const [filters, setFilters] = useState<TaskFilters>(EMPTY);
  const [search, setSearch] = useState('');
  // Search as you type, without a request per key.
  useEffect(() => {
    const id = setTimeout(() => setFilters((f) => (f.q === search ? f : { ...f, q: search, pagina: 1 })), 300);
    return () => clearTimeout(id);
  }, [search]);
  const tasks = useTasks(filters);
  const set = (patch: Partial<TaskFilters>) => setFilters((f) => ({ ...f, ...patch, pagina: 1 }));
  const data = tasks.data;
  const filtered = filters.estado || filters.prioridad || filters.asignada_a || filters.q;

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
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                />
              </div>
            </Field>
          </div>
          <Field id="f-estado" label="Estado">
            <Select
              id="f-estado"
              value={filters.estado}
              onChange={(e) => set({ estado: e.target.value as TaskState | '' })}
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
              onChange={(e) => set({ prioridad: e.target.value as TaskPriority | '' })}
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
              <Select id="f-asignada" value={filters.asignada_a} onChange={(e) => set({ asignada_a: e.target.value })}>
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

      {tasks.error ? (
        <ErrorNote>{errorMessage(tasks.error, 'No se pudieron cargar las tareas.')}</ErrorNote>
      ) : tasks.isLoading || !data ? (
        <div className="space-y-2">
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
        </div>
      ) : data.tareas.length === 0 ? (
        <EmptyState
          icon={<ClipboardList className="h-10 w-10" />}
          title={filtered ? 'Ninguna tarea coincide con los filtros' : 'No hay tareas registradas'}
        >
          {filtered ? (
            <button
              type="button"
              className="font-medium text-blue-700 hover:underline"
              onClick={() => {
                setSearch('');
                setFilters(EMPTY);
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
      ) : (
        <Card className="py-0">
          <ul className="divide-y divide-slate-100" aria-label="Tareas">
            {data.tareas.map((t) => (
              <TaskRow key={t.id} t={t} onOpen={() => onOpen(t)} onDelete={() => onDelete(t)} />
            ))}
          </ul>
          <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 py-3 text-sm text-slate-600">
            <span>
              {(data.pagina - 1) * TASK_PAGE_SIZE + 1}–{Math.min(data.total, data.pagina * TASK_PAGE_SIZE)} de{' '}
              {data.total} · Página {data.pagina} de {Math.max(1, data.total_paginas)}
            </span>
            {data.total_paginas > 1 && (
              <div className="flex gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={data.pagina <= 1}
                  onClick={() => setFilters((f) => ({ ...f, pagina: f.pagina - 1 }))}
                >
                  Anterior
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={data.pagina >= data.total_paginas}
                  onClick={() => setFilters((f) => ({ ...f, pagina: f.pagina + 1 }))}
                >
                  Siguiente
                </Button>
              </div>
            )}
          </div>
        </Card>
      )}
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
        description="Organiza el trabajo del equipo: responsables, prioridades y fechas."
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
