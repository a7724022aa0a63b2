import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';

/**
 * Report totals are exact to the cent however large: up to what a JSON number carries exactly
 * (9999999999999.99) they are answered, beyond it they are refused, never rounded.
 */
const clock = new Date('2026-03-20T15:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;
const owner = await registerUser(app, 'Grande');
const biz = await createBusiness(app, owner, 'Importes grandes');

const get = (url: string) => app.inject({ method: 'GET', url: `/api/v1${url}`, headers: owner.auth });

async function service(nombre: string, precio: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${biz}/services`,
    headers: owner.auth,
    payload: { nombre, precio },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function sell(id: string, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: owner.auth,
      payload: { metodo_pago: 'efectivo', items: [{ id, tipo: 'servicio', cantidad: 1 }] },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
}

const MSG =
  'Los importes de este período son demasiado grandes para informarlos con exactitud. Elegí un período más corto.';

describe('report totals near and beyond what a JSON number carries', () => {
  it('answers totals up to 9999999999999.99 to the cent, and refuses larger ones instead of rounding', async () => {
    const grande = await service('Obra grande', '999999999999.99');
    const chico = await service('Ajuste', '0.09');
    await sell(grande, 10);
    await sell(chico, 1);

    const report = await get(`/businesses/${biz}/ventas/reporte`);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('"total_ingresos":9999999999999.99');
    const summary = await get(`/businesses/${biz}/finanzas/resumen`);
    expect(summary.statusCode).toBe(200);
    expect(summary.body).toContain('"total_ingresos":9999999999999.99');

    // 101 sales of 999999999999.99 and one of 0.09: past 2^53 cents.
    await sell(grande, 91);
    const [sql] = await ctx.sql<{ total: string }>(
      `SELECT sum(total)::text AS total FROM sales WHERE business_id = $1 AND estado = 'completada'`,
      [biz],
    );
    expect(sql.total).toBe('100999999999999.08');
    for (const url of [
      `/businesses/${biz}/ventas/reporte`,
      `/businesses/${biz}/finanzas/resumen`,
      `/businesses/${biz}/finanzas/flujo-caja`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', detail: MSG });
    }
    // A single day still fits: the report of a shorter period answers.
    const day = await get(`/businesses/${biz}/ventas/reporte?fecha_desde=2026-03-19&fecha_hasta=2026-03-19`);
    expect(day.statusCode).toBe(200);
    expect(day.json().total_ingresos).toBe(0);
  });
});
