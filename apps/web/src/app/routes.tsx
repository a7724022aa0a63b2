import type { RouteObject } from 'react-router';
import { ErrorScreen } from './error-screen';

/**
 * Routes of the application (app.html). The landing and legal pages are static HTML pages of
 * their own. Every route is code-split; modules not built yet show an "en construcción" page.
 */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

/** A module not built yet: its permission gate, then an "en construcción" page. */
const construction = (title: string, modulo: string) => async () => {
  const [{ UnderConstruction }, { PermissionGate }] = await Promise.all([
    import('./under-construction'),
    import('@/features/permissions/permission-gate'),
  ]);
  return {
    Component: () => (
      <PermissionGate modulo={modulo}>
        <UnderConstruction title={title} />
      </PermissionGate>
    ),
  };
};

const appChildren: RouteObject[] = [
  { path: '/home', lazy: page(() => import('@/features/dashboard/dashboard-page')) },
  { path: '/business-users', lazy: page(() => import('@/features/businesses/businesses-page')) },
  { path: '/profile', lazy: page(() => import('@/features/profile/profile-page')) },
  { path: '/invitacion', lazy: page(() => import('@/features/invitations/accept-invitation-page')) },
  { path: '/plan', lazy: page(() => import('@/features/plan/plan-page')) },
  { path: '/auditoria', lazy: page(() => import('@/features/audit/audit-page')) },
  { path: '/pos', lazy: construction('Punto de venta', 'ventas') },
  { path: '/reports', lazy: construction('Reporte de ventas', 'ventas') },
  { path: '/compras', lazy: construction('Órdenes de compra', 'stock') },
  { path: '/proveedores', lazy: construction('Proveedores', 'stock') },
  { path: '/products-and-services', lazy: page(() => import('@/features/products/products-page')) },
  { path: '/categories', lazy: page(() => import('@/features/categories/categories-page')) },
  { path: '/customers', lazy: page(() => import('@/features/customers/customers-page')) },
  { path: '/finanzas/*', lazy: page(() => import('@/features/finance/finance-page')) },
  { path: '/tasks', lazy: page(() => import('@/features/tasks/tasks-page')) },
  { path: '/business/:businessId/pos', lazy: construction('Punto de venta', 'ventas') },
  {
    path: '/business/:businessId/products-and-services',
    lazy: page(() => import('@/features/products/products-page')),
  },
  { path: '/business/:businessId/customers', lazy: page(() => import('@/features/customers/customers-page')) },
];

export const routes: RouteObject[] = [
  {
    errorElement: <ErrorScreen />,
    children: [
      { path: '/login', lazy: page(() => import('@/features/auth/login-page')) },
      { path: '/register', lazy: page(() => import('@/features/auth/register-page')) },
      { path: '/confirm', lazy: page(() => import('@/features/auth/confirm-page')) },
      { path: '/forgot-password', lazy: page(() => import('@/features/auth/forgot-password-page')) },
      { path: '/reset-password', lazy: page(() => import('@/features/auth/reset-password-page')) },
      {
        lazy: page(() => import('./app-layout')),
        children: appChildren,
      },
      { path: '*', lazy: page(() => import('./not-found')) },
    ],
  },
];
