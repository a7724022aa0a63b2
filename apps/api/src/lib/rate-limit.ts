import { rateLimited } from './errors.js';

/**
 * Fixed-window counters kept in this process (API-CONTRACT §1.1: per server process by default).
 * `hit` counts an event; `check` refuses once the limit is reached until the window ends.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private current(key: string) {
    const t = this.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= t) {
      if (this.windows.size > 50_000) this.sweep(t);
      return undefined;
    }
    return w;
  }

  private sweep(t: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= t) this.windows.delete(k);
  }

  check(key: string): void {
    const w = this.current(key);
    if (w && w.count >= this.limit) throw rateLimited((w.resetAt - this.now()) / 1000);
  }

  hit(key: string): void {
    const w = this.current(key);
    if (w) w.count += 1;
    else this.windows.set(key, { count: 1, resetAt: this.now() + this.windowMs });
  }

  /** check then hit: for limits on every attempt (signup, resend). */
  take(key: string): void {
    this.check(key);
    this.hit(key);
  }
}
