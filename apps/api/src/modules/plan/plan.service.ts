import { and, count, eq } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { businesses, businessMembers } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { conflict, notFound } from '../../lib/errors.js';
import { planName, planState, planStorageLimit, planUserLimit, type PlanId } from '../../lib/plan.js';

async function activeUsers(ex: Executor, businessId: string) {
  const [{ n }] = await ex
    .select({ n: count() })
    .from(businessMembers)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.estado, 'aceptado')));
  return n;
}

function toPlan(b: { plan: PlanId; trialEndsAt: Date }, usuarios: number, now: Date) {
  const { estado, readOnlyUntil } = planState(b.plan, b.trialEndsAt, now);
  return {
    plan: b.plan,
    estado,
    trial_ends_at: b.trialEndsAt.toISOString(),
    read_only_until: readOnlyUntil.toISOString(),
    limite_usuarios: planUserLimit(b.plan),
    usuarios_activos: usuarios,
    limite_almacenamiento_gb: planStorageLimit(b.plan),
  };
}

export async function getPlan(db: Db, businessId: string, now: Date) {
  const [b] = await db
    .select({ plan: businesses.plan, trialEndsAt: businesses.trialEndsAt })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!b) throw notFound('Negocio no encontrado.');
  return toPlan(b, await activeUsers(db, businessId), now);
}

/** Records the chosen plan (payment is outside this API for now); allowed in every state. */
export async function choosePlan(
  db: Db,
  businessId: string,
  userId: string,
  plan: Exclude<PlanId, 'trial'>,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const [b] = await tx
      .select({ plan: businesses.plan, trialEndsAt: businesses.trialEndsAt })
      .from(businesses)
      .where(eq(businesses.id, businessId))
      .for('update');
    const usuarios = await activeUsers(tx, businessId);
    const limit = planUserLimit(plan);
    if (limit !== null && usuarios > limit) {
      throw conflict(
        'PLAN_LIMIT',
        `El plan ${planName(plan)} admite hasta ${limit} usuarios y el negocio tiene ${usuarios} activos.`,
      );
    }
    const before = toPlan(b, usuarios, now);
    await tx.update(businesses).set({ plan, actualizadaEn: now }).where(eq(businesses.id, businessId));
    const after = toPlan({ ...b, plan }, usuarios, now);
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
