// @vitest-environment node
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { apiProxyTarget, devPageFor } from './dev-server';

const HTML = 'text/html,application/xhtml+xml';

describe('development routing', () => {
  it('sends page addresses to their HTML file, like the production server', () => {
    expect(devPageFor('GET', '/', HTML)).toBe('/index.html');
    expect(devPageFor('GET', '/politicas', HTML)).toBe('/politicas.html');
    expect(devPageFor('GET', '/terminos/', HTML)).toBe('/terminos.html');
    expect(devPageFor('GET', '/login', HTML)).toBe('/app.html');
    expect(devPageFor('GET', '/home', HTML)).toBe('/app.html');
    expect(devPageFor('GET', '/ventas/nueva?cliente=1', HTML)).toBe('/app.html?cliente=1');
  });

  it('leaves the API, modules, assets and non-page requests to Vite', () => {
    expect(devPageFor('GET', '/api/v1/health', HTML)).toBeNull();
    expect(devPageFor('GET', '/src/main.tsx', '*/*')).toBeNull();
    expect(devPageFor('GET', '/@vite/client', '*/*')).toBeNull();
    expect(devPageFor('GET', '/node_modules/.vite/deps/react.js', '*/*')).toBeNull();
    expect(devPageFor('GET', '/favicon.svg', HTML)).toBeNull();
    expect(devPageFor('GET', '/app.html', HTML)).toBeNull();
    expect(devPageFor('POST', '/login', HTML)).toBeNull();
    expect(devPageFor('GET', '/login', 'application/json')).toBeNull();
  });

  it('proxies /api to the API port from the environment', () => {
    expect(apiProxyTarget({})).toBe('http://localhost:3000');
    expect(apiProxyTarget({ PORT: '4100' })).toBe('http://localhost:4100');
    expect(apiProxyTarget({ PORT: '4100', API_URL: 'http://192.168.0.10:3000/' })).toBe('http://192.168.0.10:3000');
  });
});

describe('the Vite development server with the project config', () => {
  let api: Server;
  let web: Server;
  let vite: ViteDevServer;
  let base = '';
  const savedPort = process.env.PORT;

  beforeAll(async () => {
    // A stand-in API on a free port, given to the config through PORT as `npm run dev:api` uses it.
    api = createHttpServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ desde: 'api', url: req.url }));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    process.env.PORT = String((api.address() as AddressInfo).port);
    vite = await createServer({
      configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
      root: fileURLToPath(new URL('..', import.meta.url)),
      server: { middlewareMode: true, hmr: false },
      logLevel: 'silent',
    });
    web = createHttpServer(vite.middlewares);
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    if (savedPort === undefined) delete process.env.PORT;
    else process.env.PORT = savedPort;
    await vite?.close();
    await new Promise((r) => web?.close(r));
    await new Promise((r) => api?.close(r));
  });

  const page = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { accept: HTML } });
    expect(res.status, path).toBe(200);
    return /<title>([^<]*)<\/title>/.exec(await res.text())?.[1];
  };

  it('serves the application at /login and /home, and the landing only at /', async () => {
    expect(await page('/login')).toBe('Mostrador');
    expect(await page('/home')).toBe('Mostrador');
    expect(await page('/')).toMatch(/^Mostrador · Gestión simple/);
    expect(await page('/politicas')).toBe('Política de privacidad · Mostrador');
  });

  it('proxies /api to the API on PORT', async () => {
    const res = await fetch(`${base}/api/v1/health`);
    expect(await res.json()).toEqual({ desde: 'api', url: '/api/v1/health' });
  });
});
