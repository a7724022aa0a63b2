import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { FakeArca } from '../facturacion/fake/fake-arca.js';
import { decodificar, textoDe } from './fake/decodificar.js';
import { iniciarImpresoraFalsa } from './fake/impresora-falsa.js';

/*
 * Issue 35: a caja's network printer (PATCH cajas), a sale printed after it was recorded (ticket
 * or invoice with ARCA's QR, the drawer on cash), the other documents, and what a failing printer
 * answers, against a fake ESC/POS printer on loopback whose bytes are read back.
 */

const fake = new FakeArca();
await fake.listen(0);
const ctx = await createTestApp({
  arca: { urls: fake.urls, timeoutMs: 5000, waitMs: 8000, workerMs: 0, concurrency: 2 },
  impresoras: { conectarMs: 1000, respuestaMs: 400 },
});
const { app } = ctx;
afterAll(() => fake.close());
const impresora = await iniciarImpresoraFalsa();
afterAll(() => impresora.cerrar());

const owner = await registerUser(app, 'Imprime');
const biz = await createBusiness(app, owner, 'Almacén Ñandú');
const base = `/api/v1/businesses/${biz}`;
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
const req = (u: TestUser, method: Method, url: string, payload?: object) =>
  app.inject({ method, url: `${base}${url}`, headers: u.auth, ...(payload ? { payload } : {}) });

const yerba = (
  await req(owner, 'POST', '/products', {
    nombre: 'Yerba Mañanita 1 kg «Única»',
    precio_venta: 4000,
    stock_actual: 100,
  })
).json() as { id: string };
const medios = (await req(owner, 'GET', '/medios-pago')).json() as { id: string; nombre: string }[];
const medio = (n: string) => medios.find((m) => m.nombre === n)!.id;
const caja1 = ((await req(owner, 'GET', '/cajas')).json() as { id: string }[])[0].id;
const red = { tipo: 'red', host: '127.0.0.1', puerto: impresora.port, ancho: 80, abrir_cajon: true };
const turno = (await req(owner, 'POST', `/cajas/${caja1}/turnos`, { fondo_inicial: 1000 })).json() as { id: string };

const sell = async (u: TestUser, body: object, negocio = biz) => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/ventas/record-sale',
    headers: u.auth,
    payload: { negocio_id: negocio, items: [{ id: yerba.id, tipo: 'producto', cantidad: 2 }], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; numero: number };
};
const cash = { pagos: [{ medio_pago_id: medio('Efectivo'), monto: 10000 }] };
const imprimir = (ventaId: string, body: object = {}, u = owner) => req(u, 'POST', `/ventas/${ventaId}/imprimir`, body);
/** Prints and waits for the job on the fake printer (the answer comes once the bytes left). */
const impreso = async (ventaId: string, body: object = {}) => {
  const n = impresora.trabajos.length;
  const res = await imprimir(ventaId, body);
  expect(res.statusCode, res.body).toBe(200);
  await impresora.esperar(n + 1);
  return { res: res.json(), job: impresora.ultimo()! };
};

describe('la impresora de la caja', () => {
  it('sets a network printer on a caja (admins), validates it and takes it off with null', async () => {
    const ok = await req(owner, 'PATCH', `/cajas/${caja1}`, {
      impresora: { tipo: 'red', host: 'impresora-caja.local', ancho: 58 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().impresora).toEqual({
      tipo: 'red',
      host: 'impresora-caja.local',
      puerto: 9100,
      ancho: 58,
      abrir_cajon: false,
    });
    expect(ok.json().nombre).toBe('Caja 1');

    for (const [impresoraMala, field] of [
      [{ tipo: 'red', host: 'http://192.168.0.50', puerto: 9100, ancho: 80 }, 'impresora.host'],
      [{ tipo: 'red', host: '192.168.0.300', ancho: 80 }, 'impresora.host'],
      [{ tipo: 'red', host: '192.168.0.50:9100', ancho: 80 }, 'impresora.host'],
      [{ tipo: 'red', host: '', ancho: 80 }, 'impresora.host'],
      [{ tipo: 'red', host: '10.0.0.9', puerto: 0, ancho: 80 }, 'impresora.puerto'],
      [{ tipo: 'red', host: '10.0.0.9', puerto: 70000, ancho: 80 }, 'impresora.puerto'],
      [{ tipo: 'red', host: '10.0.0.9', ancho: 76 }, 'impresora.ancho'],
      [{ tipo: 'usb', ancho: 80 }, 'impresora.tipo'],
    ] as const) {
      const bad = await req(owner, 'PATCH', `/cajas/${caja1}`, { impresora: impresoraMala });
      expect(bad.statusCode, JSON.stringify(impresoraMala)).toBe(422);
      expect(bad.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const badHost = await req(owner, 'PATCH', `/cajas/${caja1}`, {
      impresora: { tipo: 'red', host: 'http://x', ancho: 80 },
    });
    expect(badHost.json().errors[0].message).toMatch(/^Ingresá la IP o el nombre de la impresora/);
    // Nothing of the refused changes was written.
    expect(((await req(owner, 'GET', '/cajas')).json() as { impresora: unknown }[])[0].impresora).toMatchObject({
      host: 'impresora-caja.local',
    });

    const ipv6 = await req(owner, 'PATCH', `/cajas/${caja1}`, {
      impresora: { tipo: 'red', host: 'fe80::1', ancho: 80 },
    });
    expect(ipv6.statusCode).toBe(200);
    const off = await req(owner, 'PATCH', `/cajas/${caja1}`, { impresora: null });
    expect(off.json().impresora).toBeNull();

    const empleado = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, empleado, ['puede_ver_ventas', 'puede_editar_ventas']);
    const forbidden = await req(empleado, 'PATCH', `/cajas/${caja1}`, { impresora: red });
    expect(forbidden.statusCode).toBe(403);

    const other = await createBusiness(app, owner, 'Otro negocio');
    const otherCaja = (
      (await app.inject({ method: 'GET', url: `/api/v1/businesses/${other}/cajas`, headers: owner.auth })).json() as {
        id: string;
      }[]
    )[0].id;
    expect((await req(owner, 'PATCH', `/cajas/${otherCaja}`, { impresora: red })).statusCode).toBe(404);

    const set = await req(owner, 'PATCH', `/cajas/${caja1}`, { impresora: red });
    expect(set.json().impresora).toEqual(red);

    // A new caja takes its printer when it is created.
    const caja2 = await req(owner, 'POST', '/cajas', {
      nombre: 'Caja 2',
      impresora: { tipo: 'navegador', ancho: 58 },
    });
    expect(caja2.statusCode, caja2.body).toBe(201);
    expect(caja2.json().impresora).toEqual({ tipo: 'navegador', ancho: 58, abrir_cajon: false });
  });
});

describe('imprimir una venta', () => {
  it('prints a cash sale after it was recorded, in PC850, and opens the drawer', async () => {
    const sale = await sell(owner, cash);
    const before = impresora.trabajos.length;
    const res = await imprimir(sale.id, { abrir_cajon: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ impreso: true, destino: 'red', documento: 'ticket', cajon: true, escpos: null });
    await impresora.esperar(before + 1);
    const t = impresora.ultimo()!;
    expect(t.inicializa).toBe(true);
    expect(t.codepage).toBe(2);
    expect(t.cajon).toBe(1);
    expect(t.cortes).toBe(1);
    expect(t.qr).toEqual([]);
    const texto = textoDe(t);
    expect(texto).toContain('Almacén Ñandú');
    expect(texto).toContain(`Venta #${sale.numero}`);
    expect(texto).toContain('Yerba Mañanita 1 kg «Única»');
    expect(texto).toMatch(/2 x \$ 4\.000,00 +\$ 8\.000,00/);
    expect(texto).toMatch(/Pagó con +\$ 10\.000,00/);
    expect(texto).toMatch(/Vuelto +\$ 2\.000,00/);
    expect(texto).toContain('¡Gracias por su compra!');
    expect(t.renglones.every((r) => r.length <= 48)).toBe(true);
    expect(t.grandes.some((r) => /^TOTAL +\$ 8\.000,00$/.test(r))).toBe(true);
    expect(t.negritas).toContain('Almacén Ñandú');
    expect(t.centrados).toContain('Comprobante no válido como factura');
  });

  it('opens the drawer only on cash, when asked, and when the caja says so', async () => {
    const debito = await sell(owner, { pagos: [{ medio_pago_id: medio('Tarjeta de Débito'), monto: 8000 }] });
    const d = await impreso(debito.id, { abrir_cajon: true });
    expect([d.res.cajon, d.job.cajon]).toEqual([false, 0]);

    const efectivo = await sell(owner, cash);
    // A reprint asks for no drawer.
    const reprint = await impreso(efectivo.id);
    expect([reprint.res.cajon, reprint.job.cajon]).toEqual([false, 0]);

    await req(owner, 'PATCH', `/cajas/${caja1}`, { impresora: { ...red, abrir_cajon: false } });
    const sinCajon = await impreso(efectivo.id, { abrir_cajon: true });
    expect([sinCajon.res.cajon, sinCajon.job.cajon]).toEqual([false, 0]);
    await req(owner, 'PATCH', `/cajas/${caja1}`, { impresora: red });
  });

  it('a printer that is off, hung or out of paper: the sale stays recorded and the answer says what failed', async () => {
    const sale = await sell(owner, cash);
    const jobs = impresora.trabajos.length;

    await impresora.modo('apagada');
    const off = await imprimir(sale.id, { abrir_cajon: true });
    expect(off.statusCode).toBe(502);
    expect(off.json()).toMatchObject({
      code: 'PRINTER_FAILED',
      detail: `La impresora de Caja 1 (127.0.0.1:${impresora.port}) no acepta la conexión: revisá que esté prendida, y la IP y el puerto en la configuración de la caja.`,
    });

    await impresora.modo('lenta');
    const slow = await imprimir(sale.id, { abrir_cajon: true });
    expect(slow.statusCode).toBe(502);
    expect(slow.json().detail).toMatch(/no terminó de responder a tiempo/);

    await impresora.modo('sin_papel');
    const paper = await imprimir(sale.id, { abrir_cajon: true });
    expect(paper.statusCode).toBe(502);
    expect(paper.json().detail).toBe(
      `La impresora de Caja 1 (127.0.0.1:${impresora.port}) no tiene papel: cambiá el rollo y reintentá.`,
    );

    expect(impresora.trabajos.length).toBe(jobs);
    const stored = await req(owner, 'GET', `/ventas/sales/${sale.id}`);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({ numero: sale.numero, estado: 'completada', total: 8000 });

    // Back on: the retry prints it, drawer included.
    await impresora.modo('ok');
    const retry = await imprimir(sale.id, { abrir_cajon: true });
    expect(retry.statusCode).toBe(200);
    await impresora.esperar(jobs + 1);
    expect(impresora.ultimo()!.cajon).toBe(1);
    expect(textoDe(impresora.ultimo()!)).toContain(`Venta #${sale.numero}`);
  });

  it('a caja whose printer is in the browser gets the bytes to send; without printer or caja: 409', async () => {
    const sale = await sell(owner, cash);
    await req(owner, 'PATCH', `/cajas/${caja1}`, { impresora: { tipo: 'navegador', ancho: 58, abrir_cajon: true } });
    const res = await imprimir(sale.id, { abrir_cajon: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ impreso: false, destino: 'navegador', documento: 'ticket', cajon: true });
    const job = decodificar(Buffer.from(res.json().escpos, 'base64'));
    expect(job.cajon).toBe(1);
    expect(textoDe(job)).toContain(`Venta #${sale.numero}`);
    expect(job.renglones.every((r) => r.length <= 32)).toBe(true);

    await req(owner, 'PATCH', `/cajas/${caja1}`, { impresora: null });
    const none = await imprimir(sale.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().detail).toMatch(/^Esta caja no tiene impresora configurada/);
    await req(owner, 'PATCH', `/cajas/${caja1}`, { impresora: red });
  });

  it("refuses another business's sale and caja (404), bad input (422) and members without ventas (403)", async () => {
    const sale = await sell(owner, cash);
    const other = await createBusiness(app, owner, 'Vecino');
    const otherUrl = `/api/v1/businesses/${other}`;
    const otherCaja = (
      (await app.inject({ method: 'GET', url: `${otherUrl}/cajas`, headers: owner.auth })).json() as { id: string }[]
    )[0].id;
    // The sale of A named under B's id, and B's caja for A's sale.
    const crossed = await app.inject({
      method: 'POST',
      url: `${otherUrl}/ventas/${sale.id}/imprimir`,
      headers: owner.auth,
      payload: {},
    });
    expect(crossed.statusCode).toBe(404);
    expect((await imprimir(sale.id, { caja_id: otherCaja })).statusCode).toBe(404);
    expect((await imprimir('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await imprimir('no-es-un-id')).statusCode).toBe(404);
    const bad = await imprimir(sale.id, { caja_id: 'x', abrir_cajon: 'si' });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['abrir_cajon', 'caja_id']);

    const sinPermiso = await registerUser(app, 'SinVentas');
    await addMember(ctx, biz, owner, sinPermiso, ['puede_ver_clientes']);
    expect((await imprimir(sale.id, {}, sinPermiso)).statusCode).toBe(403);
    const doc = await req(sinPermiso, 'POST', '/documentos/imprimir', { tipo: 'ticket', id: sale.id, caja_id: caja1 });
    expect(doc.statusCode).toBe(403);

    // A sale without turno (none open in that business) has no caja: name one.
    const arroz = (
      await app.inject({
        method: 'POST',
        url: `${otherUrl}/products`,
        headers: owner.auth,
        payload: { nombre: 'Arroz', precio_venta: 900, stock_actual: 10 },
      })
    ).json() as { id: string };
    const suelta = await sell(
      owner,
      { metodo_pago: 'efectivo', items: [{ id: arroz.id, tipo: 'producto', cantidad: 1 }] },
      other,
    );
    const noCaja = await app.inject({
      method: 'POST',
      url: `${otherUrl}/ventas/${suelta.id}/imprimir`,
      headers: owner.auth,
      payload: {},
    });
    expect(noCaja.statusCode).toBe(409);
    expect(noCaja.json().detail).toBe('La venta no tiene caja: elegí en qué caja imprimir.');
  });
});

describe('otros documentos', () => {
  it('prints a cobro receipt, a return, an estado de cuenta and a closed turno', async () => {
    const cliente = (
      await req(owner, 'POST', '/clientes', { nombre: 'Begoña', apellido: 'Ibáñez', limite_credito: 100000 })
    ).json() as { id: string };
    const fiado = await sell(owner, {
      cliente_id: cliente.id,
      pagos: [{ medio_pago_id: medio('Cuenta corriente'), monto: 8000 }],
    });
    const cobro = (
      await req(owner, 'POST', `/clientes/${cliente.id}/cobros`, { monto: 3000, medio_pago_id: medio('Efectivo') })
    ).json() as { id: string; numero: number };
    const print = async (tipo: string, id: string) => {
      const n = impresora.trabajos.length;
      const res = await req(owner, 'POST', '/documentos/imprimir', { tipo, id, caja_id: caja1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ impreso: true, documento: tipo, cajon: false });
      await impresora.esperar(n + 1);
      return textoDe(impresora.ultimo()!);
    };

    const recibo = await print('cobro', cobro.id);
    expect(recibo).toContain(`Recibo #${cobro.numero}`);
    expect(recibo).toContain('Recibimos de Begoña Ibáñez');
    expect(recibo).toMatch(/Saldo anterior +\$ 8\.000,00/);
    expect(recibo).toMatch(/Saldo actual +\$ 5\.000,00/);

    const ventaItems = (await req(owner, 'GET', `/ventas/sales/${fiado.id}`)).json().items as { id: string }[];
    const dev = await req(owner, 'POST', `/ventas/${fiado.id}/devoluciones`, {
      items: [{ item_id: ventaItems[0].id, cantidad: 1 }],
      medio_pago_id: medio('Cuenta corriente'),
      motivo: 'Vencida',
    });
    expect(dev.statusCode, dev.body).toBe(201);
    const devolucion = await print('devolucion', dev.json().id);
    expect(devolucion).toContain(`Devolución #${dev.json().numero}`);
    expect(devolucion).toContain(`De la venta #${fiado.numero}`);
    expect(devolucion).toContain('Motivo: Vencida');

    const cuenta = await print('estado_cuenta', cliente.id);
    expect(cuenta).toContain('ESTADO DE CUENTA');
    expect(cuenta).toContain(`Venta en cuenta corriente #${fiado.numero}`);
    expect(cuenta).toMatch(/SALDO +\$ 1\.000,00/);

    const open = await req(owner, 'POST', '/documentos/imprimir', { tipo: 'cierre', id: turno.id, caja_id: caja1 });
    expect(open.statusCode).toBe(409);
    const t = (await req(owner, 'GET', `/turnos/${turno.id}`)).json() as {
      a_contar: { medio_pago_id: string }[];
      esperado: { medio_pago_id: string; monto: number }[];
    };
    const contado = t.a_contar.map((m) => ({
      medio_pago_id: m.medio_pago_id,
      monto: t.esperado.find((e) => e.medio_pago_id === m.medio_pago_id)?.monto ?? 0,
    }));
    const closed = await req(owner, 'POST', `/turnos/${turno.id}/cerrar`, { contado });
    expect(closed.statusCode, closed.body).toBe(200);
    const cierre = await print('cierre', turno.id);
    expect(cierre).toContain('CIERRE DE TURNO #1');
    expect(cierre).toMatch(/Fondo inicial +\$ 1\.000,00/);
    expect(cierre).toMatch(/Diferencia +\$ 0,00/);

    // The documents of another business: 404 (its customer, its cobro).
    const other = await createBusiness(app, owner, 'Ajeno');
    const otherCaja = (
      (await app.inject({ method: 'GET', url: `/api/v1/businesses/${other}/cajas`, headers: owner.auth })).json() as {
        id: string;
      }[]
    )[0].id;
    for (const [tipo, id] of [
      ['cobro', cobro.id],
      ['estado_cuenta', cliente.id],
      ['cierre', turno.id],
      ['ticket', fiado.id],
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/businesses/${other}/documentos/imprimir`,
        headers: owner.auth,
        payload: { tipo, id, caja_id: otherCaja },
      });
      expect(res.statusCode, tipo).toBe(404);
    }
    const bad = await req(owner, 'POST', '/documentos/imprimir', { tipo: 'pedido', id: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['caja_id', 'id', 'tipo']);

    // Clientes without ventas: the estado de cuenta only.
    const cobrador = await registerUser(app, 'Cobrador');
    await addMember(ctx, biz, owner, cobrador, ['puede_ver_clientes']);
    const ok = await req(cobrador, 'POST', '/documentos/imprimir', {
      tipo: 'estado_cuenta',
      id: cliente.id,
      caja_id: caja1,
    });
    expect(ok.statusCode).toBe(200);
    const no = await req(cobrador, 'POST', '/documentos/imprimir', { tipo: 'cobro', id: cobro.id, caja_id: caja1 });
    expect(no.statusCode).toBe(403);
  });
});

describe('la factura', () => {
  it("prints an authorised invoice with ARCA's QR as an ESC/POS QR", async () => {
    const RI = '30-71234567-1';
    const PV = 3;
    fake.cuits.set(RI, { condicion: 'responsable_inscripto', puntos_venta: [{ nro: PV }] });
    const id = await createBusiness(app, owner, 'Facturadora');
    const r = (method: Method, url: string, payload?: object) =>
      app.inject({
        method,
        url: `/api/v1/businesses/${id}${url}`,
        headers: owner.auth,
        ...(payload ? { payload } : {}),
      });
    const csr = await r('POST', '/facturacion/csr', { cuit: RI, razon_social: 'Facturadora Ñ SRL' });
    const put = await r('PUT', '/facturacion/config', {
      cuit: RI,
      razon_social: 'Facturadora Ñ SRL',
      condicion_iva: 'responsable_inscripto',
      punto_venta: PV,
      certificado_pem: fake.certificateFor(csr.json().csr_pem),
      facturar: 'elegir',
    });
    expect(put.statusCode, put.body).toBe(200);
    const p = (await r('POST', '/products', { nombre: 'Café molido', precio_venta: 1210, stock_actual: 10 })).json();
    const caja = ((await r('GET', '/cajas')).json() as { id: string }[])[0].id;
    await r('PATCH', `/cajas/${caja}`, { impresora: red });
    await r('POST', `/cajas/${caja}/turnos`, { fondo_inicial: 0 });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: owner.auth,
      payload: {
        negocio_id: id,
        metodo_pago: 'efectivo',
        facturar: true,
        items: [{ id: p.id, tipo: 'producto', cantidad: 1 }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const venta = res.json() as { id: string };
    // ARCA authorises it in the background, right after the sale.
    let sale = (await r('GET', `/ventas/sales/${venta.id}`)).json();
    for (let i = 0; i < 100 && sale.comprobante?.estado !== 'autorizado'; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      sale = (await r('GET', `/ventas/sales/${venta.id}`)).json();
    }
    expect(sale.comprobante).toMatchObject({ estado: 'autorizado' });
    const comprobante = (await r('GET', `/facturacion/comprobantes/${sale.comprobante.id}`)).json();

    const n = impresora.trabajos.length;
    const printed = await r('POST', `/ventas/${venta.id}/imprimir`, { abrir_cajon: true });
    expect(printed.statusCode, printed.body).toBe(200);
    expect(printed.json()).toMatchObject({ documento: 'factura', cajon: true });
    await impresora.esperar(n + 1);
    const t = impresora.ultimo()!;
    expect(t.qr).toEqual([comprobante.qr_url]);
    expect(t.qr[0]).toMatch(/^https:\/\/www\.afip\.gob\.ar\/fe\/qr\/\?p=/);
    const texto = textoDe(t);
    expect(texto).toContain('FACTURA B');
    expect(texto).toContain(`N.º 0003-${String(comprobante.numero).padStart(8, '0')}`);
    expect(texto).toContain(`CAE N.º: ${comprobante.cae}`);
    expect(texto).toContain('Café molido');
    expect(texto).toContain('Régimen de Transparencia Fiscal al Consumidor\n(Ley 27.743)');
    expect(texto).toMatch(/IVA contenido +\$ 210,00/);
  });
});
