import { Building2, ChevronDown, Menu as MenuIcon } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { DeferredMenu } from '@/components/ui/deferred-menu';
import { NotificationsBell } from '@/features/notifications/notifications-bell';
import { session } from '@/lib/session';
import { useBusiness } from '../business-context';
import { BusinessMenu, ProfileMenu } from './parts';

// Loaded on demand: their forms bring the validation schemas, which the first load does not need.
const CreateBusinessDialog = lazy(() =>
  import('@/features/businesses/create-business-dialog').then((m) => ({ default: m.CreateBusinessDialog })),
);

function BusinessSelector({ onSettings }: { onSettings: () => void }) {
  const { business, isLoading } = useBusiness();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <DeferredMenu
        part={BusinessMenu}
        props={{ onCreate: () => setCreating(true), onSettings }}
        trigger={{
          className:
            'flex min-w-0 max-w-[16rem] items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-1.5 text-left hover:bg-slate-50',
          'aria-label': 'Seleccionar negocio',
          children: (
            <>
              <Building2 className="h-5 w-5 shrink-0 text-blue-600" aria-hidden />
              <span className="min-w-0">
                <span className="block truncate text-sm font-medium text-slate-900" data-testid="negocio-actual">
                  {business?.nombre ?? (isLoading ? 'Cargando…' : 'Sin negocio')}
                </span>
                {business?.tipo && <span className="block truncate text-xs text-slate-500">{business.tipo}</span>}
              </span>
              <ChevronDown className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
            </>
          ),
        }}
      />
      <Suspense fallback={null}>
        {creating && <CreateBusinessDialog open={creating} onOpenChange={setCreating} />}
      </Suspense>
    </>
  );
}

function ProfileButton({ onLogout }: { onLogout: () => void }) {
  const user = session.user();
  const name = user?.nombre || user?.email.split('@')[0] || '';
  return (
    <DeferredMenu
      part={ProfileMenu}
      props={{ onLogout }}
      trigger={{
        className: 'flex items-center gap-2 rounded-full p-1 hover:bg-slate-100',
        'aria-label': 'Menú de perfil',
        children: (
          <span className="flex h-8 w-8 items-center justify-center rounded-full bg-blue-600 text-sm font-semibold text-white">
            {name.slice(0, 1).toUpperCase()}
          </span>
        ),
      }}
    />
  );
}

export function Topbar({
  onOpenMenu,
  onLogout,
  onSettings,
}: {
  onOpenMenu: () => void;
  onLogout: () => void;
  onSettings: () => void;
}) {
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur lg:px-8">
      <button
        type="button"
        className="rounded-md p-2 text-slate-600 hover:bg-slate-100 xl:hidden"
        onClick={onOpenMenu}
        aria-label="Abrir menú"
      >
        <MenuIcon className="h-5 w-5" />
      </button>
      <BusinessSelector onSettings={onSettings} />
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        <NotificationsBell />
        <ProfileButton onLogout={onLogout} />
      </div>
    </header>
  );
}
