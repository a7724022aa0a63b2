import * as Menu from '@radix-ui/react-dropdown-menu';
import { AlertTriangle, Bell, CalendarClock, PackageX, TrendingDown, UserPlus, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { Notification, NotificationSeverity, NotificationType } from '@mostrador/shared/notifications';
import { cn } from '@/lib/cn';
import { useNotifications } from './notifications.api';

const ICONS: Record<NotificationType, LucideIcon> = {
  stock_bajo: PackageX,
  cuenta_vencida: AlertTriangle,
  cuenta_por_vencer: CalendarClock,
  caida_ventas: TrendingDown,
  usuario_pendiente: UserPlus,
};

const SEVERITY: Record<NotificationSeverity, { icon: string; bar: string; label: string }> = {
  critica: { icon: 'bg-red-100 text-red-700', bar: 'bg-red-500', label: 'Crítica' },
  advertencia: { icon: 'bg-amber-100 text-amber-700', bar: 'bg-amber-400', label: 'Advertencia' },
  info: { icon: 'bg-blue-100 text-blue-700', bar: 'bg-blue-500', label: 'Información' },
};

function Item({ n }: { n: Notification }) {
  const Icon = ICONS[n.tipo] ?? Bell;
  const s = SEVERITY[n.severidad] ?? SEVERITY.info;
  return (
    <Menu.Item asChild>
      <Link
        to={n.enlace}
        className="relative flex gap-3 rounded-lg py-2.5 pl-4 pr-3 outline-none data-[highlighted]:bg-slate-100"
        data-severidad={n.severidad}
      >
        <span className={cn('absolute inset-y-2 left-1 w-1 rounded-full', s.bar)} aria-hidden />
        <span className={cn('flex h-8 w-8 shrink-0 items-center justify-center rounded-full', s.icon)}>
          <Icon className="h-4 w-4" aria-hidden />
        </span>
        <span className="min-w-0">
          <span className="block text-sm font-medium text-slate-900">
            <span className="sr-only">{s.label}: </span>
            {n.titulo}
          </span>
          <span className="mt-0.5 block text-xs text-slate-600">{n.mensaje}</span>
        </span>
      </Link>
    </Menu.Item>
  );
}

/** The bell of the top bar: a count badge and the list, each item linking to the screen that resolves it. */
export function NotificationsBell() {
  const { data, isError } = useNotifications();
  const list = data ?? [];
  const count = list.length;
  const urgent = list.some((n) => n.severidad === 'critica');
  return (
    <Menu.Root>
      <Menu.Trigger
        className="relative rounded-full p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
        aria-label={count ? `Notificaciones (${count})` : 'Notificaciones'}
      >
        <Bell className="h-5 w-5" aria-hidden />
        {count > 0 && (
          <span
            className={cn(
              'absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full px-1 text-[11px] font-semibold text-white ring-2 ring-white',
              urgent ? 'bg-red-600' : 'bg-amber-500',
            )}
            data-testid="notificaciones-contador"
            aria-hidden
          >
            {count > 9 ? '9+' : count}
          </span>
        )}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 flex max-h-[min(32rem,80vh)] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-xl border border-slate-200 bg-white shadow-lg"
        >
          <Menu.Label className="border-b border-slate-100 px-4 py-3 text-sm font-semibold text-slate-900">
            Notificaciones
          </Menu.Label>
          <div className="overflow-y-auto p-1">
            {isError ? (
              <p className="px-4 py-6 text-center text-sm text-slate-500">No se pudieron cargar las notificaciones.</p>
            ) : count === 0 ? (
              <p className="px-4 py-6 text-center text-sm text-slate-500">No tenés notificaciones pendientes.</p>
            ) : (
              list.map((n) => <Item key={n.id} n={n} />)
            )}
          </div>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
