import { expect, test } from '@playwright/test';
import { createBusiness, createUser, signIn } from '../support/session';

test('the audit log, the turnos and the medios de pago are tables: columns chosen and kept, sorted, cards on a phone', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Irene');
  const businessId = await createBusiness(request, owner, 'Kiosco Las Tablas');
  await signIn(page, owner, businessId);

  // The audit log: the turno just opened is there; "Usuario" hidden from the columns menu stays hidden.
  await page.goto('/auditoria');
  const log = page.getByRole('table', { name: 'Registro de cambios' });
  await expect(log.getByRole('row').filter({ hasText: 'Turno de caja' }).first()).toBeVisible();
  await expect(log.getByRole('columnheader', { name: 'Usuario' })).toBeVisible();
  await page.getByRole('button', { name: 'Columnas' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Usuario' }).click();
  await page.keyboard.press('Escape');
  await expect(log.getByRole('columnheader', { name: 'Usuario' })).toHaveCount(0);
  await page.reload();
  await expect(log.getByRole('row').filter({ hasText: 'Turno de caja' }).first()).toBeVisible();
  await expect(log.getByRole('columnheader', { name: 'Usuario' })).toHaveCount(0);
  await expect(log.getByRole('columnheader', { name: 'Qué' })).toBeVisible();

  // The caja: its open turno in the turnos table; the medios sorted by name, both ways.
  await page.goto('/caja');
  const turnos = page.getByRole('table', { name: 'Turnos' });
  await expect(turnos.getByRole('row').filter({ hasText: '#1' })).toContainText('Abierto');
  const medios = page.getByRole('table', { name: 'Medios de pago' });
  // The first row's own button names it (on a phone the header row leaves the accessibility tree).
  const first = medios.getByRole('button', { name: /^Editar / }).first();
  await expect(first).toHaveAccessibleName('Editar Efectivo');
  await medios.getByRole('button', { name: 'Nombre' }).click();
  await expect(medios.getByRole('columnheader', { name: 'Nombre' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(first).toHaveAccessibleName('Editar Cheque');
  await medios.getByRole('button', { name: 'Nombre' }).click();
  await expect(medios.getByRole('columnheader', { name: 'Nombre' })).toHaveAttribute('aria-sort', 'descending');
  await expect(first).toHaveAccessibleName('Editar Transferencia');

  // On a phone the headers give way to cards, and a select chooses the order.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(medios.getByRole('columnheader', { name: 'Nombre' })).toBeHidden();
  const order = page.getByRole('combobox', { name: 'Ordenar por' }).last();
  await expect(order).toBeVisible();
  await order.selectOption({ label: 'Nombre ↑' });
  await expect(first).toHaveAccessibleName('Editar Cheque');
  await expect(first).toBeVisible();
});
