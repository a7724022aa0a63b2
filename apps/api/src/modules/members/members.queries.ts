import { and, asc, count, desc, eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { businesses, businessMembers, users } from '../../db/schema/index.js';
import { isUuid } from '../../lib/access.js';

/*
 * The memberships' statements (decision 0044): every function takes the business first.
 */

export type MemberColumns = Partial<Omit<typeof businessMembers.$inferInsert, 'id' | 'businessId'>>;

const memberColumns = {
  m: businessMembers,
  email: users.email,
  nombre: users.nombre,
  apellido: users.apellido,
  creadaPor: businesses.creadaPor,
};

export type MemberRow = {
  m: typeof businessMembers.$inferSelect;
  email: string;
  nombre: string;
  apellido: string | null;
  creadaPor: string;
};

function memberQuery(businessId: string, db: Executor) {
  return db
    .select(memberColumns)
    .from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.userId))
    .innerJoin(businesses, eq(businesses.id, businessMembers.businessId))
    .where(eq(businessMembers.businessId, businessId))
    .$dynamic();
}

/** `{uid}` is the member's user id; the membership id is also accepted. */
export async function findMemberRow(businessId: string, uid: string, estado: 'aceptado' | 'pendiente', db: Executor) {
  if (!isUuid(uid)) return undefined;
  const [r] = await memberQuery(businessId, db).where(
    and(
      eq(businessMembers.businessId, businessId),
      eq(businessMembers.estado, estado),
      or(eq(businessMembers.userId, uid), eq(businessMembers.id, uid)),
    ),
  );
  return r;
}

/** The accepted members, the creator first, then by when they joined. */
export function listAcceptedRows(businessId: string, db: Executor) {
  return memberQuery(businessId, db)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.estado, 'aceptado')))
    .orderBy(desc(sql`${businesses.creadaPor} = ${businessMembers.userId}`), asc(businessMembers.creadaEn));
}

/** The requests to join, oldest first. */
export function listPendingRows(businessId: string, db: Executor) {
  return memberQuery(businessId, db)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.estado, 'pendiente')))
    .orderBy(asc(businessMembers.creadaEn));
}

export async function updateMemberRow(businessId: string, id: string, cols: MemberColumns, ex: Executor) {
  await ex
    .update(businessMembers)
    .set(cols)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.id, id)));
}

export async function deleteMemberRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(businessMembers).where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.id, id)));
}

/** The business's plan, its row locked so two approvals cannot both pass the user limit. */
export async function lockBusinessPlan(businessId: string, ex: Executor) {
  const [b] = await ex
    .select({ plan: businesses.plan })
    .from(businesses)
    .where(eq(businesses.id, businessId))
    .for('update');
  return b;
}

export async function countAccepted(businessId: string, ex: Executor) {
  const [{ n }] = await ex
    .select({ n: count() })
    .from(businessMembers)
    .where(and(eq(businessMembers.businessId, businessId), eq(businessMembers.estado, 'aceptado')));
  return n;
}
