import { LogOut } from 'lucide-react';
import { useState, type MouseEvent } from 'react';
import { NavLink as RouterLink } from 'react-router';
import { cn } from '@/lib/cn';
import { useCan } from '@/features/permissions/permissions.api';
import { useBusiness } from '../business-context';
import { NAV, visibleNav, type NavItem } from './nav';
import { NoBusinessDialog } from './parts';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    isActive ? 'bg-blue-50 text-blue-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
  );

function SinNegocio() {
  return (
    <span className="ml-auto rounded bg-amber-100 px-1.5 py-0.5 text-[10px] font-semibold text-amber-800">
      Sin negocio
    </span>
  );
}

function Item({
  item,
  hasBusiness,
  onNavigate,
  onBlocked,
  onSettings,
}: {
  item: NavItem;
  hasBusiness: boolean;
  onNavigate?: () => void;
  onSettings: () => void;
  /** A business link followed with no business selected: the shell asks to choose one. */
  onBlocked: () => void;
}) {
  const Icon = item.icon;
  const blocked = item.scoped && !hasBusiness;
  const guard = (e: MouseEvent) => {
    if (blocked) {
      e.preventDefault();
      onBlocked();
      return;
    }
    onNavigate?.();
  };
  if (item.action === 'settings') {
    return (
      <button
        type="button"
        className={cn(linkClass({ isActive: false }), 'w-full text-left')}
        onClick={() => {
          if (blocked) return onBlocked();
          onNavigate?.();
          onSettings();
        }}
      >
        <Icon className="h-5 w-5 shrink-0" aria-hidden />
        {item.label}
        {blocked && <SinNegocio />}
      </button>
    );
  }
  if (!item.children) {
    return (
      <RouterLink to={item.to!} className={linkClass} onClick={guard}>
        <Icon className="h-5 w-5 shrink-0" aria-hidden />
        {item.label}
        {blocked && <SinNegocio />}
      </RouterLink>
    );
  }
  return (
    <div>
      <div className="flex items-center gap-3 px-3 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-slate-400">
        <Icon className="h-4 w-4" aria-hidden />
        {item.label}
        {blocked && <SinNegocio />}
      </div>
      <div className="ml-4 space-y-0.5 border-l border-slate-200 pl-2">
        {item.children.map((c) => (
          <RouterLink key={c.to} to={c.to} className={linkClass} onClick={guard}>
            {c.label}
          </RouterLink>
        ))}
      </div>
    </div>
  );
}

export function SidebarContent({
  onNavigate,
  onLogout,
  onSettings,
}: {
  onNavigate?: () => void;
  onLogout: () => void;
  /** Opens the business settings (the same dialog as the business menu's). */
  onSettings: () => void;
}) {
  const { business, businessId, isLoading } = useBusiness();
  const isAdmin = business?.rol === 'admin' || Boolean(business?.es_creador);
  // While the businesses load, nothing is "Sin negocio" yet.
  const hasBusiness = Boolean(businessId) || isLoading;
  const can = useCan();
  // A member sees only the modules their flags allow (the server refuses the rest anyway).
  const items = visibleNav(NAV, Boolean(businessId), (modulo) => can(modulo, 'ver'), isAdmin);
  const [asking, setAsking] = useState(false);
  const [asked, setAsked] = useState(false);
  return (
    <nav aria-label="Menú principal" className="flex h-full flex-col">
      <div className="flex h-16 items-center gap-2 px-5">
        <img src="/favicon.svg" alt="" className="h-8 w-8" />
        <span className="text-lg font-bold text-slate-900">Mostrador</span>
      </div>
      <div className="flex-1 space-y-1 overflow-y-auto px-3 py-2">
        {items.map((item) => (
          <Item
            key={item.label}
            item={item}
            hasBusiness={hasBusiness}
            onNavigate={onNavigate}
            onSettings={onSettings}
            onBlocked={() => {
              setAsked(true);
              setAsking(true);
            }}
          />
        ))}
      </div>
      {/* Its code loads the first time it is needed (the first load does not bring Radix's dialog). */}
      {asked && <NoBusinessDialog open={asking} onOpenChange={setAsking} onNavigate={onNavigate} />}
      <div className="border-t border-slate-200 p-3">
        <button
          type="button"
          onClick={onLogout}
          className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-red-50 hover:text-red-700"
        >
          <LogOut className="h-5 w-5" aria-hidden />
          Cerrar sesión
        </button>
      </div>
    </nav>
  );
}
