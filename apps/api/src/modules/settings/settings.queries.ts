import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { tenantSettings } from '../../db/schema/index.js';

/*
 * The business's settings row (decision 0044): every statement takes the business first.
 */

export type SettingsRow = typeof tenantSettings.$inferSelect;
export type SettingsColumns = Partial<Omit<typeof tenantSettings.$inferInsert, 'id' | 'businessId'>>;

/** Creates the row with the defaults when it is missing; the new row's id, if one was made. */
export function insertDefaultSettings(businessId: string, ex: Executor) {
  return ex.insert(tenantSettings).values({ businessId }).onConflictDoNothing().returning({ id: tenantSettings.id });
}

export async function findSettings(businessId: string, ex: Executor): Promise<SettingsRow | undefined> {
  const [r] = await ex.select().from(tenantSettings).where(eq(tenantSettings.businessId, businessId));
  return r;
}

/** The row locked for an update, by its id when one is given. */
export async function lockSettings(businessId: string, id: string | undefined, ex: Executor) {
  const where = id
    ? and(eq(tenantSettings.businessId, businessId), eq(tenantSettings.id, id))
    : eq(tenantSettings.businessId, businessId);
  const [r] = await ex.select().from(tenantSettings).where(where).for('update');
  return r as SettingsRow | undefined;
}

export async function updateSettings(businessId: string, id: string, cols: SettingsColumns, ex: Executor) {
  const [r] = await ex
    .update(tenantSettings)
    .set(cols)
    .where(and(eq(tenantSettings.businessId, businessId), eq(tenantSettings.id, id)))
    .returning();
  return r;
}
