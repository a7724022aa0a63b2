import type { Db } from '../../db/client.js';
import { reportVersionRows } from './reports.queries.js';

/** The version of a business's totals from its rows (reportVersionQuery). */
export const versionOf = (rows: Record<string, unknown>[]) => String(rows[0]?.version ?? '0');

/**
 * The version of a business's totals (migration 0050): it grows at the commit of every change to
 * what the sales report shows. Read first, before the report's rows, so a report kept under it is
 * never older than it.
 */
export async function reportVersion(db: Db, businessId: string) {
  return versionOf(await reportVersionRows(businessId, db));
}

/**
 * Sales reports this API instance answered, as their JSON (decision 0029): one is sent again only
 * while its business's totals are still at the version it was read at, which every request reads
 * from the database the report reads. At most `maxChars` of JSON; the least recently used go first.
 */
export function reportCache(maxChars = 32 * 1024 * 1024) {
  const entries = new Map<string, { version: string; json: string }>();
  let size = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (e) size -= e.json.length;
    entries.delete(key);
  };
  return {
    get(key: string, version: string): string | null {
      const e = entries.get(key);
      if (!e || e.version !== version) return null;
      // Most recently used last.
      entries.delete(key);
      entries.set(key, e);
      return e.json;
    },
    set(key: string, version: string, json: string) {
      drop(key);
      if (json.length > maxChars) return;
      entries.set(key, { version, json });
      size += json.length;
      for (const k of entries.keys()) {
        if (size <= maxChars) break;
        drop(k);
      }
    },
  };
}
