import { hash, verify, type Options as HashCost } from '@node-rs/argon2';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { User } from '@mostrador/shared';
import type { AppServices } from '../../app.js';
import type { Db } from '../../db/client.js';
import { authTokens, sessions, users } from '../../db/schema/index.js';
import { AppError, invalid, isUniqueViolation } from '../../lib/errors.js';
import { refuseCommonPassword } from './passwords.js';
import { createLinkToken, issueSession, SESSION_SECONDS, sha256 } from './tokens.js';

const CONFIRM_TTL = 48 * 3600 * 1000;
const RESET_TTL = 3600 * 1000;
/** Argon2id at the library's cost (19 MiB, 2 passes) unless the app was given another (the tests' is small). */
export const hashPassword = (p: string, cost?: HashCost) => hash(p, cost);

// Verified against when the e-mail is unknown, so both answers take the same time: one per cost.
const dummyHashes = new Map([['{}', hashPassword('contraseña-que-nadie-usa-1234')]]);
function dummyHash(cost?: HashCost) {
  const key = JSON.stringify(cost ?? {});
  if (!dummyHashes.has(key)) dummyHashes.set(key, hashPassword('contraseña-que-nadie-usa-1234', cost));
  return dummyHashes.get(key)!;
}

type UserRow = typeof users.$inferSelect;

export function toUser(u: UserRow): User {
  return {
    id: u.id,
    nombre: u.nombre,
    apellido: u.apellido,
    email: u.email,
    telefono: u.telefono,
    email_confirmed_at: u.emailConfirmedAt?.toISOString() ?? null,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
    last_sign_in_at: u.lastSignInAt?.toISOString() ?? null,
  };
}

export async function findUserByEmail(db: Db, email: string) {
  const [u] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return u;
}

export async function getUser(db: Db, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u;
}

export async function signup(
  db: Db,
  svc: AppServices,
  input: { email: string; password: string; nombre: string; apellido?: string | null },
) {
  refuseCommonPassword('password', input.password);
  const now = svc.now();
  const passwordHash = await hashPassword(input.password, svc.passwordCost);
  const autoConfirm = !svc.mailer.enabled;
  let token: string | null = null;
  try {
    await db.transaction(async (tx) => {
      const [u] = await tx
        .insert(users)
        .values({
          email: input.email,
          passwordHash,
          nombre: input.nombre,
          apellido: input.apellido ?? null,
          emailConfirmedAt: autoConfirm ? now : null,
        })
        .returning();
      if (!autoConfirm) token = await createLinkToken(tx, u.id, 'confirm', CONFIRM_TTL, now);
    });
  } catch (e) {
    if (isUniqueViolation(e)) {
      throw new AppError(
        409,
        'DUPLICATE',
        'Este e-mail ya está registrado. Si no confirmaste tu cuenta, revisá tu correo.',
      );
    }
    throw e;
  }
  if (token) await sendConfirmation(svc, input.email, input.nombre, token);
  return autoConfirm;
}

async function sendConfirmation(svc: AppServices, email: string, nombre: string, token: string) {
  await svc.mailer.send({
    to: email,
    subject: 'Confirmá tu cuenta de Mostrador',
    text:
      `Hola ${nombre}:\n\nPara activar tu cuenta de Mostrador abrí este enlace (vale 48 horas):\n` +
      `${svc.publicUrl}/confirm?token=${token}\n\nSi no creaste una cuenta, ignora este mensaje.`,
  });
}

export async function login(db: Db, svc: AppServices, email: string, password: string, ip: string | null) {
  const u = await findUserByEmail(db, email);
  const ok = await verify(u?.passwordHash ?? (await dummyHash(svc.passwordCost)), password).catch(() => false);
  if (!u || !ok) return null;
  if (!u.emailConfirmedAt) {
    throw new AppError(403, 'EMAIL_NOT_CONFIRMED', {
      error_type: 'email_not_confirmed',
      message: 'Debés confirmar tu e-mail antes de iniciar sesión. Revisá tu correo.',
      email: u.email,
    });
  }
  const now = svc.now();
  const { token } = await issueSession(db, svc.jwtKey, u.id, now, ip);
  await db.update(users).set({ lastSignInAt: now }).where(eq(users.id, u.id));
  return {
    access_token: token,
    token_type: 'bearer' as const,
    expires_in: SESSION_SECONDS,
    user: { id: u.id, nombre: u.nombre, apellido: u.apellido, email: u.email },
  };
}

export async function activate(db: Db, svc: AppServices, token: string) {
  const [t] = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, sha256(token)), eq(authTokens.kind, 'confirm')));
  const invalidLink = () =>
    invalid('token', 'El enlace de confirmación no es válido o expiró. Solicita uno nuevo.', 'TOKEN_INVALID');
  if (!t) throw invalidLink();
  const u = await getUser(db, t.userId);
  if (!u) throw invalidLink();
  if (t.usedAt) {
    if (u.emailConfirmedAt) return { email: u.email, status: 'already_confirmed' as const };
    throw invalidLink();
  }
  const now = svc.now();
  if (t.expiresAt <= now) throw invalidLink();
  await db.transaction(async (tx) => {
    const used = await tx
      .update(authTokens)
      .set({ usedAt: now })
      .where(and(eq(authTokens.id, t.id), isNull(authTokens.usedAt)))
      .returning({ id: authTokens.id });
    if (used.length === 0) return;
    await tx
      .update(users)
      .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})`, updatedAt: now })
      .where(eq(users.id, u.id));
  });
  return { email: u.email, status: 'confirmed' as const };
}

export async function resendConfirmation(db: Db, svc: AppServices, email: string) {
  const u = await findUserByEmail(db, email);
  if (!u || u.emailConfirmedAt) return;
  const token = await createLinkToken(db, u.id, 'confirm', CONFIRM_TTL, svc.now());
  await sendConfirmation(svc, u.email, u.nombre, token);
}

export async function forgotPassword(db: Db, svc: AppServices, email: string) {
  const u = await findUserByEmail(db, email);
  if (!u) return;
  const token = await createLinkToken(db, u.id, 'reset', RESET_TTL, svc.now());
  await svc.mailer.send({
    to: u.email,
    subject: 'Restablecer tu contraseña de Mostrador',
    text:
      `Hola ${u.nombre}:\n\nPara elegir una contraseña nueva abrí este enlace (vale 1 hora):\n` +
      `${svc.publicUrl}/reset-password?token=${token}\n\nSi no lo pediste, ignora este mensaje.`,
  });
}

export async function resetPassword(db: Db, svc: AppServices, token: string, newPassword: string) {
  refuseCommonPassword('new_password', newPassword);
  const now = svc.now();
  const passwordHash = await hashPassword(newPassword, svc.passwordCost);
  const done = await db.transaction(async (tx) => {
    const [t] = await tx
      .update(authTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(authTokens.tokenHash, sha256(token)),
          eq(authTokens.kind, 'reset'),
          isNull(authTokens.usedAt),
          sql`${authTokens.expiresAt} > ${now}`,
        ),
      )
      .returning();
    if (!t) return false;
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: now, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})` })
      .where(eq(users.id, t.userId));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, t.userId), isNull(sessions.revokedAt)));
    return true;
  });
  if (!done) {
    throw invalid('token', 'El enlace para restablecer la contraseña no es válido o expiró.', 'TOKEN_INVALID');
  }
}

/** Returns false when the current password is wrong. Revokes every other session of the user. */
export async function changePassword(
  db: Db,
  svc: AppServices,
  userId: string,
  sessionId: string,
  current: string,
  next: string,
) {
  const u = await getUser(db, userId);
  if (!u || !(await verify(u.passwordHash, current).catch(() => false))) return false;
  if (current === next) {
    throw invalid('new_password', 'La nueva contraseña debe ser distinta de la actual.');
  }
  refuseCommonPassword('new_password', next);
  const now = svc.now();
  const passwordHash = await hashPassword(next, svc.passwordCost);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, userId), ne(sessions.id, sessionId), isNull(sessions.revokedAt)));
  });
  return true;
}

export async function logout(db: Db, svc: AppServices, sessionId: string) {
  await db.update(sessions).set({ revokedAt: svc.now() }).where(eq(sessions.id, sessionId));
}

export async function updateProfile(
  db: Db,
  svc: AppServices,
  userId: string,
  patch: { nombre?: string; apellido?: string | null; telefono?: string | null },
) {
  const [u] = await db
    .update(users)
    .set({ ...patch, updatedAt: svc.now() })
    .where(eq(users.id, userId))
    .returning();
  return u;
}
