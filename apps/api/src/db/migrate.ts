import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { StartupError } from '../lib/startup-error.js';
import type { Db, Tx } from './client.js';
import { grantAppRole } from './roles.js';

/** Works from src (tsx) and from dist: both sit two levels below the package root. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/db/migrations', import.meta.url));

/** Advisory lock key of the migrations (any constant of our own: "mostrador" in ASCII, truncated). */
const MIGRATIONS_LOCK = 0x6d6f737472n;

/**
 * migrations/checksums.json (decision 0034): `shipped`, every migration file's sha256 as it went
 * out on main (the hash drizzle keeps for an applied migration); `accepted`, versions of a file
 * that were on main before it was edited, with what brings a database that applied it to the
 * current version: a `repair` file run here, or a later migration (`repairedBy`) safe for both.
 */
export interface Checksums {
  shipped: Record<string, string>;
  accepted: { file: string; sha256: string; onMain: string; repair?: string; repairedBy?: string }[];
}

export function readChecksums(): Checksums {
  return JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'checksums.json'), 'utf8')) as Checksums;
}

/** The migrations of this version in the journal's order, with their file's name. */
export function readMigrations() {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map((m, i) => ({
    ...m,
    file: `${journal.entries[i].tag}.sql`,
  }));
}

/**
 * Applies the pending migrations, keeping drizzle's bookkeeping (drizzle.__drizzle_migrations).
 * Everything happens in one transaction that first takes a transaction-scoped advisory lock: a
 * second process starting at the same time waits there, then finds the migrations applied and
 * goes on (no session state, so it also works through a transaction-mode pooler). Run as the
 * owner; `appRole` then gets its privileges again in the same transaction (roles.ts), so the
 * tables a migration adds are covered before any request runs.
 *
 * A migration counts as applied when its hash is in the bookkeeping (not, as drizzle does, when
 * a later one is): a migration merged after a higher-numbered one still runs (decision 0034).
 * An applied hash this version does not know stops the start: that file was edited after it
 * shipped, or the database belongs to a newer version.
 */
export async function runMigrations(db: Db, opts: { appRole?: string } = {}): Promise<void> {
  const migrations = readMigrations();
  const checksums = readChecksums();
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATIONS_LOCK})`);
    await tx.execute(sql`CREATE SCHEMA IF NOT EXISTS drizzle`);
    await tx.execute(
      sql`CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
    );
    const { rows } = await tx.execute<{ hash: string; created_at: string }>(
      sql`SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id`,
    );
    const applied = new Set(rows.map((r) => r.hash));
    const current = new Map(migrations.map((m) => [m.hash, m]));
    const accepted = new Map(checksums.accepted.map((a) => [a.sha256, a]));
    for (const r of rows) {
      if (current.has(r.hash) || accepted.has(r.hash)) continue;
      const same = migrations.find((m) => m.folderMillis === Number(r.created_at));
      throw new StartupError(
        same
          ? `La migración ${same.file.replace(/\.sql$/, '')} aplicada en esta base no coincide con la de esta versión de Mostrador (su archivo cambió después de publicarse). No se cambió nada: volvé a la versión con la que se creó la base y avisá a quien mantiene Mostrador.`
          : `Esta base tiene una migración (del ${new Date(Number(r.created_at)).toISOString().slice(0, 10)}) que esta versión de Mostrador no conoce: la actualizó una versión más nueva. No se cambió nada: usá esa versión o una posterior.`,
      );
    }
    const done = new Set([...applied].map((h) => current.get(h)?.file ?? accepted.get(h)?.file));
    // A database that applied an edited version: its repair, then it holds the current version.
    for (const a of checksums.accepted) {
      if (!applied.has(a.sha256) || !a.repair) continue;
      const m = migrations.find((x) => x.file === a.file)!;
      if (applied.has(m.hash)) continue;
      await run(
        tx,
        a.repair,
        readFileSync(path.join(MIGRATIONS_DIR, a.repair), 'utf8').split('--> statement-breakpoint'),
      );
      await record(tx, m);
    }
    for (const m of migrations) {
      if (done.has(m.file)) continue;
      await run(tx, m.file, m.sql);
      await record(tx, m);
    }
    if (opts.appRole) await grantAppRole(tx, opts.appRole);
  });
}

async function record(tx: Tx, m: { hash: string; folderMillis: number }) {
  await tx.execute(
    sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${m.hash}, ${m.folderMillis})`,
  );
}

/** A migration's statements; a failure names it. */
async function run(tx: Tx, file: string, statements: string[]) {
  try {
    for (const statement of statements) await tx.execute(sql.raw(statement));
  } catch (e) {
    const cause = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    throw new StartupError(`La migración ${file} falló (${cause}). No se cambió nada en la base.`, { cause: e });
  }
}
