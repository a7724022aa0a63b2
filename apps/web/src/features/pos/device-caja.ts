import { useCallback, useState } from 'react';
import type { Caja, TurnoResumen } from '@mostrador/shared/caja';
import { useBusiness } from '@/app/business-context';
import { useCajas } from '@/features/caja/caja.api';
import { session } from '@/lib/session';

/*
 * Each device remembers its caja, per business (localStorage): the counter sells in that caja's
 * turno and "Abrir turno" opens that caja. A device that has not chosen one takes the caja whose
 * turno this user opened, or the only caja when it has no turno; a colleague's turno is used only
 * once chosen explicitly on the device.
 */
const key = (businessId: string) => `mostrador.caja.${businessId}`;

export const deviceCaja = {
  get: (businessId: string): string | null => localStorage.getItem(key(businessId)),
  set: (businessId: string, cajaId: string) => localStorage.setItem(key(businessId), cajaId),
};

export interface PosCaja {
  /** The caja this device sells in, or null while it must be chosen. */
  caja: Caja | null;
  /** Its open turno (null: none open). */
  turno: TurnoResumen | null;
  /** Active cajas to choose from. */
  cajas: Caja[];
  /** Remembers `id` as this device's caja. */
  choose: (id: string) => void;
  isPending: boolean;
}

/** Which caja an unchosen device takes by itself: the one of this user's turno, or the only free one. */
export function pickCaja(cajas: Caja[], remembered: string | null, me: string | null): Caja | null {
  const activas = cajas.filter((c) => c.activa);
  const chosen = activas.find((c) => c.id === remembered);
  if (chosen) return chosen;
  const mine = activas.find((c) => c.turno_abierto && c.turno_abierto.abierto_por?.id === me);
  if (mine) return mine;
  return activas.length === 1 && !activas[0].turno_abierto ? activas[0] : null;
}

export function usePosCaja(enabled = true): PosCaja {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  const cajas = useCajas(enabled);
  const [remembered, setRemembered] = useState<{ b: string; id: string | null }>(() => ({
    b,
    id: b ? deviceCaja.get(b) : null,
  }));
  const current = remembered.b === b ? remembered.id : b ? deviceCaja.get(b) : null;
  if (remembered.b !== b) setRemembered({ b, id: current });
  const choose = useCallback(
    (id: string) => {
      if (!b) return;
      deviceCaja.set(b, id);
      setRemembered({ b, id });
    },
    [b],
  );
  const list = cajas.data ?? [];
  const caja = pickCaja(list, current, session.user()?.id ?? null);
  return {
    caja,
    turno: caja?.turno_abierto ?? null,
    cajas: list.filter((c) => c.activa),
    choose,
    isPending: cajas.isPending,
  };
}
