import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/app.js';

/**
 * Ready for Citus (decision 0019): read from PostgreSQL's catalog after all migrations, so a new
 * table or constraint that breaks the rules fails here.
 * - A table is a business's data when it has a `business_id` column; it must be NOT NULL, part of
 *   the primary key and of every unique constraint or unique index, and every foreign key to
 *   another such table must include it on both sides (same shard once distributed).
 * - Tables without it are shared by all businesses: only the few listed below (reference or
 *   coordinator-local tables), and none of them may point at a business's table.
 * - `businesses` is the distribution root: its `id` is the business id.
 */
// arca_tickets_acceso: ARCA's ticket per certificate, which several businesses may share (0039).
const SHARED_TABLES = [
  'arca_tickets_acceso',
  'auth_tokens',
  'businesses',
  'rate_limit_windows',
  'server_secrets',
  'sessions',
  'users',
];

type Violation = { tabla: string; regla: string; detalle: string };

async function violations(client: pg.Client | pg.Pool): Promise<Violation[]> {
  const { rows: tables } = await client.query<{ name: string; biz: boolean; nullable: boolean }>(`
    SELECT c.relname AS name,
           a.attname IS NOT NULL AS biz,
           coalesce(NOT a.attnotnull, false) AS nullable
      FROM pg_class c
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'business_id' AND NOT a.attisdropped
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
     ORDER BY 1`);
  const tenant = new Set(tables.filter((t) => t.biz && t.name !== 'businesses').map((t) => t.name));
  const out: Violation[] = [];
  for (const t of tables) {
    if (!t.biz && !SHARED_TABLES.includes(t.name))
      out.push({ tabla: t.name, regla: 'sin business_id', detalle: 'no es una de las tablas compartidas' });
    if (tenant.has(t.name) && t.nullable)
      out.push({ tabla: t.name, regla: 'business_id nulo', detalle: 'business_id debe ser NOT NULL' });
  }

  // Primary keys and unique constraints or indexes (partial and expression indexes included).
  const { rows: keys } = await client.query<{ tabla: string; nombre: string; primaria: boolean; cols: string[] }>(`
    SELECT c.relname AS tabla, ic.relname AS nombre, i.indisprimary AS primaria,
           array(SELECT a.attname::text FROM pg_attribute a
                  WHERE a.attrelid = c.oid AND a.attnum = ANY (i.indkey) AND a.attnum > 0) AS cols
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indrelid
      JOIN pg_class ic ON ic.oid = i.indexrelid
     WHERE c.relnamespace = 'public'::regnamespace AND (i.indisunique OR i.indisprimary)`);
  for (const t of tenant) {
    if (!keys.some((k) => k.tabla === t && k.primaria))
      out.push({ tabla: t, regla: 'sin clave primaria', detalle: 'falta la clave primaria' });
  }
  for (const k of keys) {
    if (tenant.has(k.tabla) && !k.cols.includes('business_id'))
      out.push({
        tabla: k.tabla,
        regla: k.primaria ? 'clave primaria sin business_id' : 'única sin business_id',
        detalle: `${k.nombre} (${k.cols.join(', ')})`,
      });
  }

  // Foreign keys: between business tables they carry business_id on both sides, in the same place.
  const { rows: fks } = await client.query<{
    tabla: string;
    ref: string;
    nombre: string;
    cols: string[];
    refcols: string[];
  }>(`
    SELECT c.relname AS tabla, r.relname AS ref, k.conname AS nombre,
           array(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, o)
                  JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.o) AS cols,
           array(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, o)
                  JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.o) AS refcols
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class r ON r.oid = k.confrelid
     WHERE k.contype = 'f' AND c.relnamespace = 'public'::regnamespace`);
  for (const f of fks) {
    const detalle = `${f.nombre}: (${f.cols.join(', ')}) → ${f.ref} (${f.refcols.join(', ')})`;
    if (!tenant.has(f.tabla) && f.tabla !== 'businesses' && (tenant.has(f.ref) || f.ref === 'businesses'))
      out.push({ tabla: f.tabla, regla: 'compartida apunta a un negocio', detalle });
    if (tenant.has(f.tabla) && tenant.has(f.ref)) {
      const at = f.cols.indexOf('business_id');
      if (at < 0 || f.refcols[at] !== 'business_id')
        out.push({ tabla: f.tabla, regla: 'foránea sin business_id', detalle });
    }
    if (tenant.has(f.tabla) && f.ref === 'businesses' && !(f.cols.length === 1 && f.cols[0] === 'business_id'))
      out.push({ tabla: f.tabla, regla: 'foránea a businesses por otra columna', detalle });
  }
  return out;
}

/**
 * What Citus would need past the schema (decision 0019, "Triggers and advisory locks"): every
 * trigger on a table and every advisory-lock call site, named in the decision's two tables. A new
 * one fails here until the decision says what it becomes on Citus.
 */
const src = fileURLToPath(new URL('..', import.meta.url));
const DECISION = readFileSync(new URL('../../../../docs/decisions/0019-citus-ready.md', import.meta.url), 'utf8');
const ADVISORY = /pg_(?:try_)?advisory_(?:xact_)?lock(?:_shared)?\s*\(/g;

/** Rows of the decision's trigger table: `| \`table\` | \`trigger\` | … |` (cells padded or not). */
const namedTriggers = () =>
  [...DECISION.matchAll(/^\|\s*`([a-z0-9_]+)`\s*\|\s*`([a-z0-9_]+)`\s*\|/gm)].map((m) => `${m[1]}.${m[2]}`).sort();

/** Rows of the decision's lock table: `| \`file.ts\` or \`function()\` | count | … |`. */
const namedLocks = () =>
  Object.fromEntries(
    [...DECISION.matchAll(/^\|\s*`([^`]+(?:\.ts|\(\)))`\s*\|\s*(\d+)\s*\|/gm)].map((m) => [m[1], Number(m[2])]),
  );

/** Advisory-lock calls in the API's code (tests apart), by file relative to apps/api/src. */
function lockCallsInCode(): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'test' && e.name !== 'migrations' && e.name !== 'migrations-history') walk(full);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        const n = readFileSync(full, 'utf8').match(ADVISORY)?.length ?? 0;
        if (n) out[path.relative(src, full)] = n;
      }
    }
  };
  walk(src);
  return out;
}

const ctx = await createTestApp();

describe('el esquema está listo para distribuirse por negocio (Citus)', () => {
  it('ninguna tabla ni restricción rompe las reglas después de todas las migraciones', async () => {
    expect(await violations(ctx.owner.pool)).toEqual([]);
  });

  it('las tablas compartidas son pocas y ninguna guarda datos de un negocio', async () => {
    const rows = await ctx.sql<{ relname: string }>(
      `SELECT relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
         AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'business_id')
       ORDER BY 1`,
    );
    expect(rows.map((r) => r.relname)).toEqual([...SHARED_TABLES].sort());
    // The business tables are many: the rules above really ran over them.
    const [{ n }] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attname = 'business_id'`,
    );
    expect(n).toBeGreaterThan(30);
  });

  it('cada trigger de una tabla figura en la decisión 0019 (Citus los corre solo con citus.enable_unsafe_triggers)', async () => {
    const rows = await ctx.sql<{ t: string }>(
      `SELECT c.relname || '.' || t.tgname AS t FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace ORDER BY 1`,
    );
    const triggers = rows.map((r) => r.t).sort();
    expect(triggers.length).toBeGreaterThan(10);
    expect(namedTriggers()).toEqual(triggers);
  });

  it('cada llamada a un bloqueo consultivo (código y funciones de la base) figura en la decisión 0019', async () => {
    const rows = await ctx.sql<{ f: string; src: string }>(
      `SELECT p.proname || '()' AS f, p.prosrc AS src FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace AND p.prosrc ~ 'pg_(try_)?advisory'`,
    );
    const found: Record<string, number> = lockCallsInCode();
    for (const r of rows) found[r.f] = r.src.match(ADVISORY)?.length ?? 0;
    // The scan really finds them: the sales' slots and the totals' lock at least.
    expect(found['modules/sales/in-flight.ts']).toBeGreaterThan(0);
    expect(found['totales_bloquear()']).toBe(1);
    expect(namedLocks()).toEqual(found);
  });

  describe('una tabla nueva que rompe una regla hace fallar la prueba', () => {
    const client = new pg.Client({ connectionString: ctx.url });
    afterAll(() => client.end());

    it('clave primaria, única, foránea y tabla compartida, cada una detectada', async () => {
      await client.connect();
      await client.query('BEGIN');
      try {
        await client.query(`
          CREATE TABLE zz_mala_pk (id uuid PRIMARY KEY, business_id uuid NOT NULL REFERENCES businesses (id));
          CREATE TABLE zz_mala_unica (id uuid, business_id uuid NOT NULL, codigo text,
            PRIMARY KEY (id, business_id), UNIQUE (codigo));
          CREATE UNIQUE INDEX zz_mala_unica_lower ON zz_mala_unica (lower(codigo));
          CREATE TABLE zz_mala_foranea (id uuid, business_id uuid NOT NULL, venta_item_id uuid,
            PRIMARY KEY (id, business_id));
          ALTER TABLE zz_mala_foranea ADD CONSTRAINT zz_fk FOREIGN KEY (business_id, venta_item_id)
            REFERENCES sale_items (id, business_id);
          CREATE TABLE zz_compartida (id uuid PRIMARY KEY, venta uuid, negocio uuid);
          CREATE TABLE zz_nula (id uuid, business_id uuid, PRIMARY KEY (id));
        `);
        const found = await violations(client);
        expect(found).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ tabla: 'zz_mala_pk', regla: 'clave primaria sin business_id' }),
            expect.objectContaining({
              tabla: 'zz_mala_unica',
              regla: 'única sin business_id',
              detalle: 'zz_mala_unica_codigo_key (codigo)',
            }),
            expect.objectContaining({
              tabla: 'zz_mala_unica',
              regla: 'única sin business_id',
              detalle: 'zz_mala_unica_lower ()',
            }),
            // business_id is there but pairs with sale_items.id: not the same shard key.
            expect.objectContaining({ tabla: 'zz_mala_foranea', regla: 'foránea sin business_id' }),
            expect.objectContaining({ tabla: 'zz_compartida', regla: 'sin business_id' }),
            expect.objectContaining({ tabla: 'zz_nula', regla: 'business_id nulo' }),
          ]),
        );
        expect(found.every((v) => v.tabla.startsWith('zz_'))).toBe(true);
      } finally {
        await client.query('ROLLBACK');
      }
    });
  });
});
