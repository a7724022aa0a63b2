import { describe, expect, it } from 'vitest';
import { canAuthorize, isWeakPin, pinInput, type Autorizador } from './autorizacion.js';

const member = (over: Partial<Autorizador>): Autorizador => ({
  usuario_id: 'u',
  nombre: 'Ana',
  acceso_total: false,
  cambiar_precios: false,
  exceder_credito: false,
  descuento_maximo: 0,
  ...over,
});

describe('PIN rules', () => {
  it('refuses repeated and consecutive digits, either way', () => {
    for (const pin of ['0000', '111111', '1234', '3456', '987654', '6543']) expect(isWeakPin(pin), pin).toBe(true);
    for (const pin of ['4821', '1357', '73915', '1243', '9147']) expect(isWeakPin(pin), pin).toBe(false);
  });

  it('takes 4 to 6 digits only, with the password', () => {
    expect(pinInput.safeParse({ pin: '4821', current_password: 'x' }).success).toBe(true);
    expect(pinInput.safeParse({ pin: '482196', current_password: 'x' }).success).toBe(true);
    for (const pin of ['482', '4821967', '48a1', ' 4821', 4821]) {
      expect(pinInput.safeParse({ pin, current_password: 'x' }).success, String(pin)).toBe(false);
    }
    expect(pinInput.safeParse({ pin: '4821', current_password: '' }).success).toBe(false);
  });
});

describe('who may authorize what', () => {
  it('full access authorizes everything; each control only its own refusal', () => {
    const full = member({ acceso_total: true, descuento_maximo: null });
    for (const code of ['DISCOUNT_OVER_MAX', 'PRICE_CHANGE_FORBIDDEN', 'CREDIT_LIMIT'] as const) {
      expect(canAuthorize(full, code, 100)).toBe(true);
    }
    const precios = member({ cambiar_precios: true, descuento_maximo: null });
    expect(canAuthorize(precios, 'PRICE_CHANGE_FORBIDDEN')).toBe(true);
    expect(canAuthorize(precios, 'DISCOUNT_OVER_MAX', 60)).toBe(true);
    expect(canAuthorize(precios, 'CREDIT_LIMIT')).toBe(false);
    const credito = member({ exceder_credito: true });
    expect(canAuthorize(credito, 'CREDIT_LIMIT')).toBe(true);
    expect(canAuthorize(credito, 'PRICE_CHANGE_FORBIDDEN')).toBe(false);
  });

  it('a larger maximum discount authorizes discounts up to it, exactly', () => {
    const encargada = member({ descuento_maximo: 15 });
    expect(canAuthorize(encargada, 'DISCOUNT_OVER_MAX', 15)).toBe(true);
    expect(canAuthorize(encargada, 'DISCOUNT_OVER_MAX', 15.01)).toBe(false);
    expect(canAuthorize(encargada, 'PRICE_CHANGE_FORBIDDEN')).toBe(false);
    expect(canAuthorize(member({ descuento_maximo: null }), 'DISCOUNT_OVER_MAX', 90)).toBe(true);
  });
});
