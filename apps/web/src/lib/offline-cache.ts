/*
 * The last answer of each GET the app made, kept in the Cache API so that the point of sale
 * opens again without a connection (issue 18, decision 0014): the session's user, businesses,
 * permissions, settings, medios and cajas. On only once the POS has been opened on this device
 * (the flag goes with the session on logout), only on secure contexts (localhost or HTTPS: the
 * Cache API does not exist over plain HTTP on the shop's network), and never for large answers
 * (reports, exports) or the POS catalogue (kept in IndexedDB).
 */
const FLAG = 'mostrador.pos.offline';
const CACHE = 'mostrador-api-v1';
const MAX_BYTES = 256 * 1024;

const available = () => typeof caches !== 'undefined' && typeof window !== 'undefined' && window.isSecureContext;

export const offlineCache = {
  enabled(): boolean {
    try {
      return available() && localStorage.getItem(FLAG) === '1';
    } catch {
      return false;
    }
  },
  enable() {
    try {
      if (available()) localStorage.setItem(FLAG, '1');
    } catch {
      /* private mode: nothing kept */
    }
  },
  /** Logout: no answer of this user stays on the device. */
  async clear() {
    if (available()) await caches.delete(CACHE).catch(() => false);
  },
  wanted: (url: string, method: string) =>
    method === 'GET' && !url.includes('/pos/catalogo') && !url.includes('/exportar'),
  async store(url: string, res: Response) {
    const len = Number(res.headers.get('content-length') ?? 0);
    if (len > MAX_BYTES) return;
    const body = await res.clone().text();
    if (body.length > MAX_BYTES) return;
    const headers = new Headers({ 'content-type': res.headers.get('content-type') ?? 'application/json' });
    const total = res.headers.get('x-total-count');
    if (total) headers.set('x-total-count', total);
    await (await caches.open(CACHE)).put(url, new Response(body, { status: 200, headers }));
  },
  async match(url: string): Promise<Response | undefined> {
    return (await caches.open(CACHE)).match(url, { ignoreVary: true });
  },
};

/**
 * The GETs this page made before the cache was on (the app's first load on this device) are
 * asked once more and kept, so that the very next opening works offline too.
 */
export async function warmOfflineCache(token: string | null) {
  if (!offlineCache.enabled() || !token) return;
  const seen = new Set<string>();
  for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    if (e.initiatorType !== 'fetch') continue;
    const u = new URL(e.name);
    const url = u.pathname + u.search;
    if (u.origin !== location.origin || !u.pathname.startsWith('/api/v1/') || seen.has(url)) continue;
    seen.add(url);
    if (!offlineCache.wanted(url, 'GET') || (await offlineCache.match(url))) continue;
    try {
      const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
      if (res.ok && res.headers.get('content-type')?.includes('application/json')) await offlineCache.store(url, res);
    } catch {
      return;
    }
  }
}
