import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface BuildState {
  buildReason(root: string): string | null;
  markBuilt(root: string): void;
  dependenciesReason(root: string): string | null;
  OUTPUTS: string[];
}
const script = new URL('../../../scripts/build-state.mjs', import.meta.url).href;
const { buildReason, markBuilt, dependenciesReason, OUTPUTS } = (await import(script)) as BuildState;

// A small copy of the repository's layout: sources and the outputs of a build.
const root = mkdtempSync(path.join(tmpdir(), 'mostrador-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};
cpSync(new URL('../../../package.json', import.meta.url), path.join(root, 'package.json'));
write('apps/api/src/main.ts', 'export const version = 1;\n');
write('apps/web/src/main.tsx', 'export {};\n');
write('packages/shared/src/index.ts', 'export {};\n');

describe('npm start rebuilds when the sources changed', () => {
  it('builds the first time', () => {
    expect(buildReason(root)).toBe('Compilando Mostrador por primera vez…');
  });

  it('runs the build it has when it is of the current sources', () => {
    for (const f of OUTPUTS) write(f, 'compilado');
    // A build made before the hash existed (or by hand) is rebuilt once.
    expect(buildReason(root)).toMatch(/^Las fuentes cambiaron/);
    markBuilt(root);
    expect(buildReason(root)).toBeNull();
    // Tests, data and the outputs themselves are not sources.
    write('apps/api/src/main.test.ts', 'cambio');
    write('apps/api/dist/otra.js', 'cambio');
    write('data/postgres/PG_VERSION', '18');
    expect(buildReason(root)).toBeNull();
  });

  it('rebuilds after a source changes (a git pull), and says so', () => {
    write('apps/api/src/main.ts', 'export const version = 2;\n');
    expect(buildReason(root)).toBe(
      'Las fuentes cambiaron desde la última compilación (por ejemplo, después de un git pull): recompilando Mostrador…',
    );
    markBuilt(root);
    expect(buildReason(root)).toBeNull();
    write('apps/web/src/nuevo.tsx', 'export {};\n');
    expect(buildReason(root)).not.toBeNull();
    markBuilt(root);
    rmSync(path.join(root, 'apps/web/src/nuevo.tsx'));
    expect(buildReason(root)).not.toBeNull();
    markBuilt(root);
    write('apps/api/src/db/migrations/0099_nueva.sql', 'SELECT 1;');
    expect(buildReason(root)).not.toBeNull();
  });
});

describe("npm start installs the dependencies when they are not package-lock.json's", () => {
  const lock = (packages: Record<string, object | undefined>) => JSON.stringify({ lockfileVersion: 3, packages });
  const locked = {
    '': { name: 'mostrador' },
    'node_modules/vite': { version: '7.1.0', dev: true },
    'node_modules/@esbuild/darwin-arm64': { version: '0.25.0', optional: true },
    'node_modules/@mostrador/api': { resolved: 'apps/api', link: true },
  };
  const installedOk = { ...locked, '': undefined, 'node_modules/@esbuild/darwin-arm64': undefined };
  const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-deps-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  const pulled =
    'Las dependencias instaladas no son las de package-lock.json (por ejemplo, después de un git pull): instalándolas con npm ci…';

  it('none installed: npm ci', () => {
    put('package-lock.json', lock(locked));
    expect(dependenciesReason(dir)).toBe('Faltan las dependencias: instalándolas con npm ci…');
  });

  it("the ones of the lock (other platforms' optional ones left out): nothing to do", () => {
    put('node_modules/.package-lock.json', lock(installedOk));
    expect(dependenciesReason(dir)).toBeNull();
  });

  it('a git pull changed a version or added a package: npm ci, and it says so', () => {
    put('package-lock.json', lock({ ...locked, 'node_modules/vite': { version: '7.2.0', dev: true } }));
    expect(dependenciesReason(dir)).toBe(pulled);
    put('package-lock.json', lock({ ...locked, 'node_modules/exceljs': { version: '4.4.0' } }));
    expect(dependenciesReason(dir)).toBe(pulled);
    put('package-lock.json', lock(locked));
    expect(dependenciesReason(dir)).toBeNull();
  });
});

describe('npm start after a git pull that changed package-lock.json', () => {
  // A copy of the start scripts, with an `npm` of its own first in PATH that notes its calls:
  // `npm ci` installs what the lock says, `npm run build` writes the outputs and marks them.
  const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const f of ['start.mjs', 'build-state.mjs']) {
    cpSync(new URL(`../../../scripts/${f}`, import.meta.url), path.join(dir, 'scripts', f));
  }
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  put('package.json', '{ "name": "mostrador", "private": true }\n');
  put('package-lock.json', JSON.stringify({ packages: { 'node_modules/vite': { version: '7.1.0' } } }));
  put('apps/api/src/main.ts', 'export {};\n');
  put(
    'bin/npm',
    [
      '#!/bin/sh',
      'echo "npm $*" >> calls.txt',
      'if [ "$1" = ci ]; then',
      '  [ -n "$NPM_FALLA" ] && exit 1',
      '  mkdir -p node_modules && cp package-lock.json node_modules/.package-lock.json',
      'else',
      '  mkdir -p packages/shared/dist apps/api/dist apps/web/dist',
      '  touch packages/shared/dist/index.js apps/web/dist/app.html',
      '  echo "console.log(\'servidor en marcha\')" > apps/api/dist/main.js',
      '  node scripts/build-state.mjs --mark',
      'fi',
    ].join('\n'),
  );
  chmodSync(path.join(dir, 'bin/npm'), 0o755);
  const start = (env: Record<string, string> = {}) => {
    rmSync(path.join(dir, 'calls.txt'), { force: true });
    const r = spawnSync(process.execPath, ['scripts/start.mjs'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ...env, PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env.PATH}` },
    });
    const calls = existsSync(path.join(dir, 'calls.txt')) ? readFileSync(path.join(dir, 'calls.txt'), 'utf8') : '';
    return { status: r.status, out: r.stdout, err: r.stderr, calls: calls.trim().split('\n').filter(Boolean) };
  };

  it('installs with npm ci, says so, rebuilds, and starts; the next start does neither', () => {
    put('node_modules/.package-lock.json', JSON.stringify({ packages: { 'node_modules/vite': { version: '7.0.0' } } }));
    const first = start();
    expect(first.status).toBe(0);
    expect(first.calls).toEqual(['npm ci', 'npm run build']);
    expect(first.out.split('\n').filter(Boolean)).toEqual([
      'Las dependencias instaladas no son las de package-lock.json (por ejemplo, después de un git pull): instalándolas con npm ci…',
      'Compilando Mostrador por primera vez…',
      'servidor en marcha',
    ]);
    const again = start();
    expect([again.status, again.calls, again.out]).toEqual([0, [], 'servidor en marcha\n']);
  });

  it('npm ci fails (no internet): one Spanish line, no build, no server', () => {
    put('package-lock.json', JSON.stringify({ packages: { 'node_modules/vite': { version: '7.2.0' } } }));
    const r = start({ NPM_FALLA: '1' });
    expect(r.status).toBe(1);
    expect(r.calls).toEqual(['npm ci']);
    expect(r.out).not.toContain('servidor en marcha');
    expect(r.err.trim()).toBe(
      'No se pudieron instalar las dependencias: revisá el error de npm de arriba (¿hay conexión a internet?) y corré npm ci.',
    );
  });
});
