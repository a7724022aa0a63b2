import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { Executor } from '../../db/client.js';
import { JWT_AUDIENCE, JWT_ISSUER } from '../../lib/access.js';
import { authTokens, sessions } from '../../db/schema/index.js';

export const SESSION_SECONDS = 12 * 60 * 60;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The key that lets whoever signed up ask whether their address is confirmed yet
 * (check-confirmation): an HMAC of the address, so nothing is stored and nobody else can ask.
 */
export const confirmationCheckKey = (jwtKey: Uint8Array, email: string) =>
  createHmac('sha256', jwtKey).update(`check-confirmation:${email.trim().toLowerCase()}`).digest('base64url');

/** Compares a key given by a client in constant time. */
export function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A new server-side session and its bearer JWT (HS256, iss, aud, sub, sid, iat, exp). */
export async function issueSession(ex: Executor, jwtKey: Uint8Array, userId: string, now: Date, ip: string | null) {
  const expiresAt = new Date(now.getTime() + SESSION_SECONDS * 1000);
  const [s] = await ex.insert(sessions).values({ userId, expiresAt, ip }).returning({ id: sessions.id });
  const token = await new SignJWT({ sid: s.id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setSubject(userId)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(jwtKey);
  return { token, sessionId: s.id };
}

/** A single-use link token; only its hash is stored. Earlier unused ones of the same kind stop working. */
export async function createLinkToken(
  ex: Executor,
  userId: string,
  kind: 'confirm' | 'reset',
  ttlMs: number,
  now: Date,
) {
  await ex
    .delete(authTokens)
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), isNull(authTokens.usedAt)));
  const token = randomBytes(32).toString('base64url');
  await ex.insert(authTokens).values({
    userId,
    kind,
    tokenHash: sha256(token),
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return token;
}
