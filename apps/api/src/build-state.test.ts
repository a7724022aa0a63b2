import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface BuildState {
  buildReason(root: string): string | null;
  markBuilt(root: string): void;
  OUTPUTS: string[];
}
const script = new URL('../../../scripts/build-state.mjs', import.meta.url).href;
const { buildReason, markBuilt, OUTPUTS } = (await import(script)) as BuildState;

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
