import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

/*
 * Arqueo a ciegas and who closes a turno (issue 33): a cashier counts without seeing what is
 * expected while the turno is open, sees the result once she closes, and closes only what the
 * owner lets her; the closing on paper lists fondo, ventas, cobros, ingresos, retiros and
 * devoluciones so that esperado adds up.
 */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'DuenioArqueo');
const biz = await createBusiness(app, owner, 'Ferreteria Arqueo');
const base = `/api/v1/businesses/${biz}`;
const req = (u: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

const clavos = (
  await req(owner, 'POST', `${base}/products`, { nombre: 'Clavos 2"', precio_venta: 2500, stock_actual: 1000 })
).json();
const medios = (await req(owner, 'GET', `${base}/medios-pago`)).json() as { id: string; tipo: string }[];
const medio = (tipo: string) => medios.find((m) => m.tipo === tipo)!.id;
const efectivo = medio('efectivo');
const debito = medio('debito');
const cc = medio('cuenta_corriente');
const caja1 = (await req(owner, 'GET', `${base}/cajas`)).json()[0];
const caja2 = (await req(owner, 'POST', `${base}/cajas`, { nombre: 'Caja 2' })).json();
const caja3 = (await req(owner, 'POST', `${base}/cajas`, { nombre: 'Caja 3' })).json();

const cajera = await registerUser(app, 'CajeraArqueo');
await addMember(ctx, biz, owner, cajera, ['puede_ver_ventas', 'puede_editar_ventas', 'puede_ver_clientes']);
const encargado = await registerUser(app, 'EncargadoArqueo');
await addMember(ctx, biz, owner, encargado, [], { acceso_total: true });
const cliente = (
  await req(owner, 'POST', `${base}/clientes`, { nombre: 'Marta', apellido: 'Fiado', limite_credito: 50000 })
).json();

const sell = (u: TestUser, turnoId: string, cantidad: number, pagos: object[], clienteId?: string) =>
  req(u, 'POST', '/api/v1/ventas/record-sale', {
    negocio_id: biz,
    turno_id: turnoId,
    ...(clienteId ? { cliente_id: clienteId } : {}),
    items: [{ id: clavos.id, cantidad }],
    pagos,
  });
const abrir = async (u: TestUser, cajaId: string, fondo: number) => {
  const r = await req(u, 'POST', `${base}/cajas/${cajaId}/turnos`, { fondo_inicial: fondo });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: string; numero: number };
};
const setCiego = async (on: boolean) =>
  expect((await req(owner, 'POST', `${base}/tenant-settings`, { arqueo_ciego: on })).statusCode).toBe(200);
const setCerrar = async (u: TestUser, on: boolean) =>
  expect((await req(owner, 'PUT', `${base}/usuarios/${u.id}/permisos`, { cerrar_turno: on })).statusCode).toBe(200);

describe('arqueo a ciegas', () => {
  it('is on by default, shown in the settings, and only an administrator changes it', async () => {
    expect((await req(owner, 'GET', `${base}/tenant-settings`)).json().arqueo_ciego).toBe(true);
    const refused = await req(cajera, 'POST', `${base}/tenant-settings`, { arqueo_ciego: false });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('Solo un administrador del negocio puede realizar esta acción.');
    const bad = await req(owner, 'POST', `${base}/tenant-settings`, { arqueo_ciego: 'no' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({ field: 'arqueo_ciego', message: 'Debe ser verdadero o falso.' });
  });

  it('hides esperado, sales and differences from the cashier while open; she counts, closes and then sees it all', async () => {
    const turno = await abrir(cajera, caja1.id, 10000);
    // 2 × 2500 cash, 1 × 2500 débito, 4 × 2500 on account; a cash cobro of 12 500; a retiro and an ingreso.
    expect((await sell(cajera, turno.id, 2, [{ medio_pago_id: efectivo, monto: 5000 }])).statusCode).toBe(201);
    expect((await sell(cajera, turno.id, 1, [{ medio_pago_id: debito, monto: 2500 }])).statusCode).toBe(201);
    const fiado = await sell(cajera, turno.id, 4, [{ medio_pago_id: cc, monto: 10000 }], cliente.id);
    expect(fiado.statusCode, fiado.body).toBe(201);
    const cobro = await req(cajera, 'POST', `${base}/clientes/${cliente.id}/cobros`, {
      monto: 7500,
      medio_pago_id: efectivo,
      turno_id: turno.id,
    });
    expect(cobro.statusCode, cobro.body).toBe(201);
    const retiro = await req(cajera, 'POST', `${base}/turnos/${turno.id}/movimientos`, {
      tipo: 'retiro',
      monto: 3000,
      motivo: 'Flete',
    });
    expect(retiro.statusCode).toBe(201);
    expect(retiro.json().turno).toMatchObject({ esperado: null, arqueo_ciego: true });
    await req(cajera, 'POST', `${base}/turnos/${turno.id}/movimientos`, {
      tipo: 'ingreso',
      monto: 500,
      motivo: 'Cambio',
    });

    const blind = (await req(cajera, 'GET', `${base}/turnos/${turno.id}`)).json();
    expect(blind).toMatchObject({
      estado: 'abierto',
      arqueo_ciego: true,
      esperado: null,
      cuadre: null,
      diferencias: [],
      por_medio: [],
      ventas_total: null,
      diferencia: null,
      ventas_cantidad: 3,
    });
    // What she has to count: the drawer and every medio money comes in with, never cuenta corriente.
    const aContar = blind.a_contar.map((m: { medio_pago_id: string }) => m.medio_pago_id);
    expect(aContar).toContain(efectivo);
    expect(aContar).toContain(debito);
    expect(aContar).not.toContain(cc);

    // The same turno everywhere else she can see it.
    const cajas = (await req(cajera, 'GET', `${base}/cajas`)).json();
    expect(cajas.find((c: { id: string }) => c.id === caja1.id).turno_abierto).toMatchObject({
      id: turno.id,
      ventas_total: null,
    });
    const list = (await req(cajera, 'GET', `${base}/turnos?estado=abierto`)).json();
    expect(list.find((t: { id: string }) => t.id === turno.id).ventas_total).toBeNull();
    const pos = (await req(cajera, 'GET', `${base}/pos/catalogo`)).json();
    expect(pos.turno).toMatchObject({ id: turno.id, esperado: null, arqueo_ciego: true });
    const exported = await req(cajera, 'GET', `${base}/turnos/${turno.id}/exportar`);
    expect(exported.statusCode).toBe(403);
    expect(exported.json().detail).toBe('El arqueo es a ciegas: vas a ver lo esperado cuando cierres el turno.');

    // The owner sees it all while open: 10 000 + 5000 + 7500 + 500 − 3000 = 20 000 in the drawer.
    const full = (await req(owner, 'GET', `${base}/turnos/${turno.id}`)).json();
    expect(full).toMatchObject({ arqueo_ciego: false, ventas_total: 17500 });
    expect(full.esperado).toEqual(
      expect.arrayContaining([
        { medio_pago_id: efectivo, monto: 20000 },
        { medio_pago_id: debito, monto: 2500 },
      ]),
    );
    expect(full.cuadre.find((c: { medio_pago_id: string }) => c.medio_pago_id === efectivo)).toEqual(
      expect.objectContaining({
        fondo: 10000,
        ventas: 5000,
        cobros: 7500,
        ingresos: 500,
        retiros: 3000,
        devoluciones: 0,
        esperado: 20000,
        contado: null,
        diferencia: null,
      }),
    );
    expect((await req(encargado, 'GET', `${base}/turnos/${turno.id}`)).json().esperado).not.toBeNull();

    // She counts blind: every medio, 0 where she has nothing.
    const closed = await req(cajera, 'POST', `${base}/turnos/${turno.id}/cerrar`, {
      contado: blind.a_contar.map((m: { medio_pago_id: string }) => ({
        medio_pago_id: m.medio_pago_id,
        monto: m.medio_pago_id === efectivo ? 19900 : m.medio_pago_id === debito ? 2500 : 0,
      })),
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ estado: 'cerrado', arqueo_ciego: false, diferencia: -100 });
    expect(closed.json().diferencias).toContainEqual({
      medio_pago_id: efectivo,
      esperado: 20000,
      contado: 19900,
      diferencia: -100,
    });
    const after = (await req(cajera, 'GET', `${base}/turnos/${turno.id}`)).json();
    expect(after).toMatchObject({ arqueo_ciego: false, ventas_total: 17500, diferencia: -100 });
    expect(after.cuadre.find((c: { medio_pago_id: string }) => c.medio_pago_id === efectivo)).toMatchObject({
      esperado: 20000,
      contado: 19900,
      diferencia: -100,
    });

    // On paper the cash line adds up across, the totals down, and the sales on account are apart.
    const res = await req(cajera, 'GET', `${base}/turnos/${turno.id}/exportar`);
    expect(res.statusCode).toBe(200);
    const sheet = await readXlsx(res.rawPayload);
    expect(sheet[0]).toEqual([
      'Medio de pago',
      'Fondo inicial',
      'Ventas',
      'Cobros',
      'Ingresos',
      'Retiros',
      'Devoluciones',
      'Esperado',
      'Contado',
      'Diferencia',
    ]);
    expect(sheet).toContainEqual(['Efectivo', 10000, 5000, 7500, 500, -3000, 0, 20000, 19900, -100]);
    expect(sheet).toContainEqual(['Tarjeta de Débito', 0, 2500, 0, 0, 0, 0, 2500, 2500, 0]);
    expect(sheet).toContainEqual(['Total en caja', 10000, 7500, 7500, 500, -3000, 0, 22500, 22400, -100]);
    expect(sheet.at(-1)).toEqual(['Cuenta corriente (no entra en caja)', undefined, 10000]);
  });

  it('shows everything to the cashier when the owner turns it off', async () => {
    await setCiego(false);
    try {
      const turno = await abrir(cajera, caja2.id, 1000);
      const seen = (await req(cajera, 'GET', `${base}/turnos/${turno.id}`)).json();
      expect(seen.arqueo_ciego).toBe(false);
      expect(seen.esperado).toContainEqual({ medio_pago_id: efectivo, monto: 1000 });
      expect((await req(cajera, 'GET', `${base}/turnos/${turno.id}/exportar`)).statusCode).toBe(200);
      const audit = (await req(owner, 'GET', `${base}/auditoria?entidad=configuracion`)).json();
      expect(audit[0].despues).toEqual({ arqueo_ciego: false });
      await req(cajera, 'POST', `${base}/turnos/${turno.id}/cerrar`, {
        contado: [{ medio_pago_id: efectivo, monto: 1000 }],
      });
    } finally {
      await setCiego(true);
    }
  });
});

describe('quién cierra un turno (cerrar_turno)', () => {
  it('is on for members, shown in the team and in their permissions', async () => {
    const team = (await req(owner, 'GET', `${base}/usuarios`)).json() as {
      usuario_id: string;
      cerrar_turno: boolean;
    }[];
    expect(team.find((m) => m.usuario_id === cajera.id)?.cerrar_turno).toBe(true);
    expect((await req(cajera, 'GET', `${base}/permissions`)).json().cerrar_turno).toBe(true);
    const bad = await req(owner, 'PUT', `${base}/usuarios/${cajera.id}/permisos`, { cerrar_turno: 1 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({ field: 'cerrar_turno', message: 'Debe ser verdadero o falso.' });
  });

  it('without it she may not close, the owner sees her attempt, and the turno stays open', async () => {
    const turno = await abrir(cajera, caja2.id, 2000);
    await setCerrar(cajera, false);
    try {
      expect((await req(cajera, 'GET', `${base}/permissions`)).json().cerrar_turno).toBe(false);
      const refused = await req(cajera, 'POST', `${base}/turnos/${turno.id}/cerrar`, {
        contado: [{ medio_pago_id: efectivo, monto: 2000 }],
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'FORBIDDEN',
        detail: 'No tenés permiso para cerrar turnos: pedíselo a alguien con acceso total.',
      });
      expect((await req(owner, 'GET', `${base}/turnos/${turno.id}`)).json().estado).toBe('abierto');
      const arqueos = await ctx.sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM turno_arqueos WHERE business_id = $1 AND turno_id = $2',
        [biz, turno.id],
      );
      expect(arqueos[0].n).toBe(0);
      const intentos = (await req(owner, 'GET', `${base}/auditoria?accion=intento_rechazado`)).json();
      expect(intentos[0]).toMatchObject({
        entidad: 'turno',
        entidad_id: turno.id,
        usuario: { id: cajera.id },
        despues: { motivo: 'Cierre de turno sin permiso', numero: turno.numero },
      });
      // The owner closes it, and the blind count no longer applies to a closed turno.
      const closed = await req(owner, 'POST', `${base}/turnos/${turno.id}/cerrar`, {
        contado: [{ medio_pago_id: efectivo, monto: 2000 }],
      });
      expect(closed.statusCode, closed.body).toBe(200);
      expect(closed.json().cerrado_por).toMatchObject({ id: owner.id });
    } finally {
      await setCerrar(cajera, true);
    }
  });

  it('with it she closes only the turnos she opened; full access closes any', async () => {
    const ownerTurno = await abrir(owner, caja3.id, 0);
    const refused = await req(cajera, 'POST', `${base}/turnos/${ownerTurno.id}/cerrar`, { contado: [] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('Solo quien abrió el turno o alguien con acceso total puede cerrarlo.');
    const byFull = await req(encargado, 'POST', `${base}/turnos/${ownerTurno.id}/cerrar`, { contado: [] });
    expect(byFull.statusCode, byFull.body).toBe(200);

    const hers = await abrir(cajera, caja3.id, 0);
    const own = await req(cajera, 'POST', `${base}/turnos/${hers.id}/cerrar`, { contado: [] });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().cerrado_por).toMatchObject({ id: cajera.id });
    // A closed turno is 409 before any permission question.
    expect((await req(cajera, 'POST', `${base}/turnos/${ownerTurno.id}/cerrar`, { contado: [] })).statusCode).toBe(409);
  });
});
