import { z } from 'zod';
import { email, optText } from './validation.js';
import {
  ACTIONS,
  MODULES,
  permissionKey,
  permissionMapSchema,
  type Modulo,
  type PermissionMap,
} from './permissions.js';

/** The team of a business (API-CONTRACT §9.2, §14.5): members, pending users, invitations. */

export const ROLE_LABELS = { admin: 'Administrador', empleado: 'Empleado' } as const;
export type MemberRole = keyof typeof ROLE_LABELS;

export type Member = z.infer<typeof memberSchema>;

export const memberSchema = z.object({
  id: z.string(),
  usuario_id: z.string(),
  email: z.string(),
  nombre: z.string(),
  apellido: z.string().nullable(),
  rol: z.enum(['admin', 'empleado']),
  estado: z.literal('aceptado'),
  es_creador: z.boolean(),
  acceso_total: z.boolean(),
  permisos: permissionMapSchema,
  ver_costos: z.boolean(),
  cambiar_precios: z.boolean(),
  descuento_maximo: z.number().nullable(),
  exceder_credito: z.boolean(),
  cerrar_turno: z.boolean(),
  invitado_por: z.string().nullable(),
  creada_en: z.string(),
  ultimo_acceso: z.string().nullable(),
});

export type PendingUser = z.infer<typeof pendingUserSchema>;

export const pendingUserSchema = z.object({
  id: z.string(),
  usuario_id: z.string(),
  email: z.string(),
  nombre: z.string(),
  apellido: z.string().nullable(),
  rol: z.enum(['admin', 'empleado']),
  estado: z.literal('pendiente'),
  creada_en: z.string(),
  invitado_por: z.string().nullable(),
  usuario: z.object({ id: z.string(), nombre: z.string(), apellido: z.string().nullable(), email: z.string() }),
});

export const INVITATION_STATES = ['pendiente', 'aceptada', 'vencida', 'revocada'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

export type Invitation = z.infer<typeof invitationSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  rol: z.enum(['admin', 'empleado']),
  estado: z.enum(INVITATION_STATES),
  mensaje: z.string().nullable(),
  expira_en: z.string(),
  creada_en: z.string(),
  enlace: z.string().nullable(),
});

export type InvitationCreated = z.infer<typeof invitationCreatedSchema>;

export const invitationCreatedSchema = z.object({
  message: z.string(),
  enviado: z.boolean(),
  invitacion: invitationSchema,
});

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
  /** May close the turnos they opened; another member's turno takes full access. */
  cerrar_turno: boolean;
}

/** A new member: no costs, list prices, no discount. */
export const NEW_MEMBER_CONTROLS: CounterControls = {
  ver_costos: false,
  cambiar_precios: false,
  descuento_maximo: 0,
  exceder_credito: false,
  cerrar_turno: true,
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

const teamUser = z.object({ id: z.string(), nombre: z.string(), apellido: z.string().nullable(), email: z.string() });

export const permissionsUpdatedSchema = z.object({
  message: z.string(),
  usuario_id: z.string(),
  rol: z.enum(['admin', 'empleado']),
  acceso_total: z.boolean(),
  permisos: permissionMapSchema,
  ver_costos: z.boolean(),
  cambiar_precios: z.boolean(),
  descuento_maximo: z.number().nullable(),
  exceder_credito: z.boolean(),
  cerrar_turno: z.boolean(),
});

export const memberApprovedSchema = z.object({
  message: z.string(),
  usuario: teamUser,
  rol: z.enum(['admin', 'empleado']),
  acceso_total: z.boolean(),
  permisos: permissionMapSchema,
});

export const memberRejectedSchema = z.object({ message: z.string(), usuario_id: z.string() });

/** GET /invitaciones/{token}: what the invited person sees before accepting. */
export const invitationPreviewSchema = z.object({
  negocio: z.object({ id: z.string(), nombre: z.string() }),
  email: z.string(),
  rol: z.enum(['admin', 'empleado']),
  estado: z.literal('pendiente'),
  mensaje: z.string().nullable(),
  expira_en: z.string(),
  invitado_por: z.object({ nombre: z.string().nullable() }),
});

export const invitationAcceptedSchema = z.object({
  message: z.string(),
  business_id: z.string(),
  estado: z.literal('pendiente'),
});
