import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { PASSWORD, uniqueEmail } from '../../test/fixtures.js';
import { startSmtpPeer } from '../../test/smtp.js';

const smtp = await startSmtpPeer();
let clock = new Date('2026-05-04T12:00:00Z');
const ctx = await createTestApp({ smtpUrl: smtp.url, publicUrl: 'https://mostrador.test', now: () => clock });
const { app } = ctx;

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const login = (email: string, password = PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: email, password } });

async function signup(email: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { email, password: PASSWORD, nombre: 'Rosa' },
  });
  expect(res.statusCode).toBe(201);
  return res;
}

describe('e-mail confirmation with SMTP', () => {
  it('sends a link, refuses login until it is opened, then confirms once', async () => {
    const email = uniqueEmail('rosa');
    const res = await signup(email);
    expect(res.json()).toEqual({
      message: 'Cuenta creada. Te enviamos un e-mail para confirmarla.',
      email,
      requires_confirmation: true,
      clave_consulta: expect.stringMatching(/^[\w-]{43}$/),
    });
    const check = (clave?: string) =>
      app.inject({
        method: 'GET',
        url: `/api/v1/auth/check-confirmation/${email}${clave ? `?clave=${clave}` : ''}`,
      });
    const clave = res.json().clave_consulta as string;
    const link = smtp.linkTo(email, '/confirm');
    expect(link.startsWith('https://mostrador.test/confirm?token=')).toBe(true);

    const early = await login(email);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({
      detail: {
        error_type: 'email_not_confirmed',
        message: 'Debés confirmar tu e-mail antes de iniciar sesión. Revisá tu correo.',
        email,
      },
      code: 'EMAIL_NOT_CONFIRMED',
    });
    // A wrong password reveals nothing about the confirmation state.
    expect((await login(email, 'otra-clave-123')).statusCode).toBe(401);

    expect((await check(clave)).json()).toEqual({ email, confirmed: false, is_confirmed: false });

    const open = await app.inject({ method: 'GET', url: `/api/v1/auth/activate/${tokenOf(link)}` });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({
      message: 'Tu e-mail fue confirmado. Ya podés iniciar sesión.',
      email,
      status: 'confirmed',
    });
    const again = await app.inject({ method: 'GET', url: `/api/v1/auth/activate/${tokenOf(link)}` });
    expect(again.json().status).toBe('already_confirmed');
    expect((await login(email)).statusCode).toBe(200);
    // The browser that signed up learns the account is confirmed, and so does a client that asks
    // without the key (the contract's client never sends one), or with a wrong one.
    expect((await check(clave)).json()).toEqual({ email, confirmed: true, is_confirmed: true });
    expect((await check()).json()).toEqual({ email, confirmed: true, is_confirmed: true });
    expect((await check(`${clave.slice(0, -1)}${clave.endsWith('A') ? 'B' : 'A'}`)).json().confirmed).toBe(true);
  });

  it('refuses unknown and expired links', async () => {
    const bad = await app.inject({ method: 'GET', url: '/api/v1/auth/activate/no-existe' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      code: 'TOKEN_INVALID',
      detail: 'El enlace de confirmación no es válido o expiró. Solicita uno nuevo.',
    });
    const email = uniqueEmail('tarde');
    await signup(email);
    const link = smtp.linkTo(email, '/confirm');
    clock = new Date(clock.getTime() + 49 * 3600_000);
    try {
      const late = await app.inject({ method: 'GET', url: `/api/v1/auth/activate/${tokenOf(link)}` });
      expect(late.statusCode).toBe(422);
    } finally {
      clock = new Date('2026-05-04T12:00:00Z');
    }
  });

  it('resend answers the same for any e-mail, sends a new link and voids the old one', async () => {
    const email = uniqueEmail('reenvio');
    await signup(email);
    const first = smtp.linkTo(email, '/confirm');
    const sentBefore = smtp.messages.length;
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/resend-confirmation',
      payload: { email: uniqueEmail('nadie') },
    });
    const known = await app.inject({ method: 'POST', url: '/api/v1/auth/resend-confirmation', payload: { email } });
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(known.json().message).toBe(unknown.json().message);
    expect(smtp.messages.length).toBe(sentBefore + 1);
    const second = smtp.linkTo(email, '/confirm');
    expect(second).not.toBe(first);
    expect((await app.inject({ method: 'GET', url: `/api/v1/auth/activate/${tokenOf(first)}` })).statusCode).toBe(422);
    expect((await app.inject({ method: 'GET', url: `/api/v1/auth/activate/${tokenOf(second)}` })).statusCode).toBe(200);

    const tooSoon = await app.inject({ method: 'POST', url: '/api/v1/auth/resend-confirmation', payload: { email } });
    expect(tooSoon.statusCode).toBe(429);
  });
});

describe('forgot and reset password', () => {
  it('resets with the e-mailed link once, revoking every session', async () => {
    const email = uniqueEmail('olvido');
    await signup(email);
    await app.inject({ method: 'GET', url: `/api/v1/auth/activate/${tokenOf(smtp.linkTo(email, '/confirm'))}` });
    const session = (await login(email)).json().access_token;

    const forgot = await app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email } });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json()).toEqual({
      message: 'Si el e-mail está registrado, te enviamos un enlace para restablecer la contraseña.',
    });
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: uniqueEmail('x') },
    });
    expect(unknown.json()).toEqual(forgot.json());

    const token = tokenOf(smtp.linkTo(email, '/reset-password'));
    const weak = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, new_password: '123' },
    });
    expect(weak.statusCode).toBe(422);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, new_password: 'nueva-clave-789' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'Contraseña restablecida. Ya podés iniciar sesión.' });
    const reuse = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, new_password: 'otra-clave-789' },
    });
    expect(reuse.statusCode).toBe(422);
    expect(reuse.json().detail).toBe('El enlace para restablecer la contraseña no es válido o expiró.');

    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: `Bearer ${session}` } }))
        .statusCode,
    ).toBe(401);
    expect((await login(email)).statusCode).toBe(401);
    expect((await login(email, 'nueva-clave-789')).statusCode).toBe(200);
  });
});
