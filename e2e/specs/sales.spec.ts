import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/** The product row of the desktop table (the page also renders mobile cards, hidden here). */
const productRow = (page: Page, nombre: string) =>
  page.getByRole('table', { name: 'Productos' }).getByRole('row').filter({ hasText: nombre });

async function create(request: APIRequestContext, user: E2EUser, path: string, data: object) {
  const res = await request.post(`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

async function stockOf(request: APIRequestContext, user: E2EUser, businessId: string, productId: string) {
  const res = await request.get(`/api/v1/businesses/${businessId}/products/${productId}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  return (await res.json()).stock_actual as number;
}

test('a cashier sells two products and a service by barcode, prints the ticket, sees stock, finance and dashboard move, then voids it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await createUser(request, 'Rosa');
  const businessId = await createBusiness(request, owner, 'Almacén Rosa');
  const yerba = await create(request, owner, `/businesses/${businessId}/products`, {
    nombre: 'Yerba mate Playadito 1 kg',
    codigo: 'YER001',
    codigo_barras: '7790387000019',
    precio_venta: 4000,
    precio_compra: 2800,
    stock_actual: 10,
  });
  const coca = await create(request, owner, `/businesses/${businessId}/products`, {
    nombre: 'Coca-Cola 2,25 l',
    codigo: 'BEB001',
    codigo_barras: '7790895000010',
    precio_venta: 3100,
    stock_actual: 3,
  });
  await create(request, owner, `/businesses/${businessId}/services`, { nombre: 'Envío a domicilio', precio: 1500 });
  await signIn(page, owner, businessId);

  // The dashboard quick action opens the point of sale of this business.
  await page.goto('/home');
  await expect(page.getByText('Resumen de Almacén Rosa')).toBeVisible();
  await page.getByRole('link', { name: 'Nueva venta' }).click();
  await expect(page).toHaveURL(new RegExp(`/business/${businessId}/pos$`));
  await expect(page.getByRole('heading', { name: 'Punto de venta' })).toBeVisible();
  await expect(page.getByText('El carrito está vacío')).toBeVisible();

  // A scanner types the code and Enter: the yerba once, the Coca-Cola twice; the service by name.
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await expect(search).toBeFocused();
  const cart = page.getByRole('list', { name: 'Ítems del carrito' });
  await search.pressSequentially('7790387000019');
  await search.press('Enter');
  await expect(cart.getByRole('listitem', { name: 'Yerba mate Playadito 1 kg' })).toBeVisible();
  for (let i = 0; i < 2; i++) {
    await search.pressSequentially('7790895000010');
    await search.press('Enter');
  }
  await expect(page.getByLabel('Cantidad de Coca-Cola 2,25 l')).toHaveValue('2');
  await search.pressSequentially('envío');
  await expect(page.getByRole('option', { name: /Envío a domicilio/ })).toBeVisible();
  await search.press('Enter');
  await expect(cart.getByRole('listitem')).toHaveCount(3);
  // 4000 + 2 × 3100 + 1500
  await expect(page.getByTestId('pos-total')).toHaveText('$ 11.700,00');

  // An unknown code is said plainly and adds nothing.
  await search.pressSequentially('0000000000000');
  await search.press('Enter');
  await expect(page.getByText('No se encontró ningún producto o servicio con «0000000000000».')).toBeVisible();
  await search.fill('');

  // Cash: the change due.
  await page.getByLabel('Paga con ($)').fill('15000');
  await expect(page.getByTestId('pos-vuelto')).toContainText('$ 3.300,00');
  await page.getByRole('button', { name: 'Cobrar $ 11.700,00' }).click();

  // The sale's number and its ticket.
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible();
  const ticket = done.getByRole('article', { name: 'Ticket de la venta #1' });
  await expect(ticket).toContainText('Almacén Rosa');
  await expect(ticket).toContainText('Yerba mate Playadito 1 kg');
  await expect(ticket).toContainText('2 × $ 3.100,00');
  await expect(ticket).toContainText('Envío a domicilio');
  await expect(ticket).toContainText('$ 11.700,00');
  await expect(ticket).toContainText('Vuelto');
  await expect(done.getByRole('button', { name: 'Ticket 80 mm' })).toBeVisible();
  await expect(done.getByRole('button', { name: 'Imprimir A4' })).toBeVisible();
  await done.getByRole('button', { name: 'Nueva venta' }).click();
  await expect(page.getByText('El carrito está vacío')).toBeVisible();
  await expect(search).toBeFocused();

  // Selling more Coca-Cola than is left: 409 naming the product, nothing recorded.
  await search.pressSequentially('7790895000010');
  await search.press('Enter');
  await page.getByLabel('Cantidad de Coca-Cola 2,25 l').fill('5');
  await page.getByLabel('Cantidad de Coca-Cola 2,25 l').press('Enter');
  await page.keyboard.press('F9');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Stock insuficiente para Coca-Cola 2,25 l. Disponible: 1.' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Quitar Coca-Cola 2,25 l' }).click();

  // Stock dropped.
  await page.goto('/products-and-services');
  await expect(productRow(page, 'Yerba mate Playadito 1 kg')).toContainText('9');
  await expect(productRow(page, 'Coca-Cola 2,25 l')).toContainText('1');
  expect(await stockOf(request, owner, businessId, yerba.id)).toBe(9);
  expect(await stockOf(request, owner, businessId, coca.id)).toBe(1);

  // The income is in finance, in the "Ventas" category.
  await page.goto('/finanzas/movimientos');
  const movement = page.getByRole('table', { name: 'Movimientos' }).getByRole('row').filter({ hasText: 'Venta #1' });
  await expect(movement).toBeVisible();
  await expect(movement).toContainText('+$ 11.700,00');
  await expect(movement).toContainText('Ventas');

  // And on the dashboard.
  await page.goto('/home');
  await expect(page.getByText('$ 11.700,00').first()).toBeVisible();
  await expect(page.getByText('Venta #1')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Ventas mensuales' })).toBeVisible();

  // Void it from the report, with a reason.
  await page.goto('/reports');
  await expect(page.getByRole('heading', { name: 'Reporte de ventas' })).toBeVisible();
  await page.getByRole('button', { name: /Venta #1/ }).click();
  await page.getByRole('button', { name: 'Anular' }).click();
  const dlg = page.getByRole('dialog', { name: '¿Anular la venta #1?' });
  await dlg.getByLabel('Motivo').fill('El cliente devolvió todo');
  await dlg.getByRole('button', { name: 'Anular venta' }).click();
  await expect(page.getByText('La venta #1 quedó anulada: el stock y el ingreso se revirtieron.')).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Ventas del período' }).getByRole('row').filter({ hasText: 'Venta #1' }).first(),
  ).toContainText('Anulada');
  await expect(page.getByText('1 anulada')).toBeVisible();

  expect(await stockOf(request, owner, businessId, yerba.id)).toBe(10);
  expect(await stockOf(request, owner, businessId, coca.id)).toBe(3);
  await page.goto('/finanzas/movimientos');
  await expect(page.getByText('No hay movimientos registrados')).toBeVisible();
});
