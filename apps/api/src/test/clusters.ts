import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The PostgreSQL server programs of the machine (Debian's postgresql package, or PG_BINDIR):
 * initdb, pg_ctl and pg_basebackup, which the embedded package does not ship. Null when absent.
 */
export function serverBinaries(): string | null {
  const needed = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];
  const has = (dir: string) => needed.every((b) => existsSync(path.join(dir, b)));
  if (process.env.PG_BINDIR) return has(process.env.PG_BINDIR) ? process.env.PG_BINDIR : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = path.join(root, v, 'bin');
    if (has(dir)) return dir;
  }
  return null;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The uid/gid of the system user postgres (the servers cannot run as root). */
function postgresIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** A directory the servers' user may write (root hands it to postgres). */
export function serverDir(dir: string): void {
  chmodSync(dir, 0o755);
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
}

/** Runs one of the server programs, as postgres when we are root. */
export function runServerProgram(bin: string, program: string, args: string[]): string {
  const file = path.join(bin, program);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}
