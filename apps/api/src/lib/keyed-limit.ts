/**
 * Runs tasks with at most `limit` of the same key at a time; the rest wait, in arrival order,
 * for a slot of their key. A key with nothing running or waiting takes no memory.
 */
export function keyedLimit(limit: number) {
  const gates = new Map<string, { running: number; waiting: (() => void)[] }>();
  return async function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let gate = gates.get(key);
    if (!gate) gates.set(key, (gate = { running: 0, waiting: [] }));
    const g = gate;
    // A released slot passes straight to the first waiter, so `running` stays counted for it.
    if (g.running >= limit) await new Promise<void>((resolve) => g.waiting.push(resolve));
    else g.running++;
    try {
      return await task();
    } finally {
      const next = g.waiting.shift();
      if (next) next();
      else if (--g.running === 0) gates.delete(key);
    }
  };
}
