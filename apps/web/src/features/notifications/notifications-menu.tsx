import * as Menu from '@radix-ui/react-dropdown-menu';
import { AlertTriangle, Banknote, Bell, CalendarClock, PackageX, TrendingDown, UserPlus, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { Notification, NotificationSeverity, NotificationType } from '@mostrador/shared/notifications';
import { cn } from '@/lib/cn';
import type { MenuProps } from '@/components/ui/deferred-menu';

const ICONS: Record<NotificationType, LucideIcon> = {
  stock_bajo: PackageX,
  cuenta_vencida: AlertTriangle,
  cuenta_por_vencer: CalendarClock,
  caida_ventas: TrendingDown,
  usuario_pendiente: UserPlus,
  cheque_por_vencer: Banknote,
};

/** The severity shows in the colour of the bar and the icon; the title is not prefixed with a word. */
const SEVERITY: Record<NotificationSeverity, { icon: string; bar: string }> = {
  critica: { icon: 'bg-red-100 text-red-700', bar: 'bg-red-500' },
  advertencia: { icon: 'bg-amber-100 text-amber-700', bar: 'bg-amber-400' },
  info: { icon: 'bg-blue-100 text-blue-700', bar: 'bg-blue-500' },
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
          <span className="block text-sm font-medium text-slate-900">{n.titulo}</span>
          <span className="mt-0.5 block text-xs text-slate-600">{n.mensaje}</span>
        </span>
      </Link>
    </Menu.Item>
  );
}

/** The bell's list, each item linking to the screen that resolves it. */
export default function NotificationsMenu({
  trigger,
  defaultOpen,
  list,
  isError,
}: MenuProps & { list: Notification[]; isError: boolean }) {
  return (
    <Menu.Root defaultOpen={defaultOpen}>
      <Menu.Trigger className={trigger.className} aria-label={trigger['aria-label']}>
        {trigger.children}
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
            ) : list.length === 0 ? (
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
