import { describe, expect, it } from 'vitest';
import { keyedLimit } from './keyed-limit.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('keyedLimit', () => {
  it('runs at most `limit` tasks of a key at once, the rest in arrival order; other keys do not wait', async () => {
    const run = keyedLimit(2);
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string, ms: number) => async () => {
      started.push(name);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return name;
    };
    const a = ['a1', 'a2', 'a3', 'a4', 'a5'].map((n, i) => run('a', task(n, 5 + (i % 2) * 5)));
    await tick();
    // Another key starts at once even though "a" is full.
    const b = run('b', async () => started.includes('a3'));
    expect(await b).toBe(false);
    expect(await Promise.all(a)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(started.filter((s) => s.startsWith('a'))).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(most).toBe(2);
  });

  it('frees the slot of a task that throws, and passes its error on', async () => {
    const run = keyedLimit(1);
    const failing = run('k', async () => {
      throw new Error('falló');
    });
    const next = run('k', async () => 'siguiente');
    await expect(failing).rejects.toThrow('falló');
    await expect(next).resolves.toBe('siguiente');
    // Nothing left waiting: a new task of the key runs straight away.
    await expect(run('k', async () => 'otra')).resolves.toBe('otra');
  });
});
