import { describe, expect, it } from 'vitest';
import { PURCHASE_MESSAGES, purchaseForm } from './purchases.js';

const messages = (v: unknown) => {
  const r = purchaseForm.safeParse(v);
  return r.success
    ? []
    : r.error.issues.map((i: { path: PropertyKey[]; message: string }) => `${i.path.join('.')}: ${i.message}`);
};

describe('the purchase form', () => {
  it('says the supplier is missing together with the other wrong fields, not after them', () => {
    const found = messages({
      condicion_pago: 'cuenta_corriente',
      fecha: 'no es fecha',
      items: [{ producto_id: 'x', cantidad: 'dos', precio_unitario: 10 }],
    });
    expect(found).toContain(`proveedor_id: ${PURCHASE_MESSAGES.creditNeedsSupplier}`);
    expect(found.some((m: string) => m.startsWith('fecha:'))).toBe(true);
    expect(found.some((m: string) => m.startsWith('items.0'))).toBe(true);
  });

  it('passes a whole purchase on credit with its supplier and due date', () => {
    expect(
      messages({
        proveedor_id: '00000000-0000-4000-8000-000000000001',
        fecha: '2026-03-10',
        condicion_pago: 'cuenta_corriente',
        fecha_vencimiento: '2026-04-10',
        items: [{ producto_id: '00000000-0000-4000-8000-000000000002', cantidad: 2, precio_unitario: 10 }],
      }),
    ).toEqual([]);
  });
});
