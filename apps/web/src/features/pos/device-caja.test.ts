import { describe, expect, it } from 'vitest';
import type { Caja } from '@mostrador/shared/caja';
import { pickCaja } from './device-caja';

const turno = (id: string, by: string) =>
  ({ id, numero: 1, caja_id: 'x', caja_nombre: 'x', abierto_por: { id: by, nombre: by } }) as Caja['turno_abierto'];
const caja = (id: string, t: Caja['turno_abierto'] = null, activa = true): Caja =>
  ({ id, nombre: id, activa, punto_venta: null, turno_abierto: t }) as Caja;

describe('pickCaja: the caja a device sells in', () => {
  const c1 = caja('c1b', turno('t1', 'marta'));
  const c2 = caja('c2');
  it('is the one the device remembers, whoever opened its turno', () => {
    expect(pickCaja([c1, c2], 'c1b', 'ana')).toBe(c1);
    expect(pickCaja([c1, c2], 'c2', 'marta')).toBe(c2);
  });

  it("without one remembered: the caja of this user's turno, never a colleague's", () => {
    expect(pickCaja([c1, c2], null, 'marta')).toBe(c1);
    expect(pickCaja([c1, c2], null, 'ana')).toBeNull();
    // The only caja, with a colleague's turno: chosen explicitly, not taken.
    expect(pickCaja([c1], null, 'ana')).toBeNull();
    // The only caja, without a turno: this device opens it.
    expect(pickCaja([c2], null, 'ana')).toBe(c2);
  });

  it('forgets a remembered caja that is no longer active', () => {
    expect(pickCaja([caja('c1', null, false), c1], 'c1', 'ana')).toBeNull();
    expect(pickCaja([caja('c1', null, false), c2], 'c1', 'ana')).toBe(c2);
  });
});
