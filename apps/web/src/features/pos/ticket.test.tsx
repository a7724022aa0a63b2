import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MedioPago } from '@mostrador/shared/caja';
import { DEFAULT_FORMATTING } from '@/lib/format';
import { session } from '@/lib/session';
import type { CartLine } from './cart';
import { localSale } from './offline/local-sale';
import { Ticket, type TicketBusiness } from './ticket';
import { ticketExtras } from './ticket-extras';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const medio = (id: string, nombre: string, tipo: MedioPago['tipo']) =>
  ({ id, nombre, tipo, ajuste_porcentaje: 0, activo: true, orden: 0 }) as unknown as MedioPago;
const efectivo = medio('m-ef', 'Efectivo', 'efectivo');
const debito = medio('m-deb', 'Tarjeta de Débito', 'debito');
const fiado = medio('m-cc', 'Cuenta corriente', 'cuenta_corriente');

const line = (id: string, nombre: string, unidad: string, cantidad: number, precio: number): CartLine => ({
  key: `producto:${id}`,
  item: { id, tipo: 'producto', nombre, codigo: null, codigo_barras: null, precio, stock: null, unidad },
  cantidad,
  precio,
});
const queso = line('p-queso', 'Queso cremoso', 'kg', 750, 1_200_000);
const yerba = line('p-yerba', 'Yerba 1 kg', 'unidad', 2000, 400_000);

const shop: TicketBusiness = {
  nombre: 'Fiambrería Rosa',
  cuit: '20-12345678-6',
  domicilio: 'Av. San Martín 1234, Rosario',
  condicionIva: 'Monotributo',
};

function sale(
  pagos: { medio_pago_id: string; monto: number }[],
  cliente: { id: string; nombre: string } | null = null,
) {
  // 0,75 kg × 12.000 + 2 × 4.000 = 17.000
  return localSale({
    id: 'v1',
    lines: [queso, yerba],
    subtotal: 1_700_000,
    descuento: 0,
    total: 1_700_000,
    pagos,
    medios: [efectivo, debito, fiado],
    cliente: cliente && { ...cliente, apellido: null },
    vendedor: null,
    observaciones: null,
    turnoId: null,
  });
}

const text = () => (screen.getByRole('article').textContent ?? '').replace(/\s/g, ' ');

describe('the POS ticket', () => {
  it("names the shop's address and IVA condition, weighed lines in kg and, offline, who attended", () => {
    session.save('t', { id: 'u1', nombre: 'Rosa', apellido: 'Paz', email: 'rosa@ejemplo.com' });
    const extras = ticketExtras({ lines: [queso, yerba], pagaCon: 2_000_000, vuelto: 300_000 });
    render(
      <Ticket
        sale={sale([{ medio_pago_id: 'm-ef', monto: 20000 }])}
        business={shop}
        formatting={DEFAULT_FORMATTING}
        extras={extras}
        format="80mm"
      />,
    );
    const t = text();
    expect(t).toContain('PENDIENTE DE SINCRONIZAR');
    expect(t).toContain('Av. San Martín 1234, Rosario');
    expect(t).toContain('IVA Monotributo');
    expect(t).toContain('Atendió: Rosa Paz');
    expect(t).toContain('0,75 kg × $ 12.000,00');
    // Units sold by the unit print without one.
    expect(t).toContain('2 × $ 4.000,00');
    expect(t).not.toContain('2 unidad');
    expect(t).toMatch(/Pagó con\s*\$ 20\.000,00/);
    expect(t).toMatch(/Vuelto\s*\$ 3\.000,00/);
  });

  it('shows the change of a split payment and, sold on account, the new balance', () => {
    const split = ticketExtras({ lines: [yerba], pagaCon: null, vuelto: 50_000 });
    const { unmount } = render(
      <Ticket
        sale={sale([
          { medio_pago_id: 'm-deb', monto: 10000 },
          { medio_pago_id: 'm-ef', monto: 7500 },
        ])}
        business={shop}
        formatting={DEFAULT_FORMATTING}
        extras={split}
        format="a4"
      />,
    );
    expect(text()).toMatch(/Tarjeta de Débito\s*\$ 10\.000,00/);
    expect(text()).toMatch(/Vuelto\s*\$ 500,00/);
    expect(text()).not.toContain('Pagó con');
    expect(text()).not.toContain('Saldo en cuenta corriente');
    unmount();

    const onAccount = { ...ticketExtras({ lines: [yerba], pagaCon: null, vuelto: null }), saldoCliente: 4_580_000 };
    render(
      <Ticket
        sale={sale([{ medio_pago_id: 'm-cc', monto: 17000 }], { id: 'c1', nombre: 'Lucía' })}
        business={shop}
        formatting={DEFAULT_FORMATTING}
        extras={onAccount}
        format="80mm"
      />,
    );
    expect(text()).toContain('Cliente: Lucía');
    expect(text()).toMatch(/Saldo en cuenta corriente\s*\$ 45\.800,00/);
    expect(text()).not.toContain('Vuelto');
  });

  it('a shop without its billing setup prints no empty address lines; the seller the server names wins', () => {
    const s = {
      ...sale([{ medio_pago_id: 'm-deb', monto: 17000 }]),
      numero: 7,
      vendedor: { id: 'u2', nombre: 'Marta Gil' },
    };
    render(
      <Ticket
        sale={s}
        business={{ nombre: 'Kiosco', cuit: null, domicilio: null, condicionIva: null }}
        formatting={DEFAULT_FORMATTING}
        extras={{ atendio: 'Otra persona' }}
        format="80mm"
      />,
    );
    expect(text()).toContain('Venta #7');
    expect(text()).toContain('Atendió: Marta Gil');
    expect(text()).not.toContain('IVA');
    expect(text()).not.toContain('Vuelto');
  });
});
