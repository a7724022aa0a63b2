import { AlertCircle } from 'lucide-react';
import {
  TASK_PRIORITY_LABELS,
  TASK_STATE_LABELS,
  type Task,
  type TaskPriority,
  type TaskState,
} from '@mostrador/shared/tasks';
import { useBusiness } from '@/app/business-context';
import { Select } from '@/components/ui/input';
import { Badge } from '@/components/ui/misc';
import { canWrite, usePlan } from '@/features/plan/plan.api';
import { useCan } from '@/features/permissions/permissions.api';
import { session } from '@/lib/session';

const STATE_COLORS: Record<TaskState, 'gray' | 'blue' | 'yellow' | 'green' | 'red'> = {
  pendiente: 'gray',
  en_progreso: 'blue',
  pausada: 'yellow',
  completada: 'green',
  cancelada: 'red',
};

const PRIORITY_CLASSES: Record<TaskPriority, string> = {
  baja: 'bg-slate-100 text-slate-700',
  media: 'bg-sky-100 text-sky-800',
  alta: 'bg-amber-100 text-amber-800',
  urgente: 'bg-red-600 text-white',
};

export function StateBadge({ estado }: { estado: TaskState }) {
  return <Badge color={STATE_COLORS[estado]}>{TASK_STATE_LABELS[estado]}</Badge>;
}

export function PriorityBadge({ prioridad }: { prioridad: TaskPriority }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${PRIORITY_CLASSES[prioridad]}`}
    >
      <span className="sr-only">Prioridad </span>
      {TASK_PRIORITY_LABELS[prioridad]}
    </span>
  );
}

export function OverdueBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-700">
      <AlertCircle className="h-3 w-3" aria-hidden /> Vencida
    </span>
  );
}

/** What the current user may do with tasks (flags, the read-only trial state, and being the assignee). */
export function useTaskAbilities() {
  const can = useCan();
  const { businessId } = useBusiness();
  const plan = usePlan(businessId);
  const writable = canWrite(plan.data?.estado);
  const me = session.user()?.id ?? null;
  const canEdit = can('tareas', 'editar');
  return {
    me,
    canAssign: can('tareas', 'asignar'),
    canEdit,
    canDelete: can('tareas', 'eliminar'),
    /** Editors change any state; the assignee changes the state of their own tasks. */
    canChangeState: (t: Pick<Task, 'asignada_a_id'>) => canEdit || (writable && me !== null && t.asignada_a_id === me),
  };
}

/** The quick state change: a labelled select that saves on change. */
export function StateSelect({
  task,
  onChange,
  disabled,
  className,
}: {
  task: Task;
  onChange: (estado: TaskState) => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <Select
      aria-label={`Estado de «${task.titulo}»`}
      value={task.estado}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as TaskState)}
      className={className ?? 'h-9 w-auto min-w-[9.5rem]'}
    >
      {(Object.keys(TASK_STATE_LABELS) as TaskState[]).map((s) => (
        <option key={s} value={s}>
          {TASK_STATE_LABELS[s]}
        </option>
      ))}
    </Select>
  );
}
