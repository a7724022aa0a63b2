import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, type E2EUser } from '../support/session';

const SCREENSHOT = process.env.CAJA_SCREENSHOT;

async function api(request: APIRequestContext, user: E2EUser, method: 'get' | 'post', path: string, data?: object) {
  const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function sellYerba(page: Page, cantidad: number) {
  const search = page.getByLabel('Buscar producto o servicio, o escanear código');
  await search.pressSequentially(`${cantidad}*YER001`);
  await search.press('Enter');
  await expect(page.getByLabel('Cantidad de Yerba mate 1 kg')).toHaveValue(String(cantidad));
}

/** F9; a sale not all in cash asks once more (`ask`). */
async function charge(page: Page, numero: number, ask = false) {
  await page.keyboard.press('F9');
  if (ask) await page.getByRole('button', { name: /^Cobrar( con|$)/ }).click();
  const done = page.getByRole('dialog', { name: `Venta #${numero} registrada` });
  await expect(done).toBeVisible();
  const ticket = await done.getByRole('article').innerText();
  await done.getByRole('button', { name: 'Nueva venta' }).click();
  return ticket;
}

test('a day at the register: open with a float, sell cash, card and split, withdraw, close with a counted difference and print the closing; the day agrees', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Rosa');
  const businessId = await createBusiness(request, owner, 'Almacén Rosa Caja', { turno: false });
  await api(request, owner, 'post', `/businesses/${businessId}/products`, {
    nombre: 'Yerba mate 1 kg',
    codigo: 'YER001',
    precio_venta: 4000,
    stock_actual: 50,
  });
  await signIn(page, owner, businessId);
  await page.goto('/pos');

  // No turno yet: the POS says so and refuses to charge until one is opened.
  await expect(page.getByText('Caja 1 no tiene un turno abierto: abrilo para vender.')).toBeVisible();
  await sellYerba(page, 1);
  await page.keyboard.press('F9');
  await expect(page.getByRole('alert').filter({ hasText: 'Abrí un turno de caja para vender.' })).toBeVisible();
  await page.getByRole('button', { name: 'Abrir turno' }).click();
  const open = page.getByRole('dialog', { name: 'Abrir turno en Caja 1' });
  await open.getByLabel('Fondo inicial ($)').fill('10.000');
  await open.getByRole('button', { name: 'Abrir turno' }).click();
  await expect(page.getByTestId('pos-turno')).toHaveText('Caja 1 · Turno #1');

  // 1) Cash, 5.000 handed for 4.000.
  await page.getByLabel('Paga con ($)').fill('5.000');
  await expect(page.getByTestId('pos-vuelto')).toContainText('$ 1.000,00');
  expect(await charge(page, 1)).toContain('Vuelto');

  // 2) Debit card.
  await sellYerba(page, 1);
  await page.getByRole('radio', { name: 'Tarjeta de Débito' }).click();
  await charge(page, 2, true);

  // 3) Split: 8.000 owed, 3.000 by transfer and 6.000 cash handed (1.000 change).
  await sellYerba(page, 2);
  await page.getByRole('button', { name: 'Dividir el pago' }).click();
  await page.getByLabel('Medio del pago 1').selectOption({ label: 'Transferencia' });
  await page.getByLabel('Monto del pago 1').fill('3.000');
  await page.getByLabel('Medio del pago 2').selectOption({ label: 'Efectivo' });
  await page.getByLabel('Monto del pago 2').fill('4.000');
  await expect(page.getByTestId('pos-vuelto')).toContainText('Falta');
  await page.getByLabel('Monto del pago 2').fill('6.000');
  await expect(page.getByTestId('pos-vuelto')).toContainText('$ 1.000,00');
  const split = await charge(page, 3, true);
  expect(split).toContain('Transferencia');
  expect(split).toMatch(/\$\s8\.000,00/);

  // The register: withdraw cash, then close counting 100 less than expected.
  await page.goto('/caja');
  await expect(page.getByRole('heading', { name: 'Caja', exact: true })).toBeVisible();
  const esperado = page.getByRole('definition').filter({ hasText: '$ 19.000,00' });
  // 10.000 + 4.000 + 5.000 cash.
  await expect(esperado).toBeVisible();
  await page.getByRole('button', { name: 'Ingreso o retiro' }).click();
  const move = page.getByRole('dialog', { name: 'Ingreso o retiro de efectivo' });
  await move.getByRole('button', { name: 'Registrar' }).click();
  await expect(move.getByText('Este campo es obligatorio.')).toBeVisible();
  await move.getByLabel('Monto ($)').fill('2.500');
  await move.getByLabel('Motivo').fill('Pago al repartidor');
  await move.getByRole('button', { name: 'Registrar' }).click();
  await expect(move).toBeHidden();
  await expect(page.getByRole('definition').filter({ hasText: '$ 16.500,00' })).toBeVisible();
  if (SCREENSHOT) {
    for (const [w, h, name] of [
      [1366, 900, 'desktop'],
      [1024, 768, 'tablet'],
      [375, 800, 'phone'],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `${SCREENSHOT}-caja-${name}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  }

  await page.getByRole('button', { name: 'Cerrar turno' }).click();
  const close = page.getByRole('dialog', { name: 'Cerrar turno #1' });
  await close.getByRole('button', { name: 'Cerrar turno' }).click();
  await expect(close.getByText('Indicá cuánto contaste de Efectivo.')).toBeVisible();
  await close.getByLabel('Efectivo').fill('16.400');
  await expect(close.getByText('-$ 100,00')).toBeVisible();
  await close.getByLabel('Tarjeta de Débito').fill('4.000');
  await close.getByLabel('Transferencia').fill('3.000');
  if (SCREENSHOT) await page.screenshot({ path: `${SCREENSHOT}-cierre.png`, fullPage: true });
  await close.getByRole('button', { name: 'Cerrar turno' }).click();

  const report = page.getByRole('dialog', { name: 'Turno #1 · Caja 1' });
  await expect(report.getByRole('article', { name: 'Cierre del turno #1' })).toContainText('Cierre de caja');
  await expect(report).toContainText('Diferencia total');
  await expect(report).toContainText('-$ 100,00');
  await page.evaluate(() => {
    window.print = () => {
      (window as unknown as { printed: string }).printed = document.getElementById('ticket-print-root')!.innerText;
    };
  });
  await report.getByRole('button', { name: 'Imprimir 80 mm' }).click();
  const printed = await page.evaluate(() => (window as unknown as { printed: string }).printed);
  expect(printed).toContain('Turno #1');
  expect(printed).toContain('Pago al repartidor');
  if (SCREENSHOT) await page.screenshot({ path: `${SCREENSHOT}-reporte.png`, fullPage: true });
  await report.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByRole('cell', { name: '#1' })).toBeVisible();
  await expect(page.getByText('Cerrada')).toBeVisible();

  // The day agrees: the sales report and the finance summary count 16.000 once.
  // Today in the business's time zone (UTC is a day ahead from 21:00 in Buenos Aires).
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());
  const rep = await api(
    request,
    owner,
    'get',
    `/businesses/${businessId}/ventas/reporte?fecha_desde=${today}&fecha_hasta=${today}`,
  );
  expect(JSON.stringify(rep)).toContain('16000');
  const turnos = await api(request, owner, 'get', `/businesses/${businessId}/turnos`);
  expect(turnos[0]).toMatchObject({ ventas_cantidad: 3, ventas_total: 16000, diferencia: -100 });
});

test('the dashboard flags a turno still open from a previous day', async ({ page, request }) => {
  const owner = await createUser(request, 'Nora');
  const businessId = await createBusiness(request, owner, 'Kiosco Nora');
  await signIn(page, owner, businessId);
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Inicio' })).toBeVisible();
  await expect(page.getByText(/El turno #1 de Caja 1 está abierto desde/)).toHaveCount(0);
  // The next day, on the shop's computer.
  await page.clock.install({ time: new Date(Date.now() + 30 * 60 * 60 * 1000) });
  await page.goto('/home');
  const flag = page.getByRole('alert').filter({ hasText: /El turno #1 de Caja 1 está abierto desde el/ });
  await expect(flag).toBeVisible();
  await flag.getByRole('link', { name: 'cerralo con el arqueo' }).click();
  await expect(page.getByText('Este turno está abierto desde otro día: cerralo para empezar uno nuevo.')).toBeVisible();
});

test('fiado: a sale on the customer account from the POS, a partial payment with its receipt, and the balance', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Beto');
  const businessId = await createBusiness(request, owner, 'Almacén Beto');
  await api(request, owner, 'post', `/businesses/${businessId}/products`, {
    nombre: 'Yerba mate 1 kg',
    codigo: 'YER001',
    precio_venta: 4000,
    stock_actual: 50,
  });
  await api(request, owner, 'post', `/businesses/${businessId}/clientes`, {
    nombre: 'Carmen',
    apellido: 'Vecina',
    limite_credito: 20000,
  });
  await signIn(page, owner, businessId);
  await page.goto('/pos');
  await sellYerba(page, 3);
  await page.getByRole('radio', { name: 'Cuenta corriente' }).click();
  await page.keyboard.press('F9');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Elegí el cliente: la venta en cuenta corriente queda a su nombre.' }),
  ).toBeVisible();
  const cliente = page.getByRole('combobox', { name: /Cliente/ });
  await cliente.fill('Carmen');
  await cliente.press('ArrowDown');
  await cliente.press('Enter');
  // The customer is chosen (its chip shows) before F9, as a cashier would see it.
  await expect(page.getByRole('button', { name: 'Quitar cliente' })).toBeVisible();
  await charge(page, 1, true);

  await page.goto('/customers');
  const row = page.getByRole('table', { name: 'Clientes' }).getByRole('row').filter({ hasText: 'Carmen Vecina' });
  await row.getByRole('button', { name: 'Carmen Vecina' }).first().click();
  const card = page.getByRole('dialog', { name: 'Carmen Vecina' });
  await expect(card.getByTestId('cuenta-saldo')).toHaveText(/\$\s12\.000,00/);
  await expect(card.getByRole('table', { name: 'Movimientos de la cuenta corriente' })).toContainText('Venta #1');
  await card.getByRole('button', { name: 'Registrar cobro' }).click();
  const cobro = page.getByRole('dialog', { name: 'Registrar cobro' });
  await cobro.getByLabel('Monto ($)').fill('20.000');
  await cobro.getByRole('button', { name: 'Cobrar' }).click();
  await expect(cobro.getByText(/El cobro supera lo que debe el cliente/)).toBeVisible();
  await cobro.getByLabel('Monto ($)').fill('5.000');
  await cobro.getByRole('button', { name: 'Cobrar' }).click();
  const receipt = page.getByRole('dialog', { name: 'Cobro #1 registrado' });
  await expect(receipt.getByRole('article', { name: 'Recibo #1' })).toContainText('Carmen Vecina');
  await expect(receipt.getByRole('article', { name: 'Recibo #1' })).toContainText('Saldo actual');
  if (SCREENSHOT) await page.screenshot({ path: `${SCREENSHOT}-recibo.png` });
  await receipt.getByRole('button', { name: 'Listo' }).click();
  await expect(card.getByTestId('cuenta-saldo')).toHaveText(/\$\s7\.000,00/);
  if (SCREENSHOT) await page.screenshot({ path: `${SCREENSHOT}-cuenta.png` });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Cuentas corrientes' }).click();
  const deudores = page.getByRole('table', { name: 'Clientes que deben' });
  await expect(deudores.getByRole('row').filter({ hasText: 'Carmen Vecina' })).toContainText(/\$\s7\.000,00/);
  if (SCREENSHOT) await page.screenshot({ path: `${SCREENSHOT}-deudores.png` });

  // The turno got the cash of the cobro, not the sale on account.
  const [caja] = await api(request, owner, 'get', `/businesses/${businessId}/cajas`);
  const turno = await api(request, owner, 'get', `/businesses/${businessId}/turnos/${caja.turno_abierto.id}`);
  expect(turno.esperado.map((e: { monto: number }) => e.monto)).toContain(5000);
});

test('an owner adds a caja with its own ARCA punto de venta, fixes a wrong one, and renames a caja', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Rosa');
  const businessId = await createBusiness(request, owner, 'Almacén Dos Cajas', { turno: false });
  await signIn(page, owner, businessId);
  await page.goto('/caja');
  await page.getByRole('button', { name: 'Nueva caja' }).click();
  const nueva = page.getByRole('dialog', { name: 'Nueva caja' });
  await nueva.getByLabel('Nombre').fill('Caja del fondo');
  await nueva.getByLabel('Punto de venta de ARCA (opcional)').fill('100000');
  await nueva.getByRole('button', { name: 'Crear caja' }).click();
  await expect(nueva.getByText('El punto de venta va de 1 a 99998.')).toBeVisible();
  await nueva.getByLabel('Punto de venta de ARCA (opcional)').fill('4');
  await nueva.getByRole('button', { name: 'Crear caja' }).click();
  await expect(nueva).toHaveCount(0);
  await expect(page.getByText('Factura desde el punto de venta 0004')).toBeVisible();

  await page.getByRole('button', { name: 'Editar Caja del fondo' }).click();
  const editar = page.getByRole('dialog', { name: 'Editar Caja del fondo' });
  await expect(editar.getByLabel('Punto de venta de ARCA (opcional)')).toHaveValue('4');
  await editar.getByLabel('Nombre').fill('Caja 2');
  await editar.getByLabel('Punto de venta de ARCA (opcional)').fill('');
  await editar.getByRole('button', { name: 'Guardar' }).click();
  await expect(editar).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Caja 2' })).toBeVisible();
  await expect(page.getByText(/Factura desde el punto de venta/)).toHaveCount(0);
  const cajas = await api(request, owner, 'get', `/businesses/${businessId}/cajas`);
  expect(cajas.find((c: { nombre: string }) => c.nombre === 'Caja 2')).toMatchObject({ punto_venta: null });
});
