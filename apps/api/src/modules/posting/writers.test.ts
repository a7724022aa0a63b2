import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The posting module is the only writer of the ledgers (decision 0038): no other source file
 * under apps/api/src inserts into finance_movements, stock_movements or audit_log, by SQL text
 * (`INSERT INTO finance_movements`, `INSERT INTO ${stockMovements}`) or by drizzle
 * (`.insert(auditLog)`).
 */

const src = fileURLToPath(new URL('../../', import.meta.url));
const POSTING = 'modules/posting/';

const LEDGERS = ['finance_movements', 'stock_movements', 'audit_log', 'financeMovements', 'stockMovements', 'auditLog'];
const names = LEDGERS.join('|');
const WRITE = new RegExp(`INSERT\\s+INTO\\s+(?:\\$\\{\\s*)?(${names})\\b|\\.insert\\(\\s*(${names})\\s*\\)`, 'gi');

/** Writers outside the module, each with its reason; an entry that no longer matches fails. */
const ALLOWED: { file: string; table: string; reason: string }[] = [
  {
    file: 'db/seed/finance.ts',
    table: 'financeMovements',
    reason: 'The demo seed loads months of past movements as history at once: no business action, no audit rows.',
  },
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

/** Each insert into a ledger: file (relative to src, with /), line and table. */
function ledgerWrites(file: string, text: string) {
  return [...text.matchAll(WRITE)].map((m) => ({
    file,
    line: text.slice(0, m.index).split('\n').length,
    table: m[1] ?? m[2],
  }));
}

describe('the ledgers have one writer', () => {
  const writes = sources(src).flatMap((f) =>
    ledgerWrites(path.relative(src, f).split(path.sep).join('/'), readFileSync(f, 'utf8')),
  );

  it('no file outside the posting module inserts into finance_movements, stock_movements or audit_log', () => {
    const outside = writes.filter(
      (w) => !w.file.startsWith(POSTING) && !ALLOWED.some((a) => a.file === w.file && a.table === w.table),
    );
    expect(outside.map((w) => `${w.file}:${w.line} ${w.table}`)).toEqual([]);
    const stale = ALLOWED.filter((a) => !writes.some((w) => w.file === a.file && w.table === a.table));
    expect(stale).toEqual([]);
  });

  it('the posting module writes each of the three', () => {
    const tables = new Set(writes.filter((w) => w.file.startsWith(POSTING)).map((w) => w.table.toLowerCase()));
    expect([...tables].sort()).toEqual(['audit_log', 'auditlog', 'finance_movements', 'stock_movements']);
  });

  it('the search finds every way of writing', () => {
    const found = (text: string) => ledgerWrites('x.ts', text).map((w) => w.table);
    expect(found('sql`INSERT INTO finance_movements (business_id) VALUES (1)`')).toEqual(['finance_movements']);
    expect(found('sql`insert  into\n  ${stockMovements} (business_id)`')).toEqual(['stockMovements']);
    expect(found('await tx.insert(auditLog).values({})')).toEqual(['auditLog']);
    expect(found('await tx\n  .insert( financeMovements )\n  .values({})')).toEqual(['financeMovements']);
    expect(found('sql`SELECT * FROM finance_movements`; tx.update(stockMovements); INSERT INTO audit_logs')).toEqual(
      [],
    );
  });
});
