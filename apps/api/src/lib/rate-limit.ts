import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rateLimited } from './errors.js';

/** Expired windows are deleted after this many attempts counted by a process (no scheduler). */
const SWEEP_EVERY = 500;
let sinceSweep = 0;

/**
 * Fixed-window counters kept in PostgreSQL (rate_limit_windows), so every instance on the database
 * counts the same attempts: N servers allow what one does. Each call is one statement whose row
 * lock makes it atomic (no session state: it works through a transaction-mode pooler), and the
 * time is the database's, the same for every instance.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    /** Which limit (part of the key: different limits count apart). */
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** The stored key: a hash, so e-mails and addresses are not kept as they are. */
  private key(value: string) {
    return createHash('sha256').update(value).digest('base64url');
  }

  /**
   * Counts an attempt, or refuses it (429) once `limit` attempts were counted in the window: the
   * refused one is not counted. Concurrent attempts never get past the limit together.
   */
  async take(value: string): Promise<void> {
    const clave = this.key(value);
    const { rows } = await this.db.execute(sql`
      INSERT INTO rate_limit_windows AS w (limite, clave, intentos, vence_en)
      VALUES (${this.name}, ${clave}, 1, now() + ${this.windowMs} * interval '1 millisecond')
      ON CONFLICT (limite, clave) DO UPDATE
        SET intentos = CASE WHEN w.vence_en <= now() THEN 1 ELSE w.intentos + 1 END,
            vence_en = CASE WHEN w.vence_en <= now() THEN excluded.vence_en ELSE w.vence_en END
        WHERE w.vence_en <= now() OR w.intentos < ${this.limit}
      RETURNING intentos`);
    if (++sinceSweep >= SWEEP_EVERY) {
      sinceSweep = 0;
      await this.db.execute(sql`DELETE FROM rate_limit_windows WHERE vence_en <= now()`);
    }
    if (rows.length) return;
    const { rows: left } = await this.db.execute<{ s: number }>(sql`
      SELECT extract(epoch FROM vence_en - now())::float8 AS s
        FROM rate_limit_windows WHERE limite = ${this.name} AND clave = ${clave}`);
    throw rateLimited(Math.max(1, left[0]?.s ?? 1));
  }

  /** Whether `value` has attempts counted in a window still open. */
  async counted(value: string): Promise<boolean> {
    const { rows } = await this.db.execute(sql`
      SELECT 1 FROM rate_limit_windows
       WHERE limite = ${this.name} AND clave = ${this.key(value)} AND vence_en > now() AND intentos > 0`);
    return rows.length > 0;
  }

  /** Gives back an attempt that went well (a right password): only failures stay counted. */
  async release(value: string): Promise<void> {
    await this.db.execute(sql`
      UPDATE rate_limit_windows SET intentos = intentos - 1
       WHERE limite = ${this.name} AND clave = ${this.key(value)} AND vence_en > now() AND intentos > 0`);
  }
}
