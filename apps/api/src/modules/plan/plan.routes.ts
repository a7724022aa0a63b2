import { z } from 'zod';
import { businessPlanSchema } from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import * as svc from './plan.service.js';

const tags = ['plan'];
const params = z.object({ id: z.string() });
const MSG = 'Plan no válido. Opciones: esencial, profesional, empresarial.';
const body = z.object({ plan: z.enum(['esencial', 'profesional', 'empresarial'], { error: MSG }) });
const always = { readOnly: 'allow', blocked: 'allow' } as const;

export async function planRoutes(app: App) {
  const { db } = app.db;

  app.get(
    '/businesses/:id/suscripcion-plan',
    {
      config: { access: access.member, plan: always },
      schema: { tags, params, response: { 200: businessPlanSchema } },
    },
    async (req) => svc.getPlan(db, businessOf(req).id, app.services.now(), app.services.modo),
  );

  app.post(
    '/businesses/:id/suscripcion-plan',
    {
      config: { access: access.admin, plan: always },
      schema: { tags, params, body, response: { 200: businessPlanSchema } },
    },
    async (req) =>
      svc.choosePlan(db, businessOf(req).id, authOf(req).id, req.body.plan, app.services.now(), app.services.modo),
  );
}
