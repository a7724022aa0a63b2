import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/app.js';
import { addMember, createBusiness, PASSWORD, registerUser, uniqueEmail } from '../test/fixtures.js';

/** Every log line the app writes, parsed. */
const lines: Record<string, unknown>[] = [];
const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
const ctx = await createTestApp({ logger: { level: 'info', stream }, rateLimits: { loginFailuresPerEmail: 2 } });
const { app } = ctx;

const linesSince = (n: number) => lines.slice(n);

describe('logs of database errors', () => {
  it('hold the statement and error code, never the parameters (password hashes, e-mails)', async () => {
    // A failure the app does not expect, on the insert of a new user with a chosen address.
    await ctx.sql(`
      CREATE FUNCTION prueba_falla() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.email LIKE '%@falla.test' THEN
          RAISE EXCEPTION 'falla con %', NEW.email USING ERRCODE = 'XX000', DETAIL = NEW.password_hash;
        END IF;
        RETURN NEW;
      END $$`);
    await ctx.sql(
      'CREATE TRIGGER prueba_falla BEFORE INSERT OR UPDATE ON users FOR EACH ROW EXECUTE FUNCTION prueba_falla()',
    );
    const from = lines.length;
    const email = 'secreta.persona@falla.test';
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email, password: 'una-clave-muy-secreta', nombre: 'Secreta' },
    });
    expect(res.statusCode).toBe(500);
    const logged = linesSince(from);
    const error = logged.find((l) => l.msg === 'error inesperado');
    expect(error).toBeDefined();
    const err = error!.err as Record<string, unknown>;
    expect(err.query).toMatch(/insert into "users"/i);
    expect(err.code).toBe('XX000');
    const text = JSON.stringify(logged);
    expect(text).not.toContain('secreta.persona');
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain('una-clave-muy-secreta');
  });
});

describe('logs of refused requests', () => {
  it('log 401, 403 and 429 with request id, user, route and reason', async () => {
    const owner = await registerUser(app, 'Duenio');
    const businessId = await createBusiness(app, owner);
    const stranger = await registerUser(app, 'Ajeno');

    const refusals = (from: number) => linesSince(from).filter((l) => l.msg === 'solicitud rechazada');

    let from = lines.length;
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/auth/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(refusals(from)).toEqual([
      expect.objectContaining({
        reqId: anonymous.headers['x-request-id'],
        userId: null,
        business_id: null,
        method: 'GET',
        route: '/api/v1/auth/me',
        status: 401,
        reason: 'UNAUTHENTICATED',
      }),
    ]);

    from = lines.length;
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${businessId}/clientes`,
      headers: stranger.auth,
    });
    expect(foreign.statusCode).toBe(403);
    expect(refusals(from)).toEqual([
      expect.objectContaining({
        reqId: foreign.headers['x-request-id'],
        userId: stranger.id,
        business_id: businessId,
        route: '/api/v1/businesses/:id/clientes',
        status: 403,
        reason: 'NOT_MEMBER',
        message: 'No tenés acceso a este negocio.',
      }),
    ]);

    from = lines.length;
    const email = uniqueEmail('intentos');
    const wrong = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: email, password: `${PASSWORD}-mal` },
      });
    expect((await wrong()).statusCode).toBe(401);
    expect((await wrong()).statusCode).toBe(401);
    const limited = await wrong();
    expect(limited.statusCode).toBe(429);
    const logged = refusals(from);
    expect(logged.map((l) => [l.status, l.reason])).toEqual([
      [401, 'INVALID_CREDENTIALS'],
      [401, 'INVALID_CREDENTIALS'],
      [429, 'RATE_LIMITED'],
    ]);
    expect(logged[2]).toMatchObject({ reqId: limited.headers['x-request-id'], route: '/api/v1/auth/login' });
    // The address tried and the password are not in the log.
    expect(JSON.stringify(linesSince(from))).not.toContain(email);
    expect(JSON.stringify(linesSince(from))).not.toContain(PASSWORD);
  });

  it("carry the business of a member's refusal, also on the global routes (body, query) and for a stranger", async () => {
    const owner = await registerUser(app, 'Duenia');
    const businessId = await createBusiness(app, owner);
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, businessId, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas']);
    const servicio = (
      await app.inject({
        method: 'POST',
        url: `/api/v1/businesses/${businessId}/services`,
        headers: owner.auth,
        payload: { nombre: 'Flete', precio: 1000 },
      })
    ).json();
    const refusals = (from: number) => linesSince(from).filter((l) => l.msg === 'solicitud rechazada');

    let from = lines.length;
    const sale = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: cajero.auth,
      payload: {
        negocio_id: businessId,
        metodo_pago: 'efectivo',
        descuento: 10,
        items: [{ id: servicio.id, tipo: 'servicio', cantidad: 1 }],
      },
    });
    expect(sale.statusCode).toBe(403);
    expect(refusals(from)).toEqual([
      expect.objectContaining({
        userId: cajero.id,
        business_id: businessId,
        route: '/api/v1/ventas/record-sale',
        status: 403,
        reason: 'DISCOUNT_OVER_MAX',
      }),
    ]);
    // The refused attempt's audit row is written before the answer, which is sent once.
    expect(JSON.stringify(linesSince(from))).not.toMatch(/already sent|FST_ERR_REP_ALREADY_SENT/i);

    from = lines.length;
    const stranger = await registerUser(app, 'Extranio');
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/v1/ventas/sales?negocio_id=${businessId}`,
      headers: stranger.auth,
    });
    expect(foreign.statusCode).toBe(403);
    expect(refusals(from)).toEqual([
      expect.objectContaining({ userId: stranger.id, business_id: businessId, reason: 'NOT_MEMBER' }),
    ]);
  });
});
