import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

/*
 * Excel exports hold real cells (issue 33): a date is a date serial with a date format (it reads
 * back as a Date), amounts and quantities are numbers, and the month's cash flow has its export.
 */
const ctx = await createTestApp({ now: () => new Date('2026-11-20T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Planillas');
const biz = await createBusiness(app, owner, 'Almacén Planillas');
const base = `/api/v1/businesses/${biz}`;
const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });

const utcDay = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 16) : `not a date: ${String(d)}`);

describe('Excel exports: dates are dates, numbers are numbers', () => {
  it('exports the month cash flow with one dated row per day and the totals', async () => {
    for (const [fecha, tipo, monto] of [
      ['2026-11-03', 'ingreso', 1500.5],
      ['2026-11-03', 'egreso', 200],
      ['2026-11-15', 'ingreso', 99.99],
    ] as const) {
      const r = await call('POST', `${base}/finanzas/movimientos`, {
        tipo,
        monto,
        fecha,
        descripcion: 'Caja',
        metodo_pago: 'efectivo',
      });
      expect(r.statusCode, r.body).toBe(201);
    }
    const res = await call('GET', `${base}/finanzas/flujo-caja/exportar?mes=11&anio=2026`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('flujo-de-caja-2026-11.xlsx');
    const rows = await readXlsx(res.rawPayload, 'Flujo de caja');
    expect(rows[0]).toEqual(['Fecha', 'Ingresos', 'Egresos', 'Saldo diario', 'Saldo acumulado']);
    expect(rows).toHaveLength(1 + 30 + 1);
    // 3 November: a date cell (the day itself, no time), amounts as numbers.
    expect(utcDay(rows[3]![0])).toBe('2026-11-03T00:00');
    expect(rows[3]!.slice(1)).toEqual([1500.5, 200, 1300.5, 1300.5]);
    expect(utcDay(rows[30]![0])).toBe('2026-11-30T00:00');
    expect(rows[31]).toEqual(['Totales', 1600.49, 200, 1400.49]);
    // The flow itself says the same.
    const flow = (await call('GET', `${base}/finanzas/flujo-caja?mes=11&anio=2026`)).json();
    expect(flow.saldo_final).toBe(1400.49);

    const bad = await call('GET', `${base}/finanzas/flujo-caja/exportar?mes=13&anio=2026`);
    expect(bad.statusCode).toBe(422);
  });

  it('writes dates as date cells in the movements, sales report and turnos exports', async () => {
    const movs = await readXlsx((await call('GET', `${base}/finanzas/movimientos/exportar`)).rawPayload);
    expect(movs[0]![0]).toBe('Fecha');
    expect(
      movs
        .slice(1)
        .map((r) => utcDay(r[0]))
        .sort(),
    ).toEqual(['2026-11-03T00:00', '2026-11-03T00:00', '2026-11-15T00:00']);
    expect(movs.slice(1).every((r) => typeof r[4] === 'number')).toBe(true);

    const queso = (
      await call('POST', `${base}/products`, { nombre: 'Queso', precio_venta: 1000, stock_actual: 10, unidad: 'kg' })
    ).json();
    const sale = await call('POST', '/api/v1/ventas/record-sale', {
      negocio_id: biz,
      items: [{ id: queso.id, cantidad: 1.5 }],
      metodo_pago: 'efectivo',
    });
    expect(sale.statusCode).toBe(201);
    const report = await call(
      'GET',
      `${base}/ventas/reporte?fecha_desde=2026-11-01&fecha_hasta=2026-11-30&formato=xlsx`,
    );
    expect(report.statusCode).toBe(200);
    const resumen = await readXlsx(report.rawPayload, 'Resumen');
    expect(resumen[1]).toEqual(['Desde', expect.any(Date)]);
    expect(utcDay(resumen[1]![1])).toBe('2026-11-01T00:00');
    const ventas = await readXlsx(report.rawPayload, 'Ventas');
    // 15:00 UTC is 12:00 in Buenos Aires: the cell shows the shop's clock.
    expect(utcDay(ventas[1]![1])).toBe('2026-11-20T12:00');
    // A weighed quantity inside the items text reads the es-AR way.
    expect(ventas[1]![10]).toBe('1,5 × Queso');
    expect(ventas[1]![7]).toBe(1500);
    const porDia = await readXlsx(report.rawPayload, 'Por día');
    expect(utcDay(porDia[1]![0])).toMatch(/^2026-11-\d\dT00:00$/);

    const caja = (await call('GET', `${base}/cajas`)).json()[0];
    expect((await call('POST', `${base}/cajas/${caja.id}/turnos`, { fondo_inicial: 1000 })).statusCode).toBe(201);
    const turnos = await readXlsx((await call('GET', `${base}/turnos/exportar`)).rawPayload);
    expect(turnos[0]![4]).toBe('Apertura');
    expect(utcDay(turnos[1]![4])).toBe('2026-11-20T12:00');
    expect(turnos[1]![7]).toBe(1000);
  });
});
