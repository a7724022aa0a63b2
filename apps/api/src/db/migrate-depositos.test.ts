import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDatabase } from '../test/databases.js';
import { connect } from './client.js';
import { MIGRATIONS_DIR } from './migrate.js';

/**
 * Migration 0076 (decision 0059) on a database with a business already selling: it gets its Casa
 * central and Depósito principal, today's stock is the principal's (no stock_depositos rows), and
 * every movement before names the principal; a caja keeps no sucursal (the principal's).
 */
const files = readdirSync(MIGRATIONS_DIR)
  .filter((f) => /^\d{4}_.*\.sql$/.test(f))
  .sort();
const before = files.filter((f) => Number(f.slice(0, 4)) < 72);
const depositos = files.find((f) => f.startsWith('0076_'))!;
const statements = (f: string) =>
  readFileSync(path.join(MIGRATIONS_DIR, f), 'utf8')
    .split('--> statement-breakpoint')
    .filter((s) => s.trim());

describe('migration 0076 on existing data', () => {
  it('puts every business’s stock and movements in its Depósito principal', async () => {
    const d = connect(await emptyDatabase(), 1);
    try {
      const q = (text: string, values: unknown[] = []) => d.pool.query(text, values);
      for (const f of before) for (const s of statements(f)) await q(s);
      const [{ id: user }] = (
        await q(`INSERT INTO users (email, password_hash, nombre) VALUES ('a@ejemplo.com', 'x', 'Ana') RETURNING id`)
      ).rows;
      const negocios: string[] = [];
      for (const nombre of ['Almacén Uno', 'Kiosco Dos']) {
        const { rows } = await q(
          `INSERT INTO businesses (nombre, creada_por, trial_ends_at) VALUES ($1, $2, now()) RETURNING id`,
          [nombre, user],
        );
        negocios.push(rows[0].id);
        const p = await q(
          `INSERT INTO products (business_id, nombre, precio_venta, stock_actual) VALUES ($1, 'Yerba', 100, 7) RETURNING id`,
          [rows[0].id],
        );
        await q(
          `INSERT INTO stock_movements (business_id, producto_id, origen, cantidad, stock_resultante)
           VALUES ($1, $2, 'inicial', 7, 7)`,
          [rows[0].id, p.rows[0].id],
        );
        await q(`INSERT INTO cajas (business_id, nombre) VALUES ($1, 'Caja 1')`, [rows[0].id]);
      }

      for (const s of statements(depositos)) await q(s);

      const principal = await q(
        `SELECT s.business_id, s.nombre AS sucursal, d.nombre AS deposito, d.id AS deposito_id
           FROM sucursales s JOIN depositos d ON d.business_id = s.business_id AND d.sucursal_id = s.id
          WHERE s.principal AND d.principal ORDER BY s.business_id`,
      );
      expect(principal.rows.map((r) => r.business_id).sort()).toEqual([...negocios].sort());
      for (const r of principal.rows)
        expect(r).toMatchObject({ sucursal: 'Casa central', deposito: 'Depósito principal' });
      const byBusiness = new Map(principal.rows.map((r) => [r.business_id as string, r.deposito_id as string]));
      const movs = await q(`SELECT business_id, deposito_id FROM stock_movements`);
      expect(movs.rows).toHaveLength(2);
      for (const m of movs.rows) expect(m.deposito_id).toBe(byBusiness.get(m.business_id));
      expect((await q(`SELECT count(*)::int AS n FROM stock_depositos`)).rows[0].n).toBe(0);
      expect((await q(`SELECT count(*)::int AS n FROM cajas WHERE sucursal_id IS NOT NULL`)).rows[0].n).toBe(0);
      // A movement without its depósito is refused from now on.
      await expect(
        q(
          `INSERT INTO stock_movements (business_id, producto_id, origen, cantidad, stock_resultante)
           SELECT business_id, id, 'ajuste', 1, 8 FROM products LIMIT 1`,
        ),
      ).rejects.toMatchObject({ code: '23502' });
    } finally {
      await d.close();
    }
  });
});
