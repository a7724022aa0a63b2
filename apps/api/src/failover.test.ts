import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The quick version of bench/failover.mjs (docs/decisions/0060): a Patroni cluster on loopback
// (etcd, primary + synchronous standby, HAProxy), 2 built API instances behind nginx through
// PgBouncer, 200 businesses selling, kill -9 of the primary's PostgreSQL twice (the second after
// the old primary rejoined as standby), retries with the same Idempotency-Key. Needs the Debian
// packages postgresql-15 patroni etcd-server haproxy pgbouncer nginx: .ci/run installs them and sets
// FAILOVER_TEST=1, without which vitest.config.ts leaves this file out.
const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Kill {
  victim: string;
  new_primary: string;
  failover_ms: number;
  rejoined_as_sync_standby_ms: number;
}
interface Result {
  acknowledged: number;
  stored: number;
  lost: number;
  duplicated: number;
  failover_ms: { p50: number; max: number };
  kills: Kill[];
  failed_attempts: Record<string, number>;
  slowest_failed_attempt_ms: number;
  refused: number;
  gave_up: number;
  integrity: Record<string, number>;
  standby: { sales: number };
  ok: boolean;
}

describe('failover of the database primary under load', () => {
  it('kill -9 of the primary twice: no acknowledged sale lost or duplicated, gapless numbers, exact stock and money', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-failover-test-'));
    const out = path.join(dir, 'failover.json');
    try {
      const run = spawnSync(process.execPath, ['bench/failover.mjs'], {
        cwd: root,
        env: { ...process.env, FAILOVER_QUICK: '1', FAILOVER_RESULT: out, DATABASE_URL: '', TEST_APP_DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 280_000,
      });
      expect(run.status, `${run.stderr}`.slice(-4000)).toBe(0);
      const r = JSON.parse(readFileSync(out, 'utf8')) as Result;
      // Two kills, each answered by the other node; the second kills the first one's new primary,
      // so the old primary had come back (as the synchronous standby) in between.
      expect(r.kills).toHaveLength(2);
      for (const k of r.kills) {
        expect(k.new_primary).not.toBe(k.victim);
        expect(k.rejoined_as_sync_standby_ms).toBeGreaterThan(k.failover_ms);
      }
      expect(r.kills[1].victim).toBe(r.kills[0].new_primary);
      expect(r.acknowledged).toBeGreaterThan(0);
      expect({ lost: r.lost, duplicated: r.duplicated }).toEqual({ lost: 0, duplicated: 0 });
      expect(r.stored).toBe(r.acknowledged);
      const i = r.integrity;
      expect({
        gaps: i.businesses_with_gaps,
        counts: i.businesses_count_mismatch,
        stock: i.stock_mismatches,
        money: i.money_mismatches,
      }).toEqual({ gaps: 0, counts: 0, stock: 0, money: 0 });
      expect(i.keys_written).toBe(r.acknowledged);
      // The rejoined standby holds every sale too.
      expect(r.standby.sales).toBe(r.stored);
      // Requests caught by a failover failed fast and were retried; none was refused for good.
      expect(r.slowest_failed_attempt_ms).toBeLessThan(10_000);
      expect(r.refused + r.gave_up).toBe(0);
      expect(r.ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
