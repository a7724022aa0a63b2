import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { readTar, tarBuffer, tarDir, tarEnd, tarFile } from './backup-tar.js';

/*
 * Hot backups of the embedded PostgreSQL with what Mostrador ships (decision 0055): PostgreSQL's
 * low-level base backup (pg_backup_start / pg_backup_stop on one connection), the data directory
 * copied meanwhile, and the WAL from the backup's start to the end of what was flushed when the copy
 * ended, held by a temporary replication slot. A restore is a data directory that PostgreSQL
 * recovers by itself at its first start (backup_label).
 */

export const BACKUP_PREFIX = 'mostrador-';
export const BACKUP_SUFFIX = '.tar.gz';
const BACKUP_NAME = /^mostrador-(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})\.tar\.gz$/;

// What a base backup leaves out (PostgreSQL's documentation, "Making a Base Backup Using the
// Low Level API"): the directories stay, their contents are rebuilt.
const EMPTY_DIRS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
const SKIP_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'backup_label.old']);
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/** The data directory's entries, recursively, with what to leave out left out. */
function* walk(root: string, rel = ''): Generator<{ rel: string; abs: string; st: Stats }> {
  let names: string[];
  try {
    names = readdirSync(path.join(root, rel)).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  for (const name of names) {
    const r = rel ? `${rel}/${name}` : name;
    if (!rel && SKIP_FILES.has(name)) continue;
    if (name === 'pg_internal.init' || name.startsWith('pgsql_tmp')) continue;
    const abs = path.join(root, r);
    let st: Stats;
    try {
      st = statSync(abs);
    } catch {
      continue; // gone meanwhile
    }
    yield { rel: r, abs, st };
    if (st.isDirectory() && !(rel === '' && EMPTY_DIRS.has(name))) yield* walk(root, r);
  }
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
/** mostrador-YYYY-MM-DD-HHMMSS.tar.gz (UTC). */
export const backupName = (d: Date) => {
  const s = stamp(d);
  return `${BACKUP_PREFIX}${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}-${s.slice(9, 15)}${BACKUP_SUFFIX}`;
};

export interface BackupResult {
  file: string;
  bytes: number;
  at: Date;
}

export interface BackupOptions {
  /** The owner's connection to the embedded server (superuser). */
  ownerUrl: string;
  /** DATA_DIR: its postgres/ is copied, and jwt-secret (it also encrypts the ARCA keys). */
  dataDir: string;
  folder: string;
  now?: () => Date;
  /** Called once the data files are being copied (the tests sell meanwhile). */
  onCopying?: () => Promise<void>;
  /** Called right before reading how far the WAL was flushed: what was acknowledged until then is in the copy. */
  onWalEnd?: () => void;
}

/** One consistent hot backup into `folder`, written under a temporary name and renamed when complete. */
export async function hotBackup(opts: BackupOptions): Promise<BackupResult> {
  const pgDir = path.join(opts.dataDir, 'postgres');
  const at = (opts.now ?? (() => new Date()))();
  mkdirSync(opts.folder, { recursive: true });
  const final = path.join(opts.folder, backupName(at));
  const tmp = path.join(opts.folder, `.${path.basename(final)}.${randomBytes(3).toString('hex')}.parcial`);
  const client = new pg.Client({ connectionString: opts.ownerUrl, application_name: 'mostrador-copia' });
  await client.connect();
  try {
    // A temporary slot keeps the WAL from now on until this connection ends.
    await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [
      `mostrador_copia_${randomBytes(4).toString('hex')}`,
    ]);
    const start = await client.query<{ lsn: string; wal: string }>(
      `SELECT lsn::text, pg_walfile_name(lsn) AS wal
         FROM pg_backup_start('mostrador', true) AS lsn`,
    );
    const startWal = start.rows[0].wal;
    const timeline = startWal.slice(0, 8);
    let stopped: { labelfile: string; spcmapfile: string | null } | null = null;
    let walEnd = '';
    async function* entries(): AsyncGenerator<Buffer> {
      yield tarDir('postgres');
      let first = true;
      for (const e of walk(pgDir)) {
        if (first && opts.onCopying) {
          first = false;
          await opts.onCopying();
        }
        const name = `postgres/${e.rel}`;
        if (e.st.isDirectory()) yield tarDir(name, e.st.mode);
        else if (e.st.isFile()) yield* tarFile(name, e.abs, e.st.size, e.st.mode, e.st.mtime);
      }
      const stop = await client.query<{ labelfile: string; spcmapfile: string | null }>(
        'SELECT labelfile, spcmapfile FROM pg_backup_stop(false)',
      );
      stopped = stop.rows[0];
      // Everything acknowledged until now is flushed up to here: the copy includes it.
      opts.onWalEnd?.();
      const end = await client.query<{ wal: string }>('SELECT pg_walfile_name(pg_current_wal_flush_lsn() - 1) AS wal'); // The segment holding the last flushed byte (a flush at a segment boundary ends the previous one).
      walEnd = end.rows[0].wal;
      const wal = readdirSync(path.join(pgDir, 'pg_wal'))
        .filter((n) => WAL_SEGMENT.test(n) && n.startsWith(timeline) && n >= startWal && n <= walEnd)
        .sort();
      if (!wal.includes(startWal) || !wal.includes(walEnd)) {
        throw new Error(`Faltan segmentos de WAL para la copia (${startWal} a ${walEnd}): volvé a intentar.`);
      }
      yield tarDir('postgres/pg_wal/archive_status');
      for (const n of readdirSync(path.join(pgDir, 'pg_wal')).filter((n) => n.endsWith('.history')))
        yield* tarBuffer(`postgres/pg_wal/${n}`, readFileSync(path.join(pgDir, 'pg_wal', n)));
      for (const n of wal) {
        const abs = path.join(pgDir, 'pg_wal', n);
        const st = statSync(abs);
        yield* tarFile(`postgres/pg_wal/${n}`, abs, st.size, 0o600, st.mtime);
      }
      yield* tarBuffer('postgres/backup_label', Buffer.from(stopped.labelfile));
      if (stopped.spcmapfile) yield* tarBuffer('postgres/tablespace_map', Buffer.from(stopped.spcmapfile));
      const secret = path.join(opts.dataDir, 'jwt-secret');
      if (existsSync(secret)) yield* tarBuffer('jwt-secret', readFileSync(secret));
      yield* tarBuffer(
        'mostrador-copia.json',
        Buffer.from(JSON.stringify({ fecha: at.toISOString(), desde: start.rows[0].lsn, wal: [startWal, walEnd] })),
      );
      yield tarEnd();
    }
    try {
      await pipeline(Readable.from(entries()), createGzip({ level: 6 }), createWriteStream(tmp, { mode: 0o600 }));
    } catch (e) {
      rmSync(tmp, { force: true });
      if (!stopped) await client.query('SELECT pg_backup_stop(false)').catch(() => {});
      throw e;
    }
    renameSync(tmp, final);
    return { file: final, bytes: statSync(final).size, at };
  } finally {
    await client.end().catch(() => {});
  }
}

/** The backups in `folder`, newest first. */
export function listBackups(folder: string): { file: string; at: Date }[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .map((n) => {
      const m = BACKUP_NAME.exec(n);
      return m
        ? { file: path.join(folder, n), at: new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) }
        : null;
    })
    .filter((b): b is { file: string; at: Date } => b !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** Keeps the newest `keep` backups of `folder`; removes the older ones and returns them. */
export function pruneBackups(folder: string, keep: number): string[] {
  const old = listBackups(folder).slice(Math.max(1, keep));
  for (const b of old) unlinkSync(b.file);
  return old.map((b) => b.file);
}

/** The system user PostgreSQL runs as when Mostrador runs as root (embedded.ts). */
function postgresOwner(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function chownTree(dir: string, owner: { uid: number; gid: number }) {
  chownSync(dir, owner.uid, owner.gid);
  for (const n of readdirSync(dir, { recursive: true }) as string[]) chownSync(path.join(dir, n), owner.uid, owner.gid);
}

/**
 * Restores a backup into DATA_DIR with Mostrador stopped: the current postgres/ (and jwt-secret) are
 * kept aside as postgres.antes-<fecha>, the backup is unpacked into a new directory and put in
 * their place. PostgreSQL recovers it at the first start.
 */
export async function restoreBackup(file: string, dataDir: string, now = new Date()): Promise<{ kept: string | null }> {
  if (!existsSync(file)) throw new Error(`No existe el archivo ${file}.`);
  mkdirSync(dataDir, { recursive: true });
  const work = path.join(dataDir, `.restaurando-${randomBytes(3).toString('hex')}`);
  mkdirSync(work, { mode: 0o700 });
  try {
    await readTar(createReadStream(file).pipe(createGunzip()), (e) => {
      const target = path.resolve(work, e.name);
      if (!target.startsWith(work + path.sep)) throw new Error(`Entrada no válida en la copia: ${e.name}`);
      if (e.type === 'dir') mkdirSync(target, { recursive: true, mode: 0o700 });
      else {
        mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
        writeFileSync(target, e.data, { mode: e.mode & 0o777 });
      }
    });
    if (
      !existsSync(path.join(work, 'postgres', 'PG_VERSION')) ||
      !existsSync(path.join(work, 'postgres', 'backup_label'))
    )
      throw new Error('El archivo no es una copia de Mostrador.');
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
  const pgDir = path.join(dataDir, 'postgres');
  chmodSync(path.join(work, 'postgres'), 0o700);
  const owner = postgresOwner();
  if (owner) chownTree(path.join(work, 'postgres'), owner);
  let kept: string | null = null;
  if (existsSync(pgDir)) {
    kept = path.join(dataDir, `postgres.antes-${stamp(now)}`);
    renameSync(pgDir, kept);
  }
  renameSync(path.join(work, 'postgres'), pgDir);
  const secret = path.join(dataDir, 'jwt-secret');
  if (existsSync(path.join(work, 'jwt-secret'))) {
    if (existsSync(secret)) renameSync(secret, `${secret}.antes-${stamp(now)}`);
    renameSync(path.join(work, 'jwt-secret'), secret);
  }
  rmSync(work, { recursive: true, force: true });
  return { kept };
}
