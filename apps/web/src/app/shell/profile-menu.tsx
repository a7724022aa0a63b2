import * as Menu from '@radix-ui/react-dropdown-menu';
import { CreditCard, LogOut, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import type { MenuProps } from '@/components/ui/deferred-menu';
import { session } from '@/lib/session';
import { menuItemClass } from './menu-item';

/** The profile menu of the top bar: who is signed in, the profile, the plan, signing out. */
export default function ProfileMenu({ trigger, defaultOpen, onLogout }: MenuProps & { onLogout: () => void }) {
  const user = session.user();
  const name = user?.nombre || user?.email.split('@')[0] || '';
  return (
    <Menu.Root defaultOpen={defaultOpen}>
      <Menu.Trigger className={trigger.className} aria-label={trigger['aria-label']}>
        {trigger.children}
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
          <Menu.Item asChild className={menuItemClass}>
            <Link to="/profile">
              <UserRound className="h-4 w-4" aria-hidden /> Editar perfil
            </Link>
          </Menu.Item>
          <Menu.Item asChild className={menuItemClass}>
            <Link to="/plan">
              <CreditCard className="h-4 w-4" aria-hidden /> Plan del negocio
            </Link>
          </Menu.Item>
          <Menu.Item className={menuItemClass} onSelect={onLogout}>
            <LogOut className="h-4 w-4" aria-hidden /> Cerrar sesión
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
