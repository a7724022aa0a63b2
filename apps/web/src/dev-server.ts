/**
 * Development server routing (vite.config.ts), the same as the API server's in production
 * (apps/api/src/app.ts): the landing and legal pages are their own HTML files, every other page
 * address is a route of the single-page application (app.html), /api goes to the API.
 */
const PAGES: Record<string, string> = {
  '/': '/index.html',
  '/politicas': '/politicas.html',
  '/terminos': '/terminos.html',
  '/cookies': '/cookies.html',
};

/** The HTML file Vite must serve for a page address, or null to leave the request to Vite. */
export function devPageFor(method: string, url: string, accept = ''): string | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const [rawPath, query] = url.split('?', 2);
  const pathname = rawPath.replace(/\/+$/, '') || '/';
  if (/^\/(api|@|src|node_modules|assets)(\/|$)/.test(pathname) || pathname.startsWith('/@')) return null;
  // Modules, styles, images and the HTML files themselves: Vite serves them as they are.
  if (/\.[a-z0-9]+$/i.test(pathname)) return null;
  if (!accept.includes('text/html') && !accept.includes('*/*')) return null;
  const page = PAGES[pathname] ?? '/app.html';
  return query ? `${page}?${query}` : page;
}

/** Where /api goes: the API of `npm run dev:api`, on its PORT (or API_URL when given). */
export function apiProxyTarget(env: Record<string, string | undefined>): string {
  if (env.API_URL) return env.API_URL.replace(/\/$/, '');
  return `http://localhost:${env.PORT || '3000'}`;
}

interface DevRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The Vite plugin: rewrites page addresses before Vite's own fallback (which serves index.html). */
export function pageRoutes() {
  return {
    name: 'mostrador-page-routes',
    configureServer(server: {
      middlewares: { use(fn: (req: DevRequest, res: unknown, next: () => void) => void): void };
    }) {
      server.middlewares.use((req, _res, next) => {
        const accept = String(req.headers.accept ?? '');
        const page = devPageFor(req.method ?? 'GET', req.url ?? '/', accept);
        if (page) req.url = page;
        next();
      });
    },
  };
}
