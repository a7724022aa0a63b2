import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { spreadsheetSlots } from './slots.js';

/** A task that runs until the test releases it, counting how many run at once. */
function probe() {
  let running = 0;
  let most = 0;
  const releases: (() => void)[] = [];
  const task = () =>
    new Promise<string>((resolve) => {
      running++;
      most = Math.max(most, running);
      releases.push(() => {
        running--;
        resolve('hecho');
      });
    });
  return { task, releases, most: () => most };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('spreadsheet slots', () => {
  it('runs at most `concurrent` tasks, queues `queued` more in order and refuses the rest with 429', async () => {
    const run = spreadsheetSlots(2, 1);
    const p = probe();
    const results = Array.from({ length: 5 }, () => run(p.task).catch((e: unknown) => e));
    await tick();
    expect(p.releases).toHaveLength(2);
    const refused = await Promise.all(results.slice(3));
    for (const e of refused) {
      expect(e).toBeInstanceOf(AppError);
      expect(e).toMatchObject({
        status: 429,
        code: 'RATE_LIMITED',
        detail: 'Hay demasiadas importaciones en curso. Intentá de nuevo en unos segundos.',
        headers: { 'Retry-After': '5' },
      });
    }
    // A finished task hands its slot to the one waiting.
    p.releases[0]();
    await tick();
    expect(p.releases).toHaveLength(3);
    p.releases[1]();
    p.releases[2]();
    expect(await Promise.all(results.slice(0, 3))).toEqual(['hecho', 'hecho', 'hecho']);
    expect(p.most()).toBe(2);
    // Everything was given back: two run again at once.
    const again = [run(p.task), run(p.task)];
    await tick();
    expect(p.releases).toHaveLength(5);
    p.releases[3]();
    p.releases[4]();
    expect(await Promise.all(again)).toEqual(['hecho', 'hecho']);
  });
});
