import * as Menu from '@radix-ui/react-dropdown-menu';
import { History, Plus, Settings } from 'lucide-react';
import { Link } from 'react-router';
import type { MenuProps } from '@/components/ui/deferred-menu';
import { useBusiness } from '../business-context';
import { menuItemClass } from './menu-item';

/** The business selector's menu: the user's businesses, creating one, and the admin's links. */
export default function BusinessMenu({
  trigger,
  defaultOpen,
  onCreate,
  onSettings,
}: MenuProps & { onCreate: () => void; onSettings: () => void }) {
  const { businesses, business, select, businessId } = useBusiness();
  const isAdmin = business?.rol === 'admin' || business?.es_creador;
  return (
    <Menu.Root defaultOpen={defaultOpen}>
      <Menu.Trigger className={trigger.className} aria-label={trigger['aria-label']}>
        {trigger.children}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="start"
          sideOffset={6}
          className="z-50 w-72 rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
        >
          <Menu.Label className="px-3 py-1.5 text-xs font-semibold uppercase text-slate-400">Tus negocios</Menu.Label>
          {businesses.map((b) => (
            <Menu.Item key={b.id} className={menuItemClass} onSelect={() => select(b.id)}>
              <span className={b.id === businessId ? 'font-semibold text-blue-700' : ''}>{b.nombre}</span>
              <span className="ml-auto text-xs text-slate-500">{b.tipo ?? ''}</span>
            </Menu.Item>
          ))}
          <Menu.Separator className="my-1 h-px bg-slate-200" />
          <Menu.Item className={menuItemClass} onSelect={onCreate}>
            <Plus className="h-4 w-4" aria-hidden /> Crear negocio
          </Menu.Item>
          {business && isAdmin && (
            <Menu.Item className={menuItemClass} onSelect={onSettings}>
              <Settings className="h-4 w-4" aria-hidden /> Configuración del negocio
            </Menu.Item>
          )}
          {business && isAdmin && (
            <Menu.Item asChild className={menuItemClass}>
              <Link to="/auditoria">
                <History className="h-4 w-4" aria-hidden /> Registro de cambios
              </Link>
            </Menu.Item>
          )}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
