import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CalendarTask,
  Task,
  TaskEmployee,
  TaskPage,
  TaskPriority,
  TaskState,
  TaskStats,
} from '@mostrador/shared/tasks';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';

export const TASKS_STALE = 60_000;

export interface TaskFilters {
  estado: TaskState | '';
  prioridad: TaskPriority | '';
  /** A user id, 'ninguno' (unassigned), or '' (anyone). */
  asignada_a: string;
  q: string;
  pagina: number;
  orden?: string;
  direccion?: 'asc' | 'desc';
}

/** Keyed per business; every change refreshes the whole group. */
export const taskKeys = {
  all: (b: string) => ['tasks', b] as const,
  list: (b: string, f: TaskFilters) => ['tasks', b, 'list', f] as const,
  stats: (b: string) => ['tasks', b, 'stats'] as const,
  calendar: (b: string, desde: string, hasta: string) => ['tasks', b, 'calendar', desde, hasta] as const,
  employees: (b: string) => ['tasks', b, 'employees'] as const,
};

const base = (b: string) => `/businesses/${b}/tareas`;

function useBusinessId() {
  return useBusiness().businessId ?? '';
}

export const TASK_PAGE_SIZE = 20;

export function useTasks(f: TaskFilters) {
  const b = useBusinessId();
  return useQuery({
    queryKey: taskKeys.list(b, f),
    queryFn: () => api.get<TaskPage>(base(b), { ...f, por_pagina: TASK_PAGE_SIZE }),
    enabled: Boolean(b),
    staleTime: TASKS_STALE,
    placeholderData: keepPreviousData,
  });
}

export function useTaskStats() {
  const b = useBusinessId();
  return useQuery({
    queryKey: taskKeys.stats(b),
    queryFn: () => api.get<TaskStats>(`${base(b)}/estadisticas`),
    enabled: Boolean(b),
    staleTime: TASKS_STALE,
  });
}

export function useTaskCalendar(desde: string, hasta: string, enabled = true) {
  const b = useBusinessId();
  return useQuery({
    queryKey: taskKeys.calendar(b, desde, hasta),
    queryFn: () => api.get<CalendarTask[]>(`${base(b)}/calendario`, { desde, hasta }),
    enabled: Boolean(b) && enabled,
    staleTime: TASKS_STALE,
    placeholderData: keepPreviousData,
  });
}

/** Only for users who may assign (the route needs tareas/asignar). */
export function useEmployees(enabled: boolean) {
  const b = useBusinessId();
  return useQuery({
    queryKey: taskKeys.employees(b),
    queryFn: async () => (await api.get<{ empleados: TaskEmployee[] }>(`${base(b)}/empleados`)).empleados,
    enabled: Boolean(b) && enabled,
    staleTime: 5 * 60_000,
  });
}

export interface TaskBody {
  titulo?: string;
  descripcion?: string | null;
  asignada_a?: string | null;
  fecha_inicio?: string | null;
  fecha_fin?: string | null;
  prioridad?: TaskPriority;
  estado?: TaskState;
}

function useTaskMutation<V, R>(fn: (b: string, v: V) => Promise<R>) {
  const b = useBusinessId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => fn(b, v),
    onSuccess: () => qc.invalidateQueries({ queryKey: taskKeys.all(b) }),
  });
}

export const useCreateTask = () => useTaskMutation((b, body: TaskBody) => api.post<Task>(base(b), body));

export const useUpdateTask = () =>
  useTaskMutation((b, { id, body }: { id: string; body: TaskBody }) => api.put<Task>(`${base(b)}/${id}`, body));

export const useDeleteTask = () => useTaskMutation((b, id: string) => api.delete(`${base(b)}/${id}`));
