// What `npm start` runs is the build; this says whether the build is of the current sources.
// A hash of every source file that goes into the build is stored beside it after each build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Files and folders whose content goes into `npm run build` (relative to the repository). */
export const SOURCES = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'packages/shared',
  'apps/api',
  'apps/web',
];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.tsbuild', '.tsbuild-test', 'data']);
const SKIP_FILE = /(\.test\.tsx?|\.tsbuildinfo|\.tmp\.[a-z]+)$/;

/** The outputs `npm start` needs. */
export const OUTPUTS = ['packages/shared/dist/index.js', 'apps/api/dist/main.js', 'apps/web/dist/app.html'];
export const HASH_FILE = 'apps/api/dist/.source-hash';

function walk(root, rel, out) {
  const abs = path.join(root, rel);
  if (!existsSync(abs)) return;
  const entries = readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const child = path.posix.join(rel, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) walk(root, child, out);
    } else if (e.isFile() && !SKIP_FILE.test(e.name)) out.push(child);
  }
}

/** sha256 over the paths and contents of every source file. */
export function sourceHash(root) {
  const files = [];
  for (const s of SOURCES) {
    const abs = path.join(root, s);
    if (!existsSync(abs)) continue;
    if (statSync(abs).isDirectory()) walk(root, s, files);
    else files.push(s);
  }
  const hash = createHash('sha256');
  for (const f of files) {
    hash.update(`${f}\0`);
    hash.update(readFileSync(path.join(root, f)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** null when the build is current; otherwise why it must be built (in Spanish, for the console). */
export function buildReason(root) {
  if (!OUTPUTS.every((f) => existsSync(path.join(root, f)))) return 'Compilando Mostrador por primera vez…';
  const file = path.join(root, HASH_FILE);
  const stored = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (stored !== sourceHash(root)) {
    return 'Las fuentes cambiaron desde la última compilación (por ejemplo, después de un git pull): recompilando Mostrador…';
  }
  return null;
}

/**
 * null when node_modules holds what package-lock.json says; otherwise why `npm ci` must run (in
 * Spanish). npm keeps what it installed in node_modules/.package-lock.json: every package the lock
 * lists must be there in the same version, except optional ones (those of other platforms).
 */
export function dependenciesReason(root) {
  const installedFile = path.join(root, 'node_modules/.package-lock.json');
  if (!existsSync(installedFile)) return 'Faltan las dependencias: instalándolas con npm ci…';
  const locked = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const installed = JSON.parse(readFileSync(installedFile, 'utf8')).packages ?? {};
  const differs = Object.entries(locked).some(([name, p]) =>
    name === '' ? false : installed[name] ? installed[name].version !== p.version : !p.optional,
  );
  return differs
    ? 'Las dependencias instaladas no son las de package-lock.json (por ejemplo, después de un git pull): instalándolas con npm ci…'
    : null;
}

/** Records that the build is of the current sources (after a successful build). */
export function markBuilt(root) {
  writeFileSync(path.join(root, HASH_FILE), `${sourceHash(root)}\n`);
}

// `node scripts/build-state.mjs --mark`: the last step of `npm run build`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  if (process.argv.includes('--mark')) markBuilt(path.resolve(path.dirname(process.argv[1]), '..'));
}
