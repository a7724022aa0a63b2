/* global self, caches */
/*
 * Mostrador's service worker (issue 18, docs/decisions/0014-offline-pos.md): it keeps the
 * application shell so that the point of sale opens without a connection once it was opened on
 * this device. Hand-written and small on purpose (no build plugin):
 *
 * - the app's pages (every navigation but the landing and legal pages) go to the network first;
 *   without one, the last app.html kept answers (the app routes in the browser);
 * - /assets/* carry a content hash in their names: the kept copy answers, else the network.
 *
 * API answers are not handled here (the app keeps the ones it needs, lib/offline-cache.ts, and the
 * POS catalogue and queue live in IndexedDB). Registered only on secure contexts (localhost or
 * HTTPS): over plain HTTP on the shop's network browsers do not run service workers.
 */
const SHELL = 'mostrador-shell-v1';
const STATIC_PAGES = new Set(['/', '/politicas', '/terminos', '/cookies']);

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('mostrador-shell-') && k !== SHELL).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

async function appShell(request) {
  const cache = await caches.open(SHELL);
  try {
    const res = await fetch(request);
    if (res.ok) await cache.put('/app.html', res.clone());
    return res;
  } catch {
    const kept = await cache.match('/app.html');
    if (kept) return kept;
    throw new Error('sin conexión y sin copia de la aplicación');
  }
}

async function asset(request) {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request);
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok) await cache.put(request, res.clone());
  return res;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (!STATIC_PAGES.has(path)) event.respondWith(appShell(request));
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname === '/favicon.svg') event.respondWith(asset(request));
});
