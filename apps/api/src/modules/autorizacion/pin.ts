import { hash, verify, type Options as HashCost } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/*
 * A user's PIN (decision 0049): one per person, set in their profile, hashed with argon2 at the
 * passwords' cost (the tests' is small). It authorizes only where the person holds the right.
 */

export const hashPin = (pin: string, cost?: HashCost) => hash(pin, cost);

// Checked against when the member has no PIN, so that answer takes as long as a wrong PIN.
const dummy = new Map<string, Promise<string>>();
function dummyHash(cost?: HashCost) {
  const key = JSON.stringify(cost ?? {});
  if (!dummy.has(key)) dummy.set(key, hashPin('000000', cost));
  return dummy.get(key)!;
}

/** Whether `pin` is the PIN of `hashed` (false when there is none, after as long). */
export async function pinMatches(hashed: string | null, pin: string, cost?: HashCost): Promise<boolean> {
  const ok = await verify(hashed ?? (await dummyHash(cost)), pin).catch(() => false);
  return ok && hashed !== null;
}

export async function hasPin(db: Db, userId: string): Promise<boolean> {
  const [u] = await db.select({ pin: users.pinHash }).from(users).where(eq(users.id, userId));
  return Boolean(u?.pin);
}

export async function storePin(db: Db, userId: string, pinHash: string | null): Promise<void> {
  await db
    .update(users)
    .set({ pinHash, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}
