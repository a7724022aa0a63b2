import { describe, expect, it } from 'vitest';
import { accountForm, FINANCE_MESSAGES } from './finance.js';

const fields = (r: ReturnType<typeof accountForm.safeParse>) =>
  r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('account form', () => {
  it('says the supplier is missing together with the other errors, not only once they are fixed', () => {
    const r = accountForm.safeParse({ tipo: 'por_pagar', monto: '', fecha_vencimiento: '', descripcion: '' });
    const issues = fields(r);
    expect(issues).toContain(`proveedor_nombre: ${FINANCE_MESSAGES.supplierRequired}`);
    expect(issues.some((i) => i.startsWith('monto:'))).toBe(true);
    expect(issues.some((i) => i.startsWith('descripcion:'))).toBe(true);
  });

  it('accepts a complete payable and still checks the dates', () => {
    const ok = {
      tipo: 'por_pagar',
      proveedor_nombre: 'Distribuidora Sur',
      monto: 1500,
      fecha_emision: '2026-03-10',
      fecha_vencimiento: '2026-03-20',
      descripcion: 'Factura 0001-00001234',
    };
    expect(accountForm.safeParse(ok).success).toBe(true);
    expect(fields(accountForm.safeParse({ ...ok, fecha_vencimiento: '2026-03-01' }))).toEqual([
      `fecha_vencimiento: ${FINANCE_MESSAGES.dueBeforeIssue}`,
    ]);
  });
});
