import { z } from 'zod';
import { email, optText } from './validation.js';
import { ACTIONS, MODULES, permissionKey, type Modulo, type PermissionMap } from './permissions.js';

/** The team of a business (API-CONTRACT §9.2, §14.5): members, pending users, invitations. */

export const ROLE_LABELS = { admin: 'Administrador', empleado: 'Empleado' } as const;
export type MemberRole = keyof typeof ROLE_LABELS;

export interface Member {
  id: string;
  usuario_id: string;
  email: string;
  nombre: string;
  apellido: string | null;
  rol: MemberRole;
  estado: 'aceptado';
  es_creador: boolean;
  acceso_total: boolean;
  permisos: PermissionMap;
  ver_costos: boolean;
  cambiar_precios: boolean;
  descuento_maximo: number | null;
  exceder_credito: boolean;
  invitado_por: string | null;
  creada_en: string;
  ultimo_acceso: string | null;
}

export interface PendingUser {
  id: string;
  usuario_id: string;
  email: string;
  nombre: string;
  apellido: string | null;
  rol: MemberRole;
  estado: 'pendiente';
  creada_en: string;
  invitado_por: string | null;
  usuario: { id: string; nombre: string; apellido: string | null; email: string };
}

export type InvitationState = 'pendiente' | 'aceptada' | 'vencida' | 'revocada';

export interface Invitation {
  id: string;
  email: string;
  rol: MemberRole;
  estado: InvitationState;
  mensaje: string | null;
  expira_en: string;
  creada_en: string;
  enlace: string | null;
}

export interface InvitationCreated {
  message: string;
  enviado: boolean;
  invitacion: Invitation;
}

/** The invitation form (the server applies the same rules). */
export const invitationForm = z.object({
  // An empty field says "obligatorio" rather than "no válido".
  email: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), email()),
  rol: z.enum(['empleado', 'admin']),
  mensaje: optText(500),
});
export type InvitationFormValues = z.input<typeof invitationForm>;

/** The body of approve and update-permissions: role, full access and all 32 flags. */
/** What a member may do at the counter beyond selling, kept beside the 32 module flags. */
export interface CounterControls {
  ver_costos: boolean;
  cambiar_precios: boolean;
  /** Largest discount in % without cambiar_precios; null: no limit. */
  descuento_maximo: number | null;
  /** May sell on account over a customer's credit limit. */
  exceder_credito: boolean;
}

/** A new member: no costs, list prices, no discount. */
export const NEW_MEMBER_CONTROLS: CounterControls = {
  ver_costos: false,
  cambiar_precios: false,
  descuento_maximo: 0,
  exceder_credito: false,
};

export interface PermissionPayload extends Partial<PermissionMap>, Partial<CounterControls> {
  rol: MemberRole;
  acceso_total: boolean;
}

export function permissionPayload(
  rol: MemberRole,
  accesoTotal: boolean,
  flags: PermissionMap,
  controls?: CounterControls,
): PermissionPayload {
  return { rol, acceso_total: accesoTotal, ...flags, ...controls };
}

/** Every flag of a module row, on or off. */
export function setModule(flags: PermissionMap, modulo: Modulo, value: boolean): PermissionMap {
  const next = { ...flags };
  for (const a of ACTIONS) next[permissionKey(a, modulo)] = value;
  return next;
}

/** Modules a member may at least see, for a one-line summary. */
export function visibleModules(flags: PermissionMap): Modulo[] {
  return MODULES.filter((m) => flags[permissionKey('ver', m)]);
}
