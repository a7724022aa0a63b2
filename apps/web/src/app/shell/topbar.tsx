import * as Menu from '@radix-ui/react-dropdown-menu';
import {
  Building2,
  ChevronDown,
  CreditCard,
  History,
  LogOut,
  Menu as MenuIcon,
  Plus,
  Settings,
  UserRound,
} from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { NotificationsBell } from '@/features/notifications/notifications-bell';
import { session } from '@/lib/session';
import { useBusiness } from '../business-context';

// Loaded on demand: their forms bring the validation schemas, which the first load does not need.
const CreateBusinessDialog = lazy(() =>
  import('@/features/businesses/create-business-dialog').then((m) => ({ default: m.CreateBusinessDialog })),
);
const SettingsModal = lazy(() =>
  import('@/features/settings/settings-modal').then((m) => ({ default: m.SettingsModal })),
);

const itemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100';

function BusinessSelector() {
  const { businesses, business, select, businessId, isLoading } = useBusiness();
  const [creating, setCreating] = useState(false);
  const [settings, setSettings] = useState(false);
  const isAdmin = business?.rol === 'admin' || business?.es_creador;
  return (
    <>
      <Menu.Root>
        <Menu.Trigger
          className="flex min-w-0 max-w-[16rem] items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-1.5 text-left hover:bg-slate-50"
          aria-label="Seleccionar negocio"
        >
          <Building2 className="h-5 w-5 shrink-0 text-blue-600" aria-hidden />
          <span className="min-w-0">
            <span className="block truncate text-sm font-medium text-slate-900" data-testid="negocio-actual">
              {business?.nombre ?? (isLoading ? 'Cargando…' : 'Sin negocio')}
            </span>
            {business?.tipo && <span className="block truncate text-xs text-slate-500">{business.tipo}</span>}
          </span>
          <ChevronDown className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content
            align="start"
            sideOffset={6}
            className="z-50 w-72 rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
          >
            <Menu.Label className="px-3 py-1.5 text-xs font-semibold uppercase text-slate-400">Tus negocios</Menu.Label>
            {businesses.map((b) => (
              <Menu.Item key={b.id} className={itemClass} onSelect={() => select(b.id)}>
                <span className={b.id === businessId ? 'font-semibold text-blue-700' : ''}>{b.nombre}</span>
                <span className="ml-auto text-xs text-slate-500">{b.tipo ?? ''}</span>
              </Menu.Item>
            ))}
            <Menu.Separator className="my-1 h-px bg-slate-200" />
            <Menu.Item className={itemClass} onSelect={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden /> Crear negocio
            </Menu.Item>
            {business && isAdmin && (
              <Menu.Item className={itemClass} onSelect={() => setSettings(true)}>
                <Settings className="h-4 w-4" aria-hidden /> Configuración del negocio
              </Menu.Item>
            )}
            {business && isAdmin && (
              <Menu.Item asChild className={itemClass}>
                <Link to="/auditoria">
                  <History className="h-4 w-4" aria-hidden /> Registro de cambios
                </Link>
              </Menu.Item>
            )}
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      <Suspense fallback={null}>
        {creating && <CreateBusinessDialog open={creating} onOpenChange={setCreating} />}
        {business && settings && <SettingsModal open={settings} onOpenChange={setSettings} businessId={business.id} />}
      </Suspense>
    </>
  );
}

function ProfileMenu({ onLogout }: { onLogout: () => void }) {
  const user = session.user();
  const name = user?.nombre || user?.email.split('@')[0] || '';
  return (
    <Menu.Root>
      <Menu.Trigger className="flex items-center gap-2 rounded-full p-1 hover:bg-slate-100" aria-label="Menú de perfil">
        <span className="flex h-8 w-8 items-center justify-center rounded-full bg-blue-600 text-sm font-semibold text-white">
          {name.slice(0, 1).toUpperCase()}
        </span>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={6}
          className="z-50 w-64 rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
        >
          <div className="px-3 py-2">
            <p className="truncate text-sm font-medium text-slate-900">{name}</p>
            <p className="truncate text-xs text-slate-500">{user?.email}</p>
          </div>
          <Menu.Separator className="my-1 h-px bg-slate-200" />
          <Menu.Item asChild className={itemClass}>
            <Link to="/profile">
              <UserRound className="h-4 w-4" aria-hidden /> Editar perfil
            </Link>
          </Menu.Item>
          <Menu.Item asChild className={itemClass}>
            <Link to="/plan">
              <CreditCard className="h-4 w-4" aria-hidden /> Plan del negocio
            </Link>
          </Menu.Item>
          <Menu.Item className={itemClass} onSelect={onLogout}>
            <LogOut className="h-4 w-4" aria-hidden /> Cerrar sesión
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

export function Topbar({ onOpenMenu, onLogout }: { onOpenMenu: () => void; onLogout: () => void }) {
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
      <BusinessSelector />
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        <NotificationsBell />
        <ProfileMenu onLogout={onLogout} />
      </div>
    </header>
  );
}
