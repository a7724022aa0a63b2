import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type pg from 'pg';

/**
 * Row-level security (docs/decisions/0031-row-level-security.md). Every table with `business_id`
 * (and `businesses` itself) shows the app role only the rows of the business named by the
 * transaction-local setting `app.business_id`, or every row when `app.todos_los_negocios` is on.
 * The setting comes from the tenant of the code that sends the statement, kept in an
 * AsyncLocalStorage: the request's business (set by the access checks, lib/access.ts), one
 * business for background work on it (`enNegocio`), or the reviewed cross-business paths
 * (`todosLosNegocios`, allow-listed in rls.test.ts). Without a tenant, statements go out as they
 * are and the tenant tables show no rows at all.
 */
export type Tenant = { readonly businessId: string } | { readonly todos: string };

const current = new AsyncLocalStorage<Tenant>();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tenant of the code running now (undefined: none, no tenant rows are visible). */
export const currentTenant = (): Tenant | undefined => current.getStore();

/**
 * Runs `fn` in `tenant`. What `fn` returns is started inside: a drizzle query builder (which runs
 * only when awaited) is awaited in the tenant, not by the caller outside it.
 */
function within<T>(tenant: Tenant, fn: () => T): T {
  return current.run(tenant, () => {
    const r = fn();
    if (r instanceof Promise || typeof (r as { then?: unknown } | null)?.then !== 'function') return r;
    return new Promise((resolve, reject) => (r as PromiseLike<unknown>).then(resolve, reject)) as T;
  });
}

/** Runs `fn` (and everything it starts) seeing the rows of one business only. */
export function enNegocio<T>(businessId: string, fn: () => PromiseLike<T>): Promise<T>;
export function enNegocio<T>(businessId: string, fn: () => T): T;
export function enNegocio<T>(businessId: string, fn: () => T): T {
  if (!UUID_RE.test(businessId)) throw new Error(`enNegocio: identificador de negocio no válido (${businessId})`);
  return within({ businessId }, fn);
}

/**
 * Runs `fn` seeing every business's rows. Only for work that really spans businesses (a user's
 * memberships, an invitation found by its token, the invoicing sweep…): every call site is listed,
 * with its reason, in rls.test.ts, and a new one fails that test until it is reviewed.
 */
export function todosLosNegocios<T>(motivo: string, fn: () => PromiseLike<T>): Promise<T>;
export function todosLosNegocios<T>(motivo: string, fn: () => T): T;
export function todosLosNegocios<T>(motivo: string, fn: () => T): T {
  return within({ todos: motivo }, fn);
}

/**
 * The role a cross-business transaction takes (migration 0075, decision 0061): the tenant policy
 * is one equality, so that it serves as an index condition; seeing every business is this role's
 * own policy, which also needs the setting.
 */
export const TODOS_ROLE = 'mostrador_todos_los_negocios';

/** One statement sets all, so a transaction never inherits anything (they are transaction-local). */
const SET_NEGOCIO = "SELECT set_config('app.business_id', $1, true), set_config('app.todos_los_negocios', '', true)";
const SET_TODOS = `SELECT set_config('app.business_id', '', true), set_config('app.todos_los_negocios', 'on', true), set_config('role', '${TODOS_ROLE}', true)`;
const setting = (t: Tenant): [string, string[]] => ('businessId' in t ? [SET_NEGOCIO, [t.businessId]] : [SET_TODOS, []]);

const TX_START = /^\s*(begin|start\s+transaction)\b/i;
// ROLLBACK TO SAVEPOINT keeps the transaction open.
const TX_END = /^\s*(commit|end|abort|rollback)\b(?!\s+to\b)/i;

type Send = (config: unknown, values?: unknown, callback?: unknown) => unknown;
type Callback = (err: Error | null, res?: pg.QueryResult) => void;

/**
 * A statement sent outside a transaction, with a tenant: BEGIN, the setting, the statement and
 * COMMIT go out together (pipelined: one round trip) and it answers the statement's result. When
 * the statement fails, COMMIT answers ROLLBACK and the statement's error is the one reported.
 */
async function alone(send: Send, config: unknown, values: unknown, tenant: Tenant): Promise<pg.QueryResult> {
  const sent = [send('BEGIN'), send(...setting(tenant)), send(config, values), send('COMMIT')];
  const settled = await Promise.allSettled(sent as Promise<pg.QueryResult>[]);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const [, , result, commit] = settled.map((r) => (r as PromiseFulfilledResult<pg.QueryResult>).value);
  if (commit.command !== 'COMMIT') throw new Error('la transacción no se confirmó');
  return result;
}

/**
 * Makes a pooled client carry the tenant on every statement: BEGIN (drizzle's transactions,
 * pipelinedTransaction, explicit ones) is followed at once by the setting, pipelined behind it; a
 * statement outside a transaction runs in one of its own with the setting (`alone`). Both forms
 * of `query` (text and values, or a config object; promise or callback) keep working.
 */
function carryTenant(client: pg.PoolClient): void {
  const send = client.query.bind(client) as Send;
  let open = false;
  const query: Send = (config, values, callback) => {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    if (typeof text !== 'string' || typeof (config as { submit?: unknown }).submit === 'function') {
      return send(config, values, callback);
    }
    const tenant = current.getStore();
    if (TX_START.test(text)) {
      open = true;
      const begun = send(config, values, callback);
      // Should it fail, the transaction's next statement fails too ("transaction is aborted").
      if (tenant) (send(...setting(tenant)) as Promise<unknown>).catch(() => {});
      return begun;
    }
    if (TX_END.test(text)) {
      open = false;
      return send(config, values, callback);
    }
    if (!tenant || open) return send(config, values, callback);
    const cb = (typeof values === 'function' ? values : callback) as Callback | undefined;
    const result = alone(send, config, typeof values === 'function' ? undefined : values, tenant);
    if (!cb) return result;
    result.then(
      (r) => cb(null, r),
      (e: Error) => cb(e),
    );
    return undefined;
  };
  (client as unknown as { query: Send }).query = query;
  // A client handed out again starts outside any transaction (a release mid-transaction destroys it).
  (client as unknown as { [RESET]: () => void })[RESET] = () => {
    open = false;
  };
}

const RESET = Symbol('tenant-reset');

/** Every client of `pool` carries the tenant (connect() applies it to the app's pools). */
export function carryTenantOn(pool: pg.Pool): pg.Pool {
  pool.on('connect', (client) => carryTenant(client));
  // A caller waiting for a client (pool.query's own callback) is called back from the release of
  // another caller, in that caller's context: bound to its own context, it keeps its tenant.
  const connect = pool.connect.bind(pool) as (cb?: unknown) => unknown;
  (pool as unknown as { connect: typeof connect }).connect = (cb) =>
    typeof cb === 'function' ? connect(AsyncResource.bind(cb as () => void)) : connect();
  pool.on('acquire', (client) => {
    if (client.getTransactionStatus() === 'I') (client as unknown as { [RESET]?: () => void })[RESET]?.();
  });
  return pool;
}
