// npm run backup: a hot backup of the embedded database into BACKUP_DIR (DATA_DIR/copias by default),
// keeping the newest BACKUP_KEEP (14). npm run restore -- <archivo>: with Mostrador stopped, the
// backup into DATA_DIR (decision 0055).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hotBackup, pruneBackups, restoreBackup } from './backup.js';
import { DATABASE_NAME } from './bootstrap.js';
import { lockDataDir, startEmbedded } from './embedded.js';

const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
const folder = path.resolve(process.env.BACKUP_DIR ?? path.join(dataDir, 'copias'));
const keep = Number(process.env.BACKUP_KEEP ?? 14);
const pgDir = path.join(dataDir, 'postgres');
const say = (m: string) => process.stdout.write(`${m}\n`);

/** The port of the PostgreSQL a running Mostrador started on this DATA_DIR, if any. */
function runningPort(): number | null {
  try {
    const lines = readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
    process.kill(Number(lines[0]), 0);
    return Number(lines[3]);
  } catch {
    return null;
  }
}

async function backup() {
  if (!existsSync(path.join(pgDir, 'PG_VERSION')))
    throw new Error(`No hay datos de Mostrador en ${dataDir} (DATA_DIR).`);
  const port = runningPort();
  let stop = async () => {};
  let url = `postgres://postgres:mostrador@127.0.0.1:${port}/${DATABASE_NAME}`;
  if (!port) {
    // Mostrador is stopped: start its PostgreSQL for the copy (and hold the data meanwhile).
    const unlock = lockDataDir(dataDir);
    const pg = await startEmbedded(pgDir);
    url = pg.url(DATABASE_NAME);
    stop = async () => {
      await pg.stop();
      unlock();
    };
  }
  try {
    const done = await hotBackup({ ownerUrl: url, dataDir, folder });
    say(`Copia lista: ${done.file} (${(done.bytes / 1_048_576).toFixed(1)} MB).`);
    const removed = pruneBackups(folder, keep);
    if (removed.length) say(`Se borraron ${removed.length} copias viejas (quedan las ${keep} más nuevas).`);
  } finally {
    await stop();
  }
}

async function restore(file: string | undefined) {
  if (!file)
    throw new Error('Indicá el archivo de la copia: npm run restore -- copias/mostrador-AAAA-MM-DD-HHMMSS.tar.gz');
  const unlock = lockDataDir(dataDir); // refuses while Mostrador runs on these data
  try {
    const { kept } = await restoreBackup(path.resolve(file), dataDir);
    say(`Copia restaurada en ${dataDir}.`);
    if (kept) say(`Los datos que había quedaron aparte en ${kept} (borralos cuando compruebes la copia).`);
    say('Ya podés ejecutar npm start.');
  } finally {
    unlock();
  }
}

const [cmd, arg] = process.argv.slice(2);
(cmd === 'restore' ? restore(arg) : backup()).catch((e: unknown) => {
  console.error(
    `No se pudo ${cmd === 'restore' ? 'restaurar la copia' : 'hacer la copia'}: ${e instanceof Error ? e.message : String(e)}`,
  );
  process.exit(1);
});
