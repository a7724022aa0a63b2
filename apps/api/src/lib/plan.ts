import { PLANS, READ_ONLY_GRACE_DAYS, type Modo } from '@mostrador/shared';

export type PlanId = 'trial' | 'esencial' | 'profesional' | 'empresarial';
export type PlanEstado = 'trial' | 'activa' | 'solo_lectura' | 'bloqueada';

const DAY = 86_400_000;

/**
 * The state of a business's plan at `now` (API-CONTRACT §1.6): a chosen plan is active; the trial
 * runs until trial_ends_at, then the business is read-only for 30 days, then blocked. Installed in
 * the shop (modo local) there is no trial: always active.
 */
export function planState(plan: PlanId, trialEndsAt: Date, now: Date, modo: Modo = 'saas') {
  const readOnlyUntil = new Date(trialEndsAt.getTime() + READ_ONLY_GRACE_DAYS * DAY);
  let estado: PlanEstado;
  if (plan !== 'trial' || modo === 'local') estado = 'activa';
  else if (now < trialEndsAt) estado = 'trial';
  else if (now < readOnlyUntil) estado = 'solo_lectura';
  else estado = 'bloqueada';
  return { estado, readOnlyUntil };
}

/** Users per business of each plan (null: unlimited; always in modo local). */
export function planUserLimit(plan: PlanId, modo: Modo = 'saas'): number | null {
  if (modo === 'local') return null;
  return plan === 'trial' ? 5 : (PLANS.find((p) => p.id === plan)?.usuarios ?? null);
}

export function planStorageLimit(plan: PlanId, modo: Modo = 'saas'): number | null {
  if (modo === 'local') return null;
  return plan === 'trial' ? 10 : (PLANS.find((p) => p.id === plan)?.almacenamiento_gb ?? null);
}

export function planName(plan: PlanId): string {
  return plan === 'trial' ? 'de prueba' : (PLANS.find((p) => p.id === plan)?.nombre ?? plan);
}
