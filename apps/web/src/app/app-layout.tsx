import { QueryClientProvider } from '@tanstack/react-query';
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate, useNavigation, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
// Listening from the start: dialogs return the focus to what opened them, even those loaded later.
import '@/components/ui/focus-return';
import { PlanBanner } from '@/features/plan/plan-banner';
import { clearCatalogues, pendingOnDevice } from '@/features/pos/offline/pending';
import { api } from '@/lib/api';
import { offlineCache } from '@/lib/offline-cache';
import { session } from '@/lib/session';
import { BusinessProvider, useBusiness } from './business-context';
import { ErrorScreen } from './error-screen';
import { queryClient } from './query-client';
import { PageSkeleton } from './skeletons';
import { MobileMenu } from './shell/parts';
import { SidebarContent } from './shell/sidebar';
import { Topbar } from './shell/topbar';

// The business settings dialog, opened from the sidebar or the business menu.
const SettingsModal = lazy(() =>
  import('@/features/settings/settings-modal').then((m) => ({ default: m.SettingsModal })),
);

const CreateBusinessForm = lazy(() =>
  import('@/features/businesses/create-business-dialog').then((m) => ({ default: m.CreateBusinessForm })),
);

class Boundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean; key: string }> {
  override state = { failed: false, key: this.props.resetKey };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  static getDerivedStateFromProps(p: { resetKey: string }, s: { failed: boolean; key: string }) {
    return p.resetKey !== s.key ? { failed: false, key: p.resetKey } : null;
  }
  override componentDidCatch(error: unknown) {
    console.error(error);
  }
  override render() {
    return this.state.failed ? <ErrorScreen onRetry={() => this.setState({ failed: false })} /> : this.props.children;
  }
}

function Content() {
  const { businesses, businessId, select, isLoading, error, refetch } = useBusiness();
  const location = useLocation();
  const navigation = useNavigation();
  // /business/{id}/… (dashboard quick actions) selects that business when it is one of the user's.
  const pathBusiness = useParams().businessId;
  useEffect(() => {
    if (pathBusiness && pathBusiness !== businessId && businesses.some((b) => b.id === pathBusiness))
      select(pathBusiness);
  }, [pathBusiness, businessId, businesses, select]);
  if (error) {
    return (
      <div role="alert" className="flex flex-col items-center py-16 text-center">
        <p className="text-red-700">Error: {error.message}</p>
        <Button className="mt-4" onClick={refetch}>
          Recargar
        </Button>
      </div>
    );
  }
  // A user with no business is led to create one (the profile stays reachable; invitations open outside the shell).
  if (!isLoading && businesses.length === 0 && location.pathname !== '/profile') {
    return (
      <div className="mx-auto max-w-lg py-10">
        <h1 className="text-2xl font-semibold text-slate-900">Creá tu primer negocio</h1>
        <p className="mt-2 text-sm text-slate-600">
          Todo en Mostrador pertenece a un negocio: ventas, stock, clientes y finanzas. Empezá creando el tuyo; después
          podés sumar otros y cambiar entre ellos desde la barra superior.
        </p>
        <p className="mt-3 rounded-lg bg-blue-50 p-3 text-sm text-blue-800">
          ¿Te invitaron a trabajar en un negocio? Abrí el enlace de la invitación: cuando un administrador apruebe tu
          acceso, el negocio aparece acá y no necesitás crear uno.
        </p>
        <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <Suspense fallback={<p className="text-sm text-slate-500">Cargando…</p>}>
            <CreateBusinessForm />
          </Suspense>
        </div>
      </div>
    );
  }
  // A link to a business that is not one of the user's never shows another business's screen.
  if (pathBusiness && !isLoading && businesses.length > 0 && !businesses.some((b) => b.id === pathBusiness)) {
    const elsewhere = location.pathname.replace(`/business/${pathBusiness}`, '');
    return (
      <div role="alert" className="mx-auto flex max-w-lg flex-col items-center py-16 text-center">
        <h1 className="text-xl font-semibold text-slate-900">No encontramos ese negocio</h1>
        <p className="mt-2 text-sm text-slate-600">
          El enlace es de un negocio que no está entre los tuyos o al que ya no tenés acceso. No se muestra nada de otro
          negocio.
        </p>
        <Link
          to={elsewhere || '/home'}
          className="mt-6 inline-flex h-10 items-center rounded-lg bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700"
        >
          Ir a {businesses.find((b) => b.id === businessId)?.nombre ?? 'mi negocio'}
        </Link>
      </div>
    );
  }
  // Moving to a screen whose code is still loading: its skeleton at once, not the old screen.
  if (navigation.state === 'loading' && navigation.location.pathname !== location.pathname) return <PageSkeleton />;
  return (
    <Boundary resetKey={location.pathname}>
      <Outlet />
    </Boundary>
  );
}

function Shell() {
  const { business } = useBusiness();
  const [settings, setSettings] = useState(false);
  const openSettings = () => setSettings(true);
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuUsed, setMenuUsed] = useState(false);
  const navigate = useNavigate();
  const logout = async () => {
    // Sales, customers or caja movements made offline and not yet sent stay on this device (they
    // are sent when their user signs in again here), but the cashier should know before leaving.
    const pending = await pendingOnDevice();
    if (
      pending > 0 &&
      !window.confirm(
        `Hay ${pending} ${pending === 1 ? 'operación' : 'operaciones'} del punto de venta sin sincronizar en este dispositivo. Si cerrás sesión, se envían recién cuando vuelvas a iniciarla acá. ¿Cerrar sesión igual?`,
      )
    ) {
      return;
    }
    await api.post('/auth/logout').catch(() => undefined);
    await Promise.all([offlineCache.clear(), clearCatalogues()]);
    session.clear();
    queryClient.clear();
    navigate('/login', { replace: true });
  };
  return (
    <div className="min-h-screen bg-slate-50">
      <aside className="fixed inset-y-0 left-0 hidden w-72 border-r border-slate-200 bg-white xl:block">
        <SidebarContent onLogout={logout} onSettings={openSettings} />
      </aside>
      {/* The sheet's code loads the first time the menu button is used. */}
      {menuUsed && (
        <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} onLogout={logout} onSettings={openSettings} />
      )}
      <Suspense fallback={null}>
        {business && settings && <SettingsModal open={settings} onOpenChange={setSettings} businessId={business.id} />}
      </Suspense>
      <div className="xl:pl-72">
        <Topbar
          onOpenMenu={() => {
            setMenuUsed(true);
            setMenuOpen(true);
          }}
          onLogout={logout}
          onSettings={openSettings}
        />
        <PlanBanner />
        <main className="mx-auto max-w-7xl px-4 py-6 lg:px-8">
          <Content />
        </main>
      </div>
    </div>
  );
}

export default function AppLayout() {
  const location = useLocation();
  if (!session.token()) {
    const next =
      location.pathname === '/home' ? '' : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    return <Navigate to={`/login${next}`} replace />;
  }
  return (
    <QueryClientProvider client={queryClient}>
      <BusinessProvider>
        <Shell />
      </BusinessProvider>
    </QueryClientProvider>
  );
}
