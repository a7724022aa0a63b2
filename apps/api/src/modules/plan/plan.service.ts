import type { Modo } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { conflict, notFound } from '../../lib/errors.js';
import { planName, planState, planStorageLimit, planUserLimit, type PlanId } from '../../lib/plan.js';
import { activeUsers, findPlan, setPlan } from './plan.queries.js';

function toPlan(b: { plan: PlanId; trialEndsAt: Date }, usuarios: number, now: Date, modo: Modo) {
  const { estado, readOnlyUntil } = planState(b.plan, b.trialEndsAt, now, modo);
  return {
    modo,
    plan: b.plan,
    estado,
    trial_ends_at: b.trialEndsAt.toISOString(),
    read_only_until: readOnlyUntil.toISOString(),
    limite_usuarios: planUserLimit(b.plan, modo),
    usuarios_activos: usuarios,
    limite_almacenamiento_gb: planStorageLimit(b.plan, modo),
  };
}

export async function getPlan(db: Db, businessId: string, now: Date, modo: Modo) {
  const b = await findPlan(businessId, false, db);
  if (!b) throw notFound('Negocio no encontrado.');
  return toPlan(b, await activeUsers(businessId, db), now, modo);
}

/** Records the chosen plan (payment is outside this API for now); allowed in every state. */
export async function choosePlan(
  db: Db,
  businessId: string,
  userId: string,
  plan: Exclude<PlanId, 'trial'>,
  now: Date,
  modo: Modo,
) {
  if (modo === 'local') {
    throw conflict(
      'INVALID_STATE',
      'Mostrador está instalado en tu local: no hay planes que elegir, todo está habilitado y sin límites.',
    );
  }
  return db.transaction(async (tx) => {
    const b = (await findPlan(businessId, true, tx))!;
    const usuarios = await activeUsers(businessId, tx);
    const limit = planUserLimit(plan);
    if (limit !== null && usuarios > limit) {
      throw conflict(
        'PLAN_LIMIT',
        `El plan ${planName(plan)} admite hasta ${limit} usuarios y el negocio tiene ${usuarios} activos.`,
      );
    }
    const before = toPlan(b, usuarios, now, modo);
    await setPlan(businessId, plan, now, tx);
    const after = toPlan({ ...b, plan }, usuarios, now, modo);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'plan',
      entidadId: businessId,
      accion: 'actualizar',
      antes: { plan: before.plan, estado: before.estado },
      despues: { plan: after.plan, estado: after.estado },
    });
    return after;
  });
}
