import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { emptyDatabase } from '../test/databases.js';
import { connect } from './client.js';
import { MIGRATIONS_DIR, runMigrations } from './migrate.js';

/**
 * Every data directory made on any commit of main upgrades to the newest schema, the same as a new
 * one. migrations-history/states.json lists, for each set of migrations main ever had (its first
 * commit, and the last one with the same set), the journal's entries of that commit as
 * `tag@when:sha256-prefix` in the journal's order; the SQL is this version's file with that hash,
 * or a version edited since, kept in migrations-history/ (see its README).
 */
const HISTORY_DIR = path.join(MIGRATIONS_DIR, '../migrations-history');
const states = JSON.parse(readFileSync(path.join(HISTORY_DIR, 'states.json'), 'utf8')) as {
  commit: string;
  until?: string;
  migrations: string[];
}[];

const sqlByHash = new Map<string, string>();
for (const dir of [MIGRATIONS_DIR, HISTORY_DIR]) {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.sql'))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    sqlByHash.set(createHash('sha256').update(text).digest('hex'), text);
  }
}

function fileOf(prefix: string): { hash: string; text: string } {
  const found = [...sqlByHash].filter(([h]) => h.startsWith(prefix));
  if (found.length !== 1) throw new Error(`no single migration file with sha256 ${prefix}…`);
  return { hash: found[0][0], text: found[0][1] };
}

/** A database as a new data directory of that commit left it: its migrations, run by its runner. */
async function databaseAt(pool: pg.Pool, migrations: string[]): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query('CREATE SCHEMA drizzle');
    await c.query(
      'CREATE TABLE drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
    );
    for (const m of migrations) {
      const [, when, prefix] = /^[^@]+@(\d+):([0-9a-f]+)$/.exec(m)!;
      const { hash, text } = fileOf(prefix);
      for (const statement of text.split('--> statement-breakpoint')) await c.query(statement);
      await c.query('INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)', [hash, when]);
    }
    await c.query('COMMIT');
  } finally {
    c.release();
  }
}

/** Everything the migrations make, as comparable text: tables, columns, keys, indexes, triggers, functions. */
export async function schemaOf(pool: pg.Pool): Promise<Record<string, string[]>> {
  const q = async (text: string) => (await pool.query<{ x: string }>(text)).rows.map((r) => r.x).sort();
  return {
    columns: await q(`SELECT c.table_schema || '.' || c.table_name || '.' || c.column_name || ' ' || c.data_type
        || coalesce('(' || c.character_maximum_length || ')', '') || coalesce('(' || c.numeric_precision || ',' || c.numeric_scale || ')', '')
        || ' null=' || c.is_nullable || ' default=' || coalesce(c.column_default, '-') AS x
      FROM information_schema.columns c WHERE c.table_schema IN ('public', 'drizzle')`),
    tables: await q(`SELECT n.nspname || '.' || c.relname || ' ' || c.relkind::text AS x FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 'drizzle') AND c.relkind IN ('r', 'v', 'm', 'S', 'p')`),
    constraints: await q(`SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS x
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace`),
    indexes: await q(`SELECT indexdef AS x FROM pg_indexes WHERE schemaname IN ('public', 'drizzle')`),
    triggers: await q(`SELECT pg_get_triggerdef(oid) AS x FROM pg_trigger WHERE NOT tgisinternal`),
    functions:
      await q(`SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(pg_get_functiondef(p.oid)) AS x
      FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace`),
    types: await q(`SELECT t.typname || ' ' || coalesce(string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder), '') AS x
      FROM pg_type t LEFT JOIN pg_enum e ON e.enumtypid = t.oid
      WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd') GROUP BY t.typname`),
    extensions: await q(`SELECT extname AS x FROM pg_extension`),
  };
}

function differences(a: Record<string, string[]>, b: Record<string, string[]>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(a)) {
    const inB = new Set(b[k]);
    const inA = new Set(a[k]);
    for (const x of a[k]) if (!inB.has(x)) out.push(`- ${k}: ${x}`);
    for (const x of b[k]) if (!inA.has(x)) out.push(`+ ${k}: ${x}`);
  }
  return out;
}

describe('upgrading a data directory of any commit of main', () => {
  let fresh: Record<string, string[]> | null = null;
  const freshSchema = async () => {
    if (fresh) return fresh;
    const d = connect(await emptyDatabase(), 1);
    try {
      await runMigrations(d.db);
      fresh = await schemaOf(d.pool);
      return fresh;
    } finally {
      await d.close();
    }
  };

  it('the history covers every migration of this version, each with its file', () => {
    const last = states[states.length - 1].migrations.map((m) => m.split(':')[0].split('@')[0]);
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    // The last state is main before this change: every one of its migrations is still here.
    expect(journal.entries.map((e) => e.tag).slice(0, last.length)).toEqual(last);
    for (const s of states) for (const m of s.migrations) expect(() => fileOf(m.split(':')[1])).not.toThrow();
  });

  it("a database made at 97e0405 gets its items' totals counted again (0051); one made later keeps them", async () => {
    const counted: Record<string, number> = {};
    for (const commit of ['97e0405', '813305c']) {
      const d = connect(await emptyDatabase(), 1);
      try {
        await databaseAt(d.pool, states.find((s) => s.commit === commit)!.migrations);
        // A business without sales, with a row of item totals (as the first version left for a
        // voided line): counted again from its sales, it has none.
        const { rows } = await d.pool.query<{ id: string }>(
          `WITH u AS (INSERT INTO users (email, password_hash, nombre) VALUES ('a@b.c', 'x', 'Ana') RETURNING id)
           INSERT INTO businesses (nombre, creada_por, trial_ends_at) SELECT 'Kiosco', u.id, now() FROM u RETURNING id`,
        );
        await d.pool.query(
          `INSERT INTO totales_items_mes (business_id, mes, tipo, item_id, nombre) VALUES ($1, '2026-11-01', 'producto', gen_random_uuid(), 'Yerba')`,
          [rows[0].id],
        );
        await runMigrations(d.db);
        const left = await d.pool.query('SELECT 1 FROM totales_items_mes WHERE business_id = $1', [rows[0].id]);
        counted[commit] = left.rowCount ?? -1;
      } finally {
        await d.close();
      }
    }
    expect(counted).toEqual({ '97e0405': 0, '813305c': 1 });
  });

  it('cheques registered twice before 0071 (nothing refused them) do not stop the upgrade: the later copy is marked', async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string; when: number }[];
    };
    const upTo0070 = journal.entries
      .filter((e) => e.tag < '0071')
      .map((e) => {
        const text = readFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), 'utf8');
        return `${e.tag}@${e.when}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
      });
    const d = connect(await emptyDatabase(), 1);
    try {
      await databaseAt(d.pool, upTo0070);
      const { rows } = await d.pool.query<{ id: string }>(
        `WITH u AS (INSERT INTO users (email, password_hash, nombre) VALUES ('a@b.c', 'x', 'Ana') RETURNING id)
         INSERT INTO businesses (nombre, creada_por, trial_ends_at) SELECT 'Ferretería', u.id, now() FROM u RETURNING id`,
      );
      const cheque = (banco: string, estado: string, creado: string) =>
        d.pool.query(
          `INSERT INTO cheques (business_id, tipo, banco, numero, fecha_pago, monto, librador_cuit, estado, creado_en)
           VALUES ($1, 'tercero', $2, '123456', '2026-12-30', 1000, '20111111112', $3, $4)`,
          [rows[0].id, banco, estado, creado],
        );
      await cheque('Banco Nación', 'en_cartera', '2026-11-20T10:00:00Z');
      await cheque(' banco nación ', 'depositado', '2026-11-21T10:00:00Z');
      await cheque('Banco Nación', 'anulado', '2026-11-19T10:00:00Z');
      await runMigrations(d.db);
      const marked = await d.pool.query<{ banco: string; estado: string; repetido: boolean }>(
        'SELECT banco, estado, repetido FROM cheques ORDER BY creado_en',
      );
      expect(marked.rows).toEqual([
        { banco: 'Banco Nación', estado: 'anulado', repetido: false },
        { banco: 'Banco Nación', estado: 'en_cartera', repetido: false },
        { banco: ' banco nación ', estado: 'depositado', repetido: true },
      ]);
      // From now on the same cheque is refused while the first one is active.
      await expect(cheque('BANCO NACIÓN', 'en_cartera', '2026-11-28T10:00:00Z')).rejects.toThrow(/cheques_unico/);
    } finally {
      await d.close();
    }
  });

  for (const s of states) {
    it(`made at ${s.commit}${s.until ? `..${s.until}` : ''} (${s.migrations.length} migrations): ends as a new one`, async () => {
      const d = connect(await emptyDatabase(), 1);
      try {
        await databaseAt(d.pool, s.migrations);
        await runMigrations(d.db);
        expect(differences(await freshSchema(), await schemaOf(d.pool))).toEqual([]);
        // A second start finds nothing left to do.
        const before = await d.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
        await runMigrations(d.db);
        const after = await d.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
        expect(after.rows[0].n).toBe(before.rows[0].n);
      } finally {
        await d.close();
      }
    });
  }
});
