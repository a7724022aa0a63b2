import { describe, expect, it } from 'vitest';
import { seedTasks } from '../../db/seed/tasks.js';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { enNegocio } from '../../db/tenant.js';

const clock = new Date('2026-03-15T15:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;

describe('demo seed of tasks', () => {
  it('creates realistic tasks around today that the routes read back', async () => {
    const owner = await registerUser(app, 'Demo');
    const id = await createBusiness(app, owner, 'Almacén Demo');
    await enNegocio(id, () => seedTasks(ctx.app.db.db, id, owner.id, '2026-03-15'));
    const get = (path: string) =>
      app.inject({ method: 'GET', url: `/api/v1/businesses/${id}/tareas${path}`, headers: owner.auth });
    const stats = (await get('/estadisticas')).json();
    expect(stats).toMatchObject({ total: 8, completadas: 1, canceladas: 1, en_progreso: 1, pausadas: 1, vencidas: 1 });
    const list = (await get('?por_pagina=100')).json();
    expect(list.tareas[0].titulo).toBe('Presentar declaración de Ingresos Brutos');
    expect(list.tareas.filter((t: { asignada_a_id: string | null }) => t.asignada_a_id === owner.id)).toHaveLength(4);
    const month = (await get('/calendario?desde=2026-03-01&hasta=2026-03-31')).json();
    expect(month.length).toBe(8);
  });
});
