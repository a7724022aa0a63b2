import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/app.js';
import { pipelinedTransaction } from './pipeline.js';

let ctx: TestContext;
const rows = async () =>
  (await ctx.sql<{ id: number; v: string }>('SELECT id, v FROM probe ORDER BY id')).map((r) => r.v);

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.sql("CREATE TABLE probe (id int PRIMARY KEY, v text NOT NULL CHECK (v <> ''))");
  // As the migrations do for their tables: the app role may use it.
  await ctx.sql(`GRANT SELECT, INSERT, UPDATE, DELETE ON probe TO ${inject('pg').appRole}`);
});

describe('pipelinedTransaction', () => {
  it('sends each step together, answers each statement in order, and commits with the last step', async () => {
    await ctx.sql('TRUNCATE probe');
    const out = await pipelinedTransaction(ctx.database.pool, async (send) => {
      const [a, b] = await send([
        sql`INSERT INTO probe VALUES (1, 'uno') RETURNING v`,
        sql`SELECT count(*)::int AS n FROM probe`,
      ]);
      expect(a.rows).toEqual([{ v: 'uno' }]);
      expect(b.rows).toEqual([{ n: 1 }]);
      const [c] = await send([sql`INSERT INTO probe VALUES (2, 'dos') RETURNING id`], { commit: true });
      return c.rows[0].id;
    });
    expect(out).toBe(2);
    expect(await rows()).toEqual(['uno', 'dos']);
  });

  it('a failing statement in the committing step rejects with its own error and leaves nothing', async () => {
    await ctx.sql('TRUNCATE probe');
    const attempt = pipelinedTransaction(ctx.database.pool, async (send) => {
      await send([sql`INSERT INTO probe VALUES (1, 'uno')`]);
      await send([sql`INSERT INTO probe VALUES (2, '')`, sql`INSERT INTO probe VALUES (3, 'tres')`], { commit: true });
    });
    await expect(attempt).rejects.toMatchObject({ code: '23514' });
    expect(await rows()).toEqual([]);
  });

  it('rolls back when the callback throws, or returns without committing', async () => {
    await ctx.sql('TRUNCATE probe');
    await expect(
      pipelinedTransaction(ctx.database.pool, async (send) => {
        await send([sql`INSERT INTO probe VALUES (1, 'uno')`]);
        throw new Error('sin stock');
      }),
    ).rejects.toThrow('sin stock');
    await expect(
      pipelinedTransaction(ctx.database.pool, async (send) => {
        await send([sql`INSERT INTO probe VALUES (2, 'dos')`]);
      }),
    ).rejects.toThrow('la transacción quedó abierta');
    expect(await rows()).toEqual([]);
    // Every connection went back to the pool usable: more transactions than the pool has connections.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        pipelinedTransaction(ctx.database.pool, (send) =>
          send([sql`INSERT INTO probe VALUES (${10 + i}, 'ok')`], { commit: true }),
        ),
      ),
    );
    expect(await rows()).toHaveLength(8);
  });
});
