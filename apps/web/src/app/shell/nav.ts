import {
  Building2,
  CheckSquare,
  FileText,
  LayoutDashboard,
  Package,
  Settings,
  ShoppingBag,
  ShoppingCart,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';

export interface NavLink {
  label: string;
  to: string;
  /** Shown only to users who may `ver` this module. */
  modulo?: string;
}

export interface NavItem {
  label: string;
  icon: LucideIcon;
  to?: string;
  children?: NavLink[];
  /** Needs a selected business (SPEC §2). */
  scoped?: boolean;
  /** Shown only to users who may `ver` this module (the children may name their own). */
  modulo?: string;
  /** Shown only to the business's administrators. */
  admin?: boolean;
  /** Opens a dialog instead of a page: the business settings live in a dialog (also in the business menu). */
  action?: 'settings';
}

export const NAV: NavItem[] = [
  { label: 'Inicio', icon: LayoutDashboard, to: '/home' },
  { label: 'Negocios', icon: Building2, to: '/business-users' },
  {
    label: 'Ventas',
    icon: ShoppingCart,
    scoped: true,
    children: [
      { label: 'Punto de venta', to: '/pos', modulo: 'ventas' },
      { label: 'Caja', to: '/caja', modulo: 'ventas' },
      { label: 'Reporte de ventas', to: '/reports', modulo: 'ventas' },
      { label: 'Presupuestos', to: '/presupuestos', modulo: 'presupuestos' },
      { label: 'Remitos', to: '/remitos', modulo: 'remitos' },
    ],
  },
  {
    label: 'Compras',
    icon: ShoppingBag,
    scoped: true,
    children: [
      { label: 'Órdenes de compra', to: '/compras', modulo: 'stock' },
      { label: 'Proveedores', to: '/proveedores', modulo: 'stock' },
    ],
  },
  {
    label: 'Inventario',
    icon: Package,
    scoped: true,
    children: [
      { label: 'Productos y servicios', to: '/products-and-services', modulo: 'productos' },
      { label: 'Categorías', to: '/categories', modulo: 'categorias' },
      { label: 'Etiquetas', to: '/etiquetas', modulo: 'productos' },
      { label: 'Sucursales y depósitos', to: '/sucursales', modulo: 'productos' },
      { label: 'Transferencias', to: '/transferencias', modulo: 'productos' },
    ],
  },
  { label: 'Clientes', icon: Users, to: '/customers', scoped: true, modulo: 'clientes' },
  { label: 'Finanzas', icon: Wallet, to: '/finanzas', scoped: true, modulo: 'finanzas' },
  { label: 'Tareas', icon: CheckSquare, to: '/tasks', scoped: true, modulo: 'tareas' },
  { label: 'Facturación', icon: FileText, to: '/facturacion', scoped: true, modulo: 'ventas' },
  { label: 'Configuración', icon: Settings, action: 'settings', scoped: true, admin: true },
];

/**
 * The menu a user sees: with a business selected, module items the user may not `ver` are left
 * out (a group without visible children too), and the settings unless the user administers it. Without a business every item shows, tagged
 * "Sin negocio" (SPEC §2).
 */
export function visibleNav(
  items: NavItem[],
  hasBusiness: boolean,
  canSee: (modulo: string) => boolean,
  isAdmin = false,
): NavItem[] {
  if (!hasBusiness) return items;
  const out: NavItem[] = [];
  for (const item of items) {
    if (item.modulo && !canSee(item.modulo)) continue;
    if (item.admin && !isAdmin) continue;
    if (item.children) {
      const children = item.children.filter((c) => !c.modulo || canSee(c.modulo));
      if (children.length) out.push({ ...item, children });
      continue;
    }
    out.push(item);
  }
  return out;
}
