import { isUuid } from '../../lib/access.js';

/** The ids an audit row mentions: its entity and every `…_id` value before and after. */
export function idsOf(row: { entidadId: string | null; antes: unknown; despues: unknown }): string[] {
  const ids = new Set<string>();
  if (row.entidadId) ids.add(row.entidadId);
  for (const side of [row.antes, row.despues]) {
    if (!side || typeof side !== 'object') continue;
    for (const [k, v] of Object.entries(side)) {
      if (k.endsWith('_id') && typeof v === 'string' && isUuid(v)) ids.add(v);
    }
  }
  return [...ids];
}
