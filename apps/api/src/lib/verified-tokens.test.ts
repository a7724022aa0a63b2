import { describe, expect, it } from 'vitest';
import { SESSION_SECONDS } from '../modules/auth/tokens.js';
import { createTestApp } from '../test/app.js';
import { registerUser } from '../test/fixtures.js';

// The server remembers the tokens whose signature it already checked (issue 20); what a token says
// about time, and the session behind it, must still be checked on every request.
let clock = new Date('2026-03-02T12:00:00Z');
const ctx = await createTestApp({ now: () => clock });
const { app } = ctx;

const me = (authorization: string) => app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization } });

describe('a token already verified', () => {
  it('stops working when it expires, even if its session is still valid in the database', async () => {
    clock = new Date('2026-03-02T12:00:00Z');
    const u = await registerUser(app, 'Vence');
    expect((await me(u.auth.authorization)).statusCode).toBe(200);
    expect((await me(u.auth.authorization)).statusCode).toBe(200);
    // Only the token's exp can refuse it now.
    await ctx.sql(`UPDATE sessions SET expires_at = now() + interval '10 years' WHERE user_id = $1`, [u.id]);
    clock = new Date(clock.getTime() + (SESSION_SECONDS - 1) * 1000);
    expect((await me(u.auth.authorization)).statusCode).toBe(200);
    clock = new Date(clock.getTime() + 1000);
    const late = await me(u.auth.authorization);
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({
      detail: 'Tu sesión no es válida o expiró. Iniciá sesión nuevamente.',
      code: 'UNAUTHENTICATED',
    });
  });

  it('is refused at once when its session is revoked, and a copy with another signature never passes', async () => {
    clock = new Date('2026-03-02T12:00:00Z');
    const u = await registerUser(app, 'Revocada');
    expect((await me(u.auth.authorization)).statusCode).toBe(200);
    const [head, payload, signature] = u.token.split('.');
    const forged = `${head}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await me(`Bearer ${forged}`)).statusCode).toBe(401);
    await ctx.sql(`UPDATE sessions SET revoked_at = now() WHERE user_id = $1`, [u.id]);
    expect((await me(u.auth.authorization)).statusCode).toBe(401);
    expect((await me(`Bearer ${forged}`)).statusCode).toBe(401);
  });
});
