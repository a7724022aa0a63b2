import { z } from 'zod';
import {
  taskCalendarQuery,
  taskInput,
  taskListQuery,
  taskUpdate,
  TASK_FIELDS,
  TASK_MESSAGES,
  calendarTaskSchema,
  taskEmployeesSchema,
  taskPageSchema,
  taskSchema,
  taskStatsSchema,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import { noContent } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, assertCan, authOf, businessOf, isUuid } from '../../lib/access.js';
import { knownFilters } from '../../lib/known-ids.js';
import { notFound } from '../../lib/errors.js';
import { requireSomeField } from '../../lib/http.js';
import * as svc from './tasks.service.js';

const tags = ['tareas'];
const base = '/businesses/:id/tareas';
const idParams = z.object({ id: z.string() });
const tidParams = z.object({ id: z.string(), tid: z.string() });

const ver = { access: access.module('tareas', 'ver') };
const asignar = { access: access.module('tareas', 'asignar') };
const eliminar = { access: access.module('tareas', 'eliminar') };

const taskId = (tid: string) => {
  if (!isUuid(tid)) throw notFound(TASK_MESSAGES.notFound);
  return tid;
};

/** Tasks (API-CONTRACT §11): module `tareas`; creating, assigning and the employee list need asignar. */
export async function taskRoutes(app: App) {
  const { db } = app.db;
  const filters = knownFilters(db, [
    { field: 'asignada_a', kind: 'miembro', except: 'ninguno' },
    { field: 'asignada_a_id', kind: 'miembro', except: 'ninguno' },
  ]);
  const actor = (req: FastifyRequest): svc.TaskActor => ({
    userId: authOf(req).id,
    business: businessOf(req),
    now: app.services.now(),
  });

  app.get(
    base,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: taskListQuery, response: { 200: taskPageSchema } },
      preHandler: filters,
    },
    async (req) => svc.listTasks(db, actor(req), req.query),
  );

  app.post(
    base,
    { config: asignar, schema: { tags, params: idParams, body: taskInput, response: { 201: taskSchema } } },
    async (req, reply) => reply.status(201).send(await svc.createTask(db, actor(req), req.body)),
  );

  app.get(
    `${base}/estadisticas`,
    { config: ver, schema: { tags, params: idParams, response: { 200: taskStatsSchema } } },
    async (req) => svc.taskStats(db, actor(req)),
  );

  app.get(
    `${base}/empleados`,
    { config: asignar, schema: { tags, params: idParams, response: { 200: taskEmployeesSchema } } },
    async (req) => svc.listEmployees(db, businessOf(req).id),
  );

  app.get(
    `${base}/calendario`,
    {
      config: ver,
      schema: {
        tags,
        params: idParams,
        querystring: taskCalendarQuery,
        response: { 200: z.array(calendarTaskSchema) },
      },
    },
    async (req) => svc.calendar(db, actor(req), req.query),
  );

  app.get(
    `${base}/:tid`,
    { config: ver, schema: { tags, params: tidParams, response: { 200: taskSchema } } },
    async (req) => svc.getTask(db, actor(req), taskId(req.params.tid)),
  );

  // Declared with `ver`: the assignee may change the state alone. Any other field needs editar,
  // checked before the body is validated (403 comes before 422).
  app.put(
    `${base}/:tid`,
    {
      config: ver,
      schema: { tags, params: tidParams, body: taskUpdate, response: { 200: taskSchema } },
      preValidation: async (req) => {
        const b = businessOf(req);
        if (svc.canEditTasks(b)) return;
        const body = (req.body ?? {}) as Record<string, unknown>;
        if (TASK_FIELDS.some((k) => k !== 'estado' && body[k] !== undefined)) assertCan(b, 'tareas', 'editar');
      },
    },
    async (req) => {
      requireSomeField(req.body);
      return svc.updateTask(db, actor(req), taskId(req.params.tid), req.body);
    },
  );

  app.delete(
    `${base}/:tid`,
    { config: eliminar, schema: { tags, params: tidParams, response: { 204: noContent } } },
    async (req, reply) => {
      await svc.deleteTask(db, actor(req), taskId(req.params.tid));
      return reply.status(204).send();
    },
  );
}
