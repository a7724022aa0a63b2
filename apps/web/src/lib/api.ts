import type { FieldError } from '@mostrador/shared';
// The module itself, not the package's index: the index would bring every schema (and zod) along.
import { OFFLINE_MESSAGE } from '@mostrador/shared/idempotency';
import { offlineCache } from './offline-cache';
import { noteDataAge } from './data-age';
import { session } from './session';

export const API_BASE = '/api/v1';
export const REQUEST_TIMEOUT_MS = 60_000;

/** An error answered by the API (or a network failure, status 0), with its Spanish detail. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    public readonly detail: unknown,
    public readonly errors: FieldError[] = [],
  ) {
    super(typeof detail === 'string' ? detail : ((detail as { message?: string })?.message ?? 'Error'));
  }
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  form?: Record<string, string>;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Extra request headers (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
  /** The login itself answers 401 for wrong credentials: that must not log anybody out. */
  skipAuthRedirect?: boolean;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

function buildUrl(path: string, query?: RequestOptions['query']) {
  const url = `${API_BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/**
 * The Idempotency-Key of each POST that got no answer (docs/decisions/0018-idempotent-creates.md):
 * the submission (method + path) tried again after no connection, a timeout or a 5xx reuses its
 * key, so if the first attempt did reach the server the retry gets its answer instead of a second
 * row. Any other POST gets a new key: two different requests in flight never share one.
 */
const unanswered = new Map<string, string>();

/** Set once a 401 has sent the browser to the login page (the page is being left). */
let leaving = false;

function newKey(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** The key for a POST to `path` now: the unanswered one of that submission, else a new one. */
function takeKey(id: string): string {
  const key = unanswered.get(id) ?? newKey();
  unanswered.delete(id);
  return key;
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { ...opts.headers };
  const keyed = method === 'POST' && !Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
  const submission = `${method} ${path}`;
  if (keyed) headers['Idempotency-Key'] = takeKey(submission);
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  const url = buildUrl(path, opts.query);
  // Once the POS was opened here, GETs fall back to their last answer without a connection (issue 18).
  const cached = offlineCache.enabled() && offlineCache.wanted(url, method);
  try {
    if (cached && !navigator.onLine) throw new TypeError('offline');
    res = await fetch(url, { method, headers, body, signal });
    if (cached && res.ok) void offlineCache.store(url, res).catch(() => undefined);
  } catch (e) {
    const hit = cached ? await offlineCache.match(url).catch(() => undefined) : undefined;
    if (hit) return { data: (await hit.json()) as T, headers: hit.headers };
    const timedOut = timeout.aborted;
    console.error('API sin respuesta', path, e);
    if (keyed) unanswered.set(submission, headers['Idempotency-Key']);
    // Status 0: nothing came back. The form keeps its values; a retry reuses the key.
    throw new ApiError(
      0,
      timedOut ? 'TIMEOUT' : 'NETWORK',
      timedOut
        ? 'El servidor tardó demasiado en responder. Probá de nuevo: si ya se había guardado, no se duplica.'
        : OFFLINE_MESSAGE,
    );
  }
  if (keyed && res.status >= 500) unanswered.set(submission, headers['Idempotency-Key']);
  if (res.status === 401 && !opts.skipAuthRedirect && !leaving) {
    // SPEC §4: any 401 removes the token and sends the browser to /login. A session that was
    // there has expired: the login page says so and comes back here afterwards. Only the first
    // of several requests refused at once decides where to go.
    leaving = true;
    const had = session.token() !== null;
    session.clear();
    const here = window.location.pathname + window.location.search;
    window.location.assign(had ? `/login?expirada=1&next=${encodeURIComponent(here)}` : '/login');
  }
  noteDataAge(res.headers);
  const isJson = res.headers.get('content-type')?.includes('application/json');
  const data = res.status === 204 ? undefined : isJson ? await res.json() : await res.blob();
  if (!res.ok) {
    const b = (data ?? {}) as { detail?: unknown; code?: string; errors?: FieldError[] };
    console.error('Error de la API', res.status, path, b);
    throw new ApiError(res.status, b.code ?? 'ERROR', b.detail ?? 'Ocurrió un error inesperado.', b.errors ?? []);
  }
  return { data: data as T, headers: res.headers };
}

export const api = {
  get: async <T>(path: string, query?: RequestOptions['query']) => (await request<T>(path, { query })).data,
  post: async <T>(path: string, body?: unknown) => (await request<T>(path, { method: 'POST', body: body ?? {} })).data,
  put: async <T>(path: string, body?: unknown) => (await request<T>(path, { method: 'PUT', body: body ?? {} })).data,
  patch: async <T>(path: string, body?: unknown) =>
    (await request<T>(path, { method: 'PATCH', body: body ?? {} })).data,
  delete: async (path: string) => {
    await request<void>(path, { method: 'DELETE' });
  },
  /** One page of a list: its rows, and the total of the whole list (X-Total-Count). Empty filters are left out. */
  page: async <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) => {
    const { data, headers } = await request<T[]>(path, { query, signal });
    return { rows: data, total: Number(headers.get('X-Total-Count') ?? data.length) };
  },
};

/** The message to show for a failed call: the server's detail, else the fallback. */
export function errorMessage(e: unknown, fallback = 'Ocurrió un error inesperado.'): string {
  if (e instanceof ApiError && typeof e.detail === 'string') return e.detail;
  if (e instanceof Error && e.message) return e.message;
  return fallback;
}
