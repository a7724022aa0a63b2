import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

/** Where the screenshots of the new screens go (3 sizes each), when set. */
const SHOTS = process.env.CHEQUES_SCREENSHOT;

async function api(request: APIRequestContext, user: E2EUser, method: 'get' | 'post', path: string, data?: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

/** The business's calendar day n days from today (its time zone, not the machine's). */
const inDays = (n: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(
    new Date(Date.now() + n * 86_400_000),
  );

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [w, h, size] of [
    [1440, 900, 'desktop'],
    [1024, 768, 'tablet'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The cheque's data, typed with the keyboard (Tab from field to field). */
async function fillCheque(scope: Locator | Page, prefix: string, numero: string, dias: number) {
  await scope.locator(`#${prefix}-banco`).fill('Banco Nación');
  await scope.locator(`#${prefix}-numero`).press('Tab');
  await scope.locator(`#${prefix}-numero`).fill(numero);
  await scope.locator(`#${prefix}-fecha_pago`).fill(inDays(dias));
  await scope.locator(`#${prefix}-librador_nombre`).fill('Constructora Sur SA');
  await scope.locator(`#${prefix}-librador_cuit`).fill('30-71234567-1');
}

test('a sale paid with a third-party cheque goes to the cartera and is passed to a supplier; another cheque bounces and the customer owes it with the fee', async ({
  page,
  request,
}) => {
  // A long journey through four screens (and their screenshots, when asked for).
  test.slow();
  const owner = await createUser(request, 'Ferretera');
  const businessId = await createBusiness(request, owner, 'Ferretería Cheques');
  const b = `/businesses/${businessId}`;
  const cemento = await api(request, owner, 'post', `${b}/products`, {
    nombre: 'Bolsa de cemento',
    codigo: 'CEM001',
    precio_venta: 120000,
    stock_actual: 100,
  });
  const cliente = await api(request, owner, 'post', `${b}/clientes`, { nombre: 'Constructora', apellido: 'Sur' });
  const proveedor = await api(request, owner, 'post', `${b}/proveedores`, { nombre: 'Aceros del Plata' });
  await api(request, owner, 'post', `${b}/finanzas/cuentas`, {
    tipo: 'por_pagar',
    proveedor_id: proveedor.id,
    monto: 300000,
    fecha_vencimiento: inDays(10),
    descripcion: 'Compra de hierro',
  });
  await signIn(page, owner, businessId);

  // 1) At the counter: the cheque medio asks for the cheque's data and the customer.
  await page.goto('/pos');
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially('2*CEM001');
  await search.press('Enter');
  await page.getByRole('radio', { name: 'Cheque' }).click();
  const datos = page.getByTestId('pos-cheque-datos');
  await expect(datos).toBeVisible();
  await page.getByRole('button', { name: 'Cobrar $ 240.000,00' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Elegí el cliente: el cheque queda a su nombre' }),
  ).toBeVisible();
  const picker = page.getByRole('combobox', { name: /Cliente/ });
  await picker.fill('Constructora');
  await picker.press('ArrowDown');
  await picker.press('Enter');
  await expect(page.getByRole('button', { name: 'Quitar cliente' })).toBeVisible();
  await page.keyboard.press('F9');
  await expect(datos.getByText('Indicá el banco.')).toBeVisible();
  await fillCheque(page, 'pos-cheque', '10203040', 30);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/pos-cheque.png`, fullPage: true });
  await page.keyboard.press('F9');
  await page.getByRole('button', { name: /^Cobrar con Cheque/ }).click();
  const done = page.getByRole('dialog', { name: 'Venta #1 registrada' });
  await expect(done).toBeVisible();
  await done.getByRole('button', { name: 'Nueva venta' }).click();

  // 2) The cartera: the cheque, by due date, passed to the supplier it pays.
  await page.goto('/finanzas/cheques');
  const row = page.getByTestId('cheque-row').filter({ hasText: 'N° 10203040' });
  await expect(row).toContainText('$ 240.000,00');
  await expect(row).toContainText('De Constructora Sur');
  await expect(row).toContainText('Vence en 30 días');
  await expect(page.getByTestId('cheques-total')).toContainText('1 cheque');
  await shots(page, 'cartera');
  await row.getByRole('button', { name: 'Endosar a un proveedor' }).click();
  const endoso = page.getByRole('dialog', { name: /Endosar a un proveedor: cheque N° 10203040/ });
  await endoso.getByRole('button', { name: 'Endosar a un proveedor' }).click();
  await expect(endoso.getByText('Elegí el proveedor al que le pasás el cheque.')).toBeVisible();
  await endoso.getByLabel('Proveedor').selectOption({ label: 'Aceros del Plata' });
  await shots(page, 'endosar');
  await endoso.getByRole('button', { name: 'Endosar a un proveedor' }).click();
  await expect(endoso).toBeHidden();
  await expect(page.getByText('No hay cheques en cartera')).toBeVisible();
  await page.getByLabel('Estado').selectOption({ label: 'Endosado' });
  await expect(page.getByTestId('cheque-row')).toContainText('Endosado a Aceros del Plata');
  const deuda = await api(request, owner, 'get', `${b}/proveedores/${proveedor.id}/cuenta-corriente`);
  expect(deuda.saldo).toBe(60000);

  // 3) Another cheque, taken in a cobro of the customer's account, bounces.
  await api(request, owner, 'post', '/ventas/record-sale', {
    negocio_id: businessId,
    cliente_id: cliente.id,
    items: [{ id: cemento.id, cantidad: 1 }],
    pagos: [
      {
        medio_pago_id: (await api(request, owner, 'get', `${b}/medios-pago`)).find(
          (m: { tipo: string }) => m.tipo === 'cuenta_corriente',
        ).id,
        monto: 120000,
      },
    ],
  });
  await page.goto('/customers');
  const fila = page.getByRole('table', { name: 'Clientes' }).getByRole('row').filter({ hasText: 'Constructora Sur' });
  await fila.getByRole('button', { name: 'Constructora Sur' }).first().click();
  const card = page.getByRole('dialog', { name: 'Constructora Sur' });
  await expect(card.getByTestId('cuenta-saldo')).toHaveText(/\$\s120\.000,00/);
  await card.getByRole('button', { name: 'Registrar cobro' }).click();
  const cobro = page.getByRole('dialog', { name: 'Registrar cobro' });
  await cobro.getByLabel('Monto ($)').fill('120.000');
  await cobro.getByLabel('Medio de pago').selectOption({ label: 'Cheque' });
  await fillCheque(cobro, 'cobro-cheque', '55667788', 2);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/cobro-cheque.png`, fullPage: true });
  await cobro.getByRole('button', { name: 'Cobrar' }).click();
  const receipt = page.getByRole('dialog', { name: 'Cobro #1 registrado' });
  await receipt.getByRole('button', { name: 'Listo' }).click();
  await expect(card.getByTestId('cuenta-saldo')).toHaveText(/\$\s0,00/);
  await page.keyboard.press('Escape');

  await page.goto('/finanzas/cheques');
  const segundo = page.getByTestId('cheque-row').filter({ hasText: 'N° 55667788' });
  await expect(segundo).toContainText('Vence en 2 días');
  await segundo.getByRole('button', { name: 'Depositar' }).click();
  const deposito = page.getByRole('dialog', { name: /Depositar: cheque N° 55667788/ });
  await deposito.getByRole('button', { name: 'Depositar' }).click();
  await expect(deposito).toBeHidden();
  await page.getByLabel('Estado').selectOption({ label: 'Depositado' });
  await page.getByTestId('cheque-row').getByRole('button', { name: 'Registrar rechazo' }).click();
  const rechazo = page.getByRole('dialog', { name: /Registrar rechazo: cheque N° 55667788/ });
  await expect(rechazo).toContainText('El monto y los gastos vuelven a la cuenta corriente de Constructora Sur.');
  await rechazo.getByLabel('Gastos bancarios ($)').fill('1.500');
  await rechazo.getByLabel('Motivo').fill('Sin fondos suficientes');
  await shots(page, 'rechazar');
  await rechazo.getByRole('button', { name: 'Registrar rechazo' }).click();
  await expect(rechazo).toBeHidden();

  // The customer owes the cheque again, with the bank's fee.
  await page.goto('/customers');
  await fila.getByRole('button', { name: 'Constructora Sur' }).first().click();
  await expect(card.getByTestId('cuenta-saldo')).toHaveText(/\$\s121\.500,00/);
  await expect(card.getByRole('table', { name: 'Movimientos de la cuenta corriente' })).toContainText(
    'Cheque rechazado',
  );
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/cuenta-rechazo.png`, fullPage: true });

  // Own cheques, by due date.
  await page.goto('/finanzas/cheques');
  await page.getByRole('tab', { name: 'Propios' }).click();
  await expect(page.getByText('No hay cheques propios entregados')).toBeVisible();
  // One of ours, given to the supplier for what is still owed (60.000), due in 45 days.
  await page.getByRole('button', { name: 'Nuevo cheque propio' }).click();
  const nuevo = page.getByRole('dialog', { name: 'Nuevo cheque propio' });
  await nuevo.getByLabel('Monto ($)').fill('60.000');
  await nuevo.getByLabel('Proveedor').selectOption({ label: 'Aceros del Plata' });
  await nuevo.getByRole('button', { name: 'Registrar cheque' }).click();
  await expect(nuevo.getByText('Indicá el banco.')).toBeVisible();
  await nuevo.locator('#nuevo-banco').fill('Banco Galicia');
  await nuevo.locator('#nuevo-numero').fill('900123');
  await nuevo.locator('#nuevo-fecha_pago').fill(inDays(45));
  await shots(page, 'nuevo-propio');
  await nuevo.getByRole('button', { name: 'Registrar cheque' }).click();
  await expect(nuevo).toBeHidden();
  await expect(page.getByTestId('cheque-row')).toContainText('A Aceros del Plata');
  await shots(page, 'propios');
  expect((await api(request, owner, 'get', `${b}/proveedores/${proveedor.id}/cuenta-corriente`)).saldo).toBe(0);
});
