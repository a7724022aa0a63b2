import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DOCUMENT_TYPE_ARCA_CODES } from '@mostrador/shared';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/app.js';
import { createBusiness, registerUser } from '../test/fixtures.js';

/** The bodies a client written to API-CONTRACT.md sends, as it sends them (issue "Lo que un cliente del contrato…"). */
const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Contrato');
const biz = await createBusiness(app, owner, 'Cliente del contrato');
const base = `/api/v1/businesses/${biz}`;
const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: owner.auth, payload });
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { ...owner.auth, ...headers } });

describe('what the contract client sends', () => {
  it('creates a supplier with estado null or missing as activo; a PUT with null keeps it', async () => {
    const withNull = await post(`${base}/proveedores`, { nombre: 'Distribuidora Sur', estado: null, cuit_cuil: null });
    expect(withNull.statusCode, withNull.body).toBe(201);
    expect(withNull.json().estado).toBe('activo');
    const missing = await post(`${base}/proveedores`, { nombre: 'Mayorista Norte' });
    expect(missing.json().estado).toBe('activo');
    const id = missing.json().id;
    await app.inject({
      method: 'PUT',
      url: `${base}/proveedores/${id}`,
      headers: owner.auth,
      payload: { estado: 'inactivo' },
    });
    const put = await app.inject({
      method: 'PUT',
      url: `${base}/proveedores/${id}`,
      headers: owner.auth,
      payload: { estado: null, telefono: '0341 555-0000' },
    });
    expect(put.json()).toMatchObject({ estado: 'inactivo', telefono: '0341 555-0000' });
    expect((await post(`${base}/proveedores`, { nombre: 'X', estado: 'cerrado' })).statusCode).toBe(422);
  });

  it('keeps the billing day, returns it, and charges on it (last day of a short month)', async () => {
    const cliente = (await post(`${base}/clientes`, { nombre: 'Ana', apellido: 'Pérez' })).json();
    const today = new Date().toISOString().slice(0, 10);
    const mensual = await post(`${base}/subscriptions`, {
      cliente_id: cliente.id,
      nombre: 'Abono gimnasio',
      precio: 15000,
      tipo: 'mensual',
      fecha_inicio: '2025-01-10',
      dia_cobro: 31,
    });
    expect(mensual.statusCode, mensual.body).toBe(201);
    const m = mensual.json();
    expect(m).toMatchObject({ dia_cobro: 31, dia_cobro_semanal: null });
    // The next charge is the 31st, or the month's last day, and never before today.
    const next = m.proximo_cobro as string;
    expect(next >= today).toBe(true);
    const [y, mo] = next.split('-').map(Number);
    expect(Number(next.slice(8))).toBe(new Date(Date.UTC(y, mo, 0)).getUTCDate());
    expect((await get(`${base}/subscriptions/${m.id}`)).json()).toMatchObject({ dia_cobro: 31, proximo_cobro: next });

    const semanal = (
      await post(`${base}/subscriptions`, {
        cliente_id: cliente.id,
        nombre: 'Clases',
        precio: 3000,
        tipo: 'semanal',
        fecha_inicio: '2025-01-01',
        dia_cobro_semanal: 'lunes',
      })
    ).json();
    expect(semanal.dia_cobro_semanal).toBe(1);
    expect(new Date(`${semanal.proximo_cobro}T00:00:00Z`).getUTCDay()).toBe(1);

    const put = await app.inject({
      method: 'PUT',
      url: `${base}/subscriptions/${m.id}`,
      headers: owner.auth,
      payload: { dia_cobro: null },
    });
    expect(put.json().dia_cobro).toBeNull();
    for (const bad of [{ dia_cobro: 0 }, { dia_cobro: 32 }, { dia_cobro: 'cinco' }, { dia_cobro_semanal: 8 }]) {
      const res = await app.inject({
        method: 'PUT',
        url: `${base}/subscriptions/${m.id}`,
        headers: owner.auth,
        payload: bad,
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
    }
  });

  it('accepts the document types ARCA knows, in any case and accent, and maps them to ARCA codes', async () => {
    const cases: [string, string, string][] = [
      ['Pasaporte', 'AAB123456', 'Pasaporte'],
      ['PASAPORTE', 'AAB123457', 'Pasaporte'],
      ['cdi', '20-12345678-6', 'CDI'],
      ['Libreta Cívica', '4123456', 'LC'],
      ['L.E.', '4123457', 'LE'],
      ['dni', '30.123.456', 'DNI'],
    ];
    for (const [tipo, numero, stored] of cases) {
      const res = await post(`${base}/clientes`, {
        nombre: `Cliente ${tipo}`,
        documento_tipo: tipo,
        documento_numero: numero,
      });
      expect(res.statusCode, `${tipo}: ${res.body}`).toBe(201);
      expect(res.json().documento_tipo).toBe(stored);
    }
    expect(
      (await post(`${base}/clientes`, { nombre: 'X', documento_tipo: 'Cédula', documento_numero: '1' })).statusCode,
    ).toBe(422);
    expect(DOCUMENT_TYPE_ARCA_CODES).toMatchObject({
      CUIT: 80,
      CUIL: 86,
      CDI: 87,
      LE: 89,
      LC: 90,
      Pasaporte: 94,
      DNI: 96,
      otro: 99,
    });
  });

  it('returns metodo_pago_label beside every metodo_pago, and takes either back', async () => {
    const mov = await post(`${base}/finanzas/movimientos`, {
      tipo: 'egreso',
      monto: 1500,
      fecha: '2025-08-01',
      metodo_pago: 'Tarjeta de Débito',
      descripcion: 'Luz',
    });
    expect(mov.statusCode, mov.body).toBe(201);
    expect(mov.json()).toMatchObject({ metodo_pago: 'tarjeta_debito', metodo_pago_label: 'Tarjeta de Débito' });
    const list = (await get(`${base}/finanzas/movimientos`)).json();
    const rows = Array.isArray(list) ? list : (list.movimientos ?? list.items);
    expect(rows.find((r: { id: string }) => r.id === mov.json().id)).toMatchObject({
      metodo_pago_label: 'Tarjeta de Débito',
    });
    // The edit form sends the label it read back: saved unchanged.
    const again = await app.inject({
      method: 'PUT',
      url: `${base}/finanzas/movimientos/${mov.json().id}`,
      headers: owner.auth,
      payload: { ...(mov.json() as object), metodo_pago: mov.json().metodo_pago_label },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ metodo_pago: 'tarjeta_debito', metodo_pago_label: 'Tarjeta de Débito' });

    const producto = (await post(`${base}/products`, { nombre: 'Yerba', precio_venta: 4000, stock_actual: 5 })).json();
    const sale = await post('/api/v1/ventas/record-sale', {
      negocio_id: biz,
      metodo_pago: 'transferencia',
      items: [{ id: producto.id, tipo: 'producto', cantidad: 1 }],
    });
    const detail = (await get(`${base}/ventas/sales/${sale.json().id}`)).json();
    expect(detail).toMatchObject({ metodo_pago: 'transferencia', metodo_pago_label: 'Transferencia' });
    const report = (await get(`${base}/ventas/reporte`)).json();
    expect(report.por_metodo_pago[0]).toMatchObject({
      metodo_pago: 'transferencia',
      metodo_pago_label: 'Transferencia',
    });
  });

  it('compresses JSON answers over 1 KB as the client accepts, and leaves small ones alone', async () => {
    for (let i = 0; i < 30; i++)
      await post(`${base}/clientes`, { nombre: `Cliente número ${i}`, apellido: 'Compresión' });
    const plain = await get(`${base}/clientes?limit=100`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const brotli = await get(`${base}/clientes?limit=100`, { 'accept-encoding': 'br, gzip' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['x-total-count']).toBe(plain.headers['x-total-count']);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(plain.json());
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    const gzip = await get(`${base}/clientes?limit=100`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzip.rawPayload).length).toBe(plain.rawPayload.length);
    expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    // Over 256 KB the answer goes through a compression stream instead of one call: the same bytes.
    for (let i = 0; i < 300; i++) {
      await post(`${base}/clientes`, {
        nombre: `Cliente con un nombre bastante largo número ${i}`,
        apellido: 'Compresión por partes',
        direccion: `Avenida Siempre Viva ${1000 + i}, Rosario, Santa Fe`,
        notas: `Cliente de prueba ${i}: ${'paga a fin de mes, '.repeat(40)}`,
      });
    }
    const big = await get(`${base}/clientes?limit=1000`);
    expect(big.rawPayload.length).toBeGreaterThan(256 * 1024);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await get(`${base}/clientes?limit=1000`, { 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(res.rawPayload).equals(big.rawPayload)).toBe(true);
    }
    const small = await get('/api/v1/health', { 'accept-encoding': 'br, gzip' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    // Exports stay as they are (an .xlsx is already a zip).
    const xlsx = await get(`${base}/clientes/exportar`, { 'accept-encoding': 'br, gzip' });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
  });
});
