import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createTestApp, type TestContext } from '../test/app.js';

// The web app's pages and public files (apps/web/public), laid out as the build lays them in dist.
const web = fileURLToPath(new URL('../../../web/', import.meta.url));
let ctx: TestContext;
let app: App;
let dist: string;

beforeAll(async () => {
  ctx = await createTestApp();
  dist = mkdtempSync(path.join(tmpdir(), 'mostrador-web-'));
  for (const f of readdirSync(path.join(web, 'public'))) copyFileSync(path.join(web, 'public', f), path.join(dist, f));
  for (const f of readdirSync(web).filter((f) => f.endsWith('.html')))
    copyFileSync(path.join(web, f), path.join(dist, f));
  // A built script, named by its content's hash as Vite names them, with its compressed copy.
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'pos-Bq3xY9aZ.js'), 'export const x = 1;');
  writeFileSync(path.join(dist, 'assets', 'pos-Bq3xY9aZ.js.br'), Buffer.from([0x0b, 0x02, 0x80, 0x00, 0x03]));
  app = await buildApp({
    database: ctx.database,
    jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
    publicUrl: 'http://localhost:3000',
    webDist: dist,
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** Width and height of a PNG, from its IHDR chunk. */
const pngSize = (b: Buffer) => {
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;
};

describe('the POS as an installable app', () => {
  it('serves the web app manifest as application/manifest+json, with what an install needs', async () => {
    const res = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const m = JSON.parse(res.body);
    expect(m).toMatchObject({
      name: 'Mostrador',
      short_name: expect.any(String),
      start_url: '/pos',
      display: 'standalone',
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    });
    expect(m.short_name.length).toBeLessThanOrEqual(12);
    // The start URL is a route of the app, inside the scope.
    expect(m.start_url.startsWith(m.scope)).toBe(true);
    const start = await app.inject({ method: 'GET', url: m.start_url });
    expect(start.statusCode).toBe(200);
    expect(start.body).toContain('id="root"');
    // Chromium installs with a 192 and a 512 px icon; each one is served as the PNG it declares.
    const sizes: string[] = [];
    for (const icon of m.icons) {
      const png = await app.inject({ method: 'GET', url: icon.src });
      expect(png.statusCode, icon.src).toBe(200);
      expect(png.headers['content-type'], icon.src).toBe(icon.type);
      expect(pngSize(png.rawPayload), icon.src).toBe(icon.sizes);
      sizes.push(icon.sizes);
    }
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(m.icons.some((i: { purpose?: string }) => i.purpose === 'maskable')).toBe(true);
  });

  it('is linked from the app and the landing page', () => {
    for (const page of ['app.html', 'index.html']) {
      const html = readFileSync(path.join(web, page), 'utf8');
      expect(html, page).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
      expect(html, page).toMatch(/<meta name="theme-color" content="#2563eb" \/>/);
    }
  });
});

describe('what the browser may keep', () => {
  it('keeps the built assets for good: their names change with their content', async () => {
    for (const encoding of ['identity', 'br']) {
      const res = await app.inject({
        method: 'GET',
        url: '/assets/pos-Bq3xY9aZ.js',
        headers: { 'accept-encoding': encoding },
      });
      expect(res.statusCode, encoding).toBe(200);
      expect(res.headers['cache-control'], encoding).toBe('public, max-age=31536000, immutable');
    }
  });

  it('asks again for the pages, the service worker and the manifest every time', async () => {
    for (const url of ['/', '/politicas', '/pos', '/login', '/sw.js', '/manifest.webmanifest', '/favicon.svg']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('keeps nothing of an asset that is not there', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/no-existe-12345678.js' });
    expect(res.statusCode).toBe(404);
    expect(String(res.headers['cache-control'] ?? '')).not.toMatch(/immutable/);
  });
});
