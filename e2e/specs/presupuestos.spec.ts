import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/*
 * Issue 37 (decision 0056): a quote for a builder at its price list → accepted → delivered with a
 * remito (the stock leaves) → the remito invoiced (one sale, the stock does not move again); the
 * money and the stock exact.
 */

const SHOTS = process.env.PRESUPUESTOS_SCREENSHOTS;
const SIZES = [
  [1440, 900, 'desktop'],
  [1024, 768, 'tablet'],
  [390, 844, 'phone'],
] as const;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  const size = page.viewportSize();
  for (const [w, h, label] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

function caller(request: APIRequestContext, user: E2EUser) {
  return async (method: 'get' | 'post' | 'patch', path: string, data?: object) => {
    const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
    expect(res.status(), await res.text()).toBeLessThan(300);
    return res.json();
  };
}

test('a quote at the customer’s list, accepted, delivered with a remito and invoiced: stock out once, the sale’s total exact', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Nora');
  const businessId = await createBusiness(request, owner, 'Corralón Nora');
  const api = caller(request, owner);
  const b = `/businesses/${businessId}`;
  const cemento = await api('post', `${b}/products`, { nombre: 'Cemento 50 kg', precio_venta: 9000, stock_actual: 40 });
  await api('post', `${b}/products`, { nombre: 'Arena fina m3', precio_venta: 25000, stock_actual: 8 });
  const mayorista = await api('post', `${b}/listas-precios`, {
    nombre: 'Mayorista',
    tipo: 'porcentaje',
    porcentaje: -10,
  });
  await api('post', `${b}/clientes`, { nombre: 'Constructora', apellido: 'Norte', lista_precios_id: mayorista.id });
  const stock = async (id: string) => (await api('get', `${b}/products/${id}`)).stock_actual as number;
  await signIn(page, owner, businessId);

  // Ventas › Presupuestos: none yet.
  await page.goto('/presupuestos');
  await expect(page.getByText('Todavía no hay presupuestos')).toBeVisible();
  await shots(page, 'presupuestos-vacio');
  await page.getByRole('button', { name: 'Nuevo presupuesto' }).click();

  // The customer, then the products by the POS's search (Enter adds the best match).
  const cliente = page.getByRole('combobox', { name: /Cliente/ });
  await cliente.pressSequentially('Constructora');
  await page
    .getByRole('listbox', { name: 'Clientes' })
    .getByRole('option', { name: /Constructora Norte/ })
    .click();
  const buscar = page.getByRole('combobox', { name: 'Agregar producto o servicio' });
  await buscar.pressSequentially('Cemento');
  await expect(page.getByRole('option', { name: /Cemento 50 kg/ })).toBeVisible();
  await buscar.press('Enter');
  await page.getByLabel('Cantidad de Cemento 50 kg').fill('10');
  await buscar.pressSequentially('3*Arena');
  await expect(page.getByRole('option', { name: /Arena fina/ })).toBeVisible();
  await buscar.press('Enter');
  await expect(page.getByLabel('Cantidad de Arena fina m3')).toHaveValue('3');
  await page.getByLabel('Descuento total ($)').fill('500');
  await page.getByLabel('Validez (días)').fill('10');
  await page.getByLabel('Notas').fill('Entrega en obra, calle 12');
  // Mayorista: 10 × 8 100 + 3 × 22 500 = 148 500, less 500.
  await expect(page.getByTestId('presupuesto-total')).toHaveText('$ 148.000,00');
  await shots(page, 'presupuesto-form');
  await page.getByRole('button', { name: 'Guardar presupuesto' }).click();

  await expect(page.getByRole('heading', { name: 'Presupuesto #1' })).toBeVisible();
  await expect(page.getByText('Borrador')).toBeVisible();
  await expect(page.getByTestId('presupuesto-total')).toHaveText('$ 148.000,00');
  await page.getByRole('button', { name: 'Marcar aceptado' }).click();
  await expect(page.getByText('Aceptado', { exact: true })).toBeVisible();
  await shots(page, 'presupuesto-detalle');
  // A quote moves no stock.
  expect(await stock(cemento.id)).toBe(40);

  // Convert into a remito at the quoted prices: the goods leave the stock.
  await page.getByRole('button', { name: 'Convertir en remito' }).click();
  const conv = page.getByRole('dialog', { name: 'Convertir en remito' });
  await expect(conv.getByLabel(/Los del presupuesto/)).toBeChecked();
  await shots(page, 'presupuesto-convertir');
  await conv.getByRole('button', { name: 'Crear el remito' }).click();
  await expect(page.getByRole('heading', { name: 'Remito #1' })).toBeVisible();
  await expect(page.getByText('Pendiente de facturar')).toBeVisible();
  expect(await stock(cemento.id)).toBe(30);
  await shots(page, 'remito-detalle');

  // The remitos list: pending ones of a customer are chosen and invoiced together.
  await page.goto('/remitos');
  await page.getByLabel('Elegir el remito #1 para facturar').check();
  await shots(page, 'remitos-lista');
  await page.getByRole('button', { name: 'Facturar remitos' }).click();
  const fact = page.getByRole('dialog', { name: 'Facturar el remito #1' });
  await shots(page, 'remitos-facturar');
  // On the customer's account: the builder pays later.
  await fact.getByLabel('Medio de pago').selectOption({ label: 'Cuenta corriente' });
  await expect(fact.getByText('Queda en la cuenta corriente del cliente.')).toBeVisible();
  await fact.getByRole('button', { name: 'Facturar' }).click();
  await expect(fact.getByRole('status')).toHaveText('Venta #1 registrada por $ 148.000,00.');
  await fact.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByRole('row', { name: /#1/ }).getByText('Facturado')).toBeVisible();

  // The stock did not move again; the sale is exact and says where it came from.
  expect(await stock(cemento.id)).toBe(30);
  const { ventas } = await api('get', `${b}/ventas/sales`);
  expect(ventas).toHaveLength(1);
  expect(ventas[0]).toMatchObject({ total: 148000, descuento: 500, observaciones: 'Remito #1' });
  expect(ventas[0].pagos).toMatchObject([{ tipo: 'cuenta_corriente', total: 148000 }]);
  const presupuesto = (await api('get', `${b}/presupuestos`)).presupuestos[0];
  expect(presupuesto).toMatchObject({ numero: 1, estado: 'convertido', total: 148000 });

  await page.goto('/presupuestos');
  await expect(page.getByRole('row', { name: /#1/ }).getByText('Convertido')).toBeVisible();
  await shots(page, 'presupuestos-lista');
  await page.goto('/remitos/nuevo');
  await expect(page.getByRole('heading', { name: 'Nuevo remito' })).toBeVisible();
  await shots(page, 'remito-form');
});
