import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBusiness, createUser, signIn, uniqueEmail, type E2EUser } from '../support/session';

const TZ = 'America/Argentina/Buenos_Aires';

/** A date N days from today in the business time zone. */
function day(offset = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

const MONTHS = [
  'Enero',
  'Febrero',
  'Marzo',
  'Abril',
  'Mayo',
  'Junio',
  'Julio',
  'Agosto',
  'Septiembre',
  'Octubre',
  'Noviembre',
  'Diciembre',
];
const monthTitle = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

/** A member through the real routes: invitation, acceptance, approval with `flags`. */
async function addMember(
  request: APIRequestContext,
  owner: E2EUser,
  businessId: string,
  nombre: string,
  flags: string[],
) {
  const auth = { authorization: `Bearer ${owner.token}` };
  const email = uniqueEmail(nombre.toLowerCase());
  const inv = await request.post(`/api/v1/businesses/${businessId}/invitaciones`, { headers: auth, data: { email } });
  const token = new URL((await inv.json()).invitacion.enlace).searchParams.get('token');
  const user = await createUser(request, nombre, email);
  const ok = await request.post(`/api/v1/invitaciones/${token}/aceptar`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(ok.status()).toBe(200);
  const approved = await request.post(`/api/v1/businesses/${businessId}/usuarios-pendientes/${user.id}/aprobar`, {
    headers: auth,
    data: Object.fromEntries(flags.map((f) => [f, true])),
  });
  expect(approved.status()).toBe(200);
  return user;
}

const stat = (page: Page, label: string) =>
  page
    .getByRole('region', { name: 'Estadísticas de tareas' })
    .locator('div', { hasText: new RegExp(`^${label}\\d+$`) });

test('tasks are created, assigned, moved through their states and seen in the calendar', async ({
  page,
  request,
  browser,
}) => {
  const owner = await createUser(request, 'Jefa');
  const businessId = await createBusiness(request, owner, 'Almacén Tareas');
  const luis = await addMember(request, owner, businessId, 'Luis', ['puede_ver_tareas']);

  await signIn(page, owner, businessId);
  await page.goto('/tasks');
  await expect(page.getByRole('heading', { name: 'Tareas', exact: true })).toBeVisible();
  await expect(page.getByText('No hay tareas registradas')).toBeVisible();
  await expect(stat(page, 'Total')).toHaveText('Total0');

  // A task assigned to Luis, over the next days.
  await page.getByRole('button', { name: 'Nueva tarea' }).click();
  let dlg = page.getByRole('dialog', { name: 'Nueva tarea' });
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg.getByText('Este campo es obligatorio.')).toBeVisible();
  await dlg.getByLabel('Título').fill('Contar inventario');
  await dlg.getByLabel('Descripción').fill('Depósito del fondo y góndolas.');
  await dlg.getByLabel('Asignada a').selectOption({ label: 'Luis Prueba' });
  await dlg.getByLabel('Prioridad').selectOption({ label: 'Alta' });
  await dlg.getByLabel('Inicio').fill(`${day(0)}T09:00`);
  await dlg.getByLabel('Fin').fill(`${day(0)}T08:00`);
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg.getByText('La fecha de fin no puede ser anterior a la de inicio.')).toBeVisible();
  await dlg.getByLabel('Fin').fill(`${day(1)}T18:00`);
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  const tasks = page.getByRole('table', { name: 'Tareas' }).locator('tbody');
  const inventario = tasks.getByRole('row').filter({ hasText: 'Contar inventario' });
  await expect(inventario).toContainText('Luis Prueba');
  await expect(inventario).toContainText('Alta');

  // An overdue, urgent one.
  await page.getByRole('button', { name: 'Nueva tarea' }).click();
  dlg = page.getByRole('dialog', { name: 'Nueva tarea' });
  await dlg.getByLabel('Título').fill('Pagar la luz');
  await dlg.getByLabel('Prioridad').selectOption({ label: 'Urgente' });
  await dlg.getByLabel('Fin').fill(`${day(-1)}T10:00`);
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  const luz = tasks.getByRole('row').filter({ hasText: 'Pagar la luz' });
  await expect(luz).toContainText('Vencida');
  await expect(luz).toContainText('Sin asignar');
  await expect(stat(page, 'Total')).toHaveText('Total2');
  await expect(stat(page, 'Vencidas')).toHaveText('Vencidas1');

  // Quick state changes: en progreso → pausada → completada.
  const state = page.getByRole('combobox', { name: 'Estado de «Contar inventario»' });
  await state.selectOption({ label: 'En progreso' });
  await expect(stat(page, 'En progreso')).toHaveText('En progreso1');
  await state.selectOption({ label: 'Pausada' });
  await expect(page.getByText('Pausadas: 1')).toBeVisible();
  await state.selectOption({ label: 'Completada' });
  await expect(stat(page, 'Completadas')).toHaveText('Completadas1');
  await expect(stat(page, 'En progreso')).toHaveText('En progreso0');

  // Filters and search.
  await page.getByLabel('Estado', { exact: true }).selectOption({ label: 'Completada' });
  await expect(tasks.getByRole('row')).toHaveCount(1);
  await expect(tasks).toContainText('Contar inventario');
  await page.getByLabel('Estado', { exact: true }).selectOption({ label: 'Todos' });
  await page.getByLabel('Buscar').fill('luz');
  await expect(tasks.getByRole('row')).toHaveCount(1);
  await expect(tasks).toContainText('Pagar la luz');
  await page.getByLabel('Buscar').fill('');
  await page.getByLabel('Asignada a').selectOption({ label: 'Luis Prueba' });
  await expect(tasks.getByRole('row')).toHaveCount(1);
  await expect(tasks).toContainText('Contar inventario');
  await page.getByLabel('Asignada a').selectOption({ label: 'Cualquiera' });
  await page.getByLabel('Prioridad').selectOption({ label: 'Urgente' });
  await expect(tasks.getByRole('row')).toHaveCount(1);
  await page.getByLabel('Prioridad').selectOption({ label: 'Todas' });
  await expect(tasks.getByRole('row')).toHaveCount(2);

  // Edit through the dialog.
  await page.getByRole('button', { name: 'Editar «Pagar la luz»' }).click();
  dlg = page.getByRole('dialog', { name: 'Editar tarea' });
  await expect(dlg.getByLabel('Título')).toHaveValue('Pagar la luz');
  await expect(dlg.getByLabel('Fin')).toHaveValue(`${day(-1)}T10:00`);
  await dlg.getByLabel('Título').fill('Pagar la luz (Edesur)');
  await dlg.getByRole('button', { name: 'Guardar' }).click();
  await expect(dlg).toBeHidden();
  await expect(tasks).toContainText('Pagar la luz (Edesur)');

  // The calendar shows the tasks on their days; a task opens from its day.
  await page.getByRole('button', { name: 'Calendario' }).click();
  await expect(page).toHaveURL(/vista=calendario/);
  const title = page.getByTestId('calendario-mes');
  await expect(title).toHaveText(monthTitle(day(0)));
  const cell = (d: string) => page.locator(`[role="gridcell"][data-fecha="${d}"]`);
  // (Days of another month may fall outside the grid: they are checked only within this month.)
  const thisMonth = (d: string) => d.slice(0, 7) === day(0).slice(0, 7);
  await expect(cell(day(0)).getByRole('button', { name: 'Contar inventario' })).toBeVisible();
  if (thisMonth(day(1))) await expect(cell(day(1)).getByRole('button', { name: 'Contar inventario' })).toBeVisible();
  if (thisMonth(day(-1)))
    await expect(cell(day(-1)).getByRole('button', { name: 'Pagar la luz (Edesur)' })).toBeVisible();
  if (thisMonth(day(2))) await expect(cell(day(2)).getByRole('button', { name: 'Contar inventario' })).toHaveCount(0);
  await cell(day(0)).getByRole('button', { name: 'Contar inventario' }).click();
  dlg = page.getByRole('dialog', { name: 'Editar tarea' });
  await expect(dlg.getByLabel('Título')).toHaveValue('Contar inventario');
  await expect(dlg.getByLabel('Estado')).toHaveValue('completada');
  await dlg.getByRole('button', { name: 'Cancelar' }).click();
  // Picking a day lists its tasks.
  await cell(day(0)).getByRole('button', { name: /tarea/ }).first().click();
  await expect(page.getByRole('list', { name: 'Tareas del día' })).toContainText('Contar inventario');
  // Switching months.
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  const next = new Date(`${day(0).slice(0, 7)}-15T12:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  await expect(title).toHaveText(monthTitle(next.toISOString().slice(0, 10)));
  await page.getByRole('button', { name: 'Hoy' }).click();
  await expect(title).toHaveText(monthTitle(day(0)));

  // The assignee sees only their task and may move its state, nothing else.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, luis, businessId);
  await memberPage.goto('/tasks');
  const mine = memberPage.getByRole('table', { name: 'Tareas' }).locator('tbody');
  await expect(mine.getByRole('row')).toHaveCount(1);
  await expect(mine).toContainText('Contar inventario');
  await expect(memberPage.getByRole('button', { name: 'Nueva tarea' })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: /^Editar/ })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: /^Eliminar/ })).toHaveCount(0);
  await memberPage
    .getByRole('combobox', { name: 'Estado de «Contar inventario»' })
    .selectOption({ label: 'En progreso' });
  await expect(stat(memberPage, 'En progreso')).toHaveText('En progreso1');
  await memberPage.getByRole('button', { name: 'Contar inventario' }).click();
  const detail = memberPage.getByRole('dialog', { name: 'Tarea' });
  await expect(detail).toContainText('Depósito del fondo y góndolas.');
  await expect(detail).toContainText('Creada por');
  await detail.getByRole('button', { name: 'Cerrar' }).last().click();
  await memberContext.close();

  // Delete with confirmation.
  await page.getByRole('button', { name: 'Lista' }).click();
  await page.getByRole('button', { name: 'Eliminar «Pagar la luz (Edesur)»' }).click();
  const confirm = page.getByRole('dialog', { name: 'Eliminar tarea' });
  await expect(confirm).toContainText('¿Estás seguro de que querés eliminar la tarea «Pagar la luz (Edesur)»?');
  await confirm.getByRole('button', { name: 'Eliminar' }).click();
  await expect(confirm).toBeHidden();
  await expect(tasks.getByRole('row')).toHaveCount(1);
  await expect(tasks.getByRole('combobox', { name: 'Estado de «Contar inventario»' })).toHaveValue('en_progreso');
  await expect(stat(page, 'Total')).toHaveText('Total1');
});
