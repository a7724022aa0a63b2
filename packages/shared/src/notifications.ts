import { z } from 'zod';

/** Notifications of a business (API-CONTRACT §9.5): computed on every read, never stored. */

export const NOTIFICATION_TYPES = [
  'stock_bajo',
  'cuenta_vencida',
  'cuenta_por_vencer',
  'caida_ventas',
  'usuario_pendiente',
  'cheque_por_vencer',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_SEVERITIES = ['critica', 'advertencia', 'info'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

/** The screen that resolves each kind. */
export const NOTIFICATION_LINKS: Record<NotificationType, string> = {
  stock_bajo: '/products-and-services',
  cuenta_vencida: '/finanzas',
  cuenta_por_vencer: '/finanzas',
  caida_ventas: '/reports',
  usuario_pendiente: '/business-users',
  cheque_por_vencer: '/finanzas/cheques',
};

export const NOTIFICATION_LIMIT = 50;
/** Due-soon window of pending accounts, in days (0 = due today). */
export const NOTIFICATION_DUE_SOON_DAYS = 7;
/** The sales-drop rule compares the last this-many complete days with the days before them. */
export const SALES_DROP_RECENT_DAYS = 7;

export type Notification = z.infer<typeof notificationSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  tipo: z.enum(NOTIFICATION_TYPES),
  titulo: z.string(),
  mensaje: z.string(),
  severidad: z.enum(NOTIFICATION_SEVERITIES),
  fecha: z.string(),
  enlace: z.string(),
});

/** Severity first (critica, advertencia, info), then the newest first. */
export function compareNotifications(a: Notification, b: Notification): number {
  const s = NOTIFICATION_SEVERITIES.indexOf(a.severidad) - NOTIFICATION_SEVERITIES.indexOf(b.severidad);
  if (s !== 0) return s;
  return a.fecha < b.fecha ? 1 : a.fecha > b.fecha ? -1 : a.id.localeCompare(b.id);
}
