import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run actualizar` (scripts/actualizar.mjs) on a shop's copy: a git clone of a small project
 * with the real script, whose npm scripts `backup`, `build`, `migrar` and `restore` write what
 * they were asked into a log and fail when the version has a file `falla-<step>` (a broken
 * release). git and npm are the real ones.
 */
const script = fileURLToPath(new URL('../../../../scripts/actualizar.mjs', import.meta.url));
let dir: string;
let upstream: string;
let shop: string;
let log: string;

/** A step of the fake project: logs itself (and who ran it), fails on `falla-<step>`. */
const FAKE = (fallback: string) => `import { appendFileSync, existsSync } from 'node:fs';
const [step = '${fallback}', ...rest] = process.argv.slice(2);
appendFileSync(process.env.ACTUALIZAR_LOG, [step, ...rest].join(' ') + '\\n');
appendFileSync(process.env.ACTUALIZAR_LOG + '.uid', step + ':' + process.getuid() + '\\n');
if (existsSync('falla-' + step)) { console.error('falló ' + step); process.exit(1); }
if (step === 'backup') console.log('Copia lista: /copias/mostrador-2026-11-27-101500.tar.gz (1.5 MB).');
`;
const PACKAGE = {
  name: 'tienda',
  version: '1.0.0',
  private: true,
  type: 'module',
  scripts: {
    build: 'node fake.mjs build',
    // npm ci runs the project's own postinstall: the log shows each install.
    postinstall: 'node fake.mjs ci',
  },
};
const LOCK = { name: 'tienda', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': PACKAGE } };

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};
/** A new version on the remote: files written (null removes one), committed. */
function release(files: Record<string, string | null>, message: string) {
  for (const [name, text] of Object.entries(files)) {
    if (text === null) rmSync(path.join(upstream, name), { force: true });
    else writeFileSync(path.join(upstream, name), text);
  }
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-qm', message);
  return git(upstream, 'rev-parse', 'HEAD');
}
/** The shop's environment: its embedded database under data/ (never the suite's DATABASE_URL). */
function shopEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ACTUALIZAR_LOG: log, DATA_DIR: 'data' };
  Object.assign(env, { npm_config_audit: 'false', npm_config_fund: 'false' });
  delete env.DATABASE_URL;
  return env;
}
function actualizar() {
  writeFileSync(log, '');
  writeFileSync(`${log}.uid`, '');
  const r = spawnSync(process.execPath, [path.join(shop, 'scripts/actualizar.mjs')], {
    cwd: shop,
    encoding: 'utf8',
    env: shopEnv(),
  });
  return {
    code: r.status,
    out: r.stdout + r.stderr,
    steps: readFileSync(log, 'utf8').trim().split('\n').filter(Boolean),
    uids: readFileSync(`${log}.uid`, 'utf8').trim().split('\n').filter(Boolean),
  };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mostrador-actualizar-'));
  upstream = path.join(dir, 'upstream');
  shop = path.join(dir, 'tienda');
  log = path.join(dir, 'pasos.log');
  mkdirSync(path.join(upstream, 'scripts'), { recursive: true });
  mkdirSync(path.join(upstream, 'apps/api/dist/db'), { recursive: true });
  git(upstream, 'init', '-q', '-b', 'main');
  git(upstream, 'config', 'user.email', 'equipo@mostrador.test');
  git(upstream, 'config', 'user.name', 'Equipo');
  copyFileSync(script, path.join(upstream, 'scripts/actualizar.mjs'));
  release(
    {
      'package.json': JSON.stringify(PACKAGE, null, 2),
      'package-lock.json': JSON.stringify(LOCK, null, 2),
      'fake.mjs': FAKE('build'),
      // The built command lines the script runs on the data (apps/api/dist/db in Mostrador).
      'apps/api/dist/db/backup-cli.js': FAKE('backup'),
      'apps/api/dist/db/migrar-cli.js': FAKE('migrar'),
      '.gitignore': 'data/\nnode_modules/\n',
      'version.txt': '1\n',
    },
    'v1',
  );
  git(dir, 'clone', '-q', upstream, shop);
  git(shop, 'config', 'user.email', 'local@mostrador.test');
  git(shop, 'config', 'user.name', 'Local');
  // The shop's embedded database (only its marker matters here).
  mkdirSync(path.join(shop, 'data/postgres'), { recursive: true });
  writeFileSync(path.join(shop, 'data/postgres/PG_VERSION'), '18\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run actualizar', { timeout: 120_000 }, () => {
  it('says so and touches nothing when there is nothing new', () => {
    const r = actualizar();
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Ya tenés la última versión \([0-9a-f]{7}\)/);
    expect(r.steps).toEqual([]);
  });

  it('makes a backup, then takes the new version, installs, builds and migrates', () => {
    const v2 = release({ 'version.txt': '2\n' }, 'v2');
    const r = actualizar();
    expect(r.out).toContain('Mostrador actualizado de');
    expect(r.code).toBe(0);
    expect(r.steps).toEqual(['backup', 'ci', 'build', 'migrar']);
    expect(git(shop, 'rev-parse', 'HEAD')).toBe(v2);
    expect(readFileSync(path.join(shop, 'version.txt'), 'utf8')).toBe('2\n');
  });

  it('a version that does not build: back to the previous one, the database untouched', () => {
    const v2 = git(shop, 'rev-parse', 'HEAD');
    release({ 'version.txt': '3\n', 'falla-build': 'x' }, 'v3 rota');
    const r = actualizar();
    expect(r.code).toBe(1);
    expect(r.out).toContain('La actualización falló al compilar');
    expect(r.out).toContain(`Mostrador quedó como estaba (versión ${v2.slice(0, 7)})`);
    // The failed build, then the previous version built again; no migration, no restore.
    expect(r.steps).toEqual(['backup', 'ci', 'build', 'ci', 'build']);
    expect(git(shop, 'rev-parse', 'HEAD')).toBe(v2);
    expect(readFileSync(path.join(shop, 'version.txt'), 'utf8')).toBe('2\n');
  });

  it('a migration that fails: back to the previous version and the backup restored', () => {
    const v2 = git(shop, 'rev-parse', 'HEAD');
    release({ 'version.txt': '4\n', 'falla-build': null, 'falla-migrar': 'x' }, 'v4 con migración rota');
    const r = actualizar();
    expect(r.code).toBe(1);
    expect(r.out).toContain('La actualización falló al poner al día la base de datos');
    expect(r.out).toContain('datos de la copia');
    expect(r.steps).toEqual([
      'backup',
      'ci',
      'build',
      'migrar',
      'ci',
      'build',
      'restore /copias/mostrador-2026-11-27-101500.tar.gz',
    ]);
    expect(git(shop, 'rev-parse', 'HEAD')).toBe(v2);
  });

  it('a backup that fails: nothing is updated', () => {
    const v2 = git(shop, 'rev-parse', 'HEAD');
    writeFileSync(path.join(shop, 'falla-backup'), 'x'); // untracked: the check of local changes ignores it
    const r = actualizar();
    rmSync(path.join(shop, 'falla-backup'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('No se pudo hacer la copia de seguridad: no se actualizó nada.');
    expect(r.steps).toEqual(['backup']);
    expect(git(shop, 'rev-parse', 'HEAD')).toBe(v2);
  });

  it('refuses while Mostrador runs on the data, and with local changes to its files', () => {
    writeFileSync(path.join(shop, 'data/mostrador.pid'), `${process.pid}\n`);
    let r = actualizar();
    rmSync(path.join(shop, 'data/mostrador.pid'));
    expect(r.code).toBe(1);
    expect(r.out).toContain(`Mostrador está funcionando con los datos de ${path.join(shop, 'data')}`);
    expect(r.steps).toEqual([]);

    writeFileSync(path.join(shop, 'version.txt'), 'tocado a mano\n');
    r = actualizar();
    git(shop, 'checkout', '--', 'version.txt');
    expect(r.code).toBe(1);
    expect(r.out).toContain('Hay cambios en los archivos de Mostrador');
    expect(r.steps).toEqual([]);
  });

  it('with the broken releases fixed upstream, the next run gets the newest', () => {
    const v5 = release({ 'version.txt': '5\n', 'falla-migrar': null }, 'v5');
    const r = actualizar();
    expect(r.code).toBe(0);
    expect(r.steps).toEqual(['backup', 'ci', 'build', 'migrar']);
    expect(git(shop, 'rev-parse', 'HEAD')).toBe(v5);
  });

  it('runs the steps on the data as the owner of the data (a service updated by root)', () => {
    // As root (a service's install: the data belong to its own user), the backup and the migration
    // run as that user; as anyone else, as that same person.
    const me = process.getuid!();
    const owner = me === 0 ? 65534 : me; // nobody
    if (me === 0) {
      for (const d of [dir, shop]) chmodSync(d, 0o755);
      spawnSync('chown', ['-R', `${owner}:${owner}`, path.join(shop, 'data')]);
      for (const f of [log, `${log}.uid`]) {
        writeFileSync(f, '');
        chmodSync(f, 0o666);
        chownSync(f, owner, owner);
      }
    }
    release({ 'version.txt': '6\n' }, 'v6');
    const r = actualizar();
    expect(r.out).toContain('Mostrador actualizado de');
    expect(r.code).toBe(0);
    expect(r.uids).toEqual([`backup:${owner}`, `ci:${me}`, `build:${me}`, `migrar:${owner}`]);
  });
});
