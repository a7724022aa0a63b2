import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Db } from './client.js';
import { grantAppRole } from './roles.js';

/** Works from src (tsx) and from dist: both sit two levels below the package root. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/db/migrations', import.meta.url));

/** Advisory lock key of the migrations (any constant of our own: "mostrador" in ASCII, truncated). */
const MIGRATIONS_LOCK = 0x6d6f737472n;

/**
 * Applies the pending migrations, keeping drizzle's bookkeeping (drizzle.__drizzle_migrations).
 * Everything happens in one transaction that first takes a transaction-scoped advisory lock: a
 * second process starting at the same time waits there, then finds the migrations applied and
 * goes on (no session state, so it also works through a transaction-mode pooler). Run as the
 * owner; `appRole` then gets its privileges again in the same transaction (roles.ts), so the
 * tables a migration adds are covered before any request runs.
 */
export async function runMigrations(db: Db, opts: { appRole?: string } = {}): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATIONS_LOCK})`);
    await tx.execute(sql`CREATE SCHEMA IF NOT EXISTS drizzle`);
    await tx.execute(
      sql`CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
    );
    const { rows } = await tx.execute<{ last: string | null }>(
      sql`SELECT max(created_at) AS last FROM drizzle.__drizzle_migrations`,
    );
    const last = rows[0]?.last == null ? null : Number(rows[0].last);
    for (const m of migrations) {
      if (last !== null && m.folderMillis <= last) continue;
      for (const statement of m.sql) await tx.execute(sql.raw(statement));
      await tx.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${m.hash}, ${m.folderMillis})`,
      );
    }
    if (opts.appRole) await grantAppRole(tx, opts.appRole);
  });
}
