import { expect, test, type APIRequestContext } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

async function api(request: APIRequestContext, user: E2EUser, method: 'get' | 'post', path: string, data?: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

test('a partial return to cash: the Devolución prints, stock comes back and the turno expects that much less cash', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Marta');
  const businessId = await createBusiness(request, owner, 'Almacén Marta');
  const b = `/businesses/${businessId}`;
  const yerba = await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Yerba mate 1 kg',
    precio_venta: 4000,
    stock_actual: 10,
  });
  // 3 yerbas in cash, in the open turno (no float): 12.000 expected.
  await api(request, owner, 'post', '/ventas/record-sale', {
    negocio_id: businessId,
    metodo_pago: 'efectivo',
    items: [{ id: yerba.id, cantidad: 3 }],
  });
  await signIn(page, owner, businessId);
  await page.goto('/caja');
  await expect(page.getByRole('definition').filter({ hasText: '$ 12.000,00' })).toBeVisible();

  await page.goto('/reports');
  await page.getByRole('button', { name: /Venta #1/ }).click();
  await page.getByRole('button', { name: 'Devolver' }).click();
  const dlg = page.getByRole('dialog', { name: 'Devolver de la venta #1' });
  const qty = dlg.getByLabel('A devolver de Yerba mate 1 kg');
  await expect(qty).toBeFocused();
  await qty.fill('4');
  await expect(dlg.getByText('Quedan 3.')).toBeVisible();
  await qty.fill('1');
  await expect(dlg.getByTestId('devolucion-total')).toHaveText(/\$\s4\.000,00/);
  await expect(dlg.getByLabel('Devolver el dinero por')).toHaveValue(
    (await api(request, owner, 'get', `${b}/medios-pago`)).find((m: { tipo: string }) => m.tipo === 'efectivo').id,
  );
  await dlg.getByLabel('Motivo').fill('Paquete roto');
  await qty.press('Enter');

  const done = page.getByRole('dialog', { name: 'Devolución #1 registrada' });
  const doc = done.getByRole('article', { name: 'Devolución #1' });
  await expect(doc).toContainText('De la venta #1');
  await expect(doc).toContainText('TOTAL DEVUELTO');
  await expect(doc).toContainText('Paquete roto');
  await page.evaluate(() => {
    window.print = () => {
      (window as unknown as { printed: string }).printed = document.getElementById('ticket-print-root')!.innerText;
    };
  });
  await done.getByRole('button', { name: 'Imprimir A4' }).click();
  const printed = await page.evaluate(() => (window as unknown as { printed: string }).printed);
  expect(printed).toContain('Devolución #1');
  await done.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByText(/Devolución #1 de la venta #1/)).toBeVisible();
  // The sale keeps its returns, each to open and print again.
  await page
    .getByRole('list', { name: 'Devoluciones de la venta' })
    .getByRole('button', { name: /Devolución #1/ })
    .click();
  const again = page.getByRole('dialog', { name: 'Devolución #1' });
  await expect(again.getByRole('article', { name: 'Devolución #1' })).toContainText('Yerba mate 1 kg');
  await again.getByRole('button', { name: 'Listo' }).click();

  // The cash left the drawer: 12.000 − 4.000.
  await page.goto('/caja');
  await expect(page.getByRole('definition').filter({ hasText: '$ 8.000,00' })).toBeVisible();
  await expect(page.getByText('Devoluciones: $ 4.000,00.')).toBeVisible();
  const product = await api(request, owner, 'get', `${b}/products/${yerba.id}`);
  expect(product.stock_actual).toBe(8);
});
