import {
  BarChart3,
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
}

export interface NavItem {
  label: string;
  icon: LucideIcon;
  to?: string;
  children?: NavLink[];
  /** Needs a selected business (SPEC §2). */
  scoped?: boolean;
  disabled?: boolean;
}

export const NAV: NavItem[] = [
  { label: 'Dashboard', icon: LayoutDashboard, to: '/home' },
  { label: 'Negocios', icon: Building2, to: '/business-users' },
  {
    label: 'Ventas',
    icon: ShoppingCart,
    scoped: true,
    children: [
      { label: 'Punto de venta', to: '/pos' },
      { label: 'Reporte de ventas', to: '/reports' },
    ],
  },
  {
    label: 'Compras',
    icon: ShoppingBag,
    scoped: true,
    children: [
      { label: 'Órdenes de compra', to: '/compras' },
      { label: 'Proveedores', to: '/proveedores' },
    ],
  },
  {
    label: 'Inventario',
    icon: Package,
    scoped: true,
    children: [
      { label: 'Productos y servicios', to: '/products-and-services' },
      { label: 'Categorías', to: '/categories' },
    ],
  },
  { label: 'Clientes', icon: Users, to: '/customers', scoped: true },
  { label: 'Finanzas', icon: Wallet, to: '/finanzas', scoped: true },
  { label: 'Tareas', icon: CheckSquare, to: '/tasks', scoped: true },
  { label: 'Facturación', icon: FileText, disabled: true },
  { label: 'Configuración', icon: Settings, disabled: true },
];

export const REPORTS_ICON = BarChart3;
