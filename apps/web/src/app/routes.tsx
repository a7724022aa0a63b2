import type { RouteObject } from 'react-router';
import { ErrorScreen } from './error-screen';

/**
 * Routes of the application (app.html). The landing and legal pages are static HTML pages of
 * their own. Every route is code-split.
 */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const appChildren: RouteObject[] = [
  { path: '/home', lazy: page(() => import('@/features/dashboard/dashboard-page')) },
  { path: '/business-users', lazy: page(() => import('@/features/businesses/businesses-page')) },
  { path: '/profile', lazy: page(() => import('@/features/profile/profile-page')) },
  { path: '/invitacion', lazy: page(() => import('@/features/invitations/accept-invitation-page')) },
  { path: '/plan', lazy: page(() => import('@/features/plan/plan-page')) },
  { path: '/auditoria', lazy: page(() => import('@/features/audit/audit-page')) },
  { path: '/pos', lazy: page(() => import('@/features/pos/pos-page')) },
  { path: '/reports', lazy: page(() => import('@/features/reports/reports-page')) },
  { path: '/compras/*', lazy: page(() => import('@/features/purchases/purchases-page')) },
  { path: '/proveedores', lazy: page(() => import('@/features/suppliers/suppliers-page')) },
  { path: '/products-and-services', lazy: page(() => import('@/features/products/products-page')) },
  { path: '/categories', lazy: page(() => import('@/features/categories/categories-page')) },
  { path: '/customers', lazy: page(() => import('@/features/customers/customers-page')) },
  { path: '/finanzas/*', lazy: page(() => import('@/features/finance/finance-page')) },
  { path: '/tasks', lazy: page(() => import('@/features/tasks/tasks-page')) },
  { path: '/business/:businessId/pos', lazy: page(() => import('@/features/pos/pos-page')) },
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
