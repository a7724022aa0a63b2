import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';
import { readTables, tenantUses } from '../test/tenant-statements.js';
const src = fileURLToPath(new URL('../', import.meta.url));
it('lists', () => {
  const tables = readTables(src);
  for (const m of (process.env.MODS ?? '').split(',')) {
    for (const f of readdirSync(`${src}modules/${m}`).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.queries.ts'))) {
      const file = `modules/${m}/${f}`;
      const found = tenantUses(file, readFileSync(src + file, 'utf8'), tables);
      const fns = new Map<string, number>();
      for (const u of found) fns.set(u.fn, (fns.get(u.fn) ?? 0) + 1);
      console.log(file, found.length, JSON.stringify([...fns]));
    }
  }
});
