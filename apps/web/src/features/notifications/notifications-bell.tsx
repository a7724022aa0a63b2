import { Bell } from 'lucide-react';
import { DeferredMenu } from '@/components/ui/deferred-menu';
import { cn } from '@/lib/cn';
import { lazyPart } from '@/lib/lazy-part';
import { useNotifications } from './notifications.api';

// The list's code (Radix's menu) loads when the user reaches for the bell.
const NotificationsMenu = lazyPart(() => import('./notifications-menu'));

/** The bell of the top bar: a count badge, and the list when opened. */
export function NotificationsBell() {
  const { data, isError } = useNotifications();
  const list = data ?? [];
  const count = list.length;
  const urgent = list.some((n) => n.severidad === 'critica');
  return (
    <DeferredMenu
      part={NotificationsMenu}
      props={{ list, isError }}
      trigger={{
        className:
          'relative rounded-full p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600',
        'aria-label': count ? `Notificaciones (${count})` : 'Notificaciones',
        children: (
          <>
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
          </>
        ),
      }}
    />
  );
}
