import type { RouteObject } from 'react-router';
import { useTitle } from '@/lib/title';
import { ErrorScreen } from './error-screen';
import { CardSkeleton, ShellSkeleton } from './skeletons';

/**
 * Routes of the application (app.html). The landing and legal pages are static HTML pages of
 * their own. Every route is code-split.
 */
const page = (title: string, load: () => Promise<{ default: React.ComponentType }>) => async () => {
  const Page = (await load()).default;
  return {
    Component: function TitledPage() {
      useTitle(title);
      return <Page />;
    },
  };
};

const appChildren: RouteObject[] = [
  { path: '/home', lazy: page('Inicio', () => import('@/features/dashboard/dashboard-page')) },
  { path: '/business-users', lazy: page('Negocios', () => import('@/features/businesses/businesses-page')) },
  { path: '/profile', lazy: page('Mi perfil', () => import('@/features/profile/profile-page')) },
  { path: '/plan', lazy: page('Plan', () => import('@/features/plan/plan-page')) },
  { path: '/auditoria', lazy: page('Registro de cambios', () => import('@/features/audit/audit-page')) },
  { path: '/pos', lazy: page('Punto de venta', () => import('@/features/pos/pos-page')) },
  { path: '/caja', lazy: page('Caja', () => import('@/features/caja/caja-page')) },
  { path: '/facturacion', lazy: page('Facturación', () => import('@/features/facturacion/facturacion-page')) },
  { path: '/reports', lazy: page('Reporte de ventas', () => import('@/features/reports/reports-page')) },
  { path: '/presupuestos/*', lazy: page('Presupuestos', () => import('@/features/presupuestos/presupuestos-page')) },
  { path: '/remitos/*', lazy: page('Remitos', () => import('@/features/remitos/remitos-page')) },
  { path: '/compras/*', lazy: page('Órdenes de compra', () => import('@/features/purchases/purchases-page')) },
  { path: '/proveedores', lazy: page('Proveedores', () => import('@/features/suppliers/suppliers-page')) },
  {
    path: '/products-and-services',
    lazy: page('Productos y servicios', () => import('@/features/products/products-page')),
  },
  { path: '/categories', lazy: page('Categorías', () => import('@/features/categories/categories-page')) },
  { path: '/etiquetas', lazy: page('Etiquetas', () => import('@/features/etiquetas/etiquetas-page')) },
  {
    path: '/sucursales',
    lazy: page('Sucursales y depósitos', () => import('@/features/depositos/sucursales-page')),
  },
  { path: '/transferencias', lazy: page('Transferencias', () => import('@/features/depositos/transferencias-page')) },
  { path: '/customers', lazy: page('Clientes', () => import('@/features/customers/customers-page')) },
  { path: '/finanzas/*', lazy: page('Finanzas', () => import('@/features/finance/finance-page')) },
  { path: '/tasks', lazy: page('Tareas', () => import('@/features/tasks/tasks-page')) },
  { path: '/business/:businessId/pos', lazy: page('Punto de venta', () => import('@/features/pos/pos-page')) },
  {
    path: '/business/:businessId/products-and-services',
    lazy: page('Productos y servicios', () => import('@/features/products/products-page')),
  },
  {
    path: '/business/:businessId/customers',
    lazy: page('Clientes', () => import('@/features/customers/customers-page')),
  },
];

export const routes: RouteObject[] = [
  {
    errorElement: <ErrorScreen />,
    // While the first screen's code loads (instead of a blank page).
    HydrateFallback: CardSkeleton,
    children: [
      { path: '/login', lazy: page('Iniciar sesión', () => import('@/features/auth/login-page')) },
      { path: '/register', lazy: page('Crear cuenta', () => import('@/features/auth/register-page')) },
      { path: '/confirm', lazy: page('Confirmar e-mail', () => import('@/features/auth/confirm-page')) },
      {
        path: '/forgot-password',
        lazy: page('Recuperar contraseña', () => import('@/features/auth/forgot-password-page')),
      },
      { path: '/reset-password', lazy: page('Nueva contraseña', () => import('@/features/auth/reset-password-page')) },
      // An invitation's link opens with or without a session (who invites, then log in or sign up).
      { path: '/invitacion', lazy: page('Invitación', () => import('@/features/invitations/accept-invitation-page')) },
      {
        lazy: async () => ({ Component: (await import('./app-layout')).default }),
        HydrateFallback: ShellSkeleton,
        children: appChildren,
      },
      { path: '*', lazy: page('Página no encontrada', () => import('./not-found')) },
    ],
  },
];
