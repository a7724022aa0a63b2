import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  instantToLocalInput,
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
  TASK_STATE_LABELS,
  TASK_STATES,
  taskForm,
  userDisplayName,
  type Task,
  type TaskFormValues,
} from '@mostrador/shared/tasks';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Select, Textarea } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { applyServerErrors } from '@/lib/forms';
import { useCreateTask, useEmployees, useUpdateTask, type TaskBody } from './tasks.api';
import { OverdueBadge, PriorityBadge, StateBadge, StateSelect, useTaskAbilities } from './task-ui';

/**
 * Create, edit or (for members who may not edit) view a task. `task` undefined with `open`
 * means a new task.
 */
export function TaskDialog({
  open,
  onOpenChange,
  task,
  defaultDate,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  task?: Task;
  /** Prefills the start of a new task (a day picked in the calendar). */
  defaultDate?: string;
}) {
  const { canEdit } = useTaskAbilities();
  const mode = !task ? 'crear' : canEdit ? 'editar' : 'ver';
  const title = { crear: 'Nueva tarea', editar: 'Editar tarea', ver: 'Tarea' }[mode];
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} className="max-w-xl">
      {open &&
        (mode === 'ver' ? (
          <TaskDetail task={task!} onClose={() => onOpenChange(false)} />
        ) : (
          <TaskForm
            key={task?.id ?? 'nueva'}
            task={task}
            defaultDate={defaultDate}
            onDone={() => onOpenChange(false)}
          />
        ))}
    </Dialog>
  );
}

function TaskForm({ task, defaultDate, onDone }: { task?: Task; defaultDate?: string; onDone: () => void }) {
  const { formatting } = useBusiness();
  const tz = formatting.timezone;
  const { canAssign } = useTaskAbilities();
  const employees = useEmployees(canAssign);
  const create = useCreateTask();
  const update = useUpdateTask();
  const [formError, setFormError] = useState<string | null>(null);
  const local = (iso: string | null | undefined) => (iso ? instantToLocalInput(iso, tz) : '');
  const form = useForm<TaskFormValues>({
    resolver: zodResolver(taskForm) as never,
    defaultValues: {
      titulo: task?.titulo ?? '',
      descripcion: task?.descripcion ?? '',
      asignada_a: task?.asignada_a_id ?? '',
      fecha_inicio: task ? local(task.fecha_inicio) : defaultDate ? `${defaultDate}T09:00` : '',
      fecha_fin: local(task?.fecha_fin),
      prioridad: task?.prioridad ?? 'media',
      estado: task?.estado ?? 'pendiente',
    },
  });
  const { register, handleSubmit, formState, setError } = form;
  const err = formState.errors;

  const options = employees.data ?? [];
  const current = task?.asignada_a;
  const missingCurrent = current && !options.some((e) => e.id === current.id);

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={handleSubmit(async (v) => {
        setFormError(null);
        const body: TaskBody = {
          titulo: v.titulo,
          descripcion: v.descripcion.trim() || null,
          prioridad: v.prioridad,
          estado: v.estado,
          fecha_inicio: v.fecha_inicio || null,
          fecha_fin: v.fecha_fin || null,
        };
        const assignee = v.asignada_a || null;
        if (canAssign && (!task || assignee !== task.asignada_a_id)) body.asignada_a = assignee;
        try {
          if (task) await update.mutateAsync({ id: task.id, body });
          else await create.mutateAsync(body);
          onDone();
        } catch (e) {
          setFormError(applyServerErrors(e, setError, 'No se pudo guardar la tarea.'));
        }
      })}
    >
      <Field id="tarea-titulo" label="Título" required error={err.titulo?.message}>
        <Input id="tarea-titulo" autoFocus aria-invalid={Boolean(err.titulo)} {...register('titulo')} />
      </Field>
      <Field id="tarea-descripcion" label="Descripción" error={err.descripcion?.message}>
        <Textarea id="tarea-descripcion" rows={3} {...register('descripcion')} />
      </Field>
      <Field
        id="tarea-asignada"
        label="Asignada a"
        error={err.asignada_a?.message}
        hint={canAssign ? undefined : 'Solo quien puede asignar tareas cambia el responsable.'}
      >
        <Select id="tarea-asignada" disabled={!canAssign} {...register('asignada_a')}>
          <option value="">Sin asignar</option>
          {missingCurrent && <option value={current.id}>{userDisplayName(current)}</option>}
          {options.map((e) => (
            <option key={e.id} value={e.id}>
              {e.nombre_completo || e.email}
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id="tarea-prioridad" label="Prioridad" error={err.prioridad?.message}>
          <Select id="tarea-prioridad" {...register('prioridad')}>
            {TASK_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {TASK_PRIORITY_LABELS[p]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="tarea-estado" label="Estado" error={err.estado?.message}>
          <Select id="tarea-estado" {...register('estado')}>
            {TASK_STATES.map((s) => (
              <option key={s} value={s}>
                {TASK_STATE_LABELS[s]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="tarea-inicio" label="Inicio" error={err.fecha_inicio?.message}>
          <Input id="tarea-inicio" type="datetime-local" {...register('fecha_inicio')} />
        </Field>
        <Field id="tarea-fin" label="Fin" error={err.fecha_fin?.message}>
          <Input
            id="tarea-fin"
            type="datetime-local"
            aria-invalid={Boolean(err.fecha_fin)}
            {...register('fecha_fin')}
          />
        </Field>
      </div>
      {formError && <ErrorNote>{formError}</ErrorNote>}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onDone}>
          Cancelar
        </Button>
        <Button type="submit" loading={formState.isSubmitting}>
          Guardar
        </Button>
      </div>
    </form>
  );
}

/** Read-only view for members without tareas/editar; the assignee may still move the state. */
function TaskDetail({ task, onClose }: { task: Task; onClose: () => void }) {
  const { formatting } = useBusiness();
  const { canChangeState } = useTaskAbilities();
  const update = useUpdateTask();
  const [current, setCurrent] = useState(task);
  const [error, setError] = useState<string | null>(null);
  const row = (label: string, value: React.ReactNode) => (
    <div className="grid grid-cols-[7rem_1fr] gap-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-900">{value}</dd>
    </div>
  );
  return (
    <div className="space-y-4">
      <div>
        <h3 className="text-base font-semibold text-slate-900">{current.titulo}</h3>
        <div className="mt-2 flex flex-wrap gap-2">
          <StateBadge estado={current.estado} />
          <PriorityBadge prioridad={current.prioridad} />
          {current.vencida && <OverdueBadge />}
        </div>
      </div>
      {current.descripcion && <p className="whitespace-pre-line text-sm text-slate-700">{current.descripcion}</p>}
      <dl className="space-y-2">
        {row('Asignada a', userDisplayName(current.asignada_a) || 'Sin asignar')}
        {row('Inicio', current.fecha_inicio ? formatDateTime(current.fecha_inicio, formatting) : '—')}
        {row('Fin', current.fecha_fin ? formatDateTime(current.fecha_fin, formatting) : '—')}
        {row('Creada por', userDisplayName(current.creada_por) || '—')}
      </dl>
      {canChangeState(current) && (
        <div className="flex items-center gap-3">
          <span className="text-sm font-medium text-slate-700">Cambiar estado</span>
          <StateSelect
            task={current}
            disabled={update.isPending}
            onChange={async (estado) => {
              setError(null);
              try {
                setCurrent(await update.mutateAsync({ id: current.id, body: { estado } }));
              } catch (e) {
                setError(errorMessage(e, 'No se pudo cambiar el estado.'));
              }
            }}
          />
        </div>
      )}
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cerrar
        </Button>
      </div>
    </div>
  );
}
