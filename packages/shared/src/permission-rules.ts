/**
 * The permission rules without the response schemas: the web's first load imports this file
 * (`@mostrador/shared/permission-rules`) so that it does not bring zod.
 */

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
  'presupuestos',
  'remitos',
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
  presupuestos: 'Presupuestos',
  remitos: 'Remitos',
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

/** The permission gate rule shared by the server and the web (SPEC §5, §6). */
export function can(
  perms: { has_full_access: boolean; permissions: PermissionMap } | undefined | null,
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
