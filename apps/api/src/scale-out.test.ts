import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The short version of bench/scale-out.mjs (docs/decisions/0016): nginx in front of 1, 2 and 4
// built API instances through PgBouncer in transaction mode, 200 businesses, one instance killed
// with kill -9 in each phase, retries with the same Idempotency-Key. Needs nginx and pgbouncer
// (Debian packages): .ci/run installs them and sets SCALE_OUT_TEST=1, without which vitest.config.ts
// leaves this file out.
const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Result {
  phases: { instances: number; sales: number; refused: number; gave_up: number; killed: unknown }[];
  integrity: Record<string, number>;
  ok: boolean;
}

describe('scale-out behind nginx and PgBouncer', () => {
  it('loses and duplicates no acknowledged sale across kill -9, with gapless numbers and exact stock and money', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-scale-test-'));
    const out = path.join(dir, 'scale-out.json');
    try {
      const run = spawnSync(process.execPath, ['bench/scale-out.mjs'], {
        cwd: root,
        env: { ...process.env, SCALE_SHORT: '1', SCALE_RESULT: out, DATABASE_URL: '', TEST_APP_DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 280_000,
      });
      expect(run.status, `${run.stderr}`.slice(-4000)).toBe(0);
      const r = JSON.parse(readFileSync(out, 'utf8')) as Result;
      expect(r.phases.map((p) => p.instances)).toEqual([1, 2, 4]);
      for (const p of r.phases) {
        expect(p.sales).toBeGreaterThan(0);
        expect(p.killed).toBeTruthy();
        expect(p.refused + p.gave_up).toBe(0);
      }
      const i = r.integrity;
      expect(i.acknowledged).toBeGreaterThan(0);
      expect({
        lost: i.lost,
        duplicated: i.duplicated,
        gaps: i.businesses_with_gaps,
        counts: i.businesses_count_mismatch,
        stock: i.stock_mismatches,
        money: i.money_mismatches,
      }).toEqual({ lost: 0, duplicated: 0, gaps: 0, counts: 0, stock: 0, money: 0 });
      expect(i.keys_written).toBe(i.acknowledged + i.direct);
      expect(i.sales_in_db).toBe(i.acknowledged + i.direct);
      expect(r.ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
