// npm run actualizar: updates this copy of Mostrador to the newest version of its branch, with a
// backup first, and leaves it as it was if any step fails (decision 0055).
//
//   1. refuses while Mostrador runs on DATA_DIR or when the files have local changes;
//   2. fetches; says so and stops if there is nothing new;
//   3. a backup of the embedded database (as npm run backup);
//   4. the new version (git merge --ff-only), npm ci, npm run build, the migrations (npm run migrar);
//   5. if 4 fails: back to the previous version (git reset --hard, npm ci, npm run build) and, if
//      the database had been touched (the migration), the backup restored into DATA_DIR.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = path.resolve(root, process.env.DATA_DIR ?? 'data');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const say = (m) => process.stdout.write(`${m}\n`);

/** Runs a command with its output on screen; true when it ended well. */
const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env }).status === 0;
/** Runs a command and returns its output (stdout), or null when it failed. */
function read(cmd, args, { echo = false, env = process.env } = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env });
  if (echo && r.stdout) process.stdout.write(r.stdout);
  return r.status === 0 ? r.stdout.trim() : null;
}
function fail(message) {
  console.error(message);
  process.exit(1);
}

function running() {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'mostrador.pid'), 'utf8').trim().split(' ')[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

const pid = running();
if (pid)
  fail(
    `Mostrador está funcionando con los datos de ${dataDir} (proceso ${pid}). Detenelo antes de actualizar ` +
      '(Ctrl-C en su ventana, o sudo systemctl stop mostrador si lo instalaste como servicio).',
  );
if (read('git', ['status', '--porcelain', '--untracked-files=no']) !== '')
  fail(
    'Hay cambios en los archivos de Mostrador (git status los muestra): guardalos o descartalos antes de actualizar.',
  );
if (read('git', ['fetch', '--quiet']) === null)
  fail('No se pudo traer la versión nueva: revisá la conexión a internet y volvé a intentar.');
const before = read('git', ['rev-parse', 'HEAD']);
const newest = read('git', ['rev-parse', '@{u}']);
if (!before || !newest) fail('Esta copia de Mostrador no sigue una rama remota (git); no se puede actualizar así.');
const short = (c) => c.slice(0, 7);
if (before === newest) {
  say(`Ya tenés la última versión (${short(before)}).`);
  process.exit(0);
}
if (read('git', ['merge-base', '--is-ancestor', 'HEAD', '@{u}']) === null)
  fail('Esta copia tiene cambios propios que no están en la versión nueva: no se actualiza sola.');

/**
 * A step on the data (backup, migration, restore): the built command line of this version
 * (apps/api/dist/db), run as the owner of DATA_DIR. Run by root on a service's install (npm run
 * servicio:instalar), the data belong to the user `mostrador`, and PostgreSQL refuses to run as
 * root. Everything else runs as whoever called.
 */
function onData(cli, args, opts = {}) {
  const line = [path.join(root, 'apps/api/dist/db', cli), ...args];
  const owner = existsSync(dataDir) ? statSync(dataDir).uid : null;
  let [cmd, all] = [process.execPath, line];
  if (process.getuid?.() === 0 && owner !== null && owner !== 0) {
    const name = read('id', ['-nu', String(owner)]);
    if (!name) fail(`No se encontró el usuario dueño de ${dataDir} (uid ${owner}).`);
    [cmd, all] = ['runuser', ['-u', name, '--', process.execPath, ...line]];
  }
  const env = { ...process.env, DATA_DIR: dataDir };
  return opts.read ? read(cmd, all, { echo: true, env }) : run(cmd, all, env);
}

let backup = null;
const embedded = !process.env.DATABASE_URL && existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'));
if (embedded) {
  say('Haciendo una copia de seguridad antes de actualizar…');
  const out = onData('backup-cli.js', ['backup'], { read: true });
  backup = out && /Copia lista: (.+?) \(/.exec(out)?.[1];
  if (!backup) fail('No se pudo hacer la copia de seguridad: no se actualizó nada.');
}

say(`Actualizando de ${short(before)} a ${short(newest)}…`);
const steps = [
  ['traer la versión nueva', 'git', ['merge', '--ff-only', '--quiet', '@{u}']],
  ['instalar las dependencias', npm, ['ci']],
  ['compilar', npm, ['run', 'build']],
  ['poner al día la base de datos', null, 'migrar-cli.js', 'database'],
];
for (const [what, cmd, args, touches] of steps) {
  if (cmd ? run(cmd, args) : onData(args, [])) continue;
  console.error(`La actualización falló al ${what}. Volviendo a la versión ${short(before)}…`);
  const back = run('git', ['reset', '--hard', '--quiet', before]) && run(npm, ['ci']) && run(npm, ['run', 'build']);
  const restored = touches !== 'database' || !backup || onData('backup-cli.js', ['restore', backup]);
  if (back && restored)
    fail(`Mostrador quedó como estaba (versión ${short(before)}${touches && backup ? ', datos de la copia' : ''}).`);
  fail(
    `No se pudo volver del todo a la versión ${short(before)}. ` +
      (backup ? `Tus datos están en la copia ${backup} (npm run restore -- ${backup}). ` : '') +
      'Pedí ayuda antes de iniciar Mostrador.',
  );
}
say(`Mostrador actualizado de ${short(before)} a ${short(newest)}. Ya podés iniciarlo (npm start).`);
