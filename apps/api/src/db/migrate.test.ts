import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDatabase } from '../test/databases.js';
import { connect } from './client.js';
import { MIGRATIONS_DIR, runMigrations } from './migrate.js';

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: { when: number }[];
};

describe('runMigrations', () => {
  it('two processes migrating an empty database at once: both go on, each migration runs once', async () => {
    const url = await emptyDatabase();
    const a = connect(url, 1);
    const b = connect(url, 1);
    try {
      const results = await Promise.allSettled([runMigrations(a.db), runMigrations(b.db)]);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);
      const { rows } = await a.pool.query<{ created_at: string }>(
        'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY id',
      );
      expect(rows.map((r) => Number(r.created_at))).toEqual(journal.entries.map((e) => e.when));
      // A later start finds nothing left to do.
      await runMigrations(b.db);
      const again = await a.pool.query('SELECT 1 FROM drizzle.__drizzle_migrations');
      expect(again.rowCount).toBe(journal.entries.length);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
