import {
  CHEQUE_AVISO_DIAS,
  compareNotifications,
  NOTIFICATION_DUE_SOON_DAYS,
  NOTIFICATION_LIMIT,
  NOTIFICATION_LINKS,
  permissionKey,
  zonedToInstant,
  type Modulo,
  type Notification,
} from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { hasFullAccess, type BusinessContext } from '../../lib/access.js';
import { addDays, daysBetween, formatDateEs, todayIn } from '../../lib/dates.js';
import { dueAccountRows, lowStockRows, pendingMemberRows, salesDropSettings } from './notifications.queries.js';
import { dailySalesTotals, firstSaleDate } from './sales-data.js';
import { dueChequeRows } from '../cheques/cheques.queries.js';
import { salesDrop, salesDropWindows } from './sales-drop.js';

export interface NotificationContext {
  business: BusinessContext;
  now: Date;
}

const canSee = (b: BusinessContext, modulo: Modulo) =>
  hasFullAccess(b) || b.permisos[permissionKey('ver', modulo)] === true;

const isAdmin = (b: BusinessContext) => b.isCreator || b.rol === 'admin';

function formatters(b: BusinessContext) {
  const qty = new Intl.NumberFormat(b.locale, { maximumFractionDigits: 3 });
  const money = new Intl.NumberFormat(b.locale, { style: 'currency', currency: b.currency });
  const pct = new Intl.NumberFormat(b.locale, { maximumFractionDigits: 1 });
  return {
    qty: (v: string) => qty.format(Number(v)),
    money: (v: string) => money.format(Number(v)),
    pct: (v: number) => pct.format(v),
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Products at or below their minimum stock (activo, controla_stock, stock_minimo > 0,
 * stock_actual ≤ stock_minimo), and those sold below 0 (the business sells without stock).
 */
async function lowStock(db: Db, b: BusinessContext): Promise<Notification[]> {
  const f = formatters(b);
  const rows = await lowStockRows(b.id, db);
  return rows.map((r): Notification => {
    const stock = Number(r.stock);
    const negativo = stock < 0;
    return {
      id: `stock_bajo:${r.id}`,
      tipo: 'stock_bajo',
      titulo: `${negativo ? 'Stock negativo' : stock === 0 ? 'Sin stock' : 'Stock bajo'}: ${r.nombre}`,
      mensaje: negativo
        ? `Se vendió sin stock: quedan ${f.qty(r.stock)}. Registrá la compra o ajustá el stock.`
        : `Quedan ${f.qty(r.stock)} (mínimo ${f.qty(r.minimo)}).`,
      severidad: stock <= 0 ? 'critica' : 'advertencia',
      fecha: r.fecha.toISOString(),
      enlace: NOTIFICATION_LINKS.stock_bajo,
    };
  });
}

/** Unpaid accounts overdue or due within the next 7 days (today included), in the business time zone. */
async function accounts(db: Db, b: BusinessContext, today: string): Promise<Notification[]> {
  const f = formatters(b);
  const rows = await dueAccountRows(b.id, addDays(today, NOTIFICATION_DUE_SOON_DAYS), db);
  return rows.map((r): Notification => {
    const dias = daysBetween(today, r.vence);
    const vencida = dias < 0;
    const clase = r.tipo === 'por_cobrar' ? 'por cobrar' : 'por pagar';
    const quien = r.cliente ?? r.proveedor;
    const fecha = formatDateEs(zonedToInstant(r.vence, b.timezone), b.timezone);
    const cuando = vencida
      ? `Venció hace ${plural(-dias, 'día', 'días')} (${fecha}).`
      : dias === 0
        ? 'Vence hoy.'
        : `Vence en ${plural(dias, 'día', 'días')} (${fecha}).`;
    return {
      id: `${vencida ? 'cuenta_vencida' : 'cuenta_por_vencer'}:${r.id}`,
      tipo: vencida ? 'cuenta_vencida' : 'cuenta_por_vencer',
      titulo: vencida ? `Cuenta ${clase} vencida` : `Cuenta ${clase} por vencer`,
      mensaje: `${quien ? `${quien} · ` : ''}${r.descripcion}: ${f.money(r.monto)}. ${cuando}`,
      severidad: vencida ? 'critica' : 'advertencia',
      fecha: zonedToInstant(r.vence, b.timezone).toISOString(),
      enlace: NOTIFICATION_LINKS[vencida ? 'cuenta_vencida' : 'cuenta_por_vencer'],
    };
  });
}

/**
 * Cheques falling due within CHEQUE_AVISO_DIAS (or past due and still there): third parties' in
 * the cartera, to deposit in time; our own given, so the bank account has the money (issue 37).
 */
async function dueCheques(db: Db, b: BusinessContext, today: string): Promise<Notification[]> {
  const f = formatters(b);
  const rows = await dueChequeRows(b.id, addDays(today, CHEQUE_AVISO_DIAS), db);
  return rows.map((r): Notification => {
    const dias = daysBetween(today, r.fecha_pago as string);
    const propio = r.tipo === 'propio';
    const fecha = formatDateEs(zonedToInstant(r.fecha_pago as string, b.timezone), b.timezone);
    const cuando =
      dias < 0
        ? `Venció hace ${plural(-dias, 'día', 'días')} (${fecha}).`
        : dias === 0
          ? 'Vence hoy.'
          : `Vence en ${plural(dias, 'día', 'días')} (${fecha}).`;
    const quien = propio ? '' : r.librador_nombre ? ` de ${r.librador_nombre as string}` : '';
    return {
      id: `cheque_por_vencer:${r.id as string}`,
      tipo: 'cheque_por_vencer',
      titulo: propio
        ? 'Cheque propio por debitarse'
        : dias < 0
          ? 'Cheque vencido sin depositar'
          : 'Cheque para depositar',
      mensaje: `N° ${r.numero as string} (${r.banco as string})${quien}: ${f.money(r.monto as string)}. ${cuando}${
        propio ? ' Revisá que la cuenta tenga fondos.' : ''
      }`,
      severidad: dias < 0 || (dias === 0 && !propio) ? 'critica' : 'advertencia',
      fecha: zonedToInstant(r.fecha_pago as string, b.timezone).toISOString(),
      enlace: NOTIFICATION_LINKS.cheque_por_vencer,
    };
  });
}

/** Users who accepted an invitation and wait for an administrator. */
async function pendingUsers(db: Db, b: BusinessContext): Promise<Notification[]> {
  const rows = await pendingMemberRows(b.id, db);
  return rows.map((r): Notification => ({
    id: `usuario_pendiente:${r.userId}`,
    tipo: 'usuario_pendiente',
    titulo: 'Usuario pendiente de aprobación',
    mensaje: `${[r.nombre, r.apellido].filter(Boolean).join(' ')} (${r.email}) espera que apruebes su acceso al negocio.`,
    severidad: 'info',
    fecha: r.fecha.toISOString(),
    enlace: NOTIFICATION_LINKS.usuario_pendiente,
  }));
}

/** The sales-drop alert, from the daily totals and the business's alert settings. */
async function salesDropAlert(db: Db, b: BusinessContext, today: string): Promise<Notification[]> {
  const s = await salesDropSettings(b.id, db);
  const settings = { threshold: Number(s?.threshold ?? 15), minDays: s?.minDays ?? 30 };
  const w = salesDropWindows(today, settings.minDays);
  const [daily, first] = await Promise.all([
    dailySalesTotals(db, b.id, w.previous.desde, w.recent.hasta, b.timezone),
    firstSaleDate(db, b.id, b.timezone),
  ]);
  const drop = salesDrop(daily, settings, today, first);
  if (!drop) return [];
  const f = formatters(b);
  return [
    {
      id: `caida_ventas:${today}`,
      tipo: 'caida_ventas',
      titulo: 'Caída de ventas',
      mensaje: `Las ventas de los últimos 7 días cayeron un ${f.pct(drop.dropPercent)}% respecto del promedio de los ${drop.days} días anteriores.`,
      severidad: 'advertencia',
      fecha: zonedToInstant(today, b.timezone).toISOString(),
      enlace: NOTIFICATION_LINKS.caida_ventas,
    },
  ];
}

/**
 * API-CONTRACT §9.5: computed on every read; each kind only when the caller may see its module
 * (stock_bajo: productos/ver; cuentas and cheques: finanzas/ver; caida_ventas: ventas/ver; usuario_pendiente:
 * admins). By severity, then newest first; at most 50.
 */
export async function listNotifications(db: Db, ctx: NotificationContext): Promise<Notification[]> {
  const b = ctx.business;
  const today = todayIn(b.timezone, ctx.now);
  const parts = await Promise.all([
    canSee(b, 'productos') ? lowStock(db, b) : [],
    canSee(b, 'finanzas') ? accounts(db, b, today) : [],
    canSee(b, 'finanzas') ? dueCheques(db, b, today) : [],
    isAdmin(b) ? pendingUsers(db, b) : [],
    canSee(b, 'ventas') ? salesDropAlert(db, b, today) : [],
  ]);
  return parts.flat().sort(compareNotifications).slice(0, NOTIFICATION_LIMIT);
}
