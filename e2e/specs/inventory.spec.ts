import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, uniqueEmail } from '../support/session';

/** The product row of the desktop table (the page also renders mobile cards, hidden here). */
const row = (page: Page, nombre: string) =>
  page.getByRole('table', { name: 'Productos' }).getByRole('row').filter({ hasText: nombre });

async function productAction(page: Page, nombre: string, action: string) {
  await row(page, nombre)
    .getByRole('button', { name: `Acciones de ${nombre}` })
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('a shop owner builds the catalogue: category, products, search, edit, stock adjustment, +10% with preview', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Marta');
  const businessId = await createBusiness(request, owner, 'Almacén Marta');
  await signIn(page, owner, businessId);

  // A category.
  await page.goto('/categories');
  await expect(page.getByText('Todavía no hay categorías')).toBeVisible();
  await page.getByRole('button', { name: 'Nueva categoría' }).first().click();
  await page.getByLabel('Nombre').fill('Bebidas');
  await page.getByLabel('Descripción').fill('Gaseosas, aguas y jugos');
  await page.getByRole('button', { name: 'Crear categoría' }).click();
  await expect(page.getByText('Categoría «Bebidas» creada.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Bebidas' })).toBeVisible();

  // Two products, the second with a validation error first.
  await page.goto('/products-and-services');
  await expect(page.getByText('Todavía no hay productos')).toBeVisible();
  const newProduct = async (p: { nombre: string; codigo: string; precio: string; stock: string; minimo?: string }) => {
    await page.getByRole('button', { name: 'Nuevo producto' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo producto' });
    await dialog.getByLabel('Nombre').fill(p.nombre);
    await dialog.getByLabel('Código', { exact: true }).fill(p.codigo);
    await dialog.getByLabel('Precio de venta').fill(p.precio);
    await dialog.getByLabel('Stock inicial').fill(p.stock);
    if (p.minimo) await dialog.getByLabel('Stock mínimo').fill(p.minimo);
    await dialog.getByLabel('Categoría').selectOption({ label: 'Bebidas' });
    await dialog.getByRole('button', { name: 'Crear producto' }).click();
    await expect(dialog).toBeHidden();
  };
  await newProduct({ nombre: 'Agua mineral 2 l', codigo: 'AGU2', precio: '1000', stock: '24', minimo: '6' });
  await newProduct({ nombre: 'Jugo de naranja 1 l', codigo: 'JUG1', precio: '1850.50', stock: '5', minimo: '5' });

  await page.getByRole('button', { name: 'Nuevo producto' }).first().click();
  const dup = page.getByRole('dialog', { name: 'Nuevo producto' });
  await dup.getByLabel('Nombre').fill('Copia');
  await dup.getByLabel('Código', { exact: true }).fill('agu2');
  await dup.getByRole('button', { name: 'Crear producto' }).click();
  await expect(dup.getByText('Este campo es obligatorio.')).toBeVisible();
  await dup.getByLabel('Precio de venta').fill('10');
  await dup.getByRole('button', { name: 'Crear producto' }).click();
  await expect(dup.getByRole('alert').filter({ hasText: 'Ya existe un producto con el código agu2.' })).toBeVisible();
  await dup.getByRole('button', { name: 'Cancelar' }).click();

  // The low-stock product stands out.
  await expect(row(page, 'Jugo de naranja 1 l')).toContainText('Stock bajo');
  await expect(row(page, 'Agua mineral 2 l')).not.toContainText('Stock bajo');

  // Search as you type, accent-insensitive, by name or code.
  await page.getByLabel('Buscar productos').fill('jugo');
  await expect(row(page, 'Agua mineral')).toHaveCount(0);
  await expect(row(page, 'Jugo de naranja 1 l')).toBeVisible();
  await page.getByLabel('Buscar productos').fill('AGU');
  await expect(row(page, 'Agua mineral 2 l')).toBeVisible();
  await expect(row(page, 'Jugo de naranja')).toHaveCount(0);
  await page.getByLabel('Borrar búsqueda').click();

  // Edit.
  await productAction(page, 'Agua mineral 2 l', 'Editar');
  const edit = page.getByRole('dialog', { name: 'Editar producto' });
  await edit.getByLabel('Nombre').fill('Agua mineral sin gas 2 l');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Producto «Agua mineral sin gas 2 l» actualizado.')).toBeVisible();

  // Stock adjustment with a reason, then its history.
  await productAction(page, 'Agua mineral sin gas 2 l', 'Ajustar stock');
  const adjust = page.getByRole('dialog', { name: 'Ajustar stock' });
  await adjust.getByText('Egreso (restar)').click();
  await adjust.getByLabel('Cantidad').fill('4');
  await adjust.getByLabel('Motivo').fill('Rotura');
  await expect(adjust.getByText('Quedará en 20')).toBeVisible();
  await adjust.getByRole('button', { name: 'Registrar ajuste' }).click();
  await expect(page.getByText('Stock de «Agua mineral sin gas 2 l»: 24 → 20 unidad.')).toBeVisible();
  await expect(row(page, 'Agua mineral sin gas 2 l')).toContainText('20');
  await productAction(page, 'Agua mineral sin gas 2 l', 'Historial de stock');
  const history = page.getByRole('dialog', { name: 'Historial de stock' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').first()).toContainText('Rotura');
  await expect(history.getByRole('listitem').first()).toContainText('-4');
  await expect(history.getByRole('listitem').last()).toContainText('Stock inicial');
  await history.getByRole('button', { name: 'Cerrar' }).click();

  // +10% with a preview first, nothing changes until applied.
  await page.getByRole('button', { name: 'Actualizar precios' }).click();
  const bulk = page.getByRole('dialog', { name: 'Actualizar precios' });
  await bulk.getByLabel('Porcentaje').fill('10');
  await bulk.getByLabel('Redondeo').selectOption('entero');
  await bulk.getByRole('button', { name: 'Ver vista previa' }).click();
  await expect(bulk.getByText('Vista previa: 2 productos cambian de precio de venta (+10 %)')).toBeVisible();
  const preview = bulk.getByRole('row').filter({ hasText: 'Jugo de naranja 1 l' });
  await expect(preview).toContainText('1.850,50');
  await expect(preview).toContainText('2.036,00');
  // The preview wrote nothing.
  const before = await request.get(`/api/v1/businesses/${businessId}/products?q=jugo`, {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect((await before.json())[0].precio_venta).toBe(1850.5);
  await bulk.getByRole('button', { name: 'Aplicar a 2 productos' }).click();
  await expect(page.getByText('Precios actualizados: 2 productos.')).toBeVisible();
  await expect(row(page, 'Jugo de naranja 1 l')).toContainText('2.036,00');
  await expect(row(page, 'Agua mineral sin gas 2 l')).toContainText('1.100,00');

  // Deleting asks first.
  await productAction(page, 'Jugo de naranja 1 l', 'Eliminar');
  const confirm = page.getByRole('dialog', { name: 'Eliminar producto' });
  await expect(confirm).toContainText('¿Estás seguro de que querés eliminar «Jugo de naranja 1 l»?');
  await confirm.getByRole('button', { name: 'Eliminar' }).click();
  await expect(row(page, 'Jugo de naranja 1 l')).toHaveCount(0);
});

async function workbook() {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Portada').addRow(['Lista de precios de Distribuidora Sur']);
  const ws = wb.addWorksheet('Lista');
  ws.addRow(['Cód.', 'Artículo', 'Importe', 'Existencias', 'Rubro', 'Proveedor']);
  ws.addRow(['YER1', 'Yerba mate 1 kg', 4000, 30, 'Almacén', 'Sur']);
  ws.addRow(['AZU1', 'Azúcar 1 kg', 'caro', 10, 'Almacén', 'Sur']);
  ws.addRow(['FID1', 'Fideos 500 g', '1.350,50', 12, 'Almacén', 'Sur']);
  ws.addRow(['ARR1', 'Arroz 1 kg', 1890, 8, 'Almacén', 'Sur']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('importing a workbook through every step: file, sheet, columns, review and edit, confirm', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Importa');
  const businessId = await createBusiness(request, owner, 'Distribuidora Importa');
  const auth = { authorization: `Bearer ${owner.token}` };
  // An existing product with one of the codes: the import updates it.
  const existing = await request.post(`/api/v1/businesses/${businessId}/products`, {
    headers: auth,
    data: { nombre: 'Arroz viejo', codigo: 'ARR1', precio_venta: 1500, stock_actual: 2 },
  });
  expect(existing.status()).toBe(201);
  await signIn(page, owner, businessId);

  // The dashboard's quick action opens the wizard.
  await page.goto(`/business/${businessId}/products-and-services?importar=1`);
  const wizard = page.getByRole('dialog', { name: 'Importar productos' });
  await expect(wizard).toBeVisible();
  await wizard.getByLabel('Archivo de Excel o CSV').setInputFiles({
    name: 'lista-sur.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await workbook(),
  });
  await expect(wizard.getByText('lista-sur.xlsx')).toBeVisible();
  await wizard.getByRole('button', { name: 'Continuar' }).click();

  // Sheet.
  await expect(wizard.getByText('¿Qué hoja tiene los productos?')).toBeVisible();
  await expect(wizard.getByText('4 filas')).toBeVisible();
  await wizard.getByLabel('Lista').check();
  await wizard.getByRole('button', { name: 'Leer esta hoja' }).click();

  // Columns: "Importe" is not a known header, so the price column is missing until mapped.
  await expect(wizard.getByText('Faltan columnas obligatorias: Precio de venta.')).toBeVisible();
  // Each column shows its first values from the file, so "Importe" is recognised as the price.
  const importe = wizard.getByRole('list', { name: 'Valores de ejemplo de Importe' });
  await expect(importe.getByRole('listitem')).toHaveText(['4000', 'caro', '1.350,50']);
  await expect(wizard.getByRole('list', { name: 'Valores de ejemplo de Artículo' })).toContainText('Yerba mate 1 kg');
  if (process.env.SHOTS_DIR) {
    for (const size of [
      { name: '1366', width: 1366, height: 768 },
      { name: '1024', width: 1024, height: 768 },
      { name: '375', width: 375, height: 812 },
    ]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/importar-columnas-${size.name}.png` });
    }
    await page.setViewportSize({ width: 1366, height: 768 });
  }
  await wizard.getByLabel('Importe', { exact: true }).selectOption('precio_venta');
  await wizard.getByRole('button', { name: 'Volver a leer con estas columnas' }).click();
  await expect(wizard.getByLabel('Importe', { exact: true })).toHaveValue('precio_venta');
  await expect(wizard.getByLabel('Cód.', { exact: true })).toHaveValue('codigo');
  await expect(wizard.getByLabel('Artículo', { exact: true })).toHaveValue('nombre');
  await expect(wizard.getByLabel('Proveedor', { exact: true })).toHaveValue('');
  await expect(wizard.getByRole('list', { name: 'Valores de ejemplo de Rubro' })).toContainText('Almacén');
  await wizard.getByRole('button', { name: 'Revisar productos' }).click();

  // Review: the summary, the bad row, fixed in place.
  await expect(wizard.getByText('Filas leídas')).toBeVisible();
  await expect(wizard.getByText('Categorías nuevas: Almacén')).toBeVisible();
  const bad = wizard.getByRole('listitem').filter({ hasText: 'Azúcar 1 kg' });
  await expect(bad).toContainText('Precio de venta: debe ser un número.');
  // The refused rows can be downloaded with their errors, to fix them in the spreadsheet.
  const downloaded = page.waitForEvent('download');
  await wizard.getByRole('button', { name: 'Descargar filas con errores' }).click();
  expect((await downloaded).suggestedFilename()).toBe('filas-con-errores.xlsx');
  await bad.getByRole('button', { name: 'Editar fila 3' }).click();
  const rowDialog = page.getByRole('dialog', { name: 'Fila 3' });
  await rowDialog.getByLabel('Precio de venta').fill('1200');
  await rowDialog.getByRole('button', { name: 'Guardar fila' }).click();
  await expect(rowDialog).toBeHidden();
  await wizard.getByRole('tab', { name: /Todas/ }).click();
  await expect(wizard.getByRole('listitem').filter({ hasText: 'Azúcar 1 kg' })).not.toContainText('debe ser un número');
  await expect(wizard.getByRole('listitem').filter({ hasText: 'Arroz 1 kg' })).toContainText('Actualiza');
  await wizard.getByRole('button', { name: 'Confirmar importación (4)' }).click();

  // Done.
  await expect(wizard.getByText('Importación terminada')).toBeVisible();
  await expect(wizard.getByText('Creados').locator('strong')).toHaveText('3');
  await expect(wizard.getByText('Actualizados').locator('strong')).toHaveText('1');
  await wizard.getByRole('button', { name: 'Ver productos' }).click();
  await expect(wizard).toBeHidden();
  await expect(page).not.toHaveURL(/importar=1/);
  await expect(row(page, 'Fideos 500 g')).toContainText('1.350,50');
  await expect(row(page, 'Azúcar 1 kg')).toContainText('1.200,00');
  await expect(row(page, 'Arroz 1 kg')).toContainText('1.890,00');
  await expect(row(page, 'Arroz 1 kg')).toContainText('8');
  await expect(page.getByRole('table', { name: 'Productos' }).getByRole('row')).toHaveCount(5);
});

test('a member who edits products but cannot see categories keeps the product category when saving', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Duena');
  const businessId = await createBusiness(request, owner, 'Kiosco Categorías');
  const auth = { authorization: `Bearer ${owner.token}` };
  const api = (path: string) => `/api/v1/businesses/${businessId}${path}`;
  const cat = await (await request.post(api('/categories'), { headers: auth, data: { nombre: 'Bebidas' } })).json();
  const product = await (
    await request.post(api('/products'), {
      headers: auth,
      data: { nombre: 'Soda 1,5 l', precio_venta: 900, categoria_id: cat.id },
    })
  ).json();

  const email = uniqueEmail('repositor');
  const invite = await request.post(api('/invitaciones'), { headers: auth, data: { email } });
  const token = new URL((await invite.json()).invitacion.enlace).searchParams.get('token');
  const member = await createUser(request, 'Repositor', email);
  await request.post(`/api/v1/invitaciones/${token}/aceptar`, { headers: { authorization: `Bearer ${member.token}` } });
  const approved = await request.post(api(`/usuarios-pendientes/${member.id}/aprobar`), {
    headers: auth,
    data: { puede_ver_productos: true, puede_editar_productos: true },
  });
  expect(approved.status()).toBe(200);

  await signIn(page, member, businessId);
  await page.goto('/products-and-services');
  await expect(row(page, 'Soda 1,5 l')).toContainText('Bebidas');
  // No category filter without the categorias module.
  await expect(page.getByLabel('Categoría')).toHaveCount(0);
  await productAction(page, 'Soda 1,5 l', 'Editar');
  const edit = page.getByRole('dialog', { name: 'Editar producto' });
  await expect(edit.getByLabel('Categoría')).toHaveValue(cat.id);
  await edit.getByLabel('Nombre').fill('Soda 2 l');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Producto «Soda 2 l» actualizado.')).toBeVisible();
  const saved = await (await request.get(api(`/products/${product.id}`), { headers: auth })).json();
  expect(saved).toMatchObject({ nombre: 'Soda 2 l', categoria_id: cat.id });
});
