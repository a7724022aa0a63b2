import { z } from 'zod';
import { PERMISSION_KEYS, type PermissionKey } from './permission-rules.js';

export * from './permission-rules.js';

/** The 32 flags, every one returned (API-CONTRACT §1.5). */
export const permissionMapSchema = z.object(
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, z.boolean()])) as Record<PermissionKey, z.ZodBoolean>,
);

export type PermissionsResponse = z.infer<typeof permissionsResponseSchema>;

export const permissionsResponseSchema = z.object({
  user_id: z.string(),
  business_id: z.string(),
  role: z.enum(['admin', 'empleado']),
  is_creator: z.boolean(),
  is_admin: z.boolean(),
  has_full_access: z.boolean(),
  permissions: permissionMapSchema,
  ver_costos: z.boolean(),
  cambiar_precios: z.boolean(),
  descuento_maximo: z.number().nullable(),
  exceder_credito: z.boolean(),
  /** May close the turnos they opened (full access: any turno). */
  cerrar_turno: z.boolean(),
});
