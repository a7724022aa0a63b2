import type { RouteObject } from 'react-router';
import { ErrorScreen } from './error-screen';

/**
 * Routes of the application (app.html). The landing and legal pages are static HTML pages of
 * their own. Every route is code-split; modules not built yet show an "en construcción" page.
 */
const page =
  (load: () => Promise<{ default: React.ComponentType }>) =>
  async () => ({ Component: (await load()).default });

const construction = (title: string) => async () => {
  const { UnderConstruction } = await import('./under-construction');
  return { Component: () => <UnderConstruction title={title} /> };
};

const appChildren: RouteObject[] = [
  { path: '/home', lazy: page(() => import('@/features/dashboard/dashboard-page')) },
  { path: '/business-users', lazy: page(() => import('@/features/businesses/businesses-page')) },
  { path: '/profile', lazy: page(() => import('@/features/profile/profile-page')) },
  { path: '/pos', lazy: construction('Punto de venta') },
  { path: '/reports', lazy: construction('Reporte de ventas') },
  { path: '/compras', lazy: construction('Órdenes de compra') },
  { path: '/proveedores', lazy: construction('Proveedores') },
  { path: '/products-and-services', lazy: construction('Productos y servicios') },
  { path: '/categories', lazy: construction('Categorías') },
  { path: '/customers', lazy: construction('Clientes') },
  { path: '/finanzas/*', lazy: construction('Finanzas') },
  { path: '/tasks', lazy: construction('Tareas') },
  { path: '/business/:businessId/pos', lazy: construction('Punto de venta') },
  { path: '/business/:businessId/products-and-services', lazy: construction('Productos y servicios') },
  { path: '/business/:businessId/customers', lazy: construction('Clientes') },
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
