import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDatabase } from '../test/databases.js';
import { StartupError } from '../lib/startup-error.js';
import { connect } from './client.js';
import { MIGRATIONS_DIR, readChecksums, readMigrations, runMigrations, type Checksums } from './migrate.js';

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string; when: number }[];
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

  it('an applied migration whose file changed since: the start stops naming it, and nothing changes', async () => {
    const url = await emptyDatabase();
    const d = connect(url, 1);
    try {
      await runMigrations(d.db);
      const precios = journal.entries.find((e) => e.tag === '0040_precios')!;
      // As if this version's 0040 had been edited after the database applied it: the bookkeeping
      // holds a hash no version of the file ever had.
      await d.pool.query(`UPDATE drizzle.__drizzle_migrations SET hash = 'otro' WHERE created_at = $1`, [precios.when]);
      await d.pool.query('DROP TABLE totales_version');
      await expect(runMigrations(d.db)).rejects.toThrow(
        'La migración 0040_precios aplicada en esta base no coincide con la de esta versión de Mostrador',
      );
      // Nothing ran: 0050's table, dropped above, was not made again.
      const { rows } = await d.pool.query<{ t: string | null }>(`SELECT to_regclass('totales_version')::text AS t`);
      expect(rows[0].t).toBeNull();
    } finally {
      await d.close();
    }
  });

  it('a migration that fails names itself, and nothing of the start stays', async () => {
    const d = connect(await emptyDatabase(), 1);
    try {
      await runMigrations(d.db);
      const version = journal.entries.find((e) => e.tag === '0050_totales_version')!;
      const last = journal.entries[journal.entries.length - 1];
      // 0050 pending again while its table is there; the last migration pending too.
      await d.pool.query('DELETE FROM drizzle.__drizzle_migrations WHERE created_at = ANY($1)', [
        [version.when, last.when],
      ]);
      await expect(runMigrations(d.db)).rejects.toThrow(
        new StartupError(
          'La migración 0050_totales_version.sql falló (relation "totales_version" already exists). No se cambió nada en la base.',
        ),
      );
      const { rows } = await d.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
      expect(rows[0].n).toBe(journal.entries.length - 2);
    } finally {
      await d.close();
    }
  });

  it('a database a newer version migrated: the start stops and says so', async () => {
    const d = connect(await emptyDatabase(), 1);
    try {
      await runMigrations(d.db);
      await d.pool.query(`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('nueva', 1895000000000)`);
      const error = await runMigrations(d.db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toBe(
        'Esta base tiene una migración (del 2030-01-18) que esta versión de Mostrador no conoce: la actualizó una versión más nueva. No se cambió nada: usá esa versión o una posterior.',
      );
    } finally {
      await d.close();
    }
  });
});

describe('checksums.json: a migration on main never changes', () => {
  const checksums = readChecksums();
  const sha256 = (file: string) => createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex');

  it("lists every migration of the journal with its file's sha256 (the hash drizzle keeps)", () => {
    const migrations = readMigrations();
    expect(Object.keys(checksums.shipped)).toEqual(migrations.map((m) => m.file));
    for (const m of migrations) {
      expect({ [m.file]: sha256(path.join(MIGRATIONS_DIR, m.file)) }).toEqual({ [m.file]: checksums.shipped[m.file] });
      expect(m.hash).toBe(checksums.shipped[m.file]);
    }
  });

  it('each accepted earlier version names its file, and a repair that exists or a later migration', () => {
    expect(checksums.accepted.length).toBeGreaterThan(0);
    for (const a of checksums.accepted) {
      expect(checksums.shipped[a.file]).toMatch(/^[0-9a-f]{64}$/);
      expect(a.sha256).not.toBe(checksums.shipped[a.file]);
      if (a.repair) expect(existsSync(path.join(MIGRATIONS_DIR, a.repair))).toBe(true);
      else expect(Object.keys(checksums.shipped)).toContain(a.repairedBy);
    }
  });

  it('keeps every migration main ever had, as it had it (entries are only added)', () => {
    // The versions main had up to migration 0050 (migrations-history/states.json): each one is
    // this version's file or an accepted earlier version.
    const history = JSON.parse(
      readFileSync(path.join(MIGRATIONS_DIR, '../migrations-history/states.json'), 'utf8'),
    ) as { migrations: string[] }[];
    const known = [...Object.values(checksums.shipped), ...checksums.accepted.map((a) => a.sha256)];
    for (const s of history) {
      for (const m of s.migrations) expect(known.some((h) => h.startsWith(m.split(':')[1]))).toBe(true);
    }
    // And main's own list, where this clone has it: nothing in it left out or changed.
    let onMain: Checksums | null;
    try {
      const text = execFileSync('git', ['show', 'main:apps/api/src/db/migrations/checksums.json'], {
        cwd: MIGRATIONS_DIR,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      onMain = JSON.parse(text) as Checksums;
    } catch {
      onMain = null; // no git, no main, or main before this list
    }
    if (onMain) {
      expect(checksums.shipped).toMatchObject(onMain.shipped);
      expect(checksums.accepted).toEqual(expect.arrayContaining(onMain.accepted));
    }
  });
});
