import { and, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { businesses, businessMembers } from '../../db/schema/index.js';
import type { PlanId } from '../../lib/plan.js';

/*
 * The plan's statements (decision 0044): every function takes the business first.
 */

/** How many accepted members the business has. */
export async function activeUsers(businessId: string, ex: Executor) {
  const [{ n }] = await ex
    .select({ n: count() })
    .from(businessMembers)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.estado, 'aceptado')));
  return n;
}

/** The business's plan and trial end, its row locked for a change when asked. */
export async function findPlan(businessId: string, lock: boolean, ex: Executor) {
  const q = ex
    .select({ plan: businesses.plan, trialEndsAt: businesses.trialEndsAt })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  const [b] = lock ? await q.for('update') : await q;
  return b;
}

export async function setPlan(businessId: string, plan: PlanId, now: Date, ex: Executor) {
  await ex.update(businesses).set({ plan, actualizadaEn: now }).where(eq(businesses.id, businessId));
}
