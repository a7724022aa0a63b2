import { z } from 'zod';

/** Modules and actions of the per-business permission flags (API-CONTRACT §1.5). */
export const MODULES = [
  'productos',
  'categorias',
  'clientes',
  'ventas',
  'stock',
  'facturacion',
  'tareas',
  'finanzas',
] as const;
export type Modulo = (typeof MODULES)[number];

export const ACTIONS = ['ver', 'editar', 'eliminar', 'asignar'] as const;
export type Accion = (typeof ACTIONS)[number];

/** How the team screens and the permission gate name modules and actions. */
export const MODULE_LABELS: Record<Modulo, string> = {
  productos: 'Productos',
  categorias: 'Categorías',
  clientes: 'Clientes',
  ventas: 'Ventas',
  stock: 'Compras y stock',
  facturacion: 'Facturación',
  tareas: 'Tareas',
  finanzas: 'Finanzas',
};

export const ACTION_TITLES: Record<Accion, string> = {
  ver: 'Ver',
  editar: 'Editar',
  eliminar: 'Eliminar',
  asignar: 'Asignar',
};

export type PermissionKey = `puede_${Accion}_${Modulo}`;
export type PermissionMap = Record<PermissionKey, boolean>;

export const PERMISSION_KEYS: PermissionKey[] = MODULES.flatMap((m) =>
  ACTIONS.map((a) => `puede_${a}_${m}` as PermissionKey),
);

/** The 32 flags, every one returned (API-CONTRACT §1.5). */
export const permissionMapSchema = z.object(
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, z.boolean()])) as Record<PermissionKey, z.ZodBoolean>,
);

export const permissionKey = (accion: Accion, modulo: Modulo): PermissionKey => `puede_${accion}_${modulo}`;

export function allPermissions(value: boolean): PermissionMap {
  return Object.fromEntries(PERMISSION_KEYS.map((k) => [k, value])) as PermissionMap;
}

/** SPEC §5: aliases of the permission gate. */
const MODULE_ALIASES: Record<string, Modulo> = { inventario: 'productos', productos: 'productos' };

export function resolveModule(name: string): Modulo | undefined {
  if (name in MODULE_ALIASES) return MODULE_ALIASES[name];
  return (MODULES as readonly string[]).includes(name) ? (name as Modulo) : undefined;
}

/** SPEC §5: an unknown action is treated as ver. */
export function resolveAction(name: string): Accion {
  return (ACTIONS as readonly string[]).includes(name) ? (name as Accion) : 'ver';
}

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
});

/** The permission gate rule shared by the server and the web (SPEC §5, §6). */
export function can(
  perms: Pick<PermissionsResponse, 'has_full_access' | 'permissions'> | undefined | null,
  modulo: string,
  accion: string,
): boolean {
  if (!perms) return false;
  if (perms.has_full_access) return true;
  const m = resolveModule(modulo);
  if (!m) return false;
  return perms.permissions[permissionKey(resolveAction(accion), m)] === true;
}

export const ACTION_LABELS: Record<Accion, string> = {
  ver: 'ver',
  editar: 'editar',
  eliminar: 'eliminar',
  asignar: 'asignar',
};
