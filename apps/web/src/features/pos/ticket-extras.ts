import type { CuentaCorriente } from '@mostrador/shared/caja';
import { api } from '@/lib/api';
import { session } from '@/lib/session';
import { isCountable, type CartLine } from './cart';
import type { TicketExtras } from './ticket';

/**
 * What the ticket of a sale just charged shows beyond the sale itself: the cash handed over and
 * the change (after split payments too), the unit of weighed lines ("kg") and who attended (the
 * sale waiting to be sent does not say yet).
 */
export function ticketExtras(o: { lines: CartLine[]; pagaCon: number | null; vuelto: number | null }): TicketExtras {
  const user = session.user();
  const unidades: Record<string, string> = {};
  for (const l of o.lines) if (l.item.tipo === 'producto' && !isCountable(l.item)) unidades[l.item.id] = l.item.unidad;
  return {
    ...(o.pagaCon !== null ? { pagaCon: o.pagaCon } : {}),
    vuelto: o.vuelto !== null && o.vuelto > 0 ? o.vuelto : o.pagaCon !== null ? 0 : null,
    unidades,
    atendio: user ? [user.nombre, user.apellido].filter(Boolean).join(' ') : null,
  };
}

/** The customer's balance after a sale on cuenta corriente (cents), or null when it cannot be read. */
export async function saldoDespues(businessId: string, clienteId: string): Promise<number | null> {
  try {
    const c = await api.get<CuentaCorriente>(`/businesses/${businessId}/clientes/${clienteId}/cuenta-corriente`);
    return Math.round(c.saldo * 100);
  } catch {
    return null;
  }
}
