import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { businesses, businessMembers, invitations, users } from '../../db/schema/index.js';

/*
 * The invitations' statements (decision 0044): every function takes the business first, but
 * invitationByToken: an invitation is found by its secret token, before its business is known.
 */

export type InvitationRow = typeof invitations.$inferSelect;
type MembershipColumns = Partial<Omit<typeof businessMembers.$inferInsert, 'id' | 'businessId'>>;

/** Whether an accepted member of the business has that e-mail. */
export async function isMemberByEmail(businessId: string, email: string, db: Executor) {
  const [member] = await db
    .select({ id: businessMembers.id })
    .from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.userId))
    .where(
      and(
        eq(businessMembers.businessId, businessId),
        eq(businessMembers.estado, 'aceptado'),
        sql`lower(${users.email}) = ${email}`,
      ),
    );
  return !!member;
}

/** A pending invitation to the same e-mail is replaced by a new one. */
export async function revokePendingTo(businessId: string, email: string, ex: Executor) {
  await ex
    .update(invitations)
    .set({ estado: 'revocada' })
    .where(
      and(eq(invitations.businessId, businessId), eq(invitations.email, email), eq(invitations.estado, 'pendiente')),
    );
}

export async function insertInvitation(
  businessId: string,
  cols: Omit<typeof invitations.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [r] = await ex
    .insert(invitations)
    .values({ businessId, ...cols })
    .returning();
  return r;
}

export async function businessName(businessId: string, ex: Executor) {
  const [b] = await ex.select({ nombre: businesses.nombre }).from(businesses).where(eq(businesses.id, businessId));
  return b;
}

/** Newest first. */
export function listInvitationRows(businessId: string, ex: Executor) {
  return ex
    .select()
    .from(invitations)
    .where(eq(invitations.businessId, businessId))
    .orderBy(desc(invitations.creadaEn));
}

/** The invitation locked for a change, or undefined. */
export async function lockInvitation(businessId: string, id: string, ex: Executor) {
  const [found] = await ex
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.businessId, businessId)))
    .for('update');
  return found;
}

export async function revokeInvitationRow(businessId: string, id: string, ex: Executor) {
  const [r] = await ex
    .update(invitations)
    .set({ estado: 'revocada' })
    .where(and(eq(invitations.id, id), eq(invitations.businessId, businessId)))
    .returning();
  return r;
}

/**
 * The invitation of a token, with its business's and inviter's names, whatever its business:
 * the caller runs it on its reviewed cross-business path (decision 0031).
 */
export async function invitationByToken(token: string, db: Executor) {
  return db
    .select({
      i: invitations,
      negocio: businesses.nombre,
      invitador: users.nombre,
      invitadorApellido: users.apellido,
    })
    .from(invitations)
    .innerJoin(businesses, eq(businesses.id, invitations.businessId))
    .leftJoin(users, eq(users.id, invitations.invitadoPor))
    .where(eq(invitations.token, token));
}

/** The user's membership of the business, locked, or undefined. */
export async function lockMembershipOf(businessId: string, userId: string, ex: Executor) {
  const [existing] = await ex
    .select()
    .from(businessMembers)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.userId, userId)))
    .for('update');
  return existing;
}

/** Marks a pending invitation accepted; empty when it was no longer pending. */
export function takeInvitation(businessId: string, id: string, now: Date, ex: Executor) {
  return ex
    .update(invitations)
    .set({ estado: 'aceptada', aceptadaEn: now })
    .where(and(eq(invitations.businessId, businessId), eq(invitations.id, id), eq(invitations.estado, 'pendiente')))
    .returning({ id: invitations.id });
}

export async function reopenMembership(businessId: string, id: string, cols: MembershipColumns, ex: Executor) {
  await ex
    .update(businessMembers)
    .set(cols)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.id, id)));
}

export async function insertMembership(
  businessId: string,
  cols: Omit<typeof businessMembers.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  await ex.insert(businessMembers).values({ ...cols, businessId });
}
