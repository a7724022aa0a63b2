import { z } from 'zod';

/** Trial and plans (SPEC §1, §9; API-CONTRACT §14.6). Prices are placeholders, as on the landing page. */
export const TRIAL_DAYS = 14;
export const READ_ONLY_GRACE_DAYS = 30;

export const PLANS = [
  { id: 'esencial', nombre: 'Esencial', usuarios: 5, almacenamiento_gb: 10, precio: '$ 19.900 / mes' },
  { id: 'profesional', nombre: 'Profesional', usuarios: 20, almacenamiento_gb: 100, precio: '$ 44.900 / mes' },
  { id: 'empresarial', nombre: 'Empresarial', usuarios: null, almacenamiento_gb: null, precio: 'A medida' },
] as const;

/** GET/POST /businesses/{id}/suscripcion-plan. */
/**
 * How this server runs (decision 0055): `saas`, the hosted service with its trial and plans;
 * `local`, installed in the shop (npm start on the embedded database): no trial, no plans, no limits.
 */
export const MODOS = ['saas', 'local'] as const;
export type Modo = (typeof MODOS)[number];

export const businessPlanSchema = z.object({
  modo: z.enum(MODOS),
  plan: z.enum(['trial', 'esencial', 'profesional', 'empresarial']),
  estado: z.enum(['trial', 'activa', 'solo_lectura', 'bloqueada']),
  trial_ends_at: z.string(),
  read_only_until: z.string(),
  limite_usuarios: z.number().nullable(),
  usuarios_activos: z.number(),
  limite_almacenamiento_gb: z.number().nullable(),
});
