import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Notification } from '@mostrador/shared/notifications';
import NotificationsMenu from './notifications-menu';

const n = (over: Partial<Notification>): Notification => ({
  id: over.id ?? 'x',
  tipo: 'stock_bajo',
  titulo: 'Stock bajo: Yerba 1 kg',
  mensaje: 'Quedan 2 unidades (mínimo 5).',
  severidad: 'info',
  fecha: '2026-11-27T12:00:00Z',
  enlace: '/products-and-services',
  ...over,
});

const open = (list: Notification[]) =>
  render(
    <MemoryRouter>
      <NotificationsMenu
        defaultOpen
        list={list}
        isError={false}
        trigger={{ className: '', 'aria-label': 'Notificaciones', children: 'Notificaciones' }}
      />
    </MemoryRouter>,
  );

describe('notifications menu', () => {
  afterEach(cleanup);

  it('names each notification by its title alone: the severity is the colour, not a "Crítica:" prefix', () => {
    open([
      n({ id: '1', severidad: 'critica', tipo: 'cuenta_vencida', titulo: 'Cuenta vencida: Marta', enlace: '/finanzas' }),
      n({ id: '2', severidad: 'advertencia' }),
      n({ id: '3', severidad: 'info', tipo: 'usuario_pendiente', titulo: 'Ana pidió acceso', enlace: '/business-users' }),
    ]);
    const items = screen.getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Cuenta vencida: MartaQuedan 2 unidades (mínimo 5).',
      'Stock bajo: Yerba 1 kgQuedan 2 unidades (mínimo 5).',
      'Ana pidió accesoQuedan 2 unidades (mínimo 5).',
    ]);
    for (const item of items) expect(item.textContent).not.toMatch(/Crítica|Advertencia|Información/);
    // The severity is still there, as style.
    expect(items.map((i) => i.getAttribute('data-severidad'))).toEqual(['critica', 'advertencia', 'info']);
    expect(items[0]!.querySelector('.bg-red-500')).not.toBeNull();
    expect(items[1]!.querySelector('.bg-amber-400')).not.toBeNull();
  });
});
